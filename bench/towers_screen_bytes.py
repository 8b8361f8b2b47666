"""Bytes a real caller gets for a Towers game, against a full repaint and
against the minimal diff.

Runs the real App in-process (``tests.e2e.harness.start_app``); two telnet
callers (``harness.Caller``) meet in the lobby and play a whole game of
Towers by keys (the moves come from ``tests.server.inside.play_towers_move``).
Each session's ``terminal.renderer.render`` is wrapped, so for every frame
the server sent we have: the bytes sent, the bytes of a full repaint of that
canvas (a fresh ``DiffRenderer(...).full``) and ``minimal_diff_cost`` from
the previous canvas (changed cells in the cheapest encoding).

One caller is CP437 (``ansi-bbs``), the other UTF-8 (``xterm``); the full
run plays a second game with the terminals swapped, so each charset is
measured from both seats. Figures per charset:

* ``first_screen``: the first frame of the game screen (a diff from the
  lobby screen the caller had, not a repaint);
* ``update_*``: the frames that follow a move of the opponent (its move
  arriving), the ones a caller waits for;
* ``all_update_*``: every frame after the first game frame (cursor moves,
  own moves, the clock refresh ...), non-empty ones only.

Prints ``name: value unit`` lines.

    python bench/towers_screen_bytes.py [--quick]
"""
from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ansi.render import DiffRenderer, minimal_diff_cost, normalize  # noqa: E402
from server.screens.match_screen import MatchScreen  # noqa: E402
from tests.e2e.harness import Caller, start_app, wait_until  # noqa: E402
from tests.e2e.test_two_callers import alice_challenges_bob  # noqa: E402
from tests.server.inside import play_towers_move, session_of  # noqa: E402

BAUD_BYTES = 240            # 2400 baud: 240 bytes a second
GAME_SECONDS = 120          # a game that takes longer is abandoned


class Recorder:
    """Wraps one session's renderer: records each rendered frame, tagged
    with the game state it was drawn from."""

    def __init__(self, session):
        self.session = session
        self.charset = session.terminal.charset
        self.frames: list[dict] = []
        self._prev = None
        terminal = session.terminal
        render = terminal.renderer.render

        def tag_now():
            """The game state the frame being sent was drawn from (a frame
            goes out in the same turn of the loop as it is drawn)."""
            screen = session.screens[-1] if session.screens else None
            if isinstance(screen, MatchScreen):
                hist = screen.match.state.history
                return ("match", len(hist), hist[-1][0] if hist else None, screen.me)
            return (type(screen).__name__, 0, None, None)

        def recording_render(canvas, cursor=None):
            renderer = terminal.renderer
            data = render(canvas, cursor)
            full = DiffRenderer(renderer.width, renderer.height, renderer.charset).full(canvas, cursor)
            minimal = (minimal_diff_cost(self._prev, canvas, renderer.charset)
                       if self._prev is not None else len(full))
            changed = (sum(1 for a, b in zip(self._prev.cells, canvas.cells, strict=True)
                           if normalize(a) != normalize(b))
                       if self._prev is not None else canvas.width * canvas.height)
            self.frames.append({"tag": tag_now(),
                                "sent": len(data), "full": len(full), "minimal": minimal,
                                "changed": changed})
            self._prev = canvas
            return data

        terminal.renderer.render = recording_render

    def game_frames(self) -> tuple[dict | None, list[dict], list[dict]]:
        """(first game frame, frames after an opponent's move, all later frames)."""
        first = None
        moves: list[dict] = []
        later: list[dict] = []
        plies = 0
        for f in self.frames:
            kind, n, last_player, me = f["tag"]
            if kind != "match":
                continue
            if first is None:
                first, plies = f, n
                continue
            if f["sent"]:
                later.append(f)
            if n > plies and last_player is not None and last_player != me:
                moves.append(f)
            plies = max(plies, n)
        return first, moves, later


async def lobby_pair(app, alice_term: str, bob_term: str) -> tuple[Caller, Caller]:
    alice = await Caller.connect(app.port, term=alice_term)
    await alice.login("Alice")
    bob = await Caller.connect(app.port, term=bob_term)
    await bob.login("Bob")
    await alice.expect("Bob")
    return alice, bob


