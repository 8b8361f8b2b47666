"""Stone Towers bots.

Only the final square count matters, so a move is worth its *swing*: the
change of (my squares - your squares) it makes, +1 for an unowned square and
+2 for a square taken from the opponent. The swing of most moves is known
from the influence arrays alone (no copy); a move that destroys a castle
(a possible domino cascade) is simulated on a copy of the board.

Levels:
  1  mostly greedy with random slips;
  2  greedy plus a look at the opponent's best reply (2 plies);
  3  alpha-beta over 3 plies with beams (candidates: the biggest swings,
     plus moves that defend the squares the opponent threatens), ending on
     the side to move's best greedy swing (a cheap quiescence).
All bots are deterministic given their seed.
"""
from __future__ import annotations

import random

from doors._core.door import Bot
from doors._core.game import Player

from .rules import NOBODY, PASS, Board, StoneTowersState

__all__ = ["make_bot", "GreedyBot", "SearchBot", "swing", "move_swings"]

INF = float("inf")


def _flips(b: Board, p: Player, s: int) -> list[int] | None:
    """Squares a move at ``s`` turns to ``p`` in the first round, or None if
    it destroys a castle (then only a simulation tells the outcome)."""
    ip, iq = b.inf[p], b.inf[1 - p]
    owner, castle = b.owner, b.castle
    out = []
    for j in b.area[s]:
        if owner[j] != p and ip[j] + 1 > iq[j]:
            if castle[j]:
                return None
            out.append(j)
    return out


def swing(b: Board, p: Player, s: int) -> int:
    """Change of p's square lead if p plays at s."""
    flips = _flips(b, p, s)
    if flips is not None:
        owner = b.owner
        return sum(1 if owner[j] == NOBODY else 2 for j in flips)
    c = b.copy()
    c.play(p, s)
    return (c.count[p] - c.count[1 - p]) - (b.count[p] - b.count[1 - p])


def move_swings(b: Board, p: Player) -> list[tuple[int, int]]:
    """(swing, square) of every legal move of p, in board order."""
    return [(swing(b, p, s), s) for s in b.moves(p)]


def _threat_defence(b: Board, p: Player, top: int = 3) -> set[int]:
    """p's moves next to the squares the opponent's best moves would take."""
    q = 1 - p
    theirs = sorted(move_swings(b, q), reverse=True)[:top]
    area, owner, castle = b.area, b.owner, b.castle
    near: set[int] = set()
    for sw, s in theirs:
        if sw <= 1:
            continue
        flips = _flips(b, q, s)
        targets = flips if flips is not None else list(area[s])
        for t in targets:
            near.update(area[t])
        near.update(area[s])
    return {s for s in near
            if owner[s] == NOBODY or (owner[s] == p and castle[s] < 3)}


class GreedyBot:
    """Plays the move that gains the most squares now (ties at random);
    with ``slip`` it sometimes plays any move with a positive swing."""

    def __init__(self, seed: int | None = None, slip: float = 0.0):
        self.rng = random.Random(seed)
        self.slip = slip

    def choose(self, observation: StoneTowersState, player: Player) -> int:
        b = observation.board
        moves = move_swings(b, player)
        if not moves:
            return PASS
        if self.slip and self.rng.random() < self.slip:
            good = [s for sw, s in moves if sw > 0] or [s for _, s in moves]
            return self.rng.choice(good)
        best = max(sw for sw, _ in moves)
        return self.rng.choice([s for sw, s in moves if sw == best])


class SearchBot:
    """Alpha-beta (negamax) on the square lead with beams per ply.

    ``beams[k]`` is how many candidate moves are searched at ply k; beyond
    the last beam the side to move's best greedy swing ends the line,
    weighted by ``leaf_weight`` (the opponent would answer it)."""

    def __init__(self, seed: int | None = None, beams: tuple[int, ...] = (24, 8, 5),
                 leaf_weight: float = 0.5):
        self.rng = random.Random(seed)
        self.beams = beams
        self.leaf_weight = leaf_weight

    def choose(self, observation: StoneTowersState, player: Player) -> int:
        b: Board = observation.board
        plies_left = 2 * observation.turns - observation.ply
        moves = move_swings(b, player)
        if not moves:
            return PASS
        cands = self._candidates(b, player, moves, self.beams[0], defend=True)
        best_val, best = -INF, []
        alpha = -INF
        for s in cands:
            c = b.copy()
            c.play(player, s)
            val = -self._negamax(c, 1 - player, 1, plies_left - 1, -INF, -alpha + 1e-9)
            if val > best_val + 1e-9:
                best_val, best = val, [s]
            elif val > best_val - 1e-9:
                best.append(s)
            alpha = max(alpha, best_val)
        return self.rng.choice(sorted(best))

    def _candidates(self, b: Board, p: Player, moves: list[tuple[int, int]],
                    width: int, defend: bool) -> list[int]:
        ranked = sorted(moves, key=lambda m: (-m[0], m[1]))
        out = [s for _, s in ranked[:width]]
        if defend:
            seen = set(out)
            extra = [s for s in sorted(_threat_defence(b, p)) if s not in seen]
            out.extend(extra)
        return out

    def _negamax(self, b: Board, p: Player, ply: int, plies_left: int,
                 alpha: float, beta: float) -> float:
        lead = b.count[p] - b.count[1 - p]
        if plies_left <= 0:
            return lead
        moves = move_swings(b, p)
        if not moves:                       # a forced pass
            return -self._negamax(b, 1 - p, ply + 1, plies_left - 1, -beta, -alpha)
        if ply >= len(self.beams):
            best = max(sw for sw, _ in moves)
            if plies_left == 1:
                return lead + best
            return lead + self.leaf_weight * best
        value = -INF
        for s in self._candidates(b, p, moves, self.beams[ply], defend=False):
            c = b.copy()
            c.play(p, s)
            v = -self._negamax(c, 1 - p, ply + 1, plies_left - 1, -beta, -alpha)
            if v > value:
                value = v
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        return value


def make_bot(level: int, seed: int | None = None) -> Bot[StoneTowersState, int]:
    """A Stone Towers bot: level 1 (weakest) to 3."""
    if level <= 1:
        return GreedyBot(seed, slip=0.4)
    if level == 2:
        return SearchBot(seed, beams=(12, 6), leaf_weight=0.0)
    return SearchBot(seed)
