"""The resize attack: what a window size costs the other callers.

Gatehouse (``python -m server.cli serve``) runs as a subprocess. A probe
caller logs in over telnet (telnetlib3 + pyte, 80x24) and times CTRL-L
redraws in the lobby: its screen is cleared, CTRL-L sent, and the time
taken until the screen shows the lobby again (the bytes' arrival, as in
``bench/session_load.py``).

1. quiet: nobody else is on.
2. attack: ``--sockets`` (8) raw TCP connections from the same address,
   none logged in, each say WILL NAWS and then send one NAWS a second,
   79x65535 and 79x65534 in turns (9 bytes a second each: no flood rule
   sees it), for ``--seconds`` (30), while the probe redraws.

Prints ``name: value unit`` lines: redraw p50/p95/max in each phase, the
server's CPU over the attack (percent of one core) and its RSS before and
after, and the machine's load.

    python bench/resize_attack.py [--seconds 30] [--sockets 8] [--tree DIR]

``--tree DIR`` runs the server from another checkout (to measure before a
change): ``DIR`` must hold ``server/``; this script's Python runs it.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import session_load  # noqa: E402
from session_load import HOST, Child, Probe, cpu_seconds, pct, raise_nofile, rss_kib  # noqa: E402

IAC, SB, SE, WILL, NAWS = 255, 250, 240, 251, 31
PASSWORD = b"secret1"


def write_config(tmp: Path) -> Path:
    path = tmp / "gatehouse.toml"
    path.write_text(f"""\
[server]
host = "{HOST}"
port = 0
max_per_ip = 20
connect_maxwait = 0.5

[store]
database = "{tmp / 'resize.db'}"

[sysop]
socket = "{tmp / 'sysop.sock'}"

[awari]
build_endgame = false
""", encoding="utf-8")
    return path


def naws(cols: int, rows: int) -> bytes:
    body = (cols.to_bytes(2, "big") + rows.to_bytes(2, "big")).replace(b"\xff", b"\xff\xff")
    return bytes((IAC, SB, NAWS)) + body + bytes((IAC, SE))


async def attacker(port: int, stop: asyncio.Event, sent: list[int]) -> None:
    """One unauthenticated connection resizing once a second until ``stop``
    (reconnecting if the server ends it)."""
    while not stop.is_set():
        try:
            reader, writer = await asyncio.wait_for(asyncio.open_connection(HOST, port), 10)
        except (OSError, TimeoutError):
            await asyncio.sleep(0.5)
            continue

        async def discard(reader: asyncio.StreamReader = reader) -> None:
            try:
                while await reader.read(65536):
                    pass
            except (OSError, ConnectionError):
                pass

        drain = asyncio.create_task(discard())
        try:
            writer.write(bytes((IAC, WILL, NAWS)))
            rows = 65535
            while not stop.is_set() and not writer.is_closing() and not drain.done():
                writer.write(naws(79, rows))
                sent[0] += 1
                rows = 65534 if rows == 65535 else 65535
                await asyncio.wait_for(writer.drain(), 10)
                try:
                    await asyncio.wait_for(stop.wait(), 1.0)
                except TimeoutError:
                    pass
        except (OSError, ConnectionError, TimeoutError):
            pass
        finally:
            writer.close()
            drain.cancel()


async def login(port: int, handle: str) -> Probe:
    probe = await Probe.connect(port)
    await probe.expect("Handle")
    probe.send(handle.encode() + b"\r")
    await probe.expect("Register?")
    probe.send(b"y")
    await probe.expect("Choose a password")
    probe.send(PASSWORD + b"\r")
    await probe.expect("once more")
    probe.send(PASSWORD + b"\r")
    await probe.expect("Who's online")
    await probe.quiet(0.5)
    return probe


async def redraws(probe: Probe, until: float, most: int) -> list[float]:
    """CTRL-L redraws until the monotonic time ``until`` (or ``most`` of them)."""
    out: list[float] = []
    while time.monotonic() < until and len(out) < most:
        await asyncio.sleep(random.uniform(0.05, 0.15))
        want = [probe.line(y) for y in range(24)]
        probe.screen.reset()

        def back(want: list[str] = want) -> bool:
            return sum(probe.line(y) == w for y, w in enumerate(want)) >= 22   # (a clock may tick)

        _first, done = await probe.timed(b"\x0c", back, timeout=60)
        out.append(done)
    return out


def report(name: str, values: list[float]) -> None:
    print(f"{name}_samples: {len(values)} redraws")
    print(f"{name}_p50: {1000 * pct(values, 0.5):.1f} ms")
    print(f"{name}_p95: {1000 * pct(values, 0.95):.1f} ms")
    print(f"{name}_max: {1000 * max(values):.1f} ms")


async def main_async(args: argparse.Namespace) -> None:
    raise_nofile()
    session_load.ROOT = Path(args.tree).resolve()         # (where Child.start runs the server)
    print(f"load_average_start: {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory(prefix="gatehouse-resize-") as tmp:
        server = await Child.start(sys.executable, "-m", "server.cli", "serve",
                                   "--config", str(write_config(Path(tmp))))
        try:
            port = int((await server.wait_for(r"telnet://[\d.]+:(\d+)", 30)).group(1))
            pid = server.proc.pid
            probe = await login(port, "Probe")
            report("quiet_redraw", await redraws(probe, time.monotonic() + 10, 40))

            stop, sent = asyncio.Event(), [0]
            rss0 = rss_kib(pid)
            c0, w0 = cpu_seconds(pid), time.perf_counter()
            attack = [asyncio.create_task(attacker(port, stop, sent)) for _ in range(args.sockets)]
            samples = await redraws(probe, time.monotonic() + args.seconds, 10_000)
            cpu = cpu_seconds(pid) - c0
            wall = time.perf_counter() - w0
            rss1 = rss_kib(pid)
            stop.set()
            await asyncio.gather(*attack, return_exceptions=True)
            report("attack_redraw", samples)
            print(f"attack_sockets: {args.sockets} connections")
            print(f"attack_naws_sent: {sent[0]} messages")
            print(f"attack_server_cpu: {cpu:.1f} s in {wall:.0f} s")
            print(f"attack_server_cpu_share: {100 * cpu / wall:.0f} %")
            print(f"server_rss_before: {rss0 / 1024:.0f} MB")
            print(f"server_rss_after: {rss1 / 1024:.0f} MB")
            probe.close()
        finally:
            await server.stop()
    print(f"load_average_end: {os.getloadavg()[0]:.2f}")
    if server.errors:
        print(f"# server log errors: {dict(server.errors.most_common(5))}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--sockets", type=int, default=8)
    parser.add_argument("--tree", default=str(ROOT), help="the checkout whose server runs")
    parser.add_argument("--quick", action="store_true", help="10 s of attack")
    args = parser.parse_args()
    if args.quick:
        args.seconds = 10.0
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