async def one_game(alice_term: str, bob_term: str) -> tuple[list[Recorder], list[int]]:
    with tempfile.TemporaryDirectory() as tmp:
        app = await start_app(Path(tmp) / "bench.db")
        try:
            alice, bob = await lobby_pair(app, alice_term, bob_term)
            recorders = [Recorder(session_of(app, "Alice")), Recorder(session_of(app, "Bob"))]
            offsets = [len(alice.received), len(bob.received)]
            match = await alice_challenges_bob(app, alice, bob)
            sessions = {0: session_of(app, "Alice"), 1: session_of(app, "Bob")}
            callers = {0: alice, 1: bob}
            deadline = time.monotonic() + GAME_SECONDS
            while not match.ended and time.monotonic() < deadline:
                movers = match.state.to_move()
                if not movers:
                    break
                me = movers[0]
                await play_towers_move(callers[me], sessions[me], match, me, pick=-1)
            await wait_until(lambda: match.ended, timeout=10, what="the end of the game")
            for caller in (alice, bob):
                await caller.expect("GAME OVER")
                await caller.settle()
            for caller in (alice, bob):
                await caller.close()
            return recorders, [len(c.received) - o for c, o in zip((alice, bob), offsets, strict=True)]
        finally:
            await app.stop()


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    if not values:
        return float("nan")
    k = min(len(values) - 1, max(0, round(q * (len(values) - 1))))
    return values[k]


def report(cs: str, recorders: list[Recorder], received: int) -> None:
    firsts, moves, later = [], [], []
    for r in recorders:
        first, m, rest = r.game_frames()
        if first is not None:
            firsts.append(first)
        moves += m
        later += rest
    sent_total = sum(f["sent"] for r in recorders for f in r.frames)
    p = f"{cs}_"
    if firsts:
        print(f"{p}first_screen_bytes: {statistics.median(f['sent'] for f in firsts):.0f} bytes")
        print(f"{p}first_screen_full_repaint_bytes: "
              f"{statistics.median(f['full'] for f in firsts):.0f} bytes")
        print(f"{p}first_screen_seconds_at_2400: "
              f"{statistics.median(f['sent'] for f in firsts) / BAUD_BYTES:.2f} s")
    for prefix, frames in (("", moves), ("all_", later)):
        if not frames:
            continue
        sent = [f["sent"] for f in frames]
        full = [f["full"] for f in frames]
        minimal = [f["minimal"] for f in frames]
        r_min = [f["sent"] / f["minimal"] for f in frames if f["minimal"]]
        r_full = [f["sent"] / f["full"] for f in frames if f["full"]]
        print(f"{p}{prefix}frames: {len(frames)} frames")
        print(f"{p}{prefix}update_bytes_median: {statistics.median(sent):.0f} bytes")
        print(f"{p}{prefix}update_bytes_p90: {pct(sent, 0.9):.0f} bytes")
        print(f"{p}{prefix}update_bytes_max: {max(sent)} bytes")
        print(f"{p}{prefix}full_repaint_bytes_median: {statistics.median(full):.0f} bytes")
        print(f"{p}{prefix}minimal_diff_median: {statistics.median(minimal):.0f} bytes")
        print(f"{p}{prefix}changed_cells_median: "
              f"{statistics.median(f['changed'] for f in frames):.0f} cells")
        print(f"{p}{prefix}ratio_update_to_minimal_median: {statistics.median(r_min):.2f} x")
        print(f"{p}{prefix}ratio_update_to_minimal_max: {max(r_min):.2f} x")
        print(f"{p}{prefix}ratio_update_to_full_median: {100 * statistics.median(r_full):.1f} %")
        print(f"{p}{prefix}update_seconds_at_2400_median: {statistics.median(sent) / BAUD_BYTES:.2f} s")
        print(f"{p}{prefix}update_seconds_at_2400_max: {max(sent) / BAUD_BYTES:.2f} s")
    # what the telnet client counted, against what the renderer returned
    # (the difference: telnet negotiation, escaped bytes, bells)
    print(f"{p}rendered_bytes_total: {sent_total} bytes")
    print(f"{p}received_bytes_total: {received} bytes")


async def main_async(quick: bool) -> None:
    games = [("xterm", "ansi-bbs")] if quick else [("xterm", "ansi-bbs"), ("ansi-bbs", "xterm")]
    by_cs: dict[str, list[Recorder]] = {"cp437": [], "utf8": []}
    received: dict[str, int] = {"cp437": 0, "utf8": 0}
    started = time.perf_counter()
    for alice_term, bob_term in games:
        recorders, got = await one_game(alice_term, bob_term)
        for r, n in zip(recorders, got, strict=True):
            by_cs[r.charset].append(r)
            received[r.charset] += n
    print(f"games: {len(games)} games")
    for cs in ("cp437", "utf8"):
        report(cs, by_cs[cs], received[cs])
    print(f"bench_seconds: {time.perf_counter() - started:.1f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="one game instead of two")
    args = parser.parse_args()
    asyncio.run(main_async(args.quick))


if __name__ == "__main__":
    main()
