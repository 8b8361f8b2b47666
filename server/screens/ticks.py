"""Redraws at a set time for many screens at once (the lobby's clock each
minute): screens due within the same ``GRAIN`` share one timer, which
draws each of them directly. Ten thousand lobbies then cost no timer, no
inbox item and no wake of their session's loop each per minute, only the
drawing itself."""
from __future__ import annotations

import asyncio
import math
import weakref
from typing import Protocol

__all__ = ["Ticked", "at"]

# seconds: screens due within this share a timer. Small: one timer draws
# its screens in one turn of the loop, and a key typed meanwhile waits
# (two or three lobbies, about a millisecond, at ten thousand on)
GRAIN = 0.005


class Ticked(Protocol):
    def tick(self) -> None:
        """Its time came: redraw if still shown (else let go: it asks again when drawn)."""


class _Ticks:
    """One event loop's timers, by ``GRAIN`` of the loop's clock."""

    def __init__(self, loop: asyncio.AbstractEventLoop):
        self.loop = loop
        # weak: a screen whose session has gone is not kept until its minute
        # (lists: a few screens each, smaller than sets)
        self.groups: dict[int, list[weakref.ref[Ticked]]] = {}

    def at(self, when: float, screen: Ticked) -> None:
        slot = math.ceil(when / GRAIN)
        group = self.groups.get(slot)
        if group is None:
            group = self.groups[slot] = []
            self.loop.call_at(slot * GRAIN, self._fire, slot)
        if all(ref() is not screen for ref in group):
            group.append(weakref.ref(screen))

    def _fire(self, slot: int) -> None:
        for ref in self.groups.pop(slot, ()):
            screen = ref()
            if screen is not None:
                screen.tick()


_TICKS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Ticks] = weakref.WeakKeyDictionary()


def at(when: float, screen: Ticked) -> None:
    """Call ``screen.tick()`` at ``when`` (the loop's clock, ``time.monotonic``)
    or up to ``GRAIN`` later; once, however often it is asked for that time."""
    loop = asyncio.get_running_loop()
    ticks = _TICKS.get(loop)
    if ticks is None:
        ticks = _TICKS[loop] = _Ticks(loop)
    ticks.at(when, screen)
