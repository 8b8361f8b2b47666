"""How well one caller is shielded from other people's load: a real
caller's key->screen latency in the lobby, quiet, then beside 40 junk
sessions, then beside 10 computer-vs-computer games at the top level.

Gatehouse (``python -m server.cli serve``) runs as a subprocess. The probe
caller logs in over telnet (telnetlib3 + pyte) and times the lobby keys of
``bench/session_load.py`` (``c`` opens the chat line, ``x`` is typed on
it, BACKSPACE), waiting for the screen to show each change.

1. quiet: nobody else is on.
2. junk: 40 connections (reconnecting when dropped) send random bytes, IAC
   storms, unterminated telnet subnegotiations and 1 MiB lines without an
   end, while the probe types. Goal: probe p95 <= 50 ms.
3. computer: 10 callers each open a game of the computer against itself
   (the "watch" opponent) in Awari at the strongest level and watch it,
   while the probe types. Goal: probe p95 <= 1.5x quiet.

The junk and the watching callers run in a second process (this script
with ``--load``), so the probe's own process only times keys.

Prints ``name: value unit`` lines, and the machine's load (other work on
the machine moves these figures: compare phases of one run).

    python bench/isolation.py [--samples 150] [--quick]
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

from session_load import HOST, Child, Probe, cpu_seconds, gatehouse_samples, pct, raise_nofile  # noqa: E402

IAC, SB, SE, WILL, DO = 255, 250, 240, 251, 253
PASSWORD = b"secret1"
UP, DOWN, RIGHT, ENTER = b"\x1b[A", b"\x1b[B", b"\x1b[C", b"\r"


def write_config(tmp: Path) -> Path:
    path = tmp / "gatehouse.toml"
    path.write_text(f"""\
[server]
host = "{HOST}"
port = 0
max_sessions = 200
max_per_ip = 200
connect_maxwait = 0.5

[store]
database = "{tmp / 'isolation.db'}"

[sysop]
socket = "{tmp / 'sysop.sock'}"

[awari]
build_endgame = false

[limits]
# every bench caller comes from 127.0.0.1: the per-address account limit would refuse the fourth
new_accounts_per_hour = 100000
""", encoding="utf-8")
    return path


async def login(port: int, handle: str) -> Probe:
    """A new caller registers and reaches the lobby."""
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
    await probe.quiet(0.3)
    return probe


# ----- junk --------------------------------------------------------------------

def junk_bytes(rng: random.Random) -> bytes:
    kind = rng.randrange(4)
    if kind == 0:                                   # random bytes
        return rng.randbytes(rng.randrange(1, 4096))
    if kind == 1:                                   # an IAC storm: options and commands
        return bytes(b for _ in range(rng.randrange(50, 800))
                     for b in (IAC, rng.choice((WILL, DO, 252, 254, 241, 246)), rng.randrange(256)))
    if kind == 2:                                   # a subnegotiation that never ends
        return bytes((IAC, SB, rng.choice((24, 31, 39, 32)))) + rng.randbytes(rng.randrange(100, 8192))
    return b"A" * (1 << 20)                         # a 1 MiB line, no end


async def junk_session(port: int, stop: asyncio.Event, seed: int, sent: list[int]) -> None:
    rng = random.Random(seed)
    while not stop.is_set():
        try:
            reader, writer = await asyncio.wait_for(asyncio.open_connection(HOST, port), 10)
        except (OSError, TimeoutError):
            await asyncio.sleep(0.2)
            continue

        async def discard(reader: asyncio.StreamReader = reader) -> None:
            try:
                while await reader.read(65536):
                    pass
            except (OSError, ConnectionError):
                pass

        drain = asyncio.create_task(discard())
        try:
            for _ in range(rng.randrange(5, 40)):
                if stop.is_set() or writer.is_closing():
                    break
                data = junk_bytes(rng)
                writer.write(data)
                sent[0] += len(data)
                await asyncio.wait_for(writer.drain(), 10)
                await asyncio.sleep(rng.uniform(0.0, 0.05))
        except (OSError, ConnectionError, TimeoutError):
            pass
        finally:
            writer.close()
            drain.cancel()


# ----- computer games ----------------------------------------------------------

async def watch_computer_game(port: int, handle: str, door_digit: bytes) -> Probe:
    """A caller opens a game of the computer against itself at the top level."""
    caller = await login(port, handle)
    caller.send(b"p")
    await caller.expect("Choose a door")
    caller.send(door_digit)
    await caller.expect("choose your opponent")
    caller.send(UP + ENTER)                          # the last opponent: watch the computer
    await caller.expect("options")
    caller.send(UP + UP + RIGHT + RIGHT)             # player 2's level row (wrapping up): 3 -> 5
    caller.send(UP + RIGHT + RIGHT)                  # player 1's: 3 -> 5
    await caller.until(lambda: caller.text().count("5  (1 weakest") == 2, 30)   # both levels at 5
    caller.send(DOWN + DOWN + ENTER)                 # "Start game"
    await caller.until(lambda: "Computer 1 (5)" in caller.text() and "options" not in caller.text(), 30)
    return caller


async def keep_reading(callers: list[Probe]) -> None:
    """Read and discard what the watchers are sent (no screen kept)."""
    async def one(c: Probe) -> None:
        while await c.reader.read(65536):
            pass
    await asyncio.gather(*(one(c) for c in callers), return_exceptions=True)


async def run_load(args: argparse.Namespace) -> None:
    """The second process: junk sessions or watching callers, until its
    standard input closes; prints "ready" once the load is on."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    stdin = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(stdin), sys.stdin)

    async def until_stdin_closes() -> None:
        await stdin.read()
        stop.set()

    watcher = asyncio.create_task(until_stdin_closes())
    if args.load == "junk":
        sent = [0]
        tasks = [asyncio.create_task(junk_session(args.port, stop, i, sent)) for i in range(args.junk)]
        print("ready", flush=True)
        await stop.wait()
        await asyncio.gather(*tasks, return_exceptions=True)
        print(f"sent {sent[0]}", flush=True)
    else:
        callers = list(await asyncio.gather(*(watch_computer_game(args.port, f"Watcher{i}", b"2")
                                               for i in range(args.games))))
        reading = asyncio.create_task(keep_reading(callers))
        print("ready", flush=True)
        await stop.wait()
        for c in callers:
            c.close()
        reading.cancel()
    watcher.cancel()


