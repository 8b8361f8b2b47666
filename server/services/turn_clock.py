"""The clock of by-turns games: wall time less every pause the sysop made
(holidays) and every time the server was down, so neither is ever charged
to anybody's time per move.

It owns the pause (kept in the store, so it survives restarts). The wall
clock is injected (tests pass a fake one). A by-turns game's clock state
(``TurnTimes``) reads it: when each side's current turn began, in clock
time, and whose time per move has run out.
"""
from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Callable, Sequence

from doors._core.game import Outcome
from server.services.move_clock import lost_on_time
from server.services.store import Store
from server.services.store_turns import Turns

__all__ = ["TurnClock", "TurnTimes", "MOVE_DAYS", "DAY", "span_text"]

log = logging.getLogger("gatehouse.clock")

DAY = 86400.0
MOVE_DAYS = (1, 3, 7)        # the times per move a challenger may choose


def span_text(seconds: float) -> str:
    """A time left as people say it: "2d 5h", "5h 10m", "12m"."""
    seconds = max(0, int(seconds))
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    if days:
        return f"{days}d {hours}h"
    if hours:
        return f"{hours}h {minutes:02d}m"
    return f"{minutes}m"


class TurnClock:
    def __init__(self, store: Store, wall: Callable[[], float] = time.time):
        self._store = store
        self._wall = wall
        self.paused_since: float | None = None     # wall time the pause began
        self._paused_total = 0.0                  # seconds of earlier pauses

    def wall(self) -> float:
        """The server's wall clock (time.time unless the App was given another)."""
        return self._wall()

    async def load(self) -> None:
        """The pause from the store; and the time since the last heartbeat
        (the server was down) is added to the paused total, so every clock
        stands still over it. While held (holidays) the clock stood still
        anyway, and the hold's own account covers the time."""
        self.paused_since, self._paused_total = await self._store.turn_clock()
        now = self._wall()
        alive = await self._store.last_alive()
        down = 0.0 if alive is None else max(0.0, now - alive)
        if down > 0 and self.paused_since is None:
            self._paused_total += down
            await self._store.forgive_downtime(self._paused_total, now)
            log.info("the server was down for %s: not charged to any by-turns clock", span_text(down))
        else:
            await self._store.set_alive(now)

    async def beat(self) -> None:
        """The server is alive now (called every clock check and at a stop)."""
        await self._store.set_alive(self._wall())

    @property
    def paused(self) -> bool:
        return self.paused_since is not None

    def now(self) -> float:
        """Clock time: stands still while paused."""
        wall = self._wall() if self.paused_since is None else self.paused_since
        return wall - self._paused_total

    async def pause(self) -> None:
        if self.paused_since is None:
            self.paused_since = self._wall()
            await self._store.set_turn_clock(self.paused_since, self._paused_total)

    async def resume(self) -> None:
        if self.paused_since is not None:
            self._paused_total += max(0.0, self._wall() - self.paused_since)
            self.paused_since = None
            await self._store.set_turn_clock(None, self._paused_total)


@dataclasses.dataclass
class TurnTimes:
    """One by-turns game's clock: its time per move and when each side's
    current turn began (clock time; None while it is not that side's turn)."""
    clock: TurnClock
    move_seconds: float
    started: list[float | None]

    @property
    def move_days(self) -> float:
        return self.move_seconds / DAY

    def after(self, before: Sequence[int], movers: Sequence[int], mover: int | None = None) -> Turns:
        """The turn starts once ``mover`` has moved and the sides to move go
        from ``before`` to ``movers``: a side whose turn just began, or that
        just moved and moves again, starts now; one still waiting to move
        keeps its start; the others have none."""
        now = self.clock.now()
        marks = [(self.started[p] if p in before and p != mover and self.started[p] is not None
                  else now) if p in movers else None for p in (0, 1)]
        return marks[0], marks[1]

    def left(self, player: int) -> float | None:
        """Seconds ``player`` has left for this move (None: not their turn)."""
        start = self.started[player]
        return None if start is None else start + self.move_seconds - self.clock.now()

    def overdue(self) -> list[int]:
        """The sides whose time per move has run out."""
        return [p for p in (0, 1) if (left := self.left(p)) is not None and left <= 0]

    def verdict(self, names: tuple[str, str]) -> Outcome | None:
        """How the game ends on time, if it does now: the side whose time
        ran out loses (a forfeit); both at once (in a phase where both move,
        such as a setup): nobody wins, the game is aborted."""
        days = f"{self.move_days:g} day{'s' if self.move_days != 1 else ''} a move"
        return lost_on_time(self.overdue(), names, days)
