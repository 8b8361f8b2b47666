"""Kingdom bots: alpha-beta (negamax) with iterative deepening, a
transposition table keyed by the position's Zobrist key, and move ordering
(captures, crushes and conversions first, then the table's move, then the
rest). The search budget is counted in nodes, not seconds, so a bot is
deterministic given its seed (ties are broken by a seeded random order);
level 5 spends about half a second per move on a typical machine. A time
cap is the backstop on a busy machine: when it runs out first the move comes
from the last finished depth (and may then differ from run to run).
"""
from __future__ import annotations

import random
import time

from .position import BISHOP, CASTLE, EMPTY, KING, KNIGHT, PASS, PAWN, QUEEN, ROCK, ROOK, SIZE, Move, Position
from .rules import KingdomState

__all__ = ["KingdomBot", "make_bot", "evaluate"]

WIN = 100_000
VALUE = [0, 0, 900, 330, 340, 420, 450, 100, 0]     # by kind: . K Q B N R C P #
# nodes per move, and noise (centipawns) added to root scores, by level
LEVELS = {1: (60, 300), 2: (400, 80), 3: (2500, 15), 4: (6000, 0), 5: (12000, 0)}
# the time cap per move (seconds), by level: a backstop, the node budget
# normally runs out well before it
MAX_TIME = {1: 0.3, 2: 0.4, 3: 0.6, 4: 0.8, 5: 0.9}
_CHECK_EVERY = 32          # nodes between two looks at the clock
EXACT, LOWER, UPPER = 0, 1, 2


class _OutOfNodes(Exception):
    pass


def evaluate(pos: Position) -> int:
    """Score for the side to move, in centipawns."""
    score = 0
    b = pos.board
    for sq in range(SIZE * SIZE):
        c = b[sq]
        if c and c != ROCK:
            k = c & 7
            v = VALUE[k]
            if k == PAWN:
                r = sq // SIZE
                v += 4 * (r if c >> 4 == 0 else SIZE - 1 - r)
            elif k in (KNIGHT, BISHOP, QUEEN):
                f, r = sq % SIZE, sq // SIZE
                v += 12 - abs(f - 9) - abs(r - 9) // 2
            score += v if c >> 4 == pos.turn else -v
    return score


def search_moves(pos: Position) -> list[Move]:
    """Legal moves minus the pass and minus knight double jumps that do the
    same as another move (an empty first landing and a final square already
    reached)."""
    b = pos.board
    out: list[Move] = []
    seen: set[tuple[int, int]] = set()
    for mv in pos.moves():
        if mv.frm < 0:
            continue
        if mv.mid >= 0 and b[mv.mid] == EMPTY:
            key = (mv.frm, mv.to)
            if key in seen:
                continue
            seen.add(key)
        elif mv.mid < 0 and b[mv.frm] & 7 == KNIGHT:
            seen.add((mv.frm, mv.to))
        out.append(mv)
    return out


