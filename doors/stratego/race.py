"""The race to our flag, for the search's evaluation (defence levels).

A threat is an enemy piece that moved or is known (never one unmoved and
hidden at the root) within ``RACE_RANGE`` steps of our flag: a Miner
through our bombs, any other piece only round them. Whichever of its
shortest ways it takes, it passes one square of each "level" (the squares
``k`` steps from it on those ways). Our piece on ``s`` stops it at level
``k`` if it can reach every square of that level by the time the threat
does (its worst case; our steps go round our own bombs and flag); its lag
is the fewest steps too late over the levels (``race_lag``).

Only the best-placed of our pieces that beat the threat (or trade with it)
is charged: ``RACE`` per step of the least lag among them, up to
``RACE_STEPS``. The others are free to go; any one of them that comes into
time lifts the charge. ``Race`` keeps, per threat, how many such pieces
stand at each lag, so the search moves pieces at the cost of a few counts.

A threat within ``IMMINENT`` steps of our flag (a Miner at our last bombs)
that none of ours stops in time costs ``DOOM`` on top of its lag: in that
sample the flag, not a few steps, is lost, so a defender strikes the
walker (or trades itself for it) rather than step aside. Like the lag, it
is judged after the threat's next step (their move at the horizon): four
steps, not three. Charged only once the threat stood three steps off, its
step there was their best reply to every move of ours, and a piece of ours
left to be taken beside it was never seen taken.

The search follows each threat as it moves (``enemy``): its lags are
those of the square it stands on, so a threat that comes a step nearer in
a line is a step nearer in the race. (Before, a threat kept the lags of
its root square: in a search of three plies our two moves raced its none,
and our defender came a step late, the flag lost by that step.) Once a
threat is taken in a line it is charged no more: a defender that trades
itself for the Miner on its way has saved the flag.

Near our flag (a threat within ``IMMINENT``), a piece of ours in time
must also find its way clear: each square on it held by another piece of
ours costs it a step, as that piece must first step aside (``_clear``;
not the square where it strikes the threat: a piece of ours there is
taken by then).
The lags cannot hold this (they are cached per threat square, and our
pieces move in the search), so the near threats are judged again on the
board as it stands after every move of ours. (A lost game: our Scout
stepped onto the one square our Miner needed to meet their Miner, the
race judged the Miner in time behind it, and it came a step late.)

Cells: -1 empty, else ``owner * 16 + r`` (``belief.R_OF`` rank index).
"""
from __future__ import annotations

from functools import lru_cache

from .pieces import NEIGHBOURS
from .tables import BOMB, MINER, RESULT, SPY, bfs, bfs_seeded

__all__ = ["Race", "race_lag", "race_ways", "RACE", "RACE_RANGE", "RACE_STEPS", "DOOM", "IMMINENT"]

RACE = 30.0
# a threat this few steps from our flag (a Miner through the last bombs)
# that none of ours can stop in time takes it: the game, not a few steps
# of lag, is lost in that sample (``Race._now``); four, as its next step
# brings it to three (the lag too is judged after that step)
IMMINENT = 4
DOOM = 500.0
RACE_RANGE = 12
RACE_STEPS = 6
_NONE = (0,) * 100      # the lags of a threat gone out of range
# ``Race._cached_clear``: (me, flag, bombs, rank, square, our pieces in the zone) -> clear
_CLEAR: dict[tuple[int, int, frozenset[int], int, int, tuple[int, ...]], bool] = {}


@lru_cache(maxsize=4096)
def _reach(x: int, walls: frozenset[int]) -> tuple[int, ...]:
    return tuple(bfs_seeded({x: 0}, walls))


@lru_cache(maxsize=256)
def flag_steps(miner: bool, flag: int, bombs: frozenset[int]) -> tuple[int, ...]:
    """Per square, a threat's steps to our flag: a Miner's through our
    bombs, any other piece's round them."""
    return tuple(bfs([flag]) if miner else bfs_seeded({flag: 0}, bombs))


