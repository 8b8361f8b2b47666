"""Alpha-beta over one determinization of a Stratego position.

Board cells: -1 empty, else ``owner * 16 + r`` with ``r`` the search rank
index (``belief.R_OF``: flag 0, spy 1, scout 2 ... marshal 10, bomb 11).
The score is kept incrementally from ``me``'s side: material (per-side
values, see ``piece_values``) plus a positional table per owner:
- a pull towards the nearest enemy piece;
- a pull towards the other side's flag: mild for ours towards their
  (sampled) flag, strong for theirs towards our (real) flag, so that the
  search answers any piece approaching our flag and keeps a guard near it;
- a small bonus for our pieces guarding our flag's neighbourhood;
- per rank, a pull towards revealed enemy pieces it beats (the hunt) and a
  push away from revealed ones that beat it (``hunt_tables``);
- at the search's horizon, an enemy piece next to our flag with the enemy
  to move counts as the flag taken (defence levels);
- our Colonels, General and Marshal shun squares walled in by hidden enemy
  pieces while the enemy has a piece that beats them (``pocket_table``):
  an officer that dives into the enemy's lines is caught there.
"""
from __future__ import annotations

from .pieces import NEIGHBOURS, RAYS

__all__ = ["Search", "piece_values", "trade_ok", "pocket_table", "RESULT", "WIN", "FLAG", "SPY", "SCOUT", "MINER",
           "MARSHAL", "GENERAL", "BOMB", "VALUE"]

WIN = 100000.0
SCOUT, MINER, SPY, MARSHAL, GENERAL, BOMB, FLAG = 2, 3, 1, 10, 9, 11, 0
# base value by search rank index: F S 9 8 7 6 5 4 3 2 1 B
VALUE = (0.0, 60.0, 12.0, 30.0, 18.0, 25.0, 40.0, 60.0, 95.0, 160.0, 260.0, 14.0)
ATTACK = (0.0, 16.0, 12.0, 8.0, 5.0, 2.0, 0.0)     # ours near their flag, by distance
DEFEND = (0.0, 60.0, 34.0, 18.0, 8.0, 3.0, 0.0)    # theirs near our flag, by distance
PULL = 0.3          # towards the nearest enemy piece, per step
GUARD = 5.0                                        # ours within two squares of our flag
HUNT = 0.25         # pull towards a revealed enemy piece one can beat, of its value
FEAR = 0.2          # push away from a revealed enemy piece that beats one, of own value
TRADE = 1.0         # of the hunt's pull, towards a revealed equal Colonel or better
INTRUDER = 240.0    # pull towards an enemy piece next to our flag (less, further off)
# our officer on a square walled in by hidden enemy pieces (and edges, lakes),
# while the enemy still has a piece that beats it: of its value, by walls
POCKET = (0.0, 0.0, 0.03, 0.08, 0.2)
OFFICERS = (8, 9, 10)
MOBILE = 60.0       # each movable piece is worth this / sqrt(how many are left) more


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


def piece_values(cells: list[int]) -> list[list[float]]:
    """Per owner, the value of each rank in this position: a miner is worth
    more the fewer are left, the spy little once the enemy marshal is gone,
    the top remaining officer more; and every movable piece a premium
    that grows as they become few (``MOBILE``: the side that runs out of
    movable pieces loses)."""
    counts = [[0] * 12 for _ in (0, 1)]
    for c in cells:
        if c >= 0:
            counts[c >> 4][c & 15] += 1
    out = []
    for p in (0, 1):
        v = list(VALUE)
        enemy = counts[1 - p]
        mine = counts[p]
        if enemy[BOMB] and mine[MINER] <= 2:
            v[MINER] = 30.0 + 25.0 * (3 - mine[MINER])
        if not enemy[MARSHAL]:
            v[SPY] = 10.0
            if mine[GENERAL]:
                v[GENERAL] = 220.0
        mobile = sum(mine[1:BOMB])
        if mobile:
            extra = MOBILE / mobile ** 0.5
            v = [x + extra if 0 < r < BOMB else x for r, x in enumerate(v)]
        out.append(v)
    return out


def trade_ok(mine: list[int], theirs: list[int], r: int) -> bool:
    """Trading one rank-``r`` piece each (counts by rank index) leaves us
    with officers (Major and up) at least as strong as theirs: otherwise the
    trade hands the board to their next officer."""
    def top(counts: list[int]) -> list[int]:
        return [x for x in range(MARSHAL, 6, -1) for _ in range(counts[x] - (x == r))]
    return top(mine) >= top(theirs)


def bfs(sources: list[int]) -> list[int]:
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