def _order_key(pos: Position, mv: Move) -> int:
    """Higher first: takes (most valuable victim, cheapest attacker), crushes
    and conversions, promotions, then the rest."""
    b = pos.board
    t = b[mv.to]
    mover = b[mv.frm] & 7
    score = 0
    if t and t != ROCK and t >> 4 != pos.turn:
        score = 10 * VALUE[t & 7] - VALUE[mover] // 10 + 1000
        if t & 7 in (KING, CASTLE):
            score += 100_000
    elif mover in (BISHOP, ROOK, PAWN):
        # a push that ends on an enemy piece is a crush
        df = (mv.to % SIZE > mv.frm % SIZE) - (mv.to % SIZE < mv.frm % SIZE)
        dr = (mv.to // SIZE > mv.frm // SIZE) - (mv.to // SIZE < mv.frm // SIZE)
        f, r = mv.to % SIZE + df, mv.to // SIZE + dr
        if 0 <= f < SIZE and 0 <= r < SIZE:
            d = b[r * SIZE + f]
            if d and d != ROCK and d >> 4 != pos.turn and (
                    t == ROCK or mover != PAWN):
                score = 10 * VALUE[d & 7] + 900
                if d & 7 == KING:
                    score += 100_000
    if mv.mid >= 0 and b[mv.mid] not in (EMPTY,):
        score += 10 * VALUE[b[mv.mid] & 7] + 500
    if mv.promo:
        score += 800 if mv.promo == "Q" else 100
    return score


class KingdomBot:
    def __init__(self, level: int = 3, seed: int | None = None):
        self.level = max(1, min(5, level))
        self.rng = random.Random(seed)
        self.nodes_budget, self.noise = LEVELS[self.level]
        self.max_time: float | None = MAX_TIME[self.level]
        self.deadline = float("inf")
        self.timed_out = False
        self.tt: dict[int, tuple[int, int, int, Move | None]] = {}
        self.nodes = 0
        self.depth_reached = 0

    def choose(self, observation: KingdomState, player: int) -> Move:
        start = time.perf_counter()
        self.deadline = start + self.max_time if self.max_time is not None else float("inf")
        self.timed_out = False
        pos: Position = observation.pos.copy()
        moves = search_moves(pos)
        if not moves:
            return PASS
        self.rng.shuffle(moves)
        moves.sort(key=lambda m: -_order_key(pos, m))
        if len(self.tt) > 400_000:
            self.tt.clear()
        self.nodes = 0
        best = moves[0]
        scores: dict[Move, int] = {}
        depth = 1
        try:
            while depth <= 12:
                depth_scores = self._root(pos, moves, depth)
                scores = depth_scores
                self.depth_reached = depth
                moves.sort(key=lambda m: -scores[m])
                best = moves[0]
                if abs(scores[best]) >= WIN - 100:
                    break
                depth += 1
        except _OutOfNodes:
            pass
        if scores and self.noise:
            noisy = {m: s + self.rng.randint(-self.noise, self.noise) for m, s in scores.items()}
            best = max(moves, key=lambda m: noisy.get(m, -WIN * 2))
        if scores and pos.passes == 1 and scores.get(best, 0) < -150:
            return PASS        # the other passed: a draw beats a lost game
        return best

    def _root(self, pos: Position, moves: list[Move], depth: int) -> dict[Move, int]:
        alpha = -WIN * 2
        scores: dict[Move, int] = {}
        for mv in moves:
            child = pos.copy()
            child.apply(mv)
            score = -self._negamax(child, depth - 1, -WIN * 2, -alpha + 1, 1)
            scores[mv] = score
            if score > alpha:
                alpha = score
        return scores

    def _negamax(self, pos: Position, depth: int, alpha: int, beta: int, ply: int) -> int:
        self.nodes += 1
        if self.nodes > self.nodes_budget:
            raise _OutOfNodes
        if not self.nodes % _CHECK_EVERY and time.perf_counter() > self.deadline:
            self.timed_out = True
            raise _OutOfNodes
        if pos.winner is not None:
            return -(WIN - ply)          # the side to move has lost
        if pos.draw:
            return 0
        # the side to move can take the enemy king right now
        k = pos.kings[1 - pos.turn]
        if k >= 0 and pos.board[k] & 7 == KING and pos.attacked(k, pos.turn):
            return WIN - ply - 1
        if depth <= 0:
            return evaluate(pos)
        key = pos.key()
        entry = self.tt.get(key)
        tt_move = None
        if entry is not None:
            e_depth, e_score, e_flag, tt_move = entry
            if e_depth >= depth:
                if e_flag == EXACT:
                    return e_score
                if e_flag == LOWER and e_score >= beta:
                    return e_score
                if e_flag == UPPER and e_score <= alpha:
                    return e_score
        moves = search_moves(pos)
        if not moves:
            return evaluate(pos)
        moves.sort(key=lambda m: -_order_key(pos, m))
        if tt_move is not None and tt_move in moves:
            moves.remove(tt_move)
            moves.insert(0, tt_move)
        best, best_move = -WIN * 2, None
        a0 = alpha
        for mv in moves:
            child = pos.copy()
            child.apply(mv)
            score = -self._negamax(child, depth - 1, -beta, -alpha, ply + 1)
            if score > best:
                best, best_move = score, mv
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        flag = EXACT if a0 < best < beta else (LOWER if best >= beta else UPPER)
        self.tt[key] = (depth, best, flag, best_move)
        return best


def make_bot(level: int = 3, seed: int | None = None, time_scale: float = 1.0) -> KingdomBot:
    """``time_scale``: the share of the level's time cap a move may use (a
    busy server thinks shorter; the node budget still binds first if sooner)."""
    bot = KingdomBot(level, seed)
    if bot.max_time is not None:
        bot.max_time *= time_scale
    return bot
