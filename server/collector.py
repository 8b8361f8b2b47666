"""Python's cyclic garbage collector, for a process that holds thousands of
sessions for hours.

A full collection walks every object the collector tracks, and with
thousands of callers on, everybody's keys wait while it runs; during a rush
of logins it comes each time the heap has grown by a quarter, and finds
nothing to free, since every new session is still in use. So what survives
a full collection is frozen (``gc.freeze``: later collections skip it), and
full collections walk only what came since. Every ``THAW_SECONDS`` the
frozen objects are thawed, so that the next full collection walks them all
once more and frees what the sessions that ended since then left in cycles."""
from __future__ import annotations

import asyncio
import gc
from typing import Any

__all__ = ["Collector"]

# how long what survived stays frozen: the cycles of sessions that ended
# within it are freed at its end
THAW_SECONDS = 600.0


class Collector:
    """Freezes what survives each full collection; thaws all of it every
    ``thaw_seconds``. ``start()`` on the server's loop, ``stop()`` at its end."""

    def __init__(self, thaw_seconds: float = THAW_SECONDS):
        self.thaw_seconds = thaw_seconds
        self.frozen = 0            # full collections whose survivors were frozen
        self.thawed = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._timer: asyncio.TimerHandle | None = None

    def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        gc.collect()
        gc.freeze()                  # what start-up made lives as long as the process
        gc.callbacks.append(self._collected)
        self._timer = self._loop.call_later(self.thaw_seconds, self.thaw)

    def stop(self) -> None:
        if self._collected in gc.callbacks:
            gc.callbacks.remove(self._collected)
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        gc.unfreeze()

    def _collected(self, phase: str, info: dict[str, Any]) -> None:
        """After a full collection (in whichever thread made it), freeze on
        the loop what it kept."""
        if phase == "stop" and info.get("generation") == 2 and self._loop is not None:
            try:
                self._loop.call_soon_threadsafe(self._freeze)
            except RuntimeError:
                pass                 # the loop has closed

    def _freeze(self) -> None:
        gc.freeze()
        self.frozen += 1

    def thaw(self) -> None:
        """Let the next full collection walk everything (and free the cycles
        of the sessions that ended since the last thaw)."""
        gc.unfreeze()
        self.thawed += 1
        if self._loop is not None:
            self._timer = self._loop.call_later(self.thaw_seconds, self.thaw)
