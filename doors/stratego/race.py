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

Cells: -1 empty, else ``owner * 16 + r`` (``belief.R_OF`` rank index).
"""
from __future__ import annotations

from functools import lru_cache

from .tables import BOMB, MINER, RESULT, SPY, bfs, bfs_seeded

__all__ = ["Race", "race_lag", "RACE", "RACE_RANGE", "RACE_STEPS", "DOOM", "IMMINENT"]

RACE = 30.0
# a threat this few steps from our flag (a Miner through the last bombs)
# that none of ours can stop in time takes it: the game, not a few steps
# of lag, is lost in that sample (``Race.cost``); four, as its next step
# brings it to three (the lag too is judged after that step)
IMMINENT = 4
DOOM = 500.0
RACE_RANGE = 12
RACE_STEPS = 6
_NONE = (0,) * 100      # the lags of a threat gone out of range


@lru_cache(maxsize=4096)
def _reach(x: int, walls: frozenset[int]) -> tuple[int, ...]:
    return tuple(bfs_seeded({x: 0}, walls))


@lru_cache(maxsize=256)
def flag_steps(miner: bool, flag: int, bombs: frozenset[int]) -> tuple[int, ...]:
    """Per square, a threat's steps to our flag: a Miner's through our
    bombs, any other piece's round them."""
    return tuple(bfs([flag]) if miner else bfs_seeded({flag: 0}, bombs))


@lru_cache(maxsize=8192)
def race_lag(e: int, miner: bool, flag: int, bombs: frozenset[int]) -> tuple[int, ...] | None:
    """Per square, how many steps our piece there is too late (0 to
    ``RACE_STEPS``) for the threat on ``e``, judged at the search's horizon:
    the threat to move, having come a step nearer (so our piece must be a
    step early). None if the threat is further than ``RACE_RANGE``."""
    to_flag = flag_steps(miner, flag, bombs)
    far = to_flag[e]
    if far > RACE_RANGE:
        return None
    from_e = bfs([e]) if miner else bfs_seeded({e: 0}, bombs)
    levels: dict[int, list[tuple[int, ...]]] = {}
    walls = bombs | {flag}
    for x in range(100):
        if x != flag and from_e[x] + to_flag[x] == far:
            levels.setdefault(from_e[x], []).append(_reach(x, walls))
    best = [RACE_STEPS] * 100
    for k, reach in levels.items():
        for s in range(100):
            late = max(r[s] for r in reach) - k + 1
            if late < best[s]:
                best[s] = late
    return tuple(max(0, b) for b in best)


class Race:
    """Per threat, our able pieces counted by lag; the charge is kept as
    the search moves pieces (``move``, and ``move`` back to undo)."""

    def __init__(self, cells: list[int], me: int, flag: int, unknown: frozenset[int] | set[int]):
        bombs = frozenset(s for s, c in enumerate(cells) if c == me * 16 + BOMB)
        self.b = cells              # the search's board (read when a threat moves)
        self.me, self.flag, self.bombs = me, flag, bombs
        self.miner: list[bool] = []
        self.able: list[tuple[bool, ...]] = []     # per threat, by rank: ours that stop it
        self.lags: list[tuple[int, ...]] = []
        self.counts: list[list[int]] = []
        self.at: dict[int, int] = {}        # where each threat stands now (square -> index)
        self.live: list[bool] = []          # a threat taken in the line is charged no more
        # their moves, to undo: (from, to, threat, its lags and counts before)
        self.trail: list[tuple[int, int, int | None, tuple[tuple[int, ...], list[int], bool] | None]] = []
        self.near: list[bool] = []          # per threat: within ``IMMINENT`` of our flag
        self.of_rank: list[list[int]] = [[] for _ in range(16)]    # threats each rank of ours can stop
        for e, c in enumerate(cells):
            if c < 0 or c >> 4 == me or not 0 < c & 15 < BOMB or e in unknown:
                continue
            r = c & 15
            lag = race_lag(e, r == MINER, flag, bombs)
            if lag is None:
                continue
            k = len(self.lags)
            self.at[e] = k
            self.live.append(True)
            self.lags.append(lag)
            self.miner.append(r == MINER)
            self.near.append(flag_steps(r == MINER, flag, bombs)[e] <= IMMINENT)
            self.able.append(tuple(0 < q < BOMB and q != SPY and RESULT[q][r] >= 0 for q in range(16)))
            self.counts.append(self._count(k))
            for q in range(1, BOMB):
                if self.able[k][q]:
                    self.of_rank[q].append(k)

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

    def cost(self, k: int, lag: int) -> float:
        """The charge of threat ``k`` at ``lag``: ``RACE`` a step, and
        ``DOOM`` more if it is ``near`` our flag and none of ours is in time."""
        return RACE * lag + (DOOM if lag and self.near[k] else 0.0)

    def charge(self) -> float:
        return -sum(self.cost(k, self.least(k)) for k in range(len(self.lags)) if self.live[k])

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
            return self.cost(k, self.least(k))
        self.at[to] = k
        lag = race_lag(to, self.miner[k], self.flag, self.bombs) or _NONE
        before = self.cost(k, self.least(k))
        self.trail.append((frm, to, k, (self.lags[k], self.counts[k], self.near[k])))
        self.lags[k] = lag
        self.counts[k] = self._count(k)
        self.near[k] = flag_steps(self.miner[k], self.flag, self.bombs)[to] <= IMMINENT
        return before - self.cost(k, self.least(k))

    def enemy_back(self) -> None:
        """Undo the last ``enemy``."""
        frm, to, k, old = self.trail.pop()
        if k is None:
            return
        if to >= 0:
            del self.at[to]
            assert old is not None
            self.lags[k], self.counts[k], self.near[k] = old
        else:
            self.live[k] = True
        self.at[frm] = k

    def move(self, r: int, frm: int, to: int) -> float:
        """Our rank-``r`` piece goes from ``frm`` to ``to`` (-1: off the
        board, or onto it); the change of the charge."""
        gain = 0.0
        for k in self.of_rank[r]:
            before = self.cost(k, self.least(k))
            cnt, lag = self.counts[k], self.lags[k]
            if frm >= 0:
                cnt[lag[frm]] -= 1
            if to >= 0:
                cnt[lag[to]] += 1
            if self.live[k]:
                gain += before - self.cost(k, self.least(k))
        return gain
