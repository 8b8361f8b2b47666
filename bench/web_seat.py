"""The browser seat under load: memory per browser caller and keystroke
latency at that load, and the page's weight.

Gatehouse (``python -m server.cli serve --web-port 0``) runs as a
subprocess. N WebSocket callers (the page's protocol: a size report, then
keys as binary messages) connect and wait at the title screen, each reading
and discarding its output; the server's RSS (VmRSS) is read before and
after. Then a probe registers, opens the lobby chat line and types
a character and rubs it out again, over and over: per key, the time from
sending it to the first message back (the chat line redrawn). Also the gzipped size of the page and its
scripts as the seat serves them.

Prints ``name: value unit`` lines.

    python bench/web_seat.py [--sessions 500] [--samples 100] [--quick]
"""
from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from websockets.asyncio.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parent.parent


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


async def start_server(tmp: Path) -> tuple[asyncio.subprocess.Process, int]:
    config = tmp / "gatehouse.toml"
    config.write_text(f'[awari]\nbuild_endgame = false\n[sysop]\nsocket = "{tmp}/sysop.sock"\n'
                      "[server]\nmax_per_ip = 100000\n")
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "server.cli", "serve", "--port", "0", "--web-port", "0",
        "--config", str(config), "--db", str(tmp / "g.db"), cwd=ROOT,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL)
    assert proc.stdout is not None
    while True:
        line = (await asyncio.wait_for(proc.stdout.readline(), 60)).decode()
        if not line:
            raise SystemExit("gatehouse serve exited before listening")
        if line.startswith("Browser seat: "):
            return proc, int(line.rstrip().rstrip("/").rsplit(":", 1)[1])


class Seat:
    """One browser caller: keeps reading; ``until`` waits for bytes."""

    def __init__(self, ws: ClientConnection):
        self.ws = ws
        self.received = bytearray()
        self.arrived = asyncio.Event()
        self.reader = asyncio.create_task(self._read())

    @classmethod
    async def open(cls, port: int) -> Seat:
        ws = await connect(f"ws://127.0.0.1:{port}/ws", max_size=None, open_timeout=60)
        await ws.send(json.dumps({"cols": 80, "rows": 24}))
        return cls(ws)

    async def _read(self) -> None:
        async for message in self.ws:
            self.received += message if isinstance(message, bytes) else message.encode()
            self.arrived.set()

    async def until(self, text: bytes, timeout: float = 60) -> None:
        async with asyncio.timeout(timeout):
            while text not in self.received:
                self.arrived.clear()
                await self.arrived.wait()

    async def key_latency(self, key: bytes) -> float:
        """Seconds from sending ``key`` to the first message back."""
        self.arrived.clear()
        start = time.perf_counter()
        await self.ws.send(key)
        await asyncio.wait_for(self.arrived.wait(), 30)
        return time.perf_counter() - start


def page_weight(port: int) -> int:
    total = 0
    for path in ("/", "/seat.js", "/seat.css", "/vendor/xterm.js", "/vendor/xterm.css",
                 "/vendor/addon-fit.js"):
        request = urllib.request.Request(f"http://127.0.0.1:{port}{path}",
                                         headers={"Accept-Encoding": "gzip"})
        with urllib.request.urlopen(request, timeout=30) as reply:
            total += len(reply.read())
    return total


async def run(sessions: int, samples: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        proc, port = await start_server(Path(tmp))
        try:
            print(f"web_page_gzip: {await asyncio.to_thread(page_weight, port)} bytes")
            before = rss_kib(proc.pid)
            seats: list[Seat] = []
            for _ in range(0, sessions, 50):
                batch = await asyncio.gather(*(Seat.open(port) for _ in range(min(50, sessions - len(seats)))))
                seats.extend(batch)
            await asyncio.gather(*(seat.until(b"Handle") for seat in seats))
            after = rss_kib(proc.pid)
            print(f"web_sessions: {len(seats)} sessions")
            print(f"web_rss_per_session: {(after - before) / len(seats):.1f} KiB")
            probe = await Seat.open(port)
            await probe.until(b"Handle")
            for text, wait in ((b"Probe\r", b"Register?"), (b"y", b"password"),
                               (b"secret1\r", b"once more"), (b"secret1\r", b"Lobby chat"),
                               (b"c", b"Say:")):
                await probe.ws.send(text)
                await probe.until(wait)
            # "x" then Backspace, so that every key changes the chat line
            times = [await probe.key_latency(b"x" if i % 2 == 0 else b"\b") for i in range(samples)]
            times.sort()
            print(f"web_key_latency_p50: {statistics.median(times) * 1000:.1f} ms")
            print(f"web_key_latency_p95: {times[int(len(times) * 0.95) - 1] * 1000:.1f} ms")
            for seat in seats + [probe]:
                seat.reader.cancel()
            await asyncio.gather(*(seat.ws.close() for seat in seats + [probe]))
        finally:
            proc.terminate()
            await proc.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sessions", type=int, default=500)
    parser.add_argument("--samples", type=int, default=100)
    parser.add_argument("--quick", action="store_true", help="100 sessions, 30 samples")
    args = parser.parse_args()
    if args.quick:
        args.sessions, args.samples = 100, 30
    asyncio.run(run(args.sessions, args.samples))


if __name__ == "__main__":
    main()
