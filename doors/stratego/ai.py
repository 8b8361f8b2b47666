"""Stratego computer players.

Library interface::

    bot = make_bot(level, seed)          # level 1-5; seed makes it repeatable
    action = bot.choose(observation, player)

``choose`` sees only ``StrategoState.observation(player)`` (never the state)
and blocks (the server runs it in a thread). In setup it returns one ``Fill``
(a sensible, varied setup: flag on the back row, usually guarded by bombs,
scouts forward, strong pieces spread, miners back) and then ``Ready``.

In play, level 1 moves almost at random (but leans forward, takes sure wins
and avoids sure losses against revealed pieces). Levels 2-5 sample determinizations of the
hidden enemy pieces from a belief (``belief.py``), search each with
alpha-beta on a compact board (material by rank value, a pull towards enemy
pieces and the likely enemy flag, danger near the own flag) and play the
root move with the best average value. A sampled flag capture (or loss) is
capped at the root (``ROOT_WIN``/``ROOT_LOSS``) so that a guess right in
one sample of twelve does not send the marshal into a bomb; striking a
hidden piece with the marshal, general or a colonel pays ``REVEAL_COST``
(its rank becomes known). The node budget bounds each move; ``TIME_CAP``
is only a safety net on a slow machine.
"""
from __future__ import annotations

import random
import time
from typing import Any

from .belief import R_OF, Belief
from .pieces import COUNTS, LAKES, NEIGHBOURS, RANKS, RAYS, Fill, Move, Phase, Ready, setup_squares
from .setup import board_row

__all__ = ["StrategoBot", "make_bot", "make_setup", "LEVELS"]

# level -> (most determinizations, depth, noise, node budget). The budget
# (not the clock) bounds the work, so a bot is deterministic given its seed:
# sampling stops once the nodes searched pass it (after two samples).
LEVELS = {1: (0, 0, 0.0, 0), 2: (3, 2, 8.0, 20000), 3: (8, 2, 3.0, 40000),
          4: (6, 3, 1.0, 35000), 5: (12, 3, 0.5, 50000)}
WIDE = 28        # more root moves than this: search one ply less
WIN = 100000.0
# A sampled line that takes (or loses) a flag counts this much at the root, so
# one lucky guess in a dozen samples cannot outweigh sure material: a flag
# guess is worth risking a scout or a miner for, not the marshal.
ROOT_WIN, ROOT_LOSS = 400.0, -1500.0
# Striking a hidden piece shows it our rank: a cost for the strong pieces
# (the spy, or a bomb, waits for a revealed marshal).
REVEAL_COST = {10: 30.0, 9: 15.0, 8: 5.0}
TIME_CAP = 0.85  # seconds: no new sample is started that would likely pass it
# value by search rank index: F S 9 8 7 6 5 4 3 2 1 B
VALUE = (0.0, 60.0, 12.0, 30.0, 18.0, 25.0, 40.0, 60.0, 95.0, 160.0, 260.0, 14.0)
SCOUT, MINER, SPY, MARSHAL, BOMB, FLAG = 2, 3, 1, 10, 11, 0


def _result(a: int, d: int) -> int:
    """1 attacker wins, 0 both die, -1 attacker dies, 2 flag taken."""
    if d == FLAG:
        return 2
    if d == BOMB:
        return 1 if a == MINER else -1
    if a == SPY and d == MARSHAL:
        return 1
    return 1 if a > d else 0 if a == d else -1


RESULT = [[_result(a, d) for d in range(12)] for a in range(12)]


# ----- setups -------------------------------------------------------------------
_ROW_W = {"1": (2, 3, 2, 1), "2": (2, 3, 2, 1), "3": (2, 3, 2, 1), "4": (3, 3, 2, 1),
          "5": (3, 2, 2, 1), "6": (3, 2, 2, 1), "7": (2, 2, 2, 2), "8": (1, 1, 3, 4),
          "9": (5, 3, 2, 1), "S": (1, 3, 2, 1)}


