"""A rush of connections: how soon each caller gets its first byte and its
first screen while N connections arrive at once from many addresses.

Gatehouse (``python -m server.cli serve``) runs as a subprocess. N raw TCP
clients connect at the same moment from ADDRESSES loopback addresses
(127.0.0.2, 127.0.0.3, ...), answer no telnet negotiation (as a flood
does, which makes the server wait out its negotiation time and the
charset probe for every one of them), and wait for the first byte and for
the title screen's clear-screen. The floor for such a silent client is
``connect_maxwait`` plus the probe's wait (about 3.5 s); what the rush adds
shows above it.

Prints ``name: value unit`` lines.

    python bench/connection_flood.py [--connections 500] [--addresses 100] [--quick]
"""
from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from session_load import Child, raise_nofile  # noqa: E402

TIMEOUT = 30.0


async def one_caller(port: int, source: str, results: list[tuple[float | None, float | None]]) -> None:
    start = time.monotonic()
    first = screen = None
    try:
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0)), TIMEOUT)
    except (OSError, TimeoutError):
        results.append((None, None))
        return
    received = b""
    try:
        while screen is None and time.monotonic() - start < TIMEOUT:
            data = await asyncio.wait_for(reader.read(4096), TIMEOUT)
            if not data:
                break
            if first is None:
                first = time.monotonic() - start
            received += data
            if b"\x1b[2J" in received:
                screen = time.monotonic() - start
    except (OSError, TimeoutError):
        pass
    finally:
        writer.close()
    results.append((first, screen))


def quantile(values: list[float], q: float) -> float:
    return values[min(len(values) - 1, int(q * len(values)))]


async def main_async(args: argparse.Namespace) -> None:
    raise_nofile()
    with tempfile.TemporaryDirectory(prefix="gatehouse-flood-") as tmp:
        config = Path(tmp) / "gatehouse.toml"
        per_address = -(-args.connections // args.addresses)
        config.write_text(f'[server]\nport = 0\nmax_per_ip = {max(8, per_address)}\n'
                          f'[store]\ndatabase = "{tmp}/flood.db"\n[sysop]\nsocket = "{tmp}/sysop.sock"\n'
                          f'[awari]\nbuild_endgame = false\n')
        server = await Child.start(sys.executable, "-m", "server.cli", "serve", "--config", str(config))
        try:
            port = int((await server.wait_for(r"telnet://[\d.]+:(\d+)", 30)).group(1))
            results: list[tuple[float | None, float | None]] = []
            await asyncio.gather(*(one_caller(port, f"127.0.0.{2 + i % args.addresses}", results)
                                   for i in range(args.connections)))
        finally:
            server.proc.terminate()
            await server.proc.wait()
    firsts = sorted(f for f, _ in results if f is not None)
    screens = sorted(s for _, s in results if s is not None)
    print(f"connections: {args.connections} callers")
    print(f"addresses: {args.addresses} addresses")
    print(f"no_first_byte: {args.connections - len(firsts)} callers")
    print(f"no_first_screen: {args.connections - len(screens)} callers")
    for name, values in (("first_byte", firsts), ("first_screen", screens)):
        if values:
            print(f"{name}_p50: {quantile(values, 0.5) * 1000:.0f} ms")
            print(f"{name}_p95: {quantile(values, 0.95) * 1000:.0f} ms")
            print(f"{name}_max: {values[-1] * 1000:.0f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--connections", type=int, default=500)
    parser.add_argument("--addresses", type=int, default=100)
    parser.add_argument("--quick", action="store_true", help="100 connections from 20 addresses")
    args = parser.parse_args()
    if args.quick:
        args.connections, args.addresses = 100, 20
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
