"""Sessions one Gatehouse process holds, and keystroke-to-screen latency at
that load, beside a bare telnetlib3 echo server measured in the same run.

1. Gatehouse (``python -m server.cli serve``) runs as a subprocess with
   RLogin on 127.0.0.1 (port 0; the bound port is read from its log).
   N RLogin callers connect the way a BBS hands callers over (the
   ``server.net.rlogin.build_handshake`` handshake, the ``\\0`` ack), land in
   the lobby and stay idle; each keeps reading and discarding its output,
   in a process of their own (``bench/idle_callers.py``): the minute's
   redraw reaches all of them at once, and their reading must not delay
   the probe's, as it would on one loop (a caller's machine is not shared).
   Their users are created in the database beforehand (``--new-users``
   lets the server register them, one scrypt hash each, as for first-time
   BBS callers). The run checks that each received the lobby screen and
   that a probe caller's who-list shows "and K more".
2. A probe logs in over telnet (telnetlib3 + pyte) and times keys that
   change its lobby screen: ``c`` (the chat line "Say:" opens), ``x``
   (typed on it), BACKSPACE; then ESC closes the line (not timed: a lone
   ESC waits ``KeyDecoder.ESC_WAIT``). Per key: time to the first byte of
   the response and to the arrival of the bytes that make the screen show
   the change (``*_with_parse``: until pyte has parsed them, which in
   Python costs the probe some 90 us for a 60-byte frame and 2 us for an
   echoed byte).
3. ``bench/echo_server.py`` (bare telnetlib3, echo each read) gets the same
   N idle telnet connections (held the same way), and a second probe times a key's echo.
4. Both servers stay up with their callers, and the two probes take their
   samples in turns, ``BLOCK`` at a time: both are timed under the same
   conditions (an echo timed minutes after Gatehouse varied from 0.52 to
   1.18 ms at the median between runs on this machine).

Also: the server's RSS (VmRSS) before and after, its CPU while ramping and
while holding the sessions idle for ``--idle-seconds`` (60: a whole minute, in
which each lobby redraws its clock and idle times once, in the first 20 s).
The bench's config turns off the Awari endgame-table build at start.

Prints ``name: value unit`` lines.

    python bench/session_load.py [--sessions 2000] [--samples 200] [--quick]
                                 [--profile DIR]

``--profile DIR`` samples the server with py-spy (a dev tool, not a
dependency: ``pip install py-spy``) while it holds the callers idle and
while the probe types, writes the collapsed stacks and a flame graph of
each phase to DIR, and prints each phase's top functions as ``#`` lines.
"""
from __future__ import annotations

import argparse
import asyncio
import codecs
import collections
import contextlib
import json
import os
import random
import re
import resource
import sqlite3
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import pyte  # noqa: E402
import telnetlib3  # noqa: E402

HOST = "127.0.0.1"
CLK_TCK = os.sysconf("SC_CLK_TCK")


# ----- the processes ----------------------------------------------------------

