"""A door's tool screen (a board editor: DoorInfo.editor), opened from the new-game
screen. Every key goes to the tool; it draws the whole screen."""
from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from ansi.canvas import Canvas
from server.screens.session import Pop, Screen, Transition

if TYPE_CHECKING:
    from server.screens.session import Session

__all__ = ["ToolScreen", "Tool"]


class Tool(Protocol):
    """What the screen needs of a door's tool (``DoorInfo.editor`` builds one)."""
    message: str                  # the tool's news; after a save, for the screen below

    def on_key(self, key: str) -> str | None:
        """A key; "saved" or "cancel" when the tool is done."""
        ...

    def draw(self, canvas: Canvas) -> None: ...


class ToolScreen(Screen):
    def __init__(self, session: Session, tool: Tool, title: str):
        super().__init__(session)
        self.tool = tool
        self.location = title

    async def on_key(self, key: str) -> Transition:
        result = self.tool.on_key(key)
        if result in ("saved", "cancel"):
            return Pop(self.tool.message if result == "saved" else None)
        return None

    def draw(self, canvas: Canvas, now: float) -> tuple[int, int] | None:
        self.tool.draw(canvas)
        cursor = getattr(self.tool, "cursor", None)
        return cursor() if callable(cursor) else None