def make_setup(player: int, rng: random.Random) -> Fill:
    """A sensible, varied setup for ``player``: no movable piece is walled in
    by its own bombs."""
    for _ in range(200):
        fill = _one_setup(player, rng)
        if _all_free(player, dict(fill.placements)):
            return fill
    return fill


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
    fcol = rng.choice([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
    flag = back * 10 + fcol
    grid[flag] = "F"
    bombs = 6
    guard = [s for s in NEIGHBOURS[flag] if s // 10 in [board_row(player, k) for k in range(4)]]
    if rng.random() < 0.85:
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
            near = [s for s in NEIGHBOURS[general] if s in empty]
            if near:
                grid[rng.choice(near)] = "S"
                continue
        weights: list[float] = [_ROW_W[rank][_line(player, s)] for s in empty]
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


# ----- the compact search board -------------------------------------------------
def _bfs(sources: list[int]) -> list[int]:
    dist = [99] * 100
    frontier = list(sources)
    for s in frontier:
        dist[s] = 0
    while frontier:
        nxt = []
        for s in frontier:
            d = dist[s] + 1
            for n in NEIGHBOURS[s]:
                if dist[n] > d:
                    dist[n] = d
                    nxt.append(n)
        frontier = nxt
    return dist


class Search:
    """Alpha-beta over one determinization. Board cells: -1 empty, else
    ``owner * 16 + r`` with ``r`` the search rank index."""

    def __init__(self, cells: list[int], me: int, scout_strike: int):
        self.b = cells
        self.me = me
        self.long_strike = scout_strike == 2
        self.nodes = 0
        flags = [[s for s, c in enumerate(cells) if c >= 0 and c >> 4 == p and c & 15 == FLAG]
                 for p in (0, 1)]
        pieces = [[s for s, c in enumerate(cells) if c >= 0 and c >> 4 == p] for p in (0, 1)]
        # positional tables per owner: pull towards enemy pieces and flag
        self.pos = []
        for p in (0, 1):
            near_enemy = _bfs(pieces[1 - p]) if pieces[1 - p] else [0] * 100
            near_flag = _bfs(flags[1 - p]) if flags[1 - p] else [20] * 100
            self.pos.append([-0.8 * min(near_enemy[s], 12) + 3.0 * max(0, 6 - near_flag[s])
                             for s in range(100)])

    def evaluate(self, side: int) -> float:
        """Score of ``side``."""
        total = 0.0
        pos = self.pos
        for s, c in enumerate(self.b):
            if c < 0:
                continue
            r = c & 15
            v = VALUE[r]
            if 0 < r < BOMB:
                v += pos[c >> 4][s]
            total += v if c >> 4 == side else -v
        return total

    def moves(self, side: int) -> list[tuple[int, int]]:
        b = self.b
        strikes: list[tuple[int, int]] = []
        quiet: list[tuple[int, int]] = []
        for s in range(100):
            c = b[s]
            if c < 0 or c >> 4 != side:
                continue
            r = c & 15
            if r == FLAG or r == BOMB:
                continue
            for ray in RAYS[s]:
                for i, t in enumerate(ray):
                    o = b[t]
                    if o < 0:
                        quiet.append((s, t))
                        if r != SCOUT:
                            break
                        continue
                    if o >> 4 != side and (i == 0 or self.long_strike):
                        strikes.append((s, t))
                    break
        return strikes + quiet

    def negamax(self, side: int, depth: int, alpha: float, beta: float) -> float:
        self.nodes += 1
        if depth == 0:
            return self.evaluate(side)
        moves = self.moves(side)
        if not moves:
            return -WIN - 100 * depth
        best = -WIN * 2
        b = self.b
        for s, t in moves:
            a, d = b[s], b[t]
            if self._play(s, t):
                return WIN + 100 * depth
            val = -self.negamax(1 - side, depth - 1, -beta, -alpha)
            b[s], b[t] = a, d
            if val > best:
                best = val
                if val > alpha:
                    alpha = val
                    if alpha >= beta:
                        break
        return best

    def _play(self, s: int, t: int) -> bool:
        """Make the move s->t on the board (the caller restores it); True if
        it takes the flag (then the board is left as it was)."""
        b = self.b
        a, d = b[s], b[t]
        if d >= 0:
            res = RESULT[a & 15][d & 15]
            if res == 2:
                return True
            b[s] = -1
            b[t] = a if res == 1 else d if res == -1 else -1
        else:
            b[s] = -1
            b[t] = a
        return False

    def root_value(self, side: int, s: int, t: int, depth: int) -> float:
        b = self.b
        a, d = b[s], b[t]
        if self._play(s, t):
            return WIN + 100 * depth
        val = -self.negamax(1 - side, depth - 1, -WIN * 2, WIN * 2)
        b[s], b[t] = a, d
        return val


# ----- the bot -----------------------------------------------------------------
class StrategoBot:
    """A Stratego computer player; deterministic given its seed."""

    def __init__(self, level: int = 3, seed: int | None = None):
        self.level = max(1, min(5, int(level)))
        self.rng = random.Random(seed)
        self.samples, self.depth, self.noise, self.budget = LEVELS[self.level]
        self.last_nodes = 0

    def choose(self, observation: Any, player: int) -> Any:
        obs = observation
        if obs.phase == Phase.SETUP:
            if obs.remaining(player) and any(obs.remaining(player).values()):
                return make_setup(player, self.rng)
            return Ready()
        legal = obs.legal_actions()
        if not legal:
            raise ValueError("no legal action")
        if len(legal) == 1:
            return legal[0]
        if self.level == 1:
            return self.choose_simple(obs, player, legal)
        return self.choose_search(obs, player, legal)

    def choose_simple(self, obs: Any, me: int, legal: list[Move]) -> Move:
        good, ok = [], []
        for m in legal:
            target = obs.squares[m.to]
            mine = obs.squares[m.frm].rank
            if target is None or target.rank is None:
                ok.append(m)
                continue
            res = RESULT[R_OF[mine]][R_OF[target.rank]]
            if res >= 1:
                good.append(m)
            elif res == 0:
                ok.append(m)
        if good and self.rng.random() < 0.7:
            return self.rng.choice(good)
        pool = ok or legal
        if self.rng.random() < 0.5:      # lean forward, towards the enemy
            ahead = [m for m in pool if (m.to // 10 - m.frm // 10) * (1 if me == 0 else -1) > 0]
            if ahead:
                return self.rng.choice(ahead)
        return self.rng.choice(pool)

    def choose_search(self, obs: Any, me: int, legal: list[Move]) -> Move:
        belief = Belief(obs, me)
        base = [-1] * 100
        for s, seen in enumerate(obs.squares):
            if seen is not None and seen.rank is not None:
                base[s] = seen.owner * 16 + R_OF[seen.rank]
        scout_strike = obs.opts.get("scout_strike", 2)
        totals = [0.0] * len(legal)
        self.last_nodes = 0
        samples = self.samples if belief.hidden else 1
        depth = self.depth - 1 if self.depth > 2 and len(legal) > WIDE else self.depth
        done = 0
        t0 = time.perf_counter()
        for _ in range(samples):
            if done >= 2 and self.last_nodes >= self.budget:
                break
            if done and (time.perf_counter() - t0) * (done + 1) / done > TIME_CAP:
                break       # a safety net on a slow machine; the budget binds first
            done += 1
            cells = list(base)
            enemy = 1 - me
            for s, rank in belief.sample(self.rng).items():
                cells[s] = enemy * 16 + R_OF[rank]
            search = Search(cells, me, scout_strike)
            for i, m in enumerate(legal):
                val = search.root_value(me, m.frm, m.to, depth)
                if val > WIN / 2:
                    val = ROOT_WIN + (val - WIN) / 100.0
                elif val < -WIN / 2:
                    val = ROOT_LOSS
                totals[i] += val
            self.last_nodes += search.nodes
        own = obs.own_moves(me)
        best_val, best = -1e18, []
        for i, m in enumerate(legal):
            val = totals[i] / done
            target = obs.squares[m.to]
            if target is not None and target.rank is None:
                val -= REVEAL_COST.get(R_OF[obs.squares[m.frm].rank], 0.0)
            if abs(val) < ROOT_WIN * 0.99:
                val += self.rng.gauss(0.0, self.noise)
            if own and (m.to, m.frm) == own[-1]:
                val -= 4.0          # do not shuffle back and forth
            if val > best_val + 1e-9:
                best_val, best = val, [m]
            elif abs(val - best_val) <= 1e-9:
                best.append(m)
        return self.rng.choice(best)


def make_bot(level: int = 3, seed: int | None = None) -> StrategoBot:
    return StrategoBot(level, seed)

