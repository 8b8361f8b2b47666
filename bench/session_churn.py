"""Memory that comes back: the server's RSS after N telnet sessions have come
and gone, against its RSS after the first 100.

Gatehouse (``python -m server.cli serve``) runs as a subprocess. Callers
connect over loopback telnet (telnetlib3, full negotiation), CONCURRENCY at
a time, and each drops at a random point: at once (mid-negotiation), at
the title screen after typing half a handle, or after logging in to the
lobby (as one of POOL callers made beforehand). Between counts the bench
waits for the server's node count to reach zero (the sysop socket is not
used: it waits until RSS stops moving for a second).

Prints ``name: value unit`` lines; the goal is ``rss_growth_ratio`` ≤ 1.10.

    python bench/session_churn.py [--sessions 2000] [--quick]
"""
from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import telnetlib3  # noqa: E402
from session_load import Child, raise_nofile, rss_kib  # noqa: E402
from telnetlib3.stream_reader import TelnetReader, TelnetReaderUnicode  # noqa: E402
from telnetlib3.stream_writer import TelnetWriter, TelnetWriterUnicode  # noqa: E402

CONCURRENCY = 20
POOL = 40
PASSWORD = "secret1"


async def seed(db: Path) -> None:
    from server.services.store import Store, hash_password
    store = await Store(db).open()
    salt, digest = hash_password(PASSWORD)
    for i in range(POOL):
        await store.create_user(f"Churn{i}", salt, digest, "utf8")
    await store.close()


async def read_until(reader, marker: bytes, timeout: float = 20.0) -> bool:
    buf = b""
    deadline = time.monotonic() + timeout
    while marker not in buf:
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        try:
            data = await asyncio.wait_for(reader.read(65536), left)
        except TimeoutError:
            return False
        if not data:
            return False
        buf = buf[-200:] + data
    return True


def byte_streams(pair: tuple[TelnetReader | TelnetReaderUnicode, TelnetWriter | TelnetWriterUnicode]
                 ) -> tuple[TelnetReader, TelnetWriter]:
    """The streams of a connection opened with ``encoding=False`` (bytes)."""
    reader, writer = pair
    assert not isinstance(reader, TelnetReaderUnicode) and not isinstance(writer, TelnetWriterUnicode)
    return reader, writer


async def one(port: int, i: int, rng: random.Random, pool: asyncio.Queue) -> str:
    stage = rng.randrange(3)
    reader, writer = byte_streams(await telnetlib3.open_connection(
        "127.0.0.1", port, encoding=False, term="xterm", cols=80, rows=24,
        connect_minwait=0.05, connect_maxwait=1.0))
    try:
        if stage == 0:
            return "dropped at once"
        if not await read_until(reader, b"Handle"):
            return "no title screen"
        if stage == 1:
            writer.write(b"Hal")
            await writer.drain()
            return "dropped at the title"
        n = await pool.get()
        try:
            writer.write(f"Churn{n}\r".encode())
            if not await read_until(reader, b"Password"):
                return "no password prompt"
            writer.write(f"{PASSWORD}\r".encode())
            if not await read_until(reader, b"Who's online"):
                return "no lobby"
            return "dropped in the lobby"
        finally:
            writer.close()
            await asyncio.sleep(0.2)     # the server frees the handle
            pool.put_nowait(n)
    finally:
        writer.close()


async def churn(port: int, start: int, count: int, rng: random.Random,
                pool: asyncio.Queue, tally: dict) -> None:
    gate = asyncio.Semaphore(CONCURRENCY)

    async def run(i: int) -> None:
        async with gate:
            try:
                what = await one(port, i, rng, pool)
            except (TimeoutError, OSError) as exc:
                what = f"error {type(exc).__name__}"
            tally[what] = tally.get(what, 0) + 1

    await asyncio.gather(*(run(start + i) for i in range(count)))


async def settled_rss(pid: int) -> int:
    """RSS once it has not moved by more than 1% for a second."""
    last = rss_kib(pid)
    for _ in range(20):
        await asyncio.sleep(1.0)
        now = rss_kib(pid)
        if abs(now - last) <= last * 0.01:
            return now
        last = now
    return last


async def main_async(args) -> None:
    raise_nofile()
    with tempfile.TemporaryDirectory(prefix="gatehouse-churn-") as tmp:
        db = Path(tmp) / "churn.db"
        await seed(db)
        config = Path(tmp) / "gatehouse.toml"
        config.write_text(f'[server]\nport = 0\nmax_per_ip = {CONCURRENCY * 2}\n'
                          f'[store]\ndatabase = "{db}"\n[sysop]\nsocket = "{tmp}/sysop.sock"\n'
                          f'[awari]\nbuild_endgame = false\n')
        server = await Child.start(sys.executable, "-m", "server.cli", "serve", "--config", str(config))
        try:
            port = int((await server.wait_for(r"telnet://[\d.]+:(\d+)", 30)).group(1))
            pid = server.proc.pid
            rng = random.Random(2000)
            pool: asyncio.Queue = asyncio.Queue()
            for n in range(POOL):
                pool.put_nowait(n)
            tally: dict = {}
            rss_start = await settled_rss(pid)
            t0 = time.perf_counter()
            await churn(port, 0, 100, rng, pool, tally)
            rss_100 = await settled_rss(pid)
            await churn(port, 100, args.sessions - 100, rng, pool, tally)
            elapsed = time.perf_counter() - t0
            rss_n = await settled_rss(pid)
        finally:
            await server.stop()
    print(f"churn_rss_at_start: {rss_start / 1024:.1f} MiB")
    print(f"churn_rss_after_100_sessions: {rss_100 / 1024:.1f} MiB")
    print(f"churn_rss_after_{args.sessions}_sessions: {rss_n / 1024:.1f} MiB")
    print(f"churn_rss_growth_ratio: {rss_n / rss_100:.3f} x")
    print(f"churn_sessions_per_second: {args.sessions / elapsed:.1f} sessions/s")
    for what, n in sorted(tally.items()):
        print(f"churn_{what.replace(' ', '_')}: {n} sessions")
    if server.errors:
        for line, n in server.errors.most_common(5):
            print(f"# server log: {n} x {line}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sessions", type=int, default=2000)
    parser.add_argument("--quick", action="store_true", help="400 sessions")
    args = parser.parse_args()
    if args.quick:
        args.sessions = 400
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