_Ways = tuple[tuple[int, tuple[int, ...]], ...]


@lru_cache(maxsize=8192)
def race_ways(e: int, miner: bool, flag: int, bombs: frozenset[int]) \
        -> tuple[tuple[int, ...], _Ways, tuple[int, ...], frozenset[int]] | None:
    """The race against a threat on ``e``: our lag per square (``race_lag``),
    the levels of its ways ((k, squares), by k), the squares where a piece
    of ours is in time (lag 0), and the zone round them where a piece of
    ours may stand in its way (``Race._clear``). None beyond ``RACE_RANGE``."""
    to_flag = flag_steps(miner, flag, bombs)
    far = to_flag[e]
    if far > RACE_RANGE:
        return None
    from_e = bfs([e]) if miner else bfs_seeded({e: 0}, bombs)
    levels: dict[int, list[int]] = {}
    walls = bombs | {flag}
    for x in range(100):
        if x != flag and from_e[x] + to_flag[x] == far:
            levels.setdefault(from_e[x], []).append(x)
    best = [RACE_STEPS] * 100
    for k, squares in levels.items():
        reach = [_reach(x, walls) for x in squares]
        for s in range(100):
            late = max(r[s] for r in reach) - k + 1
            if late < best[s]:
                best[s] = late
    lags = tuple(max(0, b) for b in best)
    ways = tuple((k, tuple(levels[k])) for k in sorted(levels))
    zero = tuple(s for s in range(100) if lags[s] == 0)
    near = bfs(list(zero)) if zero else [99] * 100
    top = ways[-1][0] - 1
    return lags, ways, zero, frozenset(s for s in range(100) if near[s] <= top)


def race_lag(e: int, miner: bool, flag: int, bombs: frozenset[int]) -> tuple[int, ...] | None:
    """Per square, how many steps our piece there is too late (0 to
    ``RACE_STEPS``) for the threat on ``e``, judged at the search's horizon:
    the threat to move, having come a step nearer (so our piece must be a
    step early). None if the threat is further than ``RACE_RANGE``."""
    race = race_ways(e, miner, flag, bombs)
    return None if race is None else race[0]


_NO_WAYS: tuple[_Ways, tuple[int, ...], frozenset[int]] = ((), (), frozenset())
# a threat's lags, ways, counts, nearness and charge before it moved (``enemy_back``)
_Before = tuple[tuple[int, ...], tuple[_Ways, tuple[int, ...], frozenset[int]], list[int], bool, float]


