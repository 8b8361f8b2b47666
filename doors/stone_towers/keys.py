"""Stone Towers keys: arrows move the cursor, ENTER builds or fortifies
(the square decides which), ``i`` cycles the influence overlay (the square
under the cursor, every square, off), ``h`` brings the cursor to the centre.
Any key during a cascade replay skips it. The server keeps c r ? Q = CTRL_L.
"""
from __future__ import annotations

import enum
from typing import Protocol

from ansi.keys import ARROWS, ENTER, HOME
from doors._core.door import Request, Submit

from .rules import PASS, StoneTowersState

__all__ = ["StoneTowersKeyTarget", "Overlay", "handle_key", "OVERLAY_KEY", "CENTRE_KEYS"]


class Overlay(enum.StrEnum):
    """What the influence overlay shows; ``i`` steps through them in this order."""
    OFF = "off"
    CURSOR = "cursor"
    ALL = "all"


class StoneTowersKeyTarget(Protocol):
    """What the keymap reads and changes on a seat's Stone Towers screen (the
    view, ``view.StoneTowersUI``, has it; this module does not import the view)."""
    me: int | None
    obs: StoneTowersState | None
    message: str
    cx: int
    cy: int
    overlay: Overlay

    def anim_step(self, now: float) -> int | None: ...

    def skip_animation(self) -> None: ...


OVERLAY_KEY = "i"
CENTRE_KEYS = ("h", HOME)


def handle_key(ui: StoneTowersKeyTarget, key: str, now: float) -> Submit[int] | Request | None:
    state = ui.obs
    if state is None:
        return None
    if ui.anim_step(now) is not None:
        ui.skip_animation()
        return None
    size = state.size
    if key in ARROWS:
        dx, dy = ARROWS[key]
        ui.cx = min(size - 1, max(0, ui.cx + dx))
        ui.cy = min(size - 1, max(0, ui.cy + dy))
        return None
    if key in CENTRE_KEYS:
        ui.cx = ui.cy = size // 2
        return None
    if key == OVERLAY_KEY:
        order = list(Overlay)
        ui.overlay = order[(order.index(ui.overlay) + 1) % len(order)]
        return None
    if key == ENTER:
        if ui.me is None:
            ui.message = "You are watching this game."
            return None
        if not state.is_terminal() and ui.me in state.to_move() \
                and state.legal_actions(ui.me) == [PASS]:
            return Submit(PASS)
        square = ui.cy * size + ui.cx
        reason = state.why_illegal(ui.me, square)
        if reason is not None:
            ui.message = reason
            return None
        ui.message = ""
        return Submit(square)
    return None
