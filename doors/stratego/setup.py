"""Setups as text (for saved, named setups) and random fills.

A setup's text is four lines of ten rank characters (1-9, S, B, F) as its
owner sees them: the first line is the front row (next to the lakes), the
last the back row; columns A-J left to right. It is relative to the own side,
so a saved setup works for either player.
"""
from __future__ import annotations

import random
from collections.abc import Iterable

from .pieces import COUNTS, RANKS, Fill, setup_squares

__all__ = ["SetupError", "board_row", "setup_to_text", "setup_from_text",
           "random_fill"]


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