def hunt_tables(cells: list[int], known: frozenset[int] | set[int], val: list[list[float]],
                intruders: tuple[tuple[int, float], ...] = (),
                me: int | None = None) -> list[list[list[float] | None]]:
    """Per owner and rank, a table by square: near a revealed enemy piece it
    beats, a pull (``HUNT`` of the target's value, fading over eight steps);
    next to one that beats it, a push away (``FEAR`` of its own value). The
    ``intruders`` ((square, pull): enemy pieces near ``me``'s flag) pull
    every piece of ours that beats them, fading over sixteen steps, so a far
    Marshal comes home to a Miner at the bomb wall."""
    out: list[list[list[float] | None]] = [[None] * 12, [None] * 12]
    counts = [[0] * 12 for _ in (0, 1)]
    for c in cells:
        if c >= 0:
            counts[c >> 4][c & 15] += 1
    for p in (0, 1):
        targets = [(s, cells[s] & 15, HUNT * val[1 - p][cells[s] & 15], 8) for s in known
                   if cells[s] >= 0 and cells[s] >> 4 != p and 0 < cells[s] & 15 < BOMB
                   and val[1 - p][cells[s] & 15] >= 25.0]
        threats = [(s, cells[s] & 15) for s in known
                   if cells[s] >= 0 and cells[s] >> 4 != p and 0 < cells[s] & 15 < BOMB]
        targets += [(s, cells[s] & 15, gain, 16) for s, gain in intruders
                    if cells[s] >= 0 and cells[s] >> 4 != p]
        if not targets and not threats:
            continue
        dist_of = {s: bfs([s]) for s, *_ in targets + threats}
        for r in range(1, BOMB):
            table = [0.0] * 100
            used = False
            for s, er, gain, reach in targets:
                res = RESULT[r][er]
                if res == 0 and er >= 8 and reach == 8:
                    us = p if me is None else me
                    if not trade_ok(counts[us], counts[1 - us], r):
                        continue    # no trade that leaves their officers stronger
                    gain *= TRADE      # an equal officer on the loose: trade it off
                if res == 1 or (res == 0 and er >= 8 and reach == 8):
                    dist = dist_of[s]
                    for x in range(100):
                        if dist[x] < reach:
                            table[x] += gain * (reach - dist[x]) / reach
                    used = True
            for s, er in threats:
                if RESULT[r][er] == -1:
                    loss = FEAR * val[p][r]
                    dist = dist_of[s]
                    for x in range(100):
                        if 0 < dist[x] <= 2:
                            table[x] -= loss / dist[x]
                    used = True
            if used:
                out[p][r] = table
    return out


def pocket_table(cells: list[int], me: int, known: frozenset[int] | set[int]) -> list[float]:
    """Per square, ``POCKET`` by how many of its four sides are walls
    (board edge, lake, an enemy piece hidden at the root), if at least one
    is such a hidden piece; 0 elsewhere."""
    hidden = [c >= 0 and c >> 4 != me and s not in known for s, c in enumerate(cells)]
    out = [0.0] * 100
    for s in range(100):
        near = NEIGHBOURS[s]
        foes = sum(1 for n in near if hidden[n])
        if foes:
            out[s] = POCKET[4 - len(near) + foes]
    return out


