"""The screen stack's pieces: a screen handles keys and events and draws
itself on a canvas; it returns a transition instead of raising one."""
from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from ansi.canvas import Canvas

if TYPE_CHECKING:
    from server.screens.session import Session

__all__ = ["Screen", "Push", "Pop", "Replace", "Quit", "Transition"]


@dataclasses.dataclass(frozen=True)
class Push:
    screen: Screen


@dataclasses.dataclass(frozen=True)
class Pop:
    result: Any = None


@dataclasses.dataclass(frozen=True)
class Replace:
    screen: Screen


@dataclasses.dataclass(frozen=True)
class Quit:
    message: str = "Goodbye."


Transition = Push | Pop | Replace | Quit | None


class Screen:
    """Base screen. ``location`` is what the who-list shows for the caller."""

    location = "lobby"
    # seconds between redraws for what changes by itself (idle times, the
    # clock); None: only events and frame_due redraw the screen
    refresh_every: float | None = None

    def __init__(self, session: Session):
        self.session = session

    async def on_start(self) -> Transition:
        return None

    async def on_key(self, key: str) -> Transition:
        return None

    async def on_event(self, event: Any) -> Transition:
        return None

    async def on_result(self, result: Any) -> Transition:
        """A screen pushed by this one has popped with ``result``."""
        return None

    def draw(self, canvas: Canvas, now: float) -> tuple[int, int] | None:
        """Draw; return where the cursor should rest, or None."""
        return None

    def frame_due(self, now: float) -> float | None:
        return None

    async def on_close(self) -> None:
        """The session is ending (dropped or quit) while this screen is open."""
