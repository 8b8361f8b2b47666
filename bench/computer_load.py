"""Computer opponents under load: N callers each play the computer at its
top level at once; how long the computer takes to answer, and how a caller
in the lobby fares meanwhile.

The server (``server.app.App``, its real config defaults: two worker
processes, ``bot_min_delay``) runs in this process. For each N (1, 5, 10,
20 by default) N telnet callers log in (they read and discard their
screens) and each starts a game against the computer at the door's top
level, as the lobby starts one. Each plays a random legal move a human-like
pause (``--pause``, 3 s) after the computer's reply; a setup is placed
without pauses. Moves are handed to the match directly (the door's keys
differ per door); every screen update still goes to the caller over telnet.
When a game ends its caller starts another.

Per N it prints the computer's reply time (from the caller's move to the
computer's, as the caller sees it, ``bot_min_delay`` included) p50/p95/max,
the most other questions a question waited for in the computer's queue
(``ComputerPlayers.queue.behind``, where the server has one) and the most
of them from any one other game (``behind_one``: a fair queue keeps it at
one), and the key
to screen p95 of a probe caller typing in the lobby meanwhile
(``session_load``'s probe).

    python bench/computer_load.py [--door stratego|kingdom] [--counts 1,5,10,20]
                                  [--seconds 45] [--pause 3]
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
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import telnetlib3  # noqa: E402
from session_load import Probe, gatehouse_samples, pct  # noqa: E402

from doors import registry  # noqa: E402
from server.app import App  # noqa: E402
from server.config import Config  # noqa: E402
from server.screens.match_screen import start_match  # noqa: E402
from server.screens.session import PushScreen  # noqa: E402
from server.services import events as E  # noqa: E402
from server.services.seats import Seat, SeatKind  # noqa: E402

HOST = "127.0.0.1"


async def log_in(app: App, port: int, handle: str):
    """A telnet caller that logs in as a new caller and then only reads
    (its keys are typed when its title screen asks; callers log in one at a
    time, so its session is the one that appears)."""
    before = set(app.nodes.sessions)
    reader, writer_ = await telnetlib3.open_connection(
        HOST, port, encoding=False, term="ansi-bbs", cols=80, rows=24,
        connect_minwait=0.05, connect_maxwait=1.0)
    writer: Any = writer_                   # a bytes writer (encoding=False)

    async def drain() -> None:
        while await reader.read(65536):
            pass
    pump = asyncio.create_task(drain())

    async def until(done) -> None:
        for _ in range(3000):
            if done():
                return
            await asyncio.sleep(0.01)
        raise TimeoutError(f"{handle} did not get through the login")

    await until(lambda: set(app.nodes.sessions) - before)
    session = app.nodes.sessions[(set(app.nodes.sessions) - before).pop()]

    def at(stage: str):
        return lambda: bool(session.screens) and getattr(session.screens[-1], "stage", None) == stage

    await until(lambda: at("charset")() or at("handle")())
    if at("charset")():
        writer.write(b"y")
        await until(at("handle"))
    for keys, stage in ((handle.encode() + b"\r", "register"), (b"y", "new_password"),
                        (b"secret1\r", "confirm")):
        writer.write(keys)
        await until(at(stage))
    writer.write(b"secret1\r")
    await until(lambda: session.location == "lobby")
    return session, writer, pump


class Player:
    """One caller playing the computer, game after game."""

    def __init__(self, app: App, session, door: str, pause: float, rng: random.Random):
        self.app, self.session, self.info, self.pause, self.rng = app, session, registry()[door], pause, rng
        self.replies: list[float] = []
        self.games = 0

    async def new_game(self):
        level = self.info.levels[1]
        seats = [Seat(0, SeatKind.HUMAN, self.session.handle),
                 Seat(1, SeatKind.BOT, f"Computer ({level})", level, seed=self.rng.randrange(1 << 30))]
        screen = await start_match(self.session, self.info, {}, seats, {0: self.session})
        self.session.send(PushScreen(lambda _s, screen=screen: screen))
        self.games += 1
        return screen.match

    async def play(self, until: float) -> None:
        match = await self.new_game()
        moved_at: float | None = None
        while time.monotonic() < until:
            if match.ended:
                match, moved_at = await self.new_game(), None
                continue
            if 0 not in match.state.to_move():
                await asyncio.sleep(0.005)
                continue
            setup = str(getattr(match.state, "phase", "")) == "setup"
            if moved_at is not None and not setup:
                self.replies.append(time.monotonic() - moved_at)
            legal = match.state.legal_actions(0)
            if not legal:
                await asyncio.sleep(0.005)
                continue
            if not setup:
                await asyncio.sleep(self.pause * self.rng.uniform(0.8, 1.2))
                if match.ended or 0 not in match.state.to_move():
                    continue
                legal = match.state.legal_actions(0)
            moved_at = None if setup else time.monotonic()
            await match.submit(0, self.rng.choice(legal))
            if setup:
                await asyncio.sleep(0)
        self.session.send(E.Kick("the bench is over"))


async def run_count(app: App, port: int, probe: Probe, args, n: int, serial: int) -> dict:
    rng = random.Random(n)
    logged = [await log_in(app, port, f"cl{serial}n{i:02d}") for i in range(n)]
    players = [Player(app, s, args.door, args.pause, random.Random(rng.random())) for s, _w, _p in logged]
    queue = getattr(app.computer, "queue", None)
    behind_from = len(queue.behind) if queue is not None else 0
    one_from = len(queue.behind_one) if queue is not None else 0
    until = time.monotonic() + args.seconds
    probe_times: list[float] = []

    async def probing() -> None:
        while time.monotonic() < until:
            _first, full = await gatehouse_samples(probe, 6)
            probe_times.extend(full)
    await asyncio.gather(probing(), *(p.play(until) for p in players))
    replies = [r for p in players for r in p.replies]
    behind = list(queue.behind)[behind_from:] if queue is not None else []
    one = list(queue.behind_one)[one_from:] if queue is not None else []
    for _s, writer, pump in logged:
        writer.close()
        pump.cancel()
    await asyncio.sleep(1.0)
    return {"n": n, "replies": replies, "games": sum(p.games for p in players),
            "behind_max": max(behind) if behind else None,
            "one_max": max(one) if one else None, "probe": probe_times}


async def main_async(args) -> None:
    with tempfile.TemporaryDirectory(prefix="gatehouse-computer-") as tmp:
        config = Config().with_tables({
            "server": {"host": HOST, "port": 0, "max_per_ip": 1000, "connect_maxwait": 0.5},
            "paths": {"state_dir": tmp},
            "store": {"database": str(Path(tmp) / "load.db")},
            "sysop": {"socket": str(Path(tmp) / "sysop.sock")},
            "limits": {"new_accounts_per_hour": 100000},
            "timing": {"login_fail_delay": 0.01},
            "awari": {"build_endgame": False},
        }, source="computer_load", ranges=False)
        app = App(config)
        await app.start()
        try:
            probe = await Probe.connect(app.port)
            await probe.until(lambda: "Handle" in probe.text() or "card suits?" in probe.text(), 30)
            if "Handle" not in probe.text():
                probe.send(b"y")
                await probe.expect("Handle")
            for text, reply in (("Handle", b"Probe\r"), ("Register?", b"y"), ("Choose a password", b"secret1\r"),
                                ("once more", b"secret1\r")):
                await probe.expect(text)
                probe.send(reply)
            await probe.expect("Who's online")
            print(f"# door {args.door}, level {registry()[args.door].levels[1]}, workers "
                  f"{config.server.computer_workers}, pause {args.pause} s, {args.seconds} s per N, "
                  f"load {os.getloadavg()[0]:.2f}", flush=True)
            print("N  replies  games  reply_p50  reply_p95  reply_max  waited_for_max  of_one_game  probe_p95  load1")
            lines = []
            for serial, n in enumerate(args.counts):
                r = await run_count(app, app.port, probe, args, n, serial)
                rep = r["replies"] or [float("nan")]
                print(f"{n:<2} {len(r['replies']):>7} {r['games']:>6} {pct(rep, .5):>8.2f}s "
                      f"{pct(rep, .95):>8.2f}s {max(rep):>8.2f}s {str(r['behind_max']):>15} "
                      f"{str(r['one_max']):>12} "
                      f"{1000 * pct(r['probe'], .95):>7.1f}ms {os.getloadavg()[0]:>6.2f}", flush=True)
                lines += [f"reply_p50_n{n}: {pct(rep, .5):.2f} s", f"reply_p95_n{n}: {pct(rep, .95):.2f} s",
                          f"reply_max_n{n}: {max(rep):.2f} s", f"waited_for_max_n{n}: {r['behind_max']} questions",
                          f"waited_for_of_one_game_max_n{n}: {r['one_max']} questions",
                          f"probe_key_p95_n{n}: {1000 * pct(r['probe'], .95):.1f} ms"]
            print("\n".join(lines))
            probe.close()
        finally:
            await app.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--door", default="stratego", choices=["stratego", "kingdom"])
    parser.add_argument("--counts", default="1,5,10,20")
    parser.add_argument("--seconds", type=float, default=45.0)
    parser.add_argument("--pause", type=float, default=3.0)
    parser.add_argument("--quick", action="store_true", help="N = 1 and 5, 10 seconds each")
    args = parser.parse_args()
    if args.quick:
        args.counts, args.seconds = "1,5", 10.0
    args.counts = [int(c) for c in args.counts.split(",")]
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
