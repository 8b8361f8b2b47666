"""Our Stratego computer against an outside bot, through the UCC 2012 referee.

(For the whole pool of outside bots and the scripted opponents, one table:
``bench/stratego_pool.py``, which plays each game through this file.)

Plays our level (default 5) against an outside program (the UCC 2012 contest
winner ``peternlewis``) through the contest referee's line protocol, colours
alternated, and prints ``name: value unit`` lines: games, wins, losses,
draws, how each game ended, mean and max think time of our side, and how
many of its moves came near ``ai.TIME_CAP`` (the machine too loaded for
the node budget to bind: a weaker bot, runs not comparable).

Contest options: a scout may move several squares and strike at the end of
its run (our ``scout_strike`` 2). The referee has no two-square rule, so our
side keeps its own (``two_square`` "seed"); the outside bot is bound by none.

Building the referee and the bot (nothing of their code is committed; use a
temporary folder)::

    # with the mounted fetch tool: source "github:braathwaate/strategoevaluator"
    git clone <fetched git dir> /tmp/peers/se
    cd /tmp/peers/se/manager
    # graphics off: comment out "#define BUILD_GRAPHICS" (graphics.h line 1)
    # and link with "LIBRARIES = -lpthread" only (Makefile)
    # the headers lack <cstring>/<cstdlib>/<unistd.h>: add them, then
    make
    cd ../agents/peternlewis && rm -f peternlewis peternlewis.o && make

``peternlewis`` seeds from the clock only where it picks its setup or
the mirror of it (``time(NULL) & 1`` in ``PositionPieces``); everything
else it does is fixed. For runs that repeat game for game (to compare two
versions of our side on the same games), build a copy that reads the
seed the bench gives each game, and run with ``--repeatable``::

    mkdir /tmp/peers/pnl-seeded && cd /tmp/peers/pnl-seeded
    cp ../se/agents/peternlewis/{peternlewis.cpp,peternlewis.h,Makefile} .
    sed -i 's/(time( NULL ) & 1)/((getenv("PEER_SEED") ? atol(getenv("PEER_SEED")) : time(NULL)) \\& 1)/' \\
        peternlewis.cpp
    make

Run (long; under nice, in the background; the paths may also come from
``$STRATEGO_REFEREE`` and ``$STRATEGO_PEER``; ``--quick`` without them says
so and does nothing, for ``make bench``)::

    nice -n 10 python bench/stratego_vs_peers.py \\
        --referee /tmp/peers/se/manager/stratego \\
        --peer /tmp/peers/se/agents/peternlewis/peternlewis [--games 40] [--quick]

A stopped ``--repeatable`` run goes on with ``--first N`` (the same seed):
game N onwards, each game as the whole run plays it.

The same file is the adapter the referee starts for our side
(``--agent``): it speaks the referee's protocol on stdin/stdout, keeps our
own observation (enemy ranks only as strikes reveal them) and asks
``make_bot(level, seed).choose(observation, player)``.
"""
from __future__ import annotations

import argparse
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any, TextIO

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from doors.stratego.ai import TIME_CAP, make_bot  # noqa: E402
from doors.stratego.observation import MOVES_KEPT, Seen, StrategoObservation  # noqa: E402
from doors.stratego.pieces import RANKS, Fill, Move, Phase  # noqa: E402
from doors.stratego.record import tracks  # noqa: E402
from doors.stratego.rules import StrategoState, Strike  # noqa: E402

OPTIONS = {"scout_strike": 2, "two_square": "seed"}
DIRS = {"UP": -10, "DOWN": 10, "LEFT": -1, "RIGHT": 1}
TOKEN_RANK = {"s": "S", "S": "S", "B": "B", "F": "F", **{str(i): str(i) for i in range(1, 10)}}


# ----- the adapter (our side, started by the referee) ---------------------------
def parse_move(text: str) -> tuple[int, int, int, list[str]]:
    """A move as the referee reports it, ``x y DIR [count] OUTCOME [ranks]``
    (a program may leave the count out: one square): its squares as
    ``y * 10 + x``, the count, and the words after it."""
    words = text.split()
    frm = int(words[1]) * 10 + int(words[0])
    rest = words[3:]
    mult = 1
    if rest and rest[0].isdigit():
        mult = int(rest[0])
        rest = rest[1:]
    return frm, frm + DIRS[words[2]] * mult, mult, rest


