"""Awari keys: what each key does on a player's screen.

LEFT/RIGHT move the cursor over the player's own holes (as drawn: hole 6 is
next to the home on the left, hole 1 on the right), ENTER sows the cursor
hole, digits 1-6 sow that hole directly, ``a`` asks for "auto finish".
Any key first skips a running sowing animation. The server keeps c, r, ?,
Q, = and CTRL-L.
"""
from __future__ import annotations

from typing import Protocol

from ansi.keys import ENTER, LEFT, RIGHT
from doors._core.door import Request, RequestKind, Submit

from .rules import AwariState

__all__ = ["AwariKeyTarget", "AUTO_FINISH_KEY", "KEY_HELP", "handle_key"]


class AwariKeyTarget(Protocol):
    """What the keymap reads and changes on a seat's Awari screen (the view,
    ``view.AwariUI``, has it; this module does not import the view)."""
    me: int | None
    obs: AwariState | None
    message: str
    cursor_hole: int

    def skip_animation(self, now: float) -> bool: ...


AUTO_FINISH_KEY = "a"
KEY_HELP = ("\u2190 \u2192 choose a hole   Enter sow it   1-6 sow that hole",
            "a = auto finish (the computer plays both sides, if the other agrees)")


def _my_turn(ui: AwariKeyTarget) -> bool:
    obs = ui.obs
    return (ui.me is not None and obs is not None and not obs.is_terminal()
            and ui.me in obs.to_move())


def _step_cursor(ui: AwariKeyTarget, step: int) -> None:
    """Move the cursor to the next hole that way, preferring non-empty ones."""
    row = ui.obs.row(ui.me) if ui.obs is not None and ui.me is not None else [1] * 6
    hole = ui.cursor_hole
    for _ in range(6):
        hole += step
        if not 1 <= hole <= 6:
            return
        if row[hole - 1]:
            ui.cursor_hole = hole
            return
    # only empty holes that way: plain step
    ui.cursor_hole = max(1, min(6, ui.cursor_hole + step))


def _sow(ui: AwariKeyTarget, hole: int) -> Submit[int] | None:
    obs, me = ui.obs, ui.me
    if obs is None or me is None or not _my_turn(ui):
        ui.message = "The game is over." if obs is not None and obs.is_terminal() \
            else "It is not your turn."
        return None
    reason = obs.why_illegal(me, hole)
    if reason is not None:
        ui.message = reason
        return None
    ui.cursor_hole = hole
    return Submit(hole)


def handle_key(ui: AwariKeyTarget, key: str, now: float) -> Submit[int] | Request | None:
    if ui.skip_animation(now):
        return None
    if ui.me is None or ui.obs is None:
        return None
    if key == LEFT:            # drawn right to left: hole 6 at the left
        _step_cursor(ui, +1)
    elif key == RIGHT:
        _step_cursor(ui, -1)
    elif key == ENTER:
        return _sow(ui, ui.cursor_hole)
    elif len(key) == 1 and key in "123456":
        return _sow(ui, int(key))
    elif key == AUTO_FINISH_KEY:
        if ui.obs.is_terminal():
            ui.message = "The game is over."
            return None
        ui.message = "Asked for auto finish."
        return Request(RequestKind.AUTO_FINISH)
    return None
