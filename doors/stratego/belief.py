"""What a player believes about the enemy's hidden pieces, from an
observation alone, and determinizations sampled from that belief.

Facts used: a piece that has moved is neither a bomb nor the flag (a scout
that ran is revealed by the rules); revealed ranks; lost pieces; the army's
counts. Priors: the flag sits deep (usually the back row), bombs lean to the
back rows.
"""
from __future__ import annotations

import random
from typing import Any

from .pieces import COUNTS, RANKS

__all__ = ["R_OF", "RANK_OF_R", "unknown_pool", "sample_enemy", "Belief"]

# Search rank indices: strength order, flag 0 ... marshal 10, bomb 11.
R_OF = {"F": 0, "S": 1, "9": 2, "8": 3, "7": 4, "6": 5, "5": 6, "4": 7, "3": 8,
        "2": 9, "1": 10, "B": 11}
RANK_OF_R = {v: k for k, v in R_OF.items()}

_F_DEPTH = (8.0, 2.5, 1.0, 0.4)     # weight by depth (0 = the enemy's back row)
_B_DEPTH = (2.0, 2.0, 1.4, 0.8)


def depth_of(sq: int, owner: int) -> int:
    """0 for the owner's back row ... 9 for the far side."""
    row = sq // 10
    return row if owner == 0 else 9 - row


def unknown_pool(obs: Any, enemy: int) -> list[str]:
    """The ranks the enemy's hidden pieces have, as a multiset."""
    counts = dict(COUNTS)
    for r in obs.lost[enemy]:
        counts[r] -= 1
    for s in obs.squares:
        if s is not None and s.owner == enemy and s.rank is not None:
            counts[s.rank] -= 1
    out: list[str] = []
    for r in RANKS:
        out += [r] * max(0, counts[r])
    return out


def _weighted_pick(rng: random.Random, items: list[int], weights: list[float]) -> int:
    total = sum(weights)
    x = rng.random() * total
    for item, w in zip(items, weights, strict=True):
        x -= w
        if x <= 0:
            return item
    return items[-1]


class Belief:
    """The hidden enemy pieces of one observation and how to sample them."""

    def __init__(self, obs: Any, me: int):
        self.me = me
        self.enemy = 1 - me
        enemy = self.enemy
        self.hidden = obs.hidden_squares(enemy)
        self.unmoved = [sq for sq in self.hidden if not obs.squares[sq].moved]
        self.moved = [sq for sq in self.hidden if obs.squares[sq].moved]
        pool = unknown_pool(obs, enemy)
        self.fixed = [r for r in pool if r in ("B", "F")]
        self.mobile = [r for r in pool if r not in ("B", "F")]
        self.f_w = [_F_DEPTH[min(3, depth_of(sq, enemy))] for sq in self.unmoved]
        self.b_w = [_B_DEPTH[min(3, depth_of(sq, enemy))] for sq in self.unmoved]

    def sample(self, rng: random.Random) -> dict[int, str]:
        """One assignment square -> rank for every hidden enemy piece."""
        out: dict[int, str] = {}
        free = list(self.unmoved)
        fw = dict(zip(self.unmoved, self.f_w, strict=True))
        bw = dict(zip(self.unmoved, self.b_w, strict=True))
        fixed = sorted(self.fixed, key=lambda r: r != "F")   # the flag first
        for rank in fixed:
            if not free:
                break
            weights = [fw[s] if rank == "F" else bw[s] for s in free]
            sq = _weighted_pick(rng, free, weights)
            free.remove(sq)
            out[sq] = rank
        rest = free + self.moved
        mobile = list(self.mobile)
        rng.shuffle(mobile)
        # inconsistent beliefs cannot happen with a true observation; pad anyway
        while len(mobile) < len(rest):
            mobile.append("9")
        for sq, rank in zip(rest, mobile, strict=False):
            out[sq] = rank
        return out


def sample_enemy(obs: Any, me: int, rng: random.Random) -> dict[int, str]:
    return Belief(obs, me).sample(rng)