def raise_nofile(need: int = 0) -> tuple[int, int]:
    """Lift the soft limit to the hard one, and the hard one to ``need``
    where the bench may (as root: it holds two descriptors per session)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if need > hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (need, need))
            soft, hard = need, need
        except (ValueError, OSError):
            pass
    if soft < hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        except (ValueError, OSError):
            pass
    return resource.getrlimit(resource.RLIMIT_NOFILE)


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK      # utime + stime


def nofile_soft(pid: int) -> str:
    for line in Path(f"/proc/{pid}/limits").read_text().splitlines():
        if line.startswith("Max open files"):
            return line.split()[3]
    return "?"


class Child:
    """A server subprocess whose output lines are read as they come (so its
    pipes never fill); ``wait_for(regex)`` finds a line."""

    def __init__(self, proc: asyncio.subprocess.Process):
        self.proc = proc
        self.lines: list[str] = []
        self.errors: collections.Counter[str] = collections.Counter()
        self._new = asyncio.Event()
        self._tasks = [asyncio.create_task(self._pump(s)) for s in (proc.stdout, proc.stderr) if s is not None]

    @classmethod
    async def start(cls, *args: str) -> Child:
        proc = await asyncio.create_subprocess_exec(
            *args, cwd=str(ROOT), stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        return cls(proc)

    async def _pump(self, stream: asyncio.StreamReader) -> None:
        while True:
            line = await stream.readline()
            if not line:
                return
            text = line.decode("utf-8", "replace").rstrip()
            if any(w in text for w in (" ERROR ", " WARNING ", "Traceback")):
                self.errors[re.sub(r"^\S+ \S+ ", "", text)[:120]] += 1
            if len(self.lines) < 200 or "listening" in text.lower():
                self.lines.append(text)
            self._new.set()

    async def wait_for(self, pattern: str, timeout: float) -> re.Match:
        deadline = time.monotonic() + timeout
        seen = 0
        while True:
            for line in self.lines[seen:]:
                m = re.search(pattern, line)
                if m:
                    return m
            seen = len(self.lines)
            left = deadline - time.monotonic()
            if left <= 0 or self.proc.returncode is not None:
                raise SystemExit(f"server never printed {pattern!r}:\n" + "\n".join(self.lines[-20:]))
            self._new.clear()
            try:
                await asyncio.wait_for(self._new.wait(), left)
            except TimeoutError:
                pass

    async def stop(self) -> None:
        if self.proc.returncode is None:
            if self.proc.stdin is not None:
                self.proc.stdin.close()
            try:
                self.proc.terminate()
            except ProcessLookupError:
                pass
            try:
                await asyncio.wait_for(self.proc.wait(), 20)
            except TimeoutError:
                self.proc.kill()
                await self.proc.wait()
        for t in self._tasks:
            t.cancel()


# ----- profiling (py-spy) ----------------------------------------------------

class Profiler:
    """py-spy sampling the server during one phase (``None`` dir: off)."""

    def __init__(self, where: Path | None, pid: int, phase: str):
        self.where, self.pid, self.phase = where, pid, phase
        self.procs: list[asyncio.subprocess.Process] = []

    async def __aenter__(self) -> Profiler:
        if self.where is not None:
            spy = str(Path(sys.executable).with_name("py-spy"))
            for fmt, suffix in (("raw", "txt"), ("flamegraph", "svg")):
                self.procs.append(await asyncio.create_subprocess_exec(
                    spy, "record", "--pid", str(self.pid), "--rate", "200", "--nonblocking",
                    "--format", fmt, "--output", str(self.where / f"{self.phase}.{suffix}"),
                    stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL))
        return self

    async def __aexit__(self, *exc: object) -> None:
        for proc in self.procs:
            proc.send_signal(2)                     # py-spy writes its output on SIGINT
        for proc in self.procs:
            await proc.wait()


def profile_top(path: Path, count: int = 12) -> list[str]:
    """The functions most often on top of the stack (self) and anywhere on it
    (total), from py-spy's collapsed stacks."""
    own: collections.Counter[str] = collections.Counter()
    total: collections.Counter[str] = collections.Counter()
    samples = 0
    for line in path.read_text().splitlines():
        stack, _, n = line.rpartition(" ")
        if not n.isdigit():              # a line cut short as py-spy was stopped
            continue
        frames = [re.sub(r":\d+\)$", ")", f) for f in stack.split(";") if not f.startswith("process ")]
        if not frames:
            continue
        samples += int(n)
        own[frames[-1]] += int(n)
        for frame in set(frames):
            total[frame] += int(n)
    out = [f"{samples} samples"]
    out += [f"self {100 * k / samples:5.1f}%  {f}" for f, k in own.most_common(count)]
    out += [f"total {100 * k / samples:5.1f}%  {f}" for f, k in total.most_common(count)]
    return out


# ----- idle callers -----------------------------------------------------------

