"""Awari computer players, levels 1 (weakest) to 5 (strongest).

1  half random, half greedy (one ply, home difference)
2  alpha-beta 2 plies, home difference only
3  alpha-beta 4 plies, full evaluation
4  iterative deepening to 7 plies (20k nodes) with a transposition table
5  iterative deepening under a node budget (100k nodes, under a second) with a
   transposition table, and exact values from the endgame table when it is
   present (``endgame.table_path()``, in the server's state directory; never
   built here)

A ply is one sowing, so an extra turn costs a ply. The search works on a bare
14-int board; everything is deterministic given the seed (budgets are counted
in nodes, not seconds).
"""
from __future__ import annotations

import random

from doors._core.game import Player

from . import endgame
from .rules import WIN_HOME, AwariState

__all__ = ["AwariBot", "make_bot", "LEVELS", "play"]

WIN = 1000
INF = 10_000

# level -> (max depth, node budget or None, use TT, use table, full eval, random share)
LEVELS = {
    1: (1, None, False, False, False, 0.5),
    2: (2, None, False, False, False, 0.0),
    3: (4, None, False, False, True, 0.0),
    4: (7, 20_000, True, False, True, 0.0),
    5: (40, 100_000, True, True, True, 0.0),
}

_TABLE_CACHE: dict[str, object] = {}    # "stamp" of the file, and its "table"


def shared_table() -> endgame.EndgameTable | None:
    """The endgame table on disk, loaded once per process (None if absent)."""
    path = endgame.table_path()
    try:
        stamp = (path, path.stat().st_mtime) if path is not None else None
    except OSError:
        stamp = None
    if _TABLE_CACHE.get("stamp", -1.0) != stamp:   # first use, or the file was (re)built
        _TABLE_CACHE["table"] = endgame.load(path) if stamp is not None and path else None
        _TABLE_CACHE["stamp"] = stamp
    table = _TABLE_CACHE["table"]
    assert table is None or isinstance(table, endgame.EndgameTable)
    return table


def play(board: list[int], player: int, i: int, extra: bool
         ) -> tuple[list[int], int, bool]:
    """Sow board index ``i`` (the mover's non-empty hole): new board, side to
    move, extra flag. The same rules as rules.sow, without the bookkeeping."""
    nb = board[:]
    s = nb[i]
    nb[i] = 0
    q, r = divmod(s, 14)
    if q:
        for k in range(14):
            nb[k] += q
    j = i
    for _ in range(r):
        j += 1
        if j == 14:
            j = 0
        nb[j] += 1
    home = 6 if player == 0 else 13
    if j == home:
        if extra:
            return nb, 1 - player, False
        return nb, player, True
    if j != 6 and j != 13 and nb[j] == 1:
        f = 12 - j
        if nb[f]:
            nb[home] += 1 + nb[f]
            nb[j] = nb[f] = 0
    return nb, 1 - player, False


class _Budget(Exception):
    pass


