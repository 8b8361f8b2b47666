"""Bench the Towers bots: the top level against random and against level 1,
or the level ladder.

Plays N games against each opponent, sides (and who places first)
alternated, and prints one figure per line as ``name: value unit``:
win rates (a draw counts half), mean margin, and the top level's move time
median and worst.

``--ladder N`` plays N games of each level n+1 against level n instead
(``bench/ladder.py``): the games of a pair share who places first and a
random opening (one tower each, ``--opening-plies``), seats swapped; who
places first alternates pair by pair. The bots search by their node budget
alone (their time cap off), so a run repeats on any load.

    .venv/bin/python bench/towers_ai.py --games 4
    .venv/bin/python bench/towers_ai.py --ladder 40 [--rungs 1,2,3,4]
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import ladder  # noqa: E402

from doors._ai.alphabeta import AlphaBetaBot  # noqa: E402
from doors._ai.random_bot import RandomBot  # noqa: E402
from doors.towers import INFO  # noqa: E402
from doors.towers.ai import MixedBot, make_bot  # noqa: E402
from doors.towers.rules import TowersState  # noqa: E402


def play(level: int, opponent: Callable[[int], Any], games: int,
         times: list[float]) -> tuple[float, float]:
    """Win rate and mean margin of ``level`` against ``opponent(seed)``."""
    points, margins = 0.0, 0
    for g in range(games):
        side = g % 2
        state = TowersState({"first": (g // 2) % 2})
        bots = {side: make_bot(level, seed=g), 1 - side: opponent(1000 + g)}
        while not state.is_terminal():
            p = state.current_player()
            start = time.monotonic()
            action = bots[p].choose(state.observation(p), p)
            if p == side:
                times.append(time.monotonic() - start)
            state.apply(p, action)
        out = state.outcome()
        assert out is not None, "the game ended"
        print(f"  game {g + 1}/{games}: winner {out.winner} (bench side {side})",
              file=sys.stderr, flush=True)
        assert out.score is not None, "Towers scores every game"
        margins += out.score[side] - out.score[1 - side]
        points += 1.0 if out.winner == side else 0.5 if out.winner is None else 0.0
    return points / games, margins / games


def budget_only(bot: Any) -> Any:
    """``bot`` with its search's time cap off: its node budget alone ends a move."""
    search = bot.strong if isinstance(bot, MixedBot) else bot
    if isinstance(search, AlphaBetaBot):
        search.max_time = None
    return bot


def ladder_game(opening_plies: int) -> ladder.PlayGame:
    """One ladder game: who places first and the opening follow the pair."""
    def play_one(hi: int, lo: int, hi_seat: int, g: int) -> int | None:
        pair = g // 2
        state = TowersState({"first": pair % 2})
        ladder.opening(state, opening_plies, ladder.seed(hi, pair, salt=1))
        bots = {hi_seat: budget_only(make_bot(hi, ladder.seed(hi, g))),
                1 - hi_seat: budget_only(make_bot(lo, ladder.seed(hi, g, salt=2)))}
        while not state.is_terminal():
            p = state.current_player()
            state.apply(p, bots[p].choose(state.observation(p), p))
        out = state.outcome()
        assert out is not None, "the game ended"
        return out.winner
    return play_one


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="games per opponent")
    parser.add_argument("--level", type=int, default=5, help="the level to bench")
    parser.add_argument("--quick", action="store_true", help="a short run: 1 game each")
    ladder.add_arguments(parser, opening="placements")
    args = parser.parse_args(argv)
    if args.ladder:
        low, high = INFO.levels
        t0 = time.monotonic()
        ladder.run("towers", ladder.parse_rungs(args.rungs, low, high), args.ladder,
                   ladder_game(args.opening_plies), INFO.levels, args.minutes)
        print(f"wall_time: {time.monotonic() - t0:.0f} s")
        return
    if args.quick:
        args.games = 1
    times: list[float] = []
    t0 = time.monotonic()
    rate, margin = play(args.level, lambda seed: RandomBot(seed), args.games, times)
    print(f"win_rate_vs_random: {rate:.2f} ratio", flush=True)
    print(f"margin_vs_random: {margin:.1f} points")
    rate, margin = play(args.level, lambda seed: make_bot(1, seed), args.games, times)
    print(f"win_rate_vs_level1: {rate:.2f} ratio")
    print(f"margin_vs_level1: {margin:.1f} points")
    print(f"move_time_median: {statistics.median(times):.2f} s")
    print(f"move_time_worst: {max(times):.2f} s")
    print(f"games: {2 * args.games} games")
    print(f"wall_time: {time.monotonic() - t0:.0f} s")


if __name__ == "__main__":
    main()