async def start_load(kind: str, port: int, args: argparse.Namespace) -> asyncio.subprocess.Process:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--load", kind, "--port", str(port), "--junk", str(args.junk),
        "--games", str(args.games), stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
    assert proc.stdout is not None
    line = await asyncio.wait_for(proc.stdout.readline(), 300)
    if line.strip() != b"ready":
        raise SystemExit(f"the {kind} load did not start: {line!r}")
    return proc


async def stop_load(proc: asyncio.subprocess.Process) -> bytes:
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.close()
    out = await asyncio.wait_for(proc.stdout.read(), 120)
    await proc.wait()
    return out


# ----- the run -----------------------------------------------------------------

def report(name: str, values: list[float]) -> None:
    print(f"{name}_p50: {1000 * pct(values, 0.5):.2f} ms")
    print(f"{name}_p95: {1000 * pct(values, 0.95):.2f} ms")
    print(f"{name}_max: {1000 * max(values):.2f} ms")


async def main_async(args: argparse.Namespace) -> None:
    raise_nofile()
    started = time.perf_counter()
    print(f"load_average_start: {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory(prefix="gatehouse-isolation-") as tmp:
        server = await Child.start(sys.executable, "-m", "server.cli", "serve",
                                   "--config", str(write_config(Path(tmp))))
        try:
            port = int((await server.wait_for(r"telnet://[\d.]+:(\d+)", 30)).group(1))
            pid = server.proc.pid
            probe = await login(port, "Probe")

            _first, quiet = await gatehouse_samples(probe, args.samples)
            report("quiet_latency", quiet)

            junk = await start_load("junk", port, args)
            await asyncio.sleep(2.0)                       # the junk is flowing
            c0, w0 = cpu_seconds(pid), time.perf_counter()
            _first, with_junk = await gatehouse_samples(probe, args.samples)
            junk_cpu = 100 * (cpu_seconds(pid) - c0) / (time.perf_counter() - w0)
            sent = int((await stop_load(junk)).split()[-1])
            report("junk_latency", with_junk)
            print(f"junk_sessions: {args.junk} sessions")
            print(f"junk_sent: {sent / (1 << 20):.1f} MiB")
            print(f"junk_server_cpu: {junk_cpu:.1f} %")
            await probe.quiet(1.0)

            games = await start_load("games", port, args)
            await asyncio.sleep(2.0)                       # the computers are thinking
            c0, w0 = cpu_seconds(pid), time.perf_counter()
            _first, with_games = await gatehouse_samples(probe, args.samples)
            games_cpu = 100 * (cpu_seconds(pid) - c0) / (time.perf_counter() - w0)
            await stop_load(games)
            report("computer_games_latency", with_games)
            print(f"computer_games: {args.games} games")
            print(f"computer_games_server_cpu: {games_cpu:.1f} %")

            print(f"junk_p95_goal_50ms: {1000 * pct(with_junk, 0.95):.2f} ms")
            print(f"computer_games_p95_ratio: {pct(with_games, 0.95) / pct(quiet, 0.95):.2f} x")
            probe.close()
        finally:
            await server.stop()
    print(f"load_average_end: {os.getloadavg()[0]:.2f}")
    print(f"bench_seconds: {time.perf_counter() - started:.0f} s")
    if server.errors:
        print(f"# server log errors: {dict(server.errors.most_common(5))}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--samples", type=int, default=150)
    parser.add_argument("--junk", type=int, default=40, help="junk sessions")
    parser.add_argument("--games", type=int, default=10, help="computer games")
    parser.add_argument("--quick", action="store_true", help="45 samples a phase")
    parser.add_argument("--load", choices=["junk", "games"], help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.quick:
        args.samples = 45
    asyncio.run(run_load(args) if args.load else main_async(args))


if __name__ == "__main__":
    main()