class AwariBot:
    def __init__(self, level: int, seed: int | None = None,
                 table: endgame.EndgameTable | None | bool = True):
        if level not in LEVELS:
            raise ValueError(f"level must be 1-5, not {level}")
        self.level = level
        self.rng = random.Random(seed)
        (self.max_depth, self.budget, self.use_tt, use_table, self.full_eval,
         self.random_share) = LEVELS[level]
        if table is True:
            table = shared_table() if use_table else None
        self.table = table or None
        self.tt: dict[tuple[tuple[int, ...], Player, bool], tuple[int, int, int, int]] = {}
        self.nodes = 0
        self.row_weight = 1        # eval: per row stone (a home stone is 4)

    # ----- evaluation -------------------------------------------------------
    def evaluate(self, b: list[int], p: int, extra: bool) -> int:
        me, op = (6, 13) if p == 0 else (13, 6)
        score = 4 * (b[me] - b[op])
        if self.full_eval:
            base = 7 * p
            mine = b[base:base + 6]
            theirs = b[7 - base:13 - base]
            score += self.row_weight * (sum(mine) - sum(theirs))
            if not extra:
                # a hole that reaches the home exactly: an extra turn in hand
                for k in range(6):
                    if mine[k] == 6 - k:
                        score += 2
                        break
        return score

    # ----- search -----------------------------------------------------------
    def _negamax(self, b: list[int], p: int, extra: bool, depth: int,
                 alpha: int, beta: int) -> int:
        self.nodes += 1
        if self.budget is not None and self.nodes > self.budget:
            raise _Budget
        me, op = (6, 13) if p == 0 else (13, 6)
        d = b[me] - b[op]
        base = 7 * p
        if b[me] >= WIN_HOME or b[op] >= WIN_HOME or not any(b[base:base + 6]):
            return (WIN + d) if d > 0 else (d - WIN if d < 0 else 0)
        table = self.table
        if table is not None and 36 - b[6] - b[13] <= table.stones:
            tv = table.value(b, p, extra)
            assert tv is not None, "few enough stones for the table"
            v = d + tv
            return (WIN + v) if v > 0 else (v - WIN if v < 0 else 0)
        if depth <= 0:
            return self.evaluate(b, p, extra)
        key = None
        first = -1
        if self.use_tt:
            key = (tuple(b), p, extra)
            hit = self.tt.get(key)
            if hit is not None:
                hd, hv, hflag, first = hit
                if hd >= depth:
                    if hflag == 0 or (hflag > 0 and hv >= beta) or (hflag < 0 and hv <= alpha):
                        return hv
        alpha0 = alpha
        best, best_i = -INF, -1
        for i in self._order(b, p, extra, first):
            nb, np_, ne = play(b, p, i, extra)
            if np_ == p:
                v = self._negamax(nb, np_, ne, depth - 1, alpha, beta)
            else:
                v = -self._negamax(nb, np_, ne, depth - 1, -beta, -alpha)
            if v > best:
                best, best_i = v, i
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        if key is not None:
            flag = 1 if best >= beta else (-1 if best <= alpha0 else 0)
            self.tt[key] = (depth, best, flag, best_i)
        return best

    @staticmethod
    def _order(b: list[int], p: int, extra: bool, first: int) -> list[int]:
        """Hole indices to try: the remembered best, then moves ending in the
        home (extra turns), then the others from the home end."""
        base = 7 * p
        home = base + 6
        front: list[int] = []
        rest: list[int] = []
        for i in range(base + 5, base - 1, -1):
            s = b[i]
            if not s or i == first:
                continue
            (front if (i + s) % 14 == home else rest).append(i)
        out = front + rest
        if first >= 0:
            out.insert(0, first)
        return out

    def _root(self, b: list[int], p: int, extra: bool, depth: int,
              moves: list[int]) -> tuple[int, list[int]]:
        """Best value and the moves reaching it (order kept)."""
        scored = []
        alpha = -INF
        for i in moves:
            nb, np_, ne = play(b, p, i, extra)
            if np_ == p:
                v = self._negamax(nb, np_, ne, depth - 1, alpha - 1, INF)
            else:
                v = -self._negamax(nb, np_, ne, depth - 1, -INF, -(alpha - 1))
            scored.append((v, i))
            alpha = max(alpha, v)
        best = max(v for v, _ in scored)
        return best, [i for v, i in scored if v == best]

    # ----- the Bot protocol -------------------------------------------------
    def choose(self, observation: AwariState, player: Player) -> int:
        b = list(observation.board)
        extra = bool(observation.extra)
        base = 7 * player
        moves = [base + h for h in range(6) if b[base + h]]
        if not moves:
            raise ValueError("no legal move")
        self.rng.shuffle(moves)
        if len(moves) == 1:
            return moves[0] - base + 1
        if self.random_share and self.rng.random() < self.random_share:
            return self.rng.choice(moves) - base + 1
        self.nodes = 0
        self.tt = {}
        best_moves = moves[:1]
        for depth in range(1, self.max_depth + 1):
            try:
                value, tied = self._root(b, player, extra, depth, moves)
            except _Budget:
                break
            best_moves = tied
            # search the best first next time
            moves = tied + [m for m in moves if m not in tied]
            if abs(value) >= WIN and self.table is not None \
                    and 36 - b[6] - b[13] <= self.table.stones:
                break                       # exact already
        return self.rng.choice(best_moves) - base + 1


def make_bot(level: int, seed: int | None = None) -> AwariBot:
    """A bot of ``level`` 1-5, deterministic given ``seed``."""
    return AwariBot(level, seed)
