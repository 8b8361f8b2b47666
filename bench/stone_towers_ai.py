"""Benchmark the Stone Towers top-level bot against random and greedy play,
or the level ladder.

Prints ``name: value unit`` lines. Sides alternate game by game.

``--ladder N`` plays N games of each level n+1 against level n instead
(``bench/ladder.py``): the games of a pair share a random opening (one
castle each, ``--opening-plies``), seats swapped (red, player 1, always
moves first). The bots have no time cap: a run repeats on any load.

    python bench/stone_towers_ai.py --games 200 [--size 9] [--turns 20]
    python bench/stone_towers_ai.py --ladder 40 [--rungs 1,2]
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import ladder  # noqa: E402

from doors.stone_towers import INFO  # noqa: E402
from doors.stone_towers.ai import GreedyBot, make_bot  # noqa: E402
from doors.stone_towers.rules import StoneTowersState  # noqa: E402


class RandomBot:
    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def choose(self, observation, player):
        return self.rng.choice(observation.legal_actions(player))


def play(bots, options, times, timed_seat):
    state = StoneTowersState(options)
    while not state.is_terminal():
        p = state.current_player()
        t0 = time.perf_counter()
        action = bots[p].choose(state.observation(p), p)
        if p == timed_seat:
            times.append(time.perf_counter() - t0)
        state.apply(p, action)
    return state.outcome()


def match(name, level, opponent, games, options, times):
    wins = draws = margin = 0
    for g in range(games):
        seat = g % 2
        bots = [None, None]
        bots[seat] = make_bot(level, 1000 + g)
        bots[1 - seat] = opponent(2000 + g)
        out = play(bots, options, times, seat)
        if out.winner is None:
            draws += 1
        elif out.winner == seat:
            wins += 1
        margin += out.score[seat] - out.score[1 - seat]
    print(f"{name}_win_rate: {100 * wins / games:.1f} %")
    print(f"{name}_draw_rate: {100 * draws / games:.1f} %")
    print(f"{name}_mean_margin: {margin / games:.1f} squares")
    sys.stdout.flush()


def ladder_game(options, opening_plies):
    """One ladder game: the opening follows the pair."""
    def play_one(hi, lo, hi_seat, g):
        bots = [None, None]
        bots[hi_seat] = make_bot(hi, ladder.seed(hi, g))
        bots[1 - hi_seat] = make_bot(lo, ladder.seed(hi, g, salt=2))
        state = StoneTowersState(options)
        ladder.opening(state, opening_plies, ladder.seed(hi, g // 2, salt=1))
        while not state.is_terminal():
            p = state.current_player()
            state.apply(p, bots[p].choose(state.observation(p), p))
        return state.outcome().winner
    return play_one


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--size", type=int, default=9)
    ap.add_argument("--turns", type=int, default=20)
    ap.add_argument("--level", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="a short run: 4 games")
    ladder.add_arguments(ap)
    args = ap.parse_args()
    if args.quick:
        args.games = 4
    options = {"size": args.size, "turns": args.turns}
    if args.ladder:
        low, high = INFO.levels
        t0 = time.perf_counter()
        print(f"board: {args.size}x{args.size}, {args.turns} turns")
        ladder.run("stone_towers", ladder.parse_rungs(args.rungs, low, high), args.ladder,
                   ladder_game(options, args.opening_plies), INFO.levels, args.minutes)
        print(f"wall_time: {time.perf_counter() - t0:.0f} s")
        return
    times: list[float] = []
    print(f"games: {args.games} per opponent")
    print(f"board: {args.size}x{args.size}, {args.turns} turns")
    match(f"level{args.level}_vs_random", args.level, RandomBot, args.games, options, times)
    match(f"level{args.level}_vs_greedy", args.level, GreedyBot, args.games, options, times)
    print(f"median_move_time: {1000 * statistics.median(times):.1f} ms")
    print(f"worst_move_time: {1000 * max(times):.1f} ms")


if __name__ == "__main__":
    main()
