"""The level ladder the door benches share: each level against the one below.

Not a bench of its own (``make bench`` skips it): ``towers_ai.py``,
``stone_towers_ai.py`` and ``kingdom_ai.py`` import it for ``--ladder N``.
Each rung plays N games of level n+1 against level n in pairs: the two
games of a pair share their start (``opening``) and any first-player
option, with the seats swapped; every seed follows from the rung and the
game number, so a run repeats. A win is 1 point, a draw or tie 1/2.

The rung's score s = (points + 1/2) / (games + 1) (the half game keeps a
clean sweep finite) gives the Elo difference 400 log10(s / (1 - s));
level 1 is 1000 and each level adds its rung: docs/LADDERS.md.
"""
from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

BASE = 1000.0

# (upper level, lower level, the upper level's seat, game number) -> the
# winning seat, or None for a draw or tie
PlayGame = Callable[[int, int, int, int], int | None]


def add_arguments(ap: argparse.ArgumentParser, opening: str = "moves") -> None:
    """The ladder's options, the same in every door's bench."""
    ap.add_argument("--ladder", type=int, default=0,
                    help="play the level ladder instead: N games per rung")
    ap.add_argument("--rungs", default="", help="the ladder's rungs by lower level (default: all)")
    ap.add_argument("--minutes", type=float, default=None,
                    help="ladder: start no new pair of games after this many minutes")
    ap.add_argument("--opening-plies", type=int, default=2,
                    help=f"random {opening} that start each pair of ladder games")


def rung(points: float, games: int) -> tuple[float, float]:
    """The score and the Elo difference of ``points`` out of ``games``."""
    score = (points + 0.5) / (games + 1)
    return score, 400.0 * math.log10(score / (1.0 - score))


def anchors(differences: Sequence[float], base: float = BASE) -> list[int]:
    """One rating per level, lowest first: ``base``, then each rung added."""
    out, total = [round(base)], base
    for diff in differences:
        total += diff
        out.append(round(total))
    return out


def seed(hi: int, game: int, salt: int = 0) -> int:
    """A fixed seed for ``game`` of the rung whose upper level is ``hi``."""
    return 100_000 * salt + 1000 * hi + game


def opening(state: Any, plies: int, rng_seed: int, legal: Callable[[Any], list[Any]] | None = None) -> Any:
    """``state`` after ``plies`` random moves (``legal``: the moves to draw
    from, by default all legal ones), fewer if the game ends first."""
    rng = random.Random(rng_seed)
    for _ in range(plies):
        if state.is_terminal():
            break
        moves = legal(state) if legal is not None else state.legal_actions()
        state.apply(state.current_player(), rng.choice(moves))
    return state


def run(name: str, lows: Sequence[int], games: int, play: PlayGame,
        levels: tuple[int, int], minutes: float | None = None) -> list[float]:
    """Play each rung (level lo + 1 against lo, for lo in ``lows``) and print
    ``name: value unit`` lines; returns the Elo differences, and prints the
    anchors when the rungs cover all the door's ``levels`` (lowest, highest).
    After ``minutes`` no new pair of games starts: a rung cut short counts
    the games it played (a prefix of the full run), later rungs are skipped."""
    stop = time.perf_counter() + 60 * minutes if minutes else float("inf")
    diffs = []
    for lo in lows:
        hi = lo + 1
        points = 0.0
        t0 = time.perf_counter()
        played = 0
        for g in range(games):
            if g % 2 == 0 and time.perf_counter() > stop:
                break
            played += 1
            hi_seat = g % 2
            winner = play(hi, lo, hi_seat, g)
            points += 0.5 if winner is None else float(winner == hi_seat)
            print(f"  {hi}v{lo}: {points:g}/{g + 1} after {time.perf_counter() - t0:.0f} s",
                  file=sys.stderr, flush=True)
        if not played:
            print(f"{name}_ladder_{hi}v{lo}_skipped: 0 games (out of time)")
            break
        score, diff = rung(points, played)
        diffs.append(diff)
        tag = f"{name}_ladder_{hi}v{lo}"
        print(f"{tag}_points: {points:g} points (of {played} games, {time.perf_counter() - t0:.0f} s)")
        print(f"{tag}_score: {score:.3f} ratio")
        print(f"{tag}_elo: {diff:+.0f} Elo", flush=True)
    print(f"{name}_ladder_rungs_not_rising: {sum(d <= 0 for d in diffs)} rungs")
    print(f"{name}_ladder_sum: {sum(diffs):+.0f} Elo")
    if list(lows) == list(range(levels[0], levels[1])) and len(diffs) == len(lows):
        print(f"{name}_ladder_anchors: {' '.join(str(a) for a in anchors(diffs))} Elo "
              f"(levels {levels[0]}-{levels[1]})", flush=True)
    return diffs


def parse_rungs(text: str, low: int, high: int) -> list[int]:
    """``"1,2,3"`` -> the lower levels of the rungs to play, checked against the levels."""
    lows = [int(x) for x in text.split(",") if x.strip()] if text else list(range(low, high))
    if any(not low <= lo < high for lo in lows):
        raise SystemExit(f"--rungs takes lower levels {low}-{high - 1}")
    return lows