class Adapter:
    """Our bot behind the referee's protocol. RED is our player 0 (rows 1-4 at
    the top), BLUE player 1; square = y * 10 + x."""

    def __init__(self, level: int, seed: int, times_path: str | None, repeatable: bool = False):
        # repeatable: the node budget alone ends a move, the same game on any load
        self.bot = make_bot(level, seed, None if repeatable else TIME_CAP)
        self.times_path = times_path
        self.me = 0
        self.board: list[list[Any] | None] = [None] * 100   # [owner, rank|None, moved, revealed]
        self.lost: tuple[list[str], list[str]] = ([], [])
        self.moves: list[tuple[int, int, int]] = []
        self.strikes: list[Strike] = []

    @property
    def last_strike(self) -> Strike | None:
        return self.strikes[-1] if self.strikes else None

    def observation(self) -> StrategoObservation:
        squares = tuple(None if p is None else Seen(p[0], p[1], p[2], p[3]) for p in self.board)
        record = tracks(squares, self.moves, self.strikes, self.me)
        return StrategoObservation(
            viewer=self.me, phase=Phase.PLAY, to_move=(self.me,), options=tuple(sorted(OPTIONS.items())),
            squares=squares, ready=(True, True),
            lost=tuple(tuple(sorted(x, key=RANKS.index)) for x in self.lost),  # type: ignore[arg-type]
            moves=tuple(self.moves[-MOVES_KEPT:]), ply=len(self.moves), last_strike=self.last_strike,
            outcome=None, strikes=tuple(self.strikes),
            tracks=record.tracks, walkers=record.walkers)

    def setup_rows(self) -> list[str]:
        state = StrategoState(OPTIONS)
        fill = self.bot.choose(state.observation(self.me), self.me)
        assert isinstance(fill, Fill), fill          # a setup is one Fill
        grid = dict(fill.placements)
        rows = range(0, 4) if self.me == 0 else range(6, 10)
        for sq, rank in grid.items():
            self.board[sq] = [self.me, rank, False, False]
        enemy = range(60, 100) if self.me == 0 else range(0, 40)
        for sq in enemy:
            self.board[sq] = [1 - self.me, None, False, False]
        return ["".join("s" if grid[r * 10 + c] == "S" else grid[r * 10 + c] for c in range(10))
                for r in rows]

    def apply(self, player: int, line: str) -> bool:
        """Apply a reported move; False if the game is over."""
        words = line.split()
        if not words or words[0] == "QUIT":
            return False
        if words[0] == "START":
            return True
        frm, to, mult, rest = parse_move(line)
        outcome = rest[0] if rest else "OK"
        if outcome in ("ILLEGAL", "VICTORY_FLAG", "VICTORY_ATTRITION"):
            return False
        piece = self.board[frm]
        assert piece is not None, line
        piece[2] = True
        if mult > 1:              # our rules reveal a scout that runs
            piece[1], piece[3] = "9", True
        self.board[frm] = None
        self.moves.append((player, frm, to))
        if outcome == "OK":
            self.board[to] = piece
            return True
        a, dr = TOKEN_RANK[rest[1]], TOKEN_RANK[rest[2]]
        target = self.board[to]
        assert target is not None, line
        a_ok, d_ok = outcome == "KILLS", outcome == "DIES"
        self.strikes.append(Strike(len(self.moves), player, frm, to, a, dr, a_ok, d_ok, not target[3], target[2]))
        if not a_ok:
            self.lost[player].append(a)
        if not d_ok:
            self.lost[1 - player].append(dr)
        piece[1], piece[3] = a, True
        target[1], target[3] = dr, True
        self.board[to] = piece if a_ok else target if d_ok else None
        return True

    def move_text(self, move: Move) -> str:
        x, y = move.frm % 10, move.frm // 10
        diff = move.to - move.frm
        if abs(diff) < 10:
            d, n = ("RIGHT" if diff > 0 else "LEFT"), abs(diff)
        else:
            d, n = ("DOWN" if diff > 0 else "UP"), abs(diff) // 10
        return f"{x} {y} {d} {n}"

    def choose(self, obs: StrategoObservation) -> Move:
        """Our side's move (a scripted opponent lays its plan over it)."""
        move = self.bot.choose(obs, self.me)
        assert isinstance(move, Move)
        return move

    def run(self, inp: TextIO, out: TextIO) -> None:
        header = inp.readline().split()
        self.me = 0 if header[0] == "RED" else 1
        for row in self.setup_rows():
            out.write(row + "\n")
        out.flush()
        while True:
            line = inp.readline()
            if not line or line.startswith("QUIT"):
                return
            if not self.apply(1 - self.me, line.strip()):
                return
            for _ in range(10):
                inp.readline()
            obs = self.observation()
            if not obs.legal_actions():
                # our own two-square rule leaves no move: a loss by our rules
                out.write("SURRENDER\n")
                out.flush()
                return
            t = time.perf_counter()
            move = self.choose(obs)
            took = time.perf_counter() - t
            if self.times_path:
                with open(self.times_path, "a") as fh:
                    fh.write(f"{took:.4f}\n")
            out.write(self.move_text(move) + "\n")
            out.flush()
            reply = inp.readline()
            if not reply or reply.startswith("QUIT") or not self.apply(self.me, reply.strip()):
                return


