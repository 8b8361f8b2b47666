"""Benchmark the Stratego bots.

Prints ``name: value unit`` lines: each level's win rate against a random
mover, level 5 against level 1, and the median and worst time per move of
each level (goals: >= 95 % at level 3+ over 200 games; <= 1 s at level 5).

    python bench/stratego_ai.py [--games N] [--quick] [--levels 1,3,5]
        [--versus N] [--ladder N] [--rungs 1,2,3,4] [--minutes M]
        [--jobs J] [--verbose] [--repeatable] [--busy SCALE] [--first G] [--logs DIR]

``--jobs 2`` plays two games at once in worker processes (a game's
options and seeds depend only on its number, so the figures are the same;
think times grow with the machine's load, and level 5's time cap may bind
more often on a busy machine). ``--repeatable`` takes the time cap away
(the node budget alone ends a move), so a match is the same on any load:
use it to compare versions, or when the machine is busy; think times are
then not the product's. ``--verbose`` prints a comment line a game.

``--busy 0.25`` plays only level 5 thinking that share of its budget (what
a busy server gives a question: ``server.services.thinkers``; samples,
belief samples and node budget scaled, ``ai.busy_level``) against level 5
at rest, ``--games`` games (``--minutes`` stops sooner): the strength a
busy server's shorter moves cost.

``--logs DIR`` keeps each game's log, in the referee's format that
``bench/stratego_pool.py`` keeps (``DIR/<match>/gameN.log``, the first
level named ``oursN.sh``), so ``bench/stratego_material.py`` and any
reader of the pool's logs read these games too: where a game was lost,
and from which move a change of the bot would play it otherwise.
``--first G`` numbers the games of each match from ``G`` (a game's seeds
and options follow its number: ``--first 7 --games 1`` plays game 7 again).

The ladder (``--ladder N``: N games of each level n+1 against level n,
sides alternated) is the figure behind "each level wins at least 65 % against
the one below"; draws (both stuck, or the ply cap) count as not won.
"""
from __future__ import annotations

import argparse
import functools
import multiprocessing
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from doors.stratego.ai import TIME_CAP, make_bot  # noqa: E402
from doors.stratego.rules import StrategoState  # noqa: E402

MAX_PLIES = 4000


class RandomMover:
    """Random legal moves (a bot's setup, so only play is random)."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self.setup = make_bot(1, seed)

    def choose(self, obs: Any, player: int) -> Any:
        if obs.phase == "setup":
            return self.setup.choose(obs, player)
        return self.rng.choice(obs.legal_actions())


def bot(level: int, repeatable: bool, seed: int) -> Any:
    """A level's bot; ``repeatable``: without its time cap (see the docstring)."""
    return make_bot(level, seed, None if repeatable else TIME_CAP)


def busy_bot(scale: float, repeatable: bool, seed: int) -> Any:
    """Level 5 thinking ``scale`` of its budget, as a busy server asks."""
    return make_bot(5, seed, None if repeatable else TIME_CAP, time_scale=scale)


def play(bots: dict[int, Any], options: dict[str, Any], times: dict[int, list[float] | None],
         record: GameLog | None = None) -> int | None:
    """Play one game; returns the winner (None: draw or ply cap)."""
    state = StrategoState(options)
    while state.to_move() and state.ply < MAX_PLIES:
        player = state.to_move()[0]
        bot = bots[player]
        t = time.perf_counter()
        action = bot.choose(state.observation(player), player)
        log = times[player]
        playing = state.phase == "play"
        if playing and log is not None:
            log.append(time.perf_counter() - t)
        strikes = len(state.strikes)
        state.apply(player, action)
        if record is not None:
            if playing:
                record.move(player, action, state.strikes[-1] if len(state.strikes) > strikes else None)
            elif state.phase == "play":
                record.setups(state.board)
    out = state.outcome()
    if record is not None:
        record.end(state.ply, None if out is None else out.winner)
    return None if out is None else out.winner


