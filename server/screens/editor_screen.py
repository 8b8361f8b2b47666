"""A door's tool screen (a board editor: DoorInfo.editor), opened from the new-game
screen. Every key goes to the tool; it draws the whole screen."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ansi.canvas import Canvas
from doors._core.door import Editor
from server.screens.session import Pop, Screen, Transition

if TYPE_CHECKING:
    from server.screens.session import Session

__all__ = ["ToolScreen"]


class ToolScreen(Screen):
    def __init__(self, session: Session, tool: Editor, title: str):
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