class Search:
    """Alpha-beta over one determinization (``me`` moves at the root)."""

    def __init__(self, cells: list[int], me: int, scout_strike: int, defend: bool = True,
                 known: frozenset[int] | set[int] = frozenset(),
                 unknown: frozenset[int] | set[int] = frozenset()):
        self.b = cells
        self.me = me
        self.long_strike = scout_strike == 2
        self.nodes = 0
        self.unknown = unknown      # enemy squares unmoved and hidden at the root
        self.val = piece_values(cells)
        flags = [[s for s, c in enumerate(cells) if c >= 0 and c >> 4 == p and c & 15 == FLAG]
                 for p in (0, 1)]
        pieces = [[s for s, c in enumerate(cells) if c >= 0 and c >> 4 == p] for p in (0, 1)]
        # with the defence terms: an enemy piece next to our flag when the
        # search stops with the enemy to move takes it (a Miner that cleared
        # the last bomb is struck at once, or answered before it gets there)
        self.flag_side = tuple(NEIGHBOURS[flags[me][0]]) if defend and flags[me] else ()
        self.pos: list[list[float]] = []
        for p in (0, 1):
            near_enemy = bfs(pieces[1 - p]) if pieces[1 - p] else [0] * 100
            near_flag = bfs(flags[1 - p]) if flags[1 - p] else [99] * 100
            pull = DEFEND if p != me and defend else ATTACK
            table = [-PULL * min(near_enemy[s], 12) + pull[min(near_flag[s], 6)] for s in range(100)]
            if p == me and flags[me] and defend:
                home = bfs(flags[me])
                table = [t + (GUARD if h <= 2 else 0.0) for t, h in zip(table, home, strict=True)]
            self.pos.append(table)
        intruders: tuple[tuple[int, float], ...] = ()
        if defend and flags[me]:
            home = bfs(flags[me])
            intruders = tuple((s, INTRUDER * (5 - home[s]) / 4.0) for s in pieces[1 - me]
                              if home[s] <= 4 and 0 < cells[s] & 15 < BOMB)
        self.hunt = hunt_tables(cells, known, self.val, intruders, me)
        ranks = [c & 15 for c in cells if c >= 0 and c >> 4 != me]
        pocket: list[float] | None = None
        for r in OFFICERS:
            if not any(RESULT[e][r] == 1 for e in ranks if 0 < e < BOMB):
                continue
            if pocket is None:
                pocket = pocket_table(cells, me, known)
            cut = [-x * self.val[me][r] for x in pocket]
            old = self.hunt[me][r]
            self.hunt[me][r] = cut if old is None else [a + b for a, b in zip(old, cut, strict=True)]
        self.score = sum(self.worth(c, s) for s, c in enumerate(cells) if c >= 0)

    def worth(self, c: int, s: int) -> float:
        """Signed (``me``'s side) worth of piece ``c`` on square ``s``."""
        p, r = c >> 4, c & 15
        v = self.val[p][r]
        if 0 < r < BOMB:
            v += self.pos[p][s]
            table = self.hunt[p][r]
            if table is not None:
                v += table[s]
        return v if p == self.me else -v

    def set_cell(self, s: int, c: int) -> None:
        """Put piece ``c`` (or -1) on ``s``, keeping the score."""
        old = self.b[s]
        if old >= 0:
            self.score -= self.worth(old, s)
        self.b[s] = c
        if c >= 0:
            self.score += self.worth(c, s)

    def evaluate(self, side: int) -> float:
        return self.score if side == self.me else -self.score

    def moves(self, side: int) -> list[tuple[int, int]]:
        b = self.b
        lo = side * 16
        hi = lo + 16
        strikes: list[tuple[int, int]] = []
        quiet: list[tuple[int, int]] = []
        flag, bomb, scout = lo + FLAG, lo + BOMB, lo + SCOUT
        for s, c in enumerate(b):
            if c < lo or c >= hi or c == flag or c == bomb:
                continue
            if c != scout:
                for t in NEIGHBOURS[s]:
                    o = b[t]
                    if o < 0:
                        quiet.append((s, t))
                    elif o < lo or o >= hi:
                        strikes.append((s, t))
                continue
            for ray in RAYS[s]:
                first = True
                for t in ray:
                    o = b[t]
                    if o < 0:
                        quiet.append((s, t))
                        first = False
                        continue
                    if (o < lo or o >= hi) and (first or self.long_strike):
                        strikes.append((s, t))
                    break
        return strikes + quiet

    def play(self, s: int, t: int, guess: bool = False) -> float | None:
        """Make s->t (the caller restores the two cells and the score); the
        score change, or None if it takes the flag (board left unchanged).
        With ``guess`` (our strikes below the root), a piece other than a
        Miner striking a piece unmoved and hidden at the root is counted as
        dying on a bomb: we do not know what it is, so no line may profit
        from the sample's truth there (no flag found by hindsight)."""
        b = self.b
        a, d = b[s], b[t]
        if d >= 0:
            if guess and t in self.unknown and a & 15 != MINER:
                res = -1
            else:
                res = RESULT[a & 15][d & 15]
            if res == 2:
                return None
            delta = -self.worth(a, s) - self.worth(d, t)
            b[s] = -1
            if res == 1:
                b[t] = a
                delta += self.worth(a, t)
            elif res == -1:
                delta += self.worth(d, t)
            else:
                b[t] = -1
        else:
            b[s] = -1
            b[t] = a
            delta = self.worth(a, t) - self.worth(a, s)
        self.score += delta
        return delta

    def negamax(self, side: int, depth: int, alpha: float, beta: float) -> float:
        self.nodes += 1
        if depth == 0:
            if side == self.me:
                return self.score
            lo = side * 16
            for n in self.flag_side:
                c = self.b[n]
                if lo < c < lo + BOMB:
                    return WIN
            return -self.score
        moves = self.moves(side)
        if not moves:
            return -WIN - 100 * depth
        best = -WIN * 2
        b = self.b
        guess = side == self.me
        for s, t in moves:
            a, d = b[s], b[t]
            delta = self.play(s, t, guess)
            if delta is None:
                return WIN + 100 * depth
            val = -self.negamax(1 - side, depth - 1, -beta, -alpha)
            b[s], b[t] = a, d
            self.score -= delta
            if val > best:
                best = val
                if val > alpha:
                    alpha = val
                    if alpha >= beta:
                        break
        return best

    def root_value(self, side: int, s: int, t: int, depth: int) -> float:
        b = self.b
        a, d = b[s], b[t]
        delta = self.play(s, t)
        if delta is None:
            return WIN + 100 * depth
        val = -self.negamax(1 - side, depth - 1, -WIN * 2, WIN * 2)
        b[s], b[t] = a, d
        self.score -= delta
        return val
