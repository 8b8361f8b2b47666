"""Redraws at a set time for many screens at once (the lobby's clock at
each minute): screens due within the same ``GRAIN`` share one timer. When
it fires, its screens are told in turns of the loop of at most ``BUDGET``
seconds each, so a key typed meanwhile waits for one turn, not for ten
thousand redraws; between turns the loop does not sleep, so one wake of
the process (and of each line's far end, as the writes come back to back)
serves many screens. Ten thousand lobbies then cost no timer, no inbox
item and no wake of their session's loop each per minute, only the
drawing itself."""
from __future__ import annotations

import asyncio
import math
import time
import weakref
from typing import Protocol

__all__ = ["Ticked", "at"]

# seconds: screens due within this share a timer
GRAIN = 0.005
# seconds of telling screens in one turn of the loop, at most (then the
# loop reads what came meanwhile: typed keys wait about this long)
BUDGET = 0.0002


class Ticked(Protocol):
    def tick(self) -> None:
        """Its time came: redraw if still shown (else let go: it asks again when drawn)."""


class _Ticks:
    """One event loop's timers, by ``GRAIN`` of the loop's clock."""

    def __init__(self, loop: asyncio.AbstractEventLoop):
        self.loop = loop
        # weak: a screen whose session has gone is not kept until its minute;
        # by id, so that asking again for the same time costs a look-up
        self.groups: dict[int, dict[int, weakref.ref[Ticked]]] = {}

    def at(self, when: float, screen: Ticked) -> None:
        slot = math.ceil(when / GRAIN)
        group = self.groups.get(slot)
        if group is None:
            group = self.groups[slot] = {}
            self.loop.call_at(slot * GRAIN, self._fire, slot)
        ref = group.get(id(screen))
        if ref is None or ref() is not screen:
            group[id(screen)] = weakref.ref(screen)

    def _fire(self, slot: int) -> None:
        group = self.groups.pop(slot, None)
        if group:
            self._tell(list(group.values()), 0)

    def _tell(self, refs: list[weakref.ref[Ticked]], start: int) -> None:
        """Tell ``refs[start:]`` until ``BUDGET`` is spent, the rest in the
        loop's next turn."""
        stop = time.perf_counter() + BUDGET
        for i in range(start, len(refs)):
            screen = refs[i]()
            if screen is not None:
                screen.tick()
            if time.perf_counter() >= stop and i + 1 < len(refs):
                self.loop.call_soon(self._tell, refs, i + 1)
                return


_TICKS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Ticks] = weakref.WeakKeyDictionary()


def at(when: float, screen: Ticked) -> None:
    """Call ``screen.tick()`` at ``when`` (the loop's clock, ``time.monotonic``)
    or a little later; once, however often it is asked for that time."""
    loop = asyncio.get_running_loop()
    ticks = _TICKS.get(loop)
    if ticks is None:
        ticks = _TICKS[loop] = _Ticks(loop)
    ticks.at(when, screen)
