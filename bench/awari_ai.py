"""Awari AI figures: the level ladder, level-5 move times, the endgame table.

    python bench/awari_ai.py [--games N] [--pairs 2,3,4,5] [--quick] [--stones N] [--no-build]

Prints ``name: value unit`` lines. Each level plays the level below over N
games in pairs: both games of a pair start from the same random 4-ply
opening, with the sides swapped (points share: win 1, tie 1/2). The table is built
into a temporary file (``--quick``: 12 stones) to time it; the real table in
data/awari/ is left alone.
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from doors.awari import endgame  # noqa: E402
from doors.awari.ai import make_bot, shared_table  # noqa: E402
from doors.awari.rules import AwariState  # noqa: E402

OPENING_PLIES = 4


def opening(seed: int) -> AwariState:
    """A start position after a few random moves (shared by a pair of games)."""
    rng = random.Random(seed)
    s = AwariState({"first": 0})
    for _ in range(OPENING_PLIES):
        s.apply(s.current_player(), rng.choice(s.legal_actions()))
    return s


def play_game(levels: tuple[int, int], seed: int, times: dict[int, list[float]]):
    """Player 1 has levels[0], player 2 levels[1]. Returns the outcome."""
    table = {"endgame_table": str(ROOT / endgame.DEV_PATH)}     # the table `make serve` builds, if any
    bots = [make_bot(levels[0], seed, table), make_bot(levels[1], seed + 1, table)]
    s = opening(seed // 2)
    while not s.is_terminal():
        p = s.current_player()
        t0 = time.perf_counter()
        action = bots[p].choose(s.observation(p), p)
        times.setdefault(levels[p], []).append(time.perf_counter() - t0)
        s.apply(p, action)
    return s.outcome()


def ladder(games: int, times: dict[int, list[float]],
           pairs: tuple[int, ...] = (2, 3, 4, 5)) -> None:
    for hi in pairs:
        lo = hi - 1
        points = 0.0
        t0 = time.perf_counter()
        for g in range(games):
            hi_seat = g % 2
            levels = (hi, lo) if hi_seat == 0 else (lo, hi)
            out = play_game(levels, 2 * (1000 * hi + g // 2) + hi_seat, times)
            points += 0.5 if out.winner is None else float(out.winner == hi_seat)
            if (g + 1) % 10 == 0:
                print(f"  {hi}v{lo}: {points:g}/{g + 1} after "
                      f"{time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
        print(f"awari_level{hi}_vs_level{lo}_share: {points / games:.3f} points "
              f"({points:g}/{games}, {time.perf_counter() - t0:.1f} s)", flush=True)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--stones", type=int, default=None)
    ap.add_argument("--no-build", action="store_true")
    ap.add_argument("--pairs", default="2,3,4,5",
                    help="the upper level of each pair to play (level L plays L-1)")
    args = ap.parse_args()
    games = min(args.games, 4) if args.quick else args.games
    table = shared_table(ROOT / endgame.DEV_PATH)   # the table `make serve` builds, if any
    print(f"awari_endgame_table_loaded: {table.stones if table else 0} stones")
    times: dict[int, list[float]] = {}
    pairs = tuple(int(x) for x in args.pairs.split(",") if x.strip())
    if any(not 2 <= hi <= 5 for hi in pairs):
        ap.error("--pairs takes upper levels 2-5")
    ladder(games, times, pairs)
    t5 = times.get(5, [0.0])
    print(f"awari_level5_move_median: {statistics.median(t5) * 1000:.0f} ms")
    print(f"awari_level5_move_worst: {max(t5) * 1000:.0f} ms")
    print(f"awari_level5_moves_timed: {len(t5)} moves")
    if not args.no_build:
        stones = args.stones or (12 if args.quick else endgame.DEFAULT_STONES)
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "endgame.bin"
            t0 = time.perf_counter()
            built = endgame.build(stones, path)
            dt = time.perf_counter() - t0
            print(f"awari_endgame_build_time: {dt:.1f} s")
            print(f"awari_endgame_stones: {built.stones} stones")
            print(f"awari_endgame_entries: {built.entries} entries")
            print(f"awari_endgame_bytes: {os.path.getsize(path)} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
