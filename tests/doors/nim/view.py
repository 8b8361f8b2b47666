"""Nim's screen and keys: the pile drawn as stones, 1 2 3 to take."""
from __future__ import annotations

from ansi.canvas import GREY, YELLOW, Canvas
from doors._core.door import DoorUI, Request, Submit

from .rules import NimState


class NimUI(DoorUI[int, NimState]):
    def on_key(self, key: str, now: float) -> Submit[int] | Request | None:
        state = self.obs
        if state is None or key not in ("1", "2", "3"):
            return None
        if self.me is None or state.why_illegal(self.me, int(key)) is not None:
            self.message = "You may take 1 to 3 stones, on your turn."
            return None
        return Submit(int(key))

    def draw(self, canvas: Canvas, now: float) -> None:
        state = self.obs
        if state is None:
            return
        canvas.text(2, 1, "NIM", YELLOW)
        canvas.text(2, 3, f"Stones left: {state.pile:2d}  " + "o " * state.pile, GREY)
        canvas.text(2, 5, "Take 1, 2 or 3 stones (keys 1 2 3). Who takes the last one wins.", GREY)
