"""A help or text screen: pages split on form feeds, or by height."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ansi.canvas import BLUE, DARK_GREY, GREY, WHITE, YELLOW, Canvas, shorten
from ansi.widgets import Pager
from server.screens.session import Pop, Screen, Transition

if TYPE_CHECKING:
    from server.screens.session import Session

__all__ = ["PagerScreen"]


class PagerScreen(Screen):
    passes_events = True          # a game's chat and news reach the game beneath while help is read

    def __init__(self, session: Session, text: str, title: str):
        super().__init__(session)
        self.pager = Pager(text, 21)
        self.title = title
        self.location = session.screens[-1].location if session.screens else "reading"

    async def on_key(self, key: str) -> Transition:
        if not self.pager.handle(key):
            return Pop(None)
        return None

    def draw(self, canvas: Canvas, now: float) -> tuple[int, int] | None:
        canvas.fill(0, 0, 80, 1, " ", WHITE, BLUE)
        canvas.text(1, 0, shorten(self.title, 78), YELLOW, BLUE)
        self.pager.draw(canvas.region(1, 1, 78, 21), GREY)
        canvas.text(1, 23, "SPACE next page  BACKSPACE previous  ESC close", DARK_GREY)
        return None
