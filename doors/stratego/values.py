"""What a piece is worth to the Stratego search, and what a strike
takes.

- ``piece_values``: per side, each rank's value in this position (from
  ``VALUE``; a Miner dearer when few are left, the Spy cheap once their
  Marshal is gone, and every movable piece a premium, ``MOBILE``, that
  grows as they become few);
- ``top_bonus``: ``TOP`` for an officer no enemy piece left can beat;
- ``BEATS`` and ``HANG``: which pieces take a rank, and the share of its
  value a sure strike at the search's horizon counts for (level 5).
"""
from __future__ import annotations

from .tables import BOMB, MARSHAL, MINER, RESULT, SPY

__all__ = ["VALUE", "MOBILE", "TOP", "TOPPLES", "HANG", "BEATS", "top_bonus", "piece_values"]

# base value by search rank index: F S 9 8 7 6 5 4 3 2 1 B
VALUE = (0.0, 60.0, 12.0, 30.0, 18.0, 25.0, 40.0, 60.0, 95.0, 160.0, 260.0, 14.0)
MOBILE = 60.0       # each movable piece is worth this / sqrt(how many are left) more
# an officer that no enemy piece left can beat (Major 7, Colonel 8, General 9)
# is worth this more: it takes whatever it finds (``top_bonus``)
TOP = {7: 20.0, 8: 35.0, 9: 60.0}
# per cell & 15: a Major or higher, whose death can change the top bonus
# (15, an empty cell's, is not)
TOPPLES = tuple(6 < r < BOMB for r in range(16))
# at the horizon, the side to move strikes a revealed piece it beats for
# this share of the piece's value (not all: it may be answered, or the
# striker's rank is only the sample's guess); level 5's ``hang``
HANG = 0.5
# per side and rank struck, the cells of that side's pieces that take it
BEATS = tuple(tuple(frozenset(p * 16 + a for a in range(1, BOMB) if RESULT[a][r] == 1) for r in range(12))
              for p in (0, 1))


def top_bonus(counts: list[list[int]], me: int) -> float:
    """``me``'s side less the other's: ``TOP`` for each officer no enemy
    piece left beats. Kept through the search's strikes, so a trade that
    leaves their next officer on top counts against us (their General,
    once our Marshal is gone, takes everything)."""
    out = 0.0
    for p in (0, 1):
        enemy = counts[1 - p]
        mine = counts[p]
        for r, bonus in TOP.items():
            if mine[r] and not any(enemy[e] for e in range(r + 1, MARSHAL + 1)):
                out += bonus * mine[r] if p == me else -bonus * mine[r]
    return out


def piece_values(counts: list[list[int]]) -> list[list[float]]:
    """Per owner, the value of each rank in this position: a miner is worth
    more the fewer are left, the spy little once the enemy marshal is gone
    (the top remaining officer more: ``top_bonus``); and every movable piece a premium
    that grows as they become few (``MOBILE``: the side that runs out of
    movable pieces loses). ``counts``: ``rank_counts`` of the position."""
    out = []
    for p in (0, 1):
        v = list(VALUE)
        enemy = counts[1 - p]
        mine = counts[p]
        if enemy[BOMB] and mine[MINER] <= 2:
            v[MINER] = 30.0 + 25.0 * (3 - mine[MINER])
        if not enemy[MARSHAL]:
            v[SPY] = 10.0
        mobile = sum(mine[1:BOMB])
        if mobile:
            extra = MOBILE / mobile ** 0.5
            v = [x + extra if 0 < r < BOMB else x for r, x in enumerate(v)]
        out.append(v)
    return out