class GameLog:
    """One game in the referee's log format (``bench/stratego_pool.py``):
    each side's setup (``<name> RED SETUP`` and its four rows, Red's on
    rows 0-3, Blue's on 6-9), a line a move (``N RED: x y DIR [count]
    OUTCOME [attacker defender]``) and the end (``<name> <colour>
    VICTORY|DRAW_DEFAULT <turn> 0 0``, named the winner, or the first for
    a draw). Player 0 is Red; a square is ``y * 10 + x``."""

    SIDES = ("RED", "BLUE")
    STEP = {-10: "UP", 10: "DOWN", -1: "LEFT", 1: "RIGHT"}

    def __init__(self, path: str, names: tuple[str, str]):
        self.path, self.names = path, names
        self.lines: list[str] = []
        self.plies = 0

    @staticmethod
    def token(rank: str) -> str:
        return "s" if rank == "S" else rank

    def setups(self, board: list[Any]) -> None:
        for player, rows in ((0, range(0, 4)), (1, range(6, 10))):
            self.lines.append(f"{self.names[player]} {self.SIDES[player]} SETUP")
            for y in rows:
                self.lines.append("".join(self.token(p.rank) if (p := board[y * 10 + x]) is not None else "."
                                          for x in range(10)))

    def move(self, player: int, move: Any, strike: Any) -> None:
        turn = self.plies // 2 + 1
        self.plies += 1
        far = abs(move.to - move.frm)
        unit = 10 if far % 10 == 0 else 1
        step = self.STEP[(move.to - move.frm) // (far // unit)]
        text = f"{turn} {self.SIDES[player][:3]}: {move.frm % 10} {move.frm // 10} {step} {far // unit}"
        if strike is None:
            text += " OK"
        else:
            outcome = ("KILLS" if strike.attacker_survived else "BOTHDIE") if not strike.defender_survived \
                else "DIES"
            text += f" {outcome} {self.token(strike.attacker)} {self.token(strike.defender)}"
        self.lines.append(text)

    def end(self, plies: int, winner: int | None) -> None:
        side = 0 if winner is None else winner
        outcome = "DRAW_DEFAULT" if winner is None else "VICTORY"
        self.lines.append(f"{self.names[side]} {self.SIDES[side]} {outcome} {(plies + 1) // 2} 0 0")
        with open(self.path, "w") as f:
            f.write("\n".join(self.lines) + "\n")


def one_game(make_a: Callable[[int], Any], make_b: Callable[[int], Any], seed0: int,
             g: int, logs: str | None = None) -> tuple[int | None, int, dict[str, Any], list[float], float]:
    """Game ``g`` of a match: (winner, our side, options, our move times, wall s).
    Sides alternate; the options are drawn from the game's own seed, so a
    game is the same whether the match runs in one process or several.
    ``logs``: a folder to keep the game's log in (``GameLog``)."""
    side = g % 2
    a, b = make_a(seed0 + g), make_b(seed0 + 1000 + g)
    opt_rng = random.Random(seed0 * 7919 + g)
    options = {"scout_strike": opt_rng.choice([1, 2]),
               "two_square": opt_rng.choice(["seed", "tournament"])}
    times: list[float] = []
    t = time.perf_counter()
    names = (f"ours{g}.sh", "other") if side == 0 else ("other", f"ours{g}.sh")
    record = GameLog(os.path.join(logs, f"game{g}.log"), names) if logs is not None else None
    winner = play({side: a, 1 - side: b}, options, {side: times, 1 - side: None}, record)
    return winner, side, options, times, time.perf_counter() - t


def _in_order(game: Callable[[int], Any], numbers: range, jobs: int) -> Iterator[Any]:
    """``game(n)`` for each of ``numbers``, as each ends: in this process, or
    in ``jobs`` worker processes (stopping early ends the games under way)."""
    if jobs <= 1:
        yield from map(game, numbers)
        return
    with multiprocessing.Pool(jobs) as pool:
        yield from pool.imap(game, numbers)


def match(name: str, make_a: Callable[[int], Any], make_b: Callable[[int], Any], games: int,
          seed0: int, minutes: float | None = None, jobs: int = 1,
          verbose: bool = False, first: int = 0, logs: str | None = None) -> list[float]:
    """Play ``games`` games (numbered from ``first``), sides alternated,
    ``jobs`` at a time in worker processes; with ``minutes``, start no new
    game after that long (the figure then says how many were played);
    ``logs``: keep each game's log in ``logs/<name>/`` (``GameLog``)."""
    wins = draws = played = 0
    times: list[float] = []
    t0 = time.perf_counter()
    folder = None
    if logs is not None:
        folder = os.path.join(logs, name.replace(" ", "-"))
        os.makedirs(folder, exist_ok=True)
    game = functools.partial(one_game, make_a, make_b, seed0, logs=folder)
    numbers = range(first, first + games)
    for g, (winner, side, options, tt, wall) in zip(numbers, _in_order(game, numbers, jobs), strict=True):
        played += 1
        wins += winner == side
        draws += winner is None
        times += tt
        if verbose:
            result = "won" if winner == side else "drawn" if winner is None else "lost"
            print(f"# {name} game {g} ({options}): {result}, {len(tt)} moves, {wall:.0f} s; "
                  f"{wins}/{played}", flush=True)
        if minutes is not None and played >= 2 and time.perf_counter() - t0 > 60 * minutes:
            break
    print(f"{name} win rate: {100.0 * wins / played:.1f} % ({wins}/{played} games, "
          f"{draws} drawn/capped)", flush=True)
    print(f"{name} games: {played} games", flush=True)
    return times


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--quick", action="store_true", help="4 games per match")
    ap.add_argument("--levels", default="1,2,3,4,5")
    ap.add_argument("--versus", type=int, default=None,
                    help="games of level 5 vs level 1 (default: games // 4)")
    ap.add_argument("--ladder", type=int, default=0,
                    help="games of each level n+1 against level n (default 0: none)")
    ap.add_argument("--rungs", default="1,2,3,4",
                    help="ladder rungs to play, by the lower level (default 1,2,3,4)")
    ap.add_argument("--jobs", type=int, default=1, help="games played at once (worker processes)")
    ap.add_argument("--verbose", action="store_true", help="a comment line per game")
    ap.add_argument("--minutes", type=float, default=None,
                    help="per match against random or ladder: start no new game after this many minutes")
    ap.add_argument("--repeatable", action="store_true",
                    help="no time cap: the node budget alone ends a move, so a match is the same on any load")
    ap.add_argument("--first", type=int, default=0, help="number the games of each match from this")
    ap.add_argument("--logs", default=None, help="folder to keep each game's log in (the referee's format)")
    ap.add_argument("--busy", type=float, default=None, metavar="SCALE",
                    help="only level 5 at this share of its budget against level 5 at rest (--games games)")
    args = ap.parse_args(argv)

    def level_bot(level: int) -> Callable[[int], Any]:
        return functools.partial(bot, level, args.repeatable)

    games = 4 if args.quick else args.games
    if args.busy is not None:
        start = time.perf_counter()
        times = match(f"stratego L5 at {args.busy:g} vs L5", functools.partial(busy_bot, args.busy, args.repeatable),
                      level_bot(5), games, 4242, args.minutes, args.jobs, args.verbose, args.first, args.logs)
        if times:
            print(f"stratego L5 at {args.busy:g} median move time: {statistics.median(times):.3f} s")
            print(f"stratego L5 at {args.busy:g} worst move time: {max(times):.3f} s")
        print(f"stratego bench wall time: {time.perf_counter() - start:.0f} s")
        return
    versus = 2 if args.quick else (args.versus if args.versus is not None else max(2, games // 4))
    levels = [int(x) for x in args.levels.split(",") if x]
    start = time.perf_counter()
    for level in levels:
        times = match(f"stratego L{level} vs random", level_bot(level),
                      RandomMover, games, 100 * level, args.minutes, args.jobs, args.verbose, args.first,
                      args.logs)
        if times:
            print(f"stratego L{level} median move time: {statistics.median(times):.3f} s")
            print(f"stratego L{level} worst move time: {max(times):.3f} s", flush=True)
    if versus:
        match("stratego L5 vs L1", level_bot(5), level_bot(1),
              versus, 777, None, args.jobs, args.verbose, args.first, args.logs)
    for low in [int(x) for x in args.rungs.split(",")] if args.ladder else ():
        times = match(f"stratego L{low + 1} vs L{low}", level_bot(low + 1), level_bot(low), args.ladder,
                      555 + 10 * low, args.minutes, args.jobs, args.verbose, args.first, args.logs)
        if times:
            print(f"stratego L{low + 1} mean move time: {statistics.mean(times):.3f} s")
            print(f"stratego L{low + 1} worst move time: {max(times):.3f} s", flush=True)
    print(f"stratego bench wall time: {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