class Race:
    """Per threat, our able pieces counted by lag; the charge is kept as
    the search moves pieces (``move``, and ``move`` back to undo)."""

    def __init__(self, cells: list[int], me: int, flag: int, unknown: frozenset[int] | set[int]):
        bombs = frozenset(s for s, c in enumerate(cells) if c == me * 16 + BOMB)
        self.b = cells              # the search's board (read when a threat moves)
        self.me, self.flag, self.bombs = me, flag, bombs
        self.walls = bombs | {flag}
        self.rank: list[int] = []           # per threat, its rank, and its square now
        self.where: list[int] = []
        self.able: list[tuple[bool, ...]] = []     # per threat, by rank: ours that stop it
        self.lags: list[tuple[int, ...]] = []
        self.ways: list[tuple[_Ways, tuple[int, ...], frozenset[int]]] = []    # levels, in time, zone
        self.clear: list[bool | None] = []  # per threat, ``_clear`` while no piece crossed its zone
        self.counts: list[list[int]] = []
        self.paid: list[float] = []         # per threat, its charge now (``_now``)
        self.at: dict[int, int] = {}        # where each threat stands now (square -> index)
        self.live: list[bool] = []          # a threat taken in the line is charged no more
        # their moves, to undo: (from, to, threat, what it had before)
        self.trail: list[tuple[int, int, int | None, _Before | None]] = []
        self.undo: list[list[tuple[int, float, bool | None]]] = []  # ours, to undo (``move_back``)
        self.near: list[bool] = []          # per threat: within ``IMMINENT`` of our flag
        for e, c in enumerate(cells):
            if c < 0 or c >> 4 == me or not 0 < c & 15 < BOMB or e in unknown:
                continue
            r = c & 15
            race = race_ways(e, r == MINER, flag, bombs)
            if race is None:
                continue
            k = len(self.lags)
            self.at[e] = k
            self.live.append(True)
            self.lags.append(race[0])
            self.ways.append(race[1:])
            self.rank.append(r)
            self.where.append(e)
            self.near.append(flag_steps(r == MINER, flag, bombs)[e] <= IMMINENT)
            self.able.append(tuple(0 < q < BOMB and q != SPY and RESULT[q][r] >= 0 for q in range(16)))
            self.counts.append(self._count(k))
            self.clear.append(None)
            self.paid.append(self._now(k))

    def _count(self, k: int) -> list[int]:
        """Our pieces able to stop threat ``k``, by their lag against it."""
        cnt = [0] * (RACE_STEPS + 1)
        able, lag, me = self.able[k], self.lags[k], self.me
        for s, c in enumerate(self.b):
            if c >= 0 and c >> 4 == me and able[c & 15]:
                cnt[lag[s]] += 1
        return cnt

    def __bool__(self) -> bool:
        return bool(self.lags)

    def least(self, k: int) -> int:
        """The least lag among our pieces able to stop threat ``k``."""
        return next((i for i, n in enumerate(self.counts[k]) if n), RACE_STEPS)

    def _now(self, k: int) -> float:
        """The charge of threat ``k`` on the board as it stands: ``RACE`` a
        step of the least lag, and ``DOOM`` more if it is ``near`` our flag
        and none of ours is in time. Near our flag, a piece of ours in time must also find its way clear: a square
        held by another piece of ours costs it a step (that piece must first
        step aside), so a Scout parked on the defender's way is not missed."""
        lag = RACE_STEPS        # ``least``, written out: asked on every move of ours
        for i, n in enumerate(self.counts[k]):
            if n:
                lag = i
                break
        near = self.near[k]
        if lag == 0 and near:
            clear = self.clear[k]
            if clear is None:
                clear = self.clear[k] = self._cached_clear(k)
            if not clear:
                lag = 1
        return RACE * lag + (DOOM if lag and near else 0.0)

    def _cached_clear(self, k: int) -> bool:
        """``_clear``, kept per threat and the pieces of ours in its zone:
        the samples differ in their pieces, not ours, so most lines of a
        move ask again for a placing of ours seen before."""
        b, me = self.b, self.me
        zone = self.ways[k][2]
        key = (self.me, self.flag, self.bombs, self.rank[k], self.where[k],
               tuple(c if c >= 0 and c >> 4 == me else -1 for c in map(b.__getitem__, zone)))
        clear = _CLEAR.get(key)
        if clear is None:
            if len(_CLEAR) > 20_000:     # about 11 MB at most
                _CLEAR.clear()
            clear = _CLEAR[key] = self._clear(k)
        return clear

    def _clear(self, k: int) -> bool:
        """Whether a piece of ours in time for threat ``k`` (lag 0) is in
        time still when each other piece of ours it must pass costs a step.
        Its last step strikes the threat on its way, so a piece of ours
        standing there (taken by then) costs nothing."""
        ways, zero, _ = self.ways[k]
        b, me, able, walls = self.b, self.me, self.able[k], self.walls
        top = ways[-1][0] - 1       # in time: at most k - 1 steps to level k
        for s in zero:
            c = b[s]
            if c < 0 or c >> 4 != me or not able[c & 15]:
                continue
            stand = {s: 0}          # steps to stand on a square
            hit = {s: 0}            # steps to strike the threat on it
            front = [[s]] + [[] for _ in range(top)]
            for d in range(top):
                for u in front[d]:
                    if stand[u] != d:
                        continue
                    for n in NEIGHBOURS[u]:
                        if d < hit.get(n, 99) - 1:
                            hit[n] = d + 1
                        if n in walls:
                            continue
                        o = b[n]
                        nd = d + (2 if o >= 0 and o >> 4 == me else 1)
                        if nd < top and nd < stand.get(n, 99):
                            stand[n] = nd
                            front[nd].append(n)
            if any(all(hit.get(x, 99) < lvl for x in squares) for lvl, squares in ways):
                return True
        return False

    def charge(self) -> float:
        return -sum(p for p, live in zip(self.paid, self.live, strict=True) if live)

    def enemy(self, frm: int, to: int) -> float:
        """Their piece goes from ``frm`` to ``to`` (-1: it was taken); the
        change of the charge. A threat that moves takes the lags of its new
        square (none beyond ``RACE_RANGE``); once taken it is charged no more."""
        k = self.at.pop(frm, None)
        if k is None:
            self.trail.append((frm, to, k, None))
            return 0.0
        if to < 0:
            self.trail.append((frm, to, k, None))
            self.live[k] = False
            return self.paid[k]
        self.at[to] = k
        self.where[k] = to
        miner = self.rank[k] == MINER
        race = race_ways(to, miner, self.flag, self.bombs)
        before = self.paid[k]
        self.trail.append((frm, to, k, (self.lags[k], self.ways[k], self.counts[k], self.near[k], before)))
        self.lags[k], self.ways[k] = (_NONE, _NO_WAYS) if race is None else (race[0], race[1:])
        self.counts[k] = self._count(k)
        self.clear[k] = None
        self.near[k] = flag_steps(miner, self.flag, self.bombs)[to] <= IMMINENT
        self.paid[k] = self._now(k)
        return before - self.paid[k]

    def enemy_back(self) -> None:
        """Undo the last ``enemy``."""
        frm, to, k, old = self.trail.pop()
        if k is None:
            return
        if to >= 0:
            del self.at[to]
            assert old is not None
            self.lags[k], self.ways[k], self.counts[k], self.near[k], self.paid[k] = old
            self.clear[k] = None
        else:
            self.live[k] = True
        self.at[frm] = k
        self.where[k] = frm

    def move(self, r: int, frm: int, to: int) -> float:
        """Our rank-``r`` piece goes from ``frm`` to ``to`` (-1: off the
        board, or onto it); the change of the charge. Any piece of ours
        may block or free a defender's way to a threat near our flag.
        ``move_back`` undoes it."""
        gain = 0.0
        undo: list[tuple[int, float, bool | None]] = []
        counts, lags, near, ways, paid, clear, live = \
            self.counts, self.lags, self.near, self.ways, self.paid, self.clear, self.live
        for k, able in enumerate(self.able):
            mine = able[r]
            if mine:
                cnt, lag = counts[k], lags[k]
                if frm >= 0:
                    cnt[lag[frm]] -= 1
                if to >= 0:
                    cnt[lag[to]] += 1
            elif not near[k]:
                continue
            zone = ways[k][2]
            crossed = frm in zone or to in zone
            if not (crossed or mine):
                continue            # nothing it could block or free
            undo.append((k, paid[k], clear[k]))
            if crossed:
                clear[k] = None
            now = self._now(k)
            if live[k]:
                gain += paid[k] - now
            paid[k] = now
        self.undo.append(undo)
        return gain

    def move_back(self, r: int, frm: int, to: int) -> None:
        """Undo the last ``move(r, frm, to)``: the charges as they were."""
        for able, cnt, lag in zip(self.able, self.counts, self.lags, strict=True):
            if able[r]:
                if to >= 0:
                    cnt[lag[to]] -= 1
                if frm >= 0:
                    cnt[lag[frm]] += 1
        for k, paid, clear in self.undo.pop():
            self.paid[k], self.clear[k] = paid, clear
