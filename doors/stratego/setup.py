"""Setups as text (for saved, named setups) and random fills.

A setup's text is four lines of ten rank characters (1-9, S, B, F) as its
owner sees them: the first line is the front row (next to the lakes), the
last the back row; columns A-J left to right. It is relative to the own side,
so a saved setup works for either player.
"""
from __future__ import annotations

import random
from collections.abc import Iterable

from .pieces import COUNTS, LAKES, NEIGHBOURS, RANKS, Fill, setup_squares

__all__ = ["SetupError", "board_row", "setup_to_text", "setup_from_text",
           "random_fill", "make_setup"]


class SetupError(ValueError):
    """Text that is not a complete, valid setup."""


def board_row(player: int, line: int) -> int:
    """Board row index (0-9) of line ``line`` (0 = front) of a setup text."""
    return 3 - line if player == 0 else 6 + line


def setup_to_text(player: int, placements: Iterable[tuple[int, str]]) -> str:
    """The text of a complete setup of ``player`` (placements on the board)."""
    grid = {sq: rank for sq, rank in placements}
    lines = []
    for line in range(4):
        row = board_row(player, line)
        chars = [grid.get(row * 10 + col, ".") for col in range(10)]
        lines.append("".join(chars))
    text = "\n".join(lines)
    setup_from_text(player, text)    # validates
    return text


def setup_from_text(player: int, text: str) -> tuple[tuple[int, str], ...]:
    """The placements of a setup text for ``player``; raises SetupError."""
    lines = [ln.strip().upper() for ln in text.strip().splitlines() if ln.strip()]
    if len(lines) != 4 or any(len(ln) != 10 for ln in lines):
        raise SetupError("A setup is 4 lines of 10 pieces.")
    counts = dict.fromkeys(RANKS, 0)
    out = []
    for line, chars in enumerate(lines):
        row = board_row(player, line)
        for col, ch in enumerate(chars):
            if ch not in COUNTS:
                raise SetupError(f"Not a piece: {ch!r}.")
            counts[ch] += 1
            out.append((row * 10 + col, ch))
    if counts != COUNTS:
        raise SetupError("A setup has exactly the 40 pieces of an army.")
    out.sort()
    return tuple(out)


def random_fill(player: int, placed: Iterable[tuple[int, str]],
                rng: random.Random) -> Fill:
    """A Fill keeping ``placed`` and putting the rest of the army on the
    empty own squares at random (the flag, if still to place, goes on the
    back row when a square there is free)."""
    keep = dict(placed)
    left: list[str] = []
    for rank in RANKS:
        left += [rank] * (COUNTS[rank] - sum(1 for r in keep.values() if r == rank))
    empty = [sq for sq in setup_squares(player) if sq not in keep]
    rng.shuffle(empty)
    back = board_row(player, 3)
    if "F" in left:
        backs = [sq for sq in empty if sq // 10 == back]
        if backs:
            sq = rng.choice(backs)
            empty.remove(sq)
            keep[sq] = "F"
            left.remove("F")
    rng.shuffle(left)
    for sq, rank in zip(empty, left, strict=False):
        keep[sq] = rank
    return Fill(tuple(sorted(keep.items())))


# ----- the computer's setups ---------------------------------------------------
_ROW_W = {"1": (1, 3, 2, 1), "2": (1, 3, 2, 1), "3": (2, 3, 2, 1), "4": (3, 3, 2, 1),
          "5": (3, 2, 2, 1), "6": (3, 2, 2, 1), "7": (2, 2, 2, 2), "8": (1, 1, 3, 4),
          "9": (5, 3, 2, 1), "S": (0.2, 3, 2, 1)}


def make_setup(player: int, rng: random.Random) -> Fill:
    """A sensible, varied setup for ``player``: no movable piece is walled in
    by its own bombs, and the Marshal and the General stand two columns
    apart or more (``_apart``)."""
    for _ in range(200):
        fill = _one_setup(player, rng)
        grid = dict(fill.placements)
        if _all_free(player, grid) and _apart(grid):
            return fill
    return fill


def _apart(grid: dict[int, str]) -> bool:
    """The Marshal and the General two columns apart or more, so that one
    flank does not hold both."""
    col = {r: s % 10 for s, r in grid.items() if r in ("1", "2")}
    return abs(col["1"] - col["2"]) >= 2


def _all_free(player: int, grid: dict[int, str]) -> bool:
    front = board_row(player, 0)
    start = [s for s in range(front * 10, front * 10 + 10)
             if s not in LAKES and grid.get(s) not in ("B", "F")]
    dist = [99] * 100
    for s in start:
        dist[s] = 0
    frontier = list(start)
    while frontier:
        nxt = []
        for s in frontier:
            for n in NEIGHBOURS[s]:
                if dist[n] == 99 and n in grid and grid[n] not in ("B", "F"):
                    dist[n] = 1
                    nxt.append(n)
        frontier = nxt
    return all(dist[s] < 99 for s, r in grid.items() if r not in ("B", "F"))


def _one_setup(player: int, rng: random.Random) -> Fill:
    grid: dict[int, str] = {}
    back = board_row(player, 3)
    # a corner flag needs only two bombs to ring, and a Miner that walks up
    # the edge column opens it in two strikes: corners are drawn less often
    fcol = rng.choices(range(10), (0.4, 1, 1, 1, 1, 1, 1, 1, 1, 0.4))[0]
    flag = back * 10 + fcol
    grid[flag] = "F"
    bombs = 6
    guard = [s for s in NEIGHBOURS[flag] if s // 10 in [board_row(player, k) for k in range(4)]]
    # always ringed: an open flag falls to the first piece that finds it
    for s in guard:
        grid[s] = "B"
        bombs -= 1
    lines_w = (0.3, 1.0, 2.0, 2.0)
    while bombs:
        line = rng.choices(range(4), lines_w)[0]
        s = board_row(player, line) * 10 + rng.randrange(10)
        if s not in grid:
            grid[s] = "B"
            bombs -= 1
    order = ["1", "2", "S", "3", "3", "8", "8", "8", "4", "4", "4"] + ["5"] * 4 + \
        ["6"] * 4 + ["7"] * 4 + ["8", "8"] + ["9"] * 8
    general = None
    for rank in order:
        empty = [s for s in setup_squares(player) if s not in grid]
        if rank == "S" and general is not None and rng.random() < 0.7:
            near = [s for s in NEIGHBOURS[general] if s in empty and _line(player, s) > 0]
            if near:
                grid[rng.choice(near)] = "S"
                continue
        weights = [_ROW_W[rank][_line(player, s)] for s in empty]
        if rank in "123":   # spread the strong pieces: avoid their neighbours
            weights = [w * (0.2 if any(grid.get(n) in ("1", "2", "3") for n in NEIGHBOURS[s])
                            else 1.0) for w, s in zip(weights, empty, strict=True)]
        s = rng.choices(empty, weights)[0]
        grid[s] = rank
        if rank == "2":
            general = s
    assert len(grid) == 40 and all(sum(1 for r in grid.values() if r == k) == COUNTS[k]
                                   for k in RANKS)
    return Fill(tuple(sorted(grid.items())))


def _line(player: int, sq: int) -> int:
    row = sq // 10
    return 3 - row if player == 0 else row - 6