class Callers:
    """N idle callers held by ``bench/idle_callers.py`` in a process of their
    own (their reading must not delay the probe's), asked through its pipes."""

    def __init__(self, proc: asyncio.subprocess.Process, opened: dict):
        self.proc = proc
        self.connected: int = opened["connected"]
        self.errors: dict[str, int] = opened["errors"]

    @classmethod
    async def open(cls, port: int, count: int, rlogin: bool, marker: str, timeout: float) -> Callers:
        args = [sys.executable, str(ROOT / "bench" / "idle_callers.py"), "--port", str(port),
                "--count", str(count), "--timeout", str(timeout), "--marker", marker]
        if rlogin:
            args.append("--rlogin")
        proc = await asyncio.create_subprocess_exec(
            *args, cwd=str(ROOT), stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
        return cls(proc, await cls._answer(proc))

    @staticmethod
    async def _answer(proc: asyncio.subprocess.Process) -> dict:
        assert proc.stdout is not None
        line = await proc.stdout.readline()
        if not line:
            raise SystemExit(f"the idle callers' process ended ({await proc.wait()})")
        return json.loads(line)

    async def ask(self, command: str) -> dict:
        assert self.proc.stdin is not None
        self.proc.stdin.write(command.encode() + b"\n")
        await self.proc.stdin.drain()
        return await self._answer(self.proc)

    async def close(self) -> None:
        if self.proc.returncode is None:
            with contextlib.suppress(ConnectionError, SystemExit):
                await asyncio.wait_for(self.ask("close"), 30)
            with contextlib.suppress(ProcessLookupError):
                self.proc.kill()
            await self.proc.wait()


# ----- the probe --------------------------------------------------------------

class Probe:
    """A telnet caller whose reads are timed (no background pump)."""

    def __init__(self, reader, writer):
        self.sent_at = []                      # the wall clock (time.time()) of each timed key
        self.reader, self.writer = reader, writer
        self.screen = pyte.Screen(80, 24)
        self.stream = pyte.Stream(self.screen)
        self._utf8 = codecs.getincrementaldecoder("utf-8")("replace")
        self.raw = bytearray()
        self.arrived = 0.0                  # when the last read's bytes arrived (before pyte parsed them)
        self.with_parse: list[float] = []   # each timed key to done() including pyte's parse

    @classmethod
    async def connect(cls, port: int) -> Probe:
        reader, writer = await asyncio.wait_for(telnetlib3.open_connection(
            HOST, port, encoding=False, term="xterm", cols=80, rows=24,
            connect_minwait=0.05, connect_maxwait=1.0), 30)
        return cls(reader, writer)

    async def read(self, timeout: float) -> bytes:
        data = await asyncio.wait_for(self.reader.read(65536), timeout)
        self.arrived = time.perf_counter()
        if not data:
            raise ConnectionError("the probe's connection closed")
        self.raw += data
        self.stream.feed(self._utf8.decode(bytes(data)))
        return data

    def text(self) -> str:
        return "\n".join(self.screen.display)

    def line(self, y: int) -> str:
        """Row ``y`` as text (only that row: building the whole display on
        every read would time the probe's screen, not the server)."""
        row = self.screen.buffer[y]
        return "".join(row[x].data for x in range(self.screen.columns))

    async def until(self, done, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while not done():
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"timed out; screen:\n{self.text()}")
            try:
                await self.read(left)
            except TimeoutError:
                raise TimeoutError(f"timed out; screen:\n{self.text()}") from None

    async def expect(self, text: str, timeout: float = 30) -> None:
        await self.until(lambda: text in self.text(), timeout)

    async def quiet(self, seconds: float, limit: float = 10) -> None:
        """Read until nothing arrives for ``seconds``."""
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            try:
                await self.read(seconds)
            except TimeoutError:
                return

    def send(self, data: bytes) -> None:
        self.writer.write(data)

    async def timed(self, key: bytes, done, timeout: float = 30) -> tuple[float, float]:
        """(seconds to the first byte, seconds to the bytes that make
        ``done()`` true) after ``key``: when they arrived, not when pyte has
        parsed them (pyte, in Python, takes some 90 us for a 60-byte frame
        that a terminal parses in a few; that time, kept in ``with_parse``,
        is the measuring client's, and it grows with the frame, not with the
        server's work)."""
        started = time.perf_counter()
        self.sent_at.append(time.time())
        self.send(key)
        first = None
        deadline = time.monotonic() + timeout
        while True:
            try:
                await self.read(max(0.001, deadline - time.monotonic()))
            except TimeoutError:
                raise TimeoutError(f"key {key!r} timed out; screen:\n{self.text()}") from None
            if first is None:
                first = self.arrived
            if done():
                self.with_parse.append(time.perf_counter() - started)
                return first - started, self.arrived - started

    def close(self) -> None:
        self.writer.close()


async def gatehouse_samples(probe: Probe, count: int) -> tuple[list[float], list[float]]:
    first: list[float] = []
    full: list[float] = []
    say = lambda: probe.line(23).startswith("Say:")                     # noqa: E731
    cycle = [(b"c", say),
             (b"x", lambda: probe.line(23).rstrip() == "Say: x"),
             (b"\x08", lambda: say() and probe.line(23)[:6].rstrip() == "Say:")]   # (the hint returns)
    while len(full) < count:
        for key, done in cycle:
            if len(full) >= count:
                break
            await asyncio.sleep(random.uniform(0.01, 0.04))
            f, d = await probe.timed(key, done)
            first.append(f)
            full.append(d)
        for _attempt in range(6):               # close the chat line (not timed)
            probe.send(b"\x1b")
            try:
                await probe.until(lambda: not say(), 5)
                break
            except TimeoutError:
                print("# the chat line stayed open 5 s after ESC: ESC again", flush=True)
        else:
            raise TimeoutError("the chat line did not close on ESC")
    return first, full


async def echo_samples(probe: Probe, count: int) -> list[float]:
    out: list[float] = []
    for i in range(count):
        await asyncio.sleep(random.uniform(0.01, 0.04))
        key = b"abcdefghijklmnopqrstuvwxyz"[i % 26:i % 26 + 1]
        before = len(probe.raw)
        _f, d = await probe.timed(key, lambda key=key, before=before: key in probe.raw[before:])
        out.append(d)
    return out


# ----- figures ----------------------------------------------------------------

def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    k = min(len(values) - 1, max(0, round(q * (len(values) - 1))))
    return values[k]


def ms(name: str, values: list[float]) -> None:
    print(f"{name}_p50: {1000 * pct(values, 0.5):.2f} ms")
    print(f"{name}_p99: {1000 * pct(values, 0.99):.2f} ms")
    print(f"{name}_max: {1000 * max(values):.2f} ms")


# ----- the phases -------------------------------------------------------------

def write_config(tmp: Path, n: int) -> Path:
    path = tmp / "gatehouse.toml"
    path.write_text(f"""\
[server]
host = "{HOST}"
port = 0
max_sessions = {n + 20}
max_per_ip = {n + 20}
idle_minutes = 120
connect_maxwait = 0.5

[store]
database = "{tmp / 'load.db'}"

[sysop]
socket = "{tmp / 'sysop.sock'}"

[rlogin]
enabled = true
host = "{HOST}"
port = 0
allow = ["{HOST}"]

[awari]
build_endgame = false
""", encoding="utf-8")
    return path


def handle(i: int) -> str:
    return f"load{i:05d}"


async def seed_users(db: Path, n: int) -> None:
    """Create the RLogin callers' users (as the server would, with one
    shared hash of an unknown password: nobody logs in with it)."""
    from server.services.store import Store, handle_key, handle_skeleton, hash_password
    store = await Store(db).open()
    await store.close()
    salt, digest = hash_password(os.urandom(8).hex())
    now = time.time()
    con = sqlite3.connect(db)
    with con:
        con.executemany(
            "INSERT INTO users(handle, handle_key, pw_salt, pw_hash, charset, created, last_login,"
            " kind, skeleton) VALUES (?,?,?,?,?,?,?,'bbs',?)",
            [(handle(i), handle_key(handle(i)), salt, digest, "cp437", now, now,
              handle_skeleton(handle(i))) for i in range(n)])
    con.close()


class Side:
    """One server of the run, set up and holding its idle callers, with a
    probe that times keys: ``sample(k)`` adds k samples to ``out``."""

    def __init__(self, out: dict, sample) -> None:
        self.out = out
        self._sample = sample
        out["first"], out["full"] = [], []

    async def sample(self, count: int) -> None:
        first, full = await self._sample(count)
        self.out["first"] += first
        self.out["full"] += full


@contextlib.asynccontextmanager
async def gatehouse(args, tmp: Path, out: dict) -> AsyncIterator[Side]:
    n = args.sessions
    config = write_config(tmp, n)
    if not args.new_users:
        await seed_users(tmp / "load.db", n)
    callers: Callers | None = None
    server = await Child.start(sys.executable, "-m", "server.cli", "serve", "--config", str(config))
    try:
        port = int((await server.wait_for(r"telnet://[\d.]+:(\d+)", 30)).group(1))
        rport = int((await server.wait_for(r"RLogin listening on \S+ port (\d+)", 10)).group(1))
        pid = server.proc.pid
        out["server_nofile_soft"] = nofile_soft(pid)
        await asyncio.sleep(1.0)
        rss0, cpu0, t0 = rss_kib(pid), cpu_seconds(pid), time.perf_counter()

        async with Profiler(args.profile, pid, "ramp"):
            callers = await Callers.open(rport, n, rlogin=True, marker="Lobby", timeout=args.ramp_seconds)
            connected = time.perf_counter()
            answer = await callers.ask(f"ready {max(5.0, args.ramp_seconds - (connected - t0))}")
            in_lobby = answer["ready"]
        ramp = time.perf_counter() - t0
        out["connect_seconds"] = connected - t0
        out["ramp_seconds"] = ramp
        out["ramp_cpu_seconds"] = cpu_seconds(pid) - cpu0
        out["sessions_connected"] = callers.connected
        out["sessions_in_lobby"] = in_lobby
        out["connect_errors"] = callers.errors
        if answer["missing_heads"]:
            out["not_in_lobby_heads"] = answer["missing_heads"]

        # the probe: logs in over telnet and reads the who-list
        probe = await Probe.connect(port)
        # pyte answers no cursor report: the title asks about the charset first
        await probe.until(lambda: "Handle" in probe.text() or "card suits?" in probe.text(), 30)
        if "Handle" not in probe.text():
            probe.send(b"y")
            await probe.expect("Handle")
        probe.send(b"Probe\r")
        await probe.expect("Register?")
        probe.send(b"y")
        await probe.expect("Choose a password")
        probe.send(b"secret1\r")
        await probe.expect("once more")
        probe.send(b"secret1\r")
        await probe.expect("Who's online")
        await probe.quiet(0.5)                    # after the debounced node broadcast
        m = re.search(r"and (\d+) more", probe.text())
        out["who_list_online"] = (int(m.group(1)) + 8) if m else None   # includes the probe
        out["sessions_held"] = min(in_lobby, (out["who_list_online"] or 1) - 1)

        # holding them idle: the periodic refresh
        await probe.quiet(0.5)
        async with Profiler(args.profile, pid, "idle"):
            c1, w1 = cpu_seconds(pid), time.perf_counter()
            idle_window = args.idle_seconds
            end = time.monotonic() + idle_window
            while time.monotonic() < end:
                try:
                    await probe.read(max(0.01, end - time.monotonic()))
                except TimeoutError:
                    break
            out["idle_cpu_percent"] = 100 * (cpu_seconds(pid) - c1) / (time.perf_counter() - w1)
        # as soon as known (a long run that is cut later keeps them)
        print(f"# so far: {callers.connected} connected in {out['connect_seconds']:.1f} s, ramp CPU "
              f"{out['ramp_cpu_seconds']:.1f} s, idle CPU {out['idle_cpu_percent']:.1f} %", flush=True)
        bytes_before = (await callers.ask("stats"))["received"]

        async with Profiler(args.profile, pid, "keys"):
            c2, w2 = cpu_seconds(pid), time.perf_counter()
            yield Side(out, lambda count: gatehouse_samples(probe, count))
        out["probe_cpu_percent"] = 100 * (cpu_seconds(pid) - c2) / (time.perf_counter() - w2)
        out["with_parse"] = probe.with_parse
        out["sent_at"] = probe.sent_at
        stats = await callers.ask("stats")
        out["idle_bytes_per_session_per_minute"] = (
            (stats["received"] - bytes_before) / max(1, callers.connected)
            * 60 / (time.perf_counter() - w2))
        out["rss_kib_start"], out["rss_kib_held"] = rss0, rss_kib(pid)
        out["still_open"] = stats["open"]
        probe.close()
    finally:
        if callers is not None:
            await callers.close()
        await server.stop()
        out["server_log_errors"] = dict(server.errors.most_common(5))


@contextlib.asynccontextmanager
async def echo(args, out: dict) -> AsyncIterator[Side]:
    # each side's callers are held by a process of their own, under the
    # limit this one lifted; where it is under one per session plus a
    # margin, the echo side gets what it allows, and says so
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    n = min(args.sessions, max(0, soft - FD_MARGIN))
    out["sessions_requested"] = n
    callers: Callers | None = None
    server = await Child.start(sys.executable, str(ROOT / "bench" / "echo_server.py"), "--serve",
                               "--max-seconds", "1800")
    try:
        port = int((await server.wait_for(r"^port: (\d+)", 120)).group(1))   # a slow start under load
        pid = server.proc.pid
        await asyncio.sleep(0.5)
        rss0 = rss_kib(pid)
        callers = await Callers.open(port, n, rlogin=False, marker="", timeout=args.ramp_seconds)
        await asyncio.sleep(1.0)            # past the server's connect_maxwait: shells run
        out["sessions_connected"] = callers.connected
        out["connect_errors"] = callers.errors
        probe = await Probe.connect(port)
        await asyncio.sleep(1.0)
        await probe.quiet(0.3)
        c2, w2 = cpu_seconds(pid), time.perf_counter()

        async def sample(count: int) -> tuple[list[float], list[float]]:
            full = await echo_samples(probe, count)
            return full, full
        yield Side(out, sample)
        out["with_parse"] = probe.with_parse
        out["probe_cpu_percent"] = 100 * (cpu_seconds(pid) - c2) / (time.perf_counter() - w2)
        out["rss_kib_start"], out["rss_kib_held"] = rss0, rss_kib(pid)
        out["still_open"] = (await callers.ask("stats"))["open"]
        probe.close()
    finally:
        if callers is not None:
            await callers.close()
        await server.stop()


async def until_minute_turn() -> None:
    """Wait until just before the wall clock's next minute, so that the
    first block of keys meets every lobby's minute redraw."""
    ahead = (-MINUTE_LEAD - time.time()) % 60
    print(f"# waiting {ahead:.1f} s for the minute's turn", flush=True)
    await asyncio.sleep(ahead)


MINUTE_LEAD = 0.2  # seconds before the minute that the first key is typed
FD_MARGIN = 200
BLOCK = 20      # samples from one server, then from the other, and so on


async def main_async(args) -> None:
    soft, hard = raise_nofile(args.sessions + 1000)
    print(f"nofile_limit_bench: {soft} files")
    started = time.perf_counter()
    g: dict = {}
    e: dict = {}
    with tempfile.TemporaryDirectory(prefix="gatehouse-load-") as tmp:
        async with gatehouse(args, Path(tmp), g) as ours, echo(args, e) as bare:
            if args.at_minute:
                await until_minute_turn()
            # in turns, so both are timed under the same conditions
            for done in range(0, args.samples, BLOCK):
                await ours.sample(min(BLOCK, args.samples - done))
                await bare.sample(min(BLOCK, args.samples - done))
    n = args.sessions
    print(f"sessions_requested: {n} sessions")
    print(f"nofile_limit_server: {g['server_nofile_soft']} files")
    print(f"sessions_connected: {g['sessions_connected']} sessions")
    print(f"sessions_in_lobby: {g['sessions_in_lobby']} sessions")
    print(f"who_list_online: {g['who_list_online']} sessions")
    print(f"sessions_held: {g['sessions_held']} sessions")
    print(f"sessions_still_open_after_samples: {g['still_open']} sessions")
    print(f"connect_seconds: {g['connect_seconds']:.1f} s")
    print(f"ramp_seconds: {g['ramp_seconds']:.1f} s")
    print(f"ramp_server_cpu: {g['ramp_cpu_seconds']:.1f} s")
    print(f"idle_server_cpu: {g['idle_cpu_percent']:.1f} %")
    print(f"probing_server_cpu: {g['probe_cpu_percent']:.1f} %")
    print(f"idle_output_per_session: {g['idle_bytes_per_session_per_minute']:.0f} bytes/min")
    print(f"server_rss_start: {g['rss_kib_start'] / 1024:.1f} MiB")
    print(f"server_rss: {g['rss_kib_held'] / 1024:.1f} MiB")
    per = (g['rss_kib_held'] - g['rss_kib_start']) / max(1, g['sessions_in_lobby'])
    print(f"memory_per_session: {per:.1f} KiB")
    ms("gatehouse_first_byte", g["first"])
    ms("gatehouse_latency", g["full"])
    print("# gatehouse's five slowest keys: " + ", ".join(
        f"{1000 * v:.2f} ms (key {g['full'].index(v) + 1}, at {g['sent_at'][g['full'].index(v)] % 60:.2f} s)"
        for v in sorted(g["full"])[-5:]))
    print(f"echo_sessions_requested: {e['sessions_requested']} sessions")
    print(f"echo_sessions_connected: {e['sessions_connected']} sessions")
    print(f"echo_server_rss: {e['rss_kib_held'] / 1024:.1f} MiB")
    print(f"echo_memory_per_session: "
          f"{(e['rss_kib_held'] - e['rss_kib_start']) / max(1, e['sessions_connected']):.1f} KiB")
    ms("echo_latency", e["full"])
    print(f"latency_ratio_p50: {pct(g['full'], 0.5) / pct(e['full'], 0.5):.2f} x")
    print(f"latency_ratio_p99: {pct(g['full'], 0.99) / pct(e['full'], 0.99):.2f} x")
    print(f"first_byte_ratio_p99: {pct(g['first'], 0.99) / pct(e['full'], 0.99):.2f} x")
    # the same keys timed until pyte (the probe's emulator) had parsed them
    ms("gatehouse_latency_with_parse", g["with_parse"])
    ms("echo_latency_with_parse", e["with_parse"])
    print(f"latency_with_parse_ratio_p50: {pct(g['with_parse'], 0.5) / pct(e['with_parse'], 0.5):.2f} x")
    print(f"latency_with_parse_ratio_p99: {pct(g['with_parse'], 0.99) / pct(e['with_parse'], 0.99):.2f} x")
    print(f"samples: {len(g['full'])} keys")
    print(f"bench_seconds: {time.perf_counter() - started:.0f} s")
    for what, value in (("gatehouse connect errors", g["connect_errors"]),
                        ("echo connect errors", e["connect_errors"]),
                        ("not in the lobby, first bytes", g.get("not_in_lobby_heads")),
                        ("server log errors", g["server_log_errors"])):
        if value:
            print(f"# {what}: {value}")
    if args.profile is not None:
        for phase in ("ramp", "idle", "keys"):
            raw = args.profile / f"{phase}.txt"
            if raw.exists():
                for line in profile_top(raw):
                    print(f"# profile {phase}: {line}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sessions", type=int, default=2000)
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--quick", action="store_true", help="200 sessions, 50 samples")
    parser.add_argument("--new-users", action="store_true",
                        help="let the server create the RLogin users (one scrypt hash each)")
    parser.add_argument("--ramp-seconds", type=float, default=300.0,
                        help="give up waiting for the sessions after this long")
    parser.add_argument("--idle-seconds", type=float, default=60.0,
                        help="how long the server's idle CPU is measured (a minute: every lobby "
                             "redraws its clock once in it, so the figure does not depend on when it starts)")
    parser.add_argument("--at-minute", action="store_true",
                        help="type the first keys as the minute turns (every lobby redraws its clock): "
                             "the worst moment to type, not a random one")
    parser.add_argument("--profile", type=Path, default=None, metavar="DIR",
                        help="sample the server with py-spy while idle and while typing; write to DIR")
    args = parser.parse_args()
    if args.profile is not None:
        args.profile.mkdir(parents=True, exist_ok=True)
    if args.quick:
        args.sessions, args.samples, args.idle_seconds = 200, 50, 10.0
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