# ----- the bench ------------------------------------------------------------------
REASONS = (("Captured the flag", "flag"), ("Destroyed all mobile", "attrition"),
           ("surrendered", "surrender"), ("draw after", "turn limit"),
           ("neither player has mobile", "no mobile pieces"), ("timeout", "timeout"),
           ("Unintelligable", "bad response"))


def start_game(cmd: list[str], env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    """The referee, in a process group of its own with the programs it starts."""
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                            start_new_session=True, env=env)


def stop_game(proc: subprocess.Popen[str]) -> None:
    """A game that stalls is stopped whole: the referee and both programs."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:      # every one of them had already ended
        pass
    proc.communicate()


def peer_seed(seed: int, game: int) -> int:
    """``$PEER_SEED`` for the programs of one game: an outside bot built to
    read it (see the docstring) plays that game the same way each run."""
    return random.Random(f"{seed}/{game}").randrange(1 << 30)


def play_game(args: argparse.Namespace, game: int, tmp: str) -> tuple[str, str, float]:
    """One game: (result for us: win/loss/draw, how it ended, wall seconds)."""
    ours_red = game % 2 == 0
    times = os.path.join(tmp, f"times{game}.txt")
    agent = os.path.join(tmp, f"ours{game}.sh")
    with open(agent, "w") as fh:
        fh.write(f"#!/bin/sh\n{'PYTHONHASHSEED=0 ' if args.repeatable else ''}"
                 f"exec {sys.executable} -u {os.path.abspath(__file__)} --agent "
                 f"--level {args.level} --seed {args.seed + game} --times {times}"
                 f"{' --repeatable' if args.repeatable else ''}\n")
    os.chmod(agent, 0o755)
    log = os.path.join(tmp, f"game{game}.log")
    red, blue = (agent, args.peer) if ours_red else (args.peer, agent)
    t = time.perf_counter()
    proc = start_game([args.referee, "-o", log, "-T", str(args.timeout), "-m", str(args.max_turns), red, blue],
                      env={**os.environ, "PEER_SEED": str(peer_seed(args.seed, game))})
    try:
        stdout, _ = proc.communicate(timeout=args.game_timeout)
    except subprocess.TimeoutExpired:       # counted, and the run goes on
        stop_game(proc)
        return "draw", "stalled", time.perf_counter() - t
    except BaseException:       # CTRL-C: the game, in its own group, goes with the run
        stop_game(proc)
        raise
    wall = time.perf_counter() - t
    words = stdout.split()
    text = open(log).read() if os.path.exists(log) else ""
    how = next((name for key, name in REASONS if key in text), "other")
    if len(words) < 3:
        return "draw", "error", wall
    colour, outcome = words[1], words[2]
    we_named = (colour == "RED") == ours_red
    if outcome in ("DRAW", "DRAW_DEFAULT"):
        result = "draw"
    elif outcome in ("VICTORY", "DEFAULT"):
        result = "win" if we_named else "loss"
    else:                      # DEFEAT, SURRENDER, ILLEGAL by the named player
        result = "loss" if we_named else "win"
    if how == "turn limit":     # the referee may fail after declaring it (a broken pipe): a draw
        result = "draw"
    if outcome in ("ILLEGAL", "DEFAULT") and how in ("other", "timeout", "bad response"):
        how = "illegal move" if how == "other" else how
    return result, how, wall


def bench(args: argparse.Namespace) -> None:
    tmp = tempfile.mkdtemp(prefix="stratego_peers_")
    tally = {"win": 0, "loss": 0, "draw": 0}
    ends: dict[str, int] = {}
    start = time.perf_counter()
    played = range(args.first, args.games)     # a whole run, or its tail (``--first``)
    for g in played:
        result, how, wall = play_game(args, g, tmp)
        tally[result] += 1
        key = f"{result} by {how}"
        ends[key] = ends.get(key, 0) + 1
        if args.verbose:
            print(f"# game {g} ({'RED' if g % 2 == 0 else 'BLUE'}): {result} by {how}, {wall:.0f} s",
                  flush=True)
    times = []
    games = len(played)
    for g in played:
        path = os.path.join(tmp, f"times{g}.txt")
        if os.path.exists(path):
            times += [float(x) for x in open(path).read().split()]
    print(f"peers games: {games} games")
    print(f"peers wins: {tally['win']} games")
    print(f"peers losses: {tally['loss']} games")
    print(f"peers draws: {tally['draw']} games")
    print(f"peers win rate: {100.0 * tally['win'] / games:.1f} %")
    for key in sorted(ends):
        print(f"peers {re.sub(r'[^a-z ]', '', key)}: {ends[key]} games")
    for line in think_lines(times):
        print(line)
    print(f"peers wall time: {time.perf_counter() - start:.0f} s")
    print(f"# logs in {tmp}")


def think_lines(times: list[float]) -> list[str]:
    """The think-time lines of a run (none without times). On a loaded
    machine the time cap, not the node budget, ends the sampling: fewer
    samples, a weaker bot. Compare runs only where few moves came near it."""
    if not times:
        return []
    near = sum(t > 0.8 * TIME_CAP for t in times)
    return [f"peers mean think time: {statistics.mean(times):.3f} s",
            f"peers max think time: {max(times):.3f} s",
            f"peers moves near the time cap: {100.0 * near / len(times):.1f} %"]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--agent", action="store_true", help="run as the referee's program for our side")
    ap.add_argument("--referee", default=os.environ.get("STRATEGO_REFEREE"),
                    help="path of the built referee (manager/stratego); default $STRATEGO_REFEREE")
    ap.add_argument("--peer", default=os.environ.get("STRATEGO_PEER"),
                    help="path of the outside bot's program; default $STRATEGO_PEER")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--quick", action="store_true", help="4 games")
    ap.add_argument("--first", type=int, default=0,
                    help="start at this game (games FIRST to GAMES-1, each as in a whole run: "
                         "a stopped --repeatable run goes on where it stopped)")
    ap.add_argument("--level", type=int, default=5)
    ap.add_argument("--seed", type=int, default=random.randrange(1 << 20))
    ap.add_argument("--times", help="(agent) file to append think times to")
    ap.add_argument("--timeout", type=float, default=10.0, help="referee's per-move timeout, s")
    ap.add_argument("--max-turns", type=int, default=2000)
    ap.add_argument("--game-timeout", type=float, default=900.0,
                    help="s; a game still running then is stopped, a draw by 'stalled' (one takes 1-2 min)")
    ap.add_argument("--verbose", action="store_true", help="a comment line per game")
    ap.add_argument("--repeatable", action="store_true",
                    help="our side without its time cap (the node budget alone), so that a run "
                         "against a bot that reads $PEER_SEED plays the same games again")
    args = ap.parse_args(argv)
    if args.quick:
        args.games = 4
    if not 0 <= args.first < args.games:
        ap.error("--first must name one of the run's games (0 to GAMES-1)")
    if args.agent:
        Adapter(args.level, args.seed, args.times, args.repeatable).run(sys.stdin, sys.stdout)
        return
    if not args.referee or not args.peer:
        if args.quick:     # ``make bench`` on a machine without the outside programs
            print("# peers bench not run: no referee/peer built (see the docstring)")
            return
        ap.error("--referee and --peer are needed (see the docstring to build them)")
    bench(args)


if __name__ == "__main__":
    main()
