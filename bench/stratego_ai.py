"""Benchmark the Stratego bots.

Prints ``name: value unit`` lines: each level's win rate against a random
mover, level 5 against level 1, and the median and worst time per move of
each level (goals: >= 95 % at level 3+ over 200 games; <= 1 s at level 5).

    python bench/stratego_ai.py [--games N] [--quick] [--levels 1,3,5]
        [--versus N] [--ladder N] [--rungs 1,2,3,4] [--minutes M]
        [--jobs J] [--verbose] [--repeatable] [--busy SCALE]

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


def play(bots: dict[int, Any], options: dict[str, Any], times: dict[int, list[float] | None]) -> int | None:
    """Play one game; returns the winner (None: draw or ply cap)."""
    state = StrategoState(options)
    while state.to_move() and state.ply < MAX_PLIES:
        player = state.to_move()[0]
        bot = bots[player]
        t = time.perf_counter()
        action = bot.choose(state.observation(player), player)
        log = times[player]
        if state.phase == "play" and log is not None:
            log.append(time.perf_counter() - t)
        state.apply(player, action)
    out = state.outcome()
    return None if out is None else out.winner


def one_game(make_a: Callable[[int], Any], make_b: Callable[[int], Any], seed0: int,
             g: int) -> tuple[int | None, int, dict[str, Any], list[float], float]:
    """Game ``g`` of a match: (winner, our side, options, our move times, wall s).
    Sides alternate; the options are drawn from the game's own seed, so a
    game is the same whether the match runs in one process or several."""
    side = g % 2
    a, b = make_a(seed0 + g), make_b(seed0 + 1000 + g)
    opt_rng = random.Random(seed0 * 7919 + g)
    options = {"scout_strike": opt_rng.choice([1, 2]),
               "two_square": opt_rng.choice(["seed", "tournament"])}
    times: list[float] = []
    t = time.perf_counter()
    winner = play({side: a, 1 - side: b}, options, {side: times, 1 - side: None})
    return winner, side, options, times, time.perf_counter() - t


def _in_order(game: Callable[[int], Any], games: int, jobs: int) -> Iterator[Any]:
    """``game(0)``, ``game(1)`` ... as each ends: in this process, or in
    ``jobs`` worker processes (stopping early ends the games under way)."""
    if jobs <= 1:
        yield from map(game, range(games))
        return
    with multiprocessing.Pool(jobs) as pool:
        yield from pool.imap(game, range(games))


def match(name: str, make_a: Callable[[int], Any], make_b: Callable[[int], Any], games: int,
          seed0: int, minutes: float | None = None, jobs: int = 1,
          verbose: bool = False) -> list[float]:
    """Play ``games`` games, sides alternated, ``jobs`` at a time in worker
    processes; with ``minutes``, start no new game after that long (the
    figure then says how many were played)."""
    wins = draws = played = 0
    times: list[float] = []
    t0 = time.perf_counter()
    game = functools.partial(one_game, make_a, make_b, seed0)
    for g, (winner, side, options, tt, wall) in enumerate(_in_order(game, games, jobs)):
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
    ap.add_argument("--busy", type=float, default=None, metavar="SCALE",
                    help="only level 5 at this share of its budget against level 5 at rest (--games games)")
    args = ap.parse_args(argv)

    def level_bot(level: int) -> Callable[[int], Any]:
        return functools.partial(bot, level, args.repeatable)

    games = 4 if args.quick else args.games
    if args.busy is not None:
        start = time.perf_counter()
        times = match(f"stratego L5 at {args.busy:g} vs L5", functools.partial(busy_bot, args.busy, args.repeatable),
                      level_bot(5), games, 4242, args.minutes, args.jobs, args.verbose)
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
                      RandomMover, games, 100 * level, args.minutes, args.jobs, args.verbose)
        if times:
            print(f"stratego L{level} median move time: {statistics.median(times):.3f} s")
            print(f"stratego L{level} worst move time: {max(times):.3f} s", flush=True)
    if versus:
        match("stratego L5 vs L1", level_bot(5), level_bot(1),
              versus, 777, None, args.jobs, args.verbose)
    for low in [int(x) for x in args.rungs.split(",")] if args.ladder else ():
        times = match(f"stratego L{low + 1} vs L{low}", level_bot(low + 1), level_bot(low), args.ladder,
                      555 + 10 * low, args.minutes, args.jobs, args.verbose)
        if times:
            print(f"stratego L{low + 1} mean move time: {statistics.mean(times):.3f} s")
            print(f"stratego L{low + 1} worst move time: {max(times):.3f} s", flush=True)
    print(f"stratego bench wall time: {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
