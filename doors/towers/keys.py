"""Key handling for the Towers screen (the controller half of TowersKeyTarget).

Arrows move the cursor (wrapping at the edges). Phase 1: Enter (or Space)
places a tower under the cursor. Phase 2: Enter on one of your unmoved
towers selects it (its targets are highlighted), Enter on a target moves it;
Enter on the selected tower, ESC, BACKSPACE or DELETE cancel the selection.
``l`` shows or hides the lines of sight; TAB shows the previous game's final
board in a match of two. Nothing here uses the server's keys (c r ? Q =).
"""
from __future__ import annotations

from typing import Protocol

from ansi import keys as K
from doors._core.door import Submit

from .rules import MOVEMENT, OVER, PLACEMENT, SIZE, Action, Move, Place, TowersState

__all__ = ["TowersKeyTarget", "handle_key", "CANCEL_KEYS", "SELECT_KEYS"]


class TowersKeyTarget(Protocol):
    """What the keymap reads and changes on a seat's Towers screen (the view,
    ``view.TowersUI``, has it; this module does not import the view)."""
    me: int | None
    obs: TowersState | None
    message: str
    cursor_sq: int
    selected: int | None
    show_lines: bool | None
    show_previous: bool

    def lines_shown(self) -> bool: ...

    def name_of(self, player: int) -> str: ...


CANCEL_KEYS = frozenset({K.ESC, K.BACKSPACE, K.DELETE})
SELECT_KEYS = frozenset({K.ENTER, " "})


def handle_key(ui: TowersKeyTarget, key: str) -> Submit[Action] | None:
    """Apply ``key`` to the UI; a Submit when it proposes an action."""
    if key in K.ARROWS:
        dx, dy = K.ARROWS[key]
        row, col = divmod(ui.cursor_sq, SIZE)
        ui.cursor_sq = ((row - dy) % SIZE) * SIZE + (col + dx) % SIZE
        return None
    if key == "l":
        ui.show_lines = not ui.lines_shown()
        ui.message = "Lines of sight shown." if ui.show_lines else "Lines of sight hidden."
        return None
    if key == K.TAB:
        _toggle_previous(ui)
        return None
    if key in CANCEL_KEYS:
        if ui.selected is not None:
            ui.selected = None
            ui.message = "Selection cancelled."
        return None
    if key in SELECT_KEYS:
        return _select(ui)
    return None


def _toggle_previous(ui: TowersKeyTarget) -> None:
    obs = ui.obs
    if obs is None or obs.games < 2 or not obs.final_boards:
        ui.message = "There is no earlier game to show."
        return None
    ui.show_previous = not ui.show_previous
    ui.message = "Showing game 1's final board (TAB: back)." if ui.show_previous else ""
    return None


def _select(ui: TowersKeyTarget) -> Submit[Action] | None:
    obs = ui.obs
    if obs is None:
        return None
    if ui.show_previous:
        ui.message = "Press TAB to return to the current board."
        return None
    if obs.phase == OVER:
        ui.message = "The game is over."
        return None
    if ui.me is None:
        ui.message = "You are watching this game."
        return None
    if ui.me not in obs.to_move():
        ui.message = f"Wait for {ui.name_of(1 - ui.me)} to move."
        return None
    sq = ui.cursor_sq
    if obs.phase == PLACEMENT:
        return _propose(ui, obs, ui.me, Place(sq))
    if obs.phase == MOVEMENT:
        return _move_step(ui, obs, ui.me, sq)
    return None


def _move_step(ui: TowersKeyTarget, obs: TowersState, me: int, sq: int) -> Submit[Action] | None:
    if ui.selected is not None:
        if sq == ui.selected:
            ui.selected = None
            ui.message = "Selection cancelled."
            return None
        if sq in obs.targets(ui.selected):
            return _propose(ui, obs, me, Move(ui.selected, sq))
        if not _is_own_unmoved(obs, sq, me):
            ui.message = obs.why_illegal(me, Move(ui.selected, sq)) or ""
            return None
    owner = obs.owner(sq)
    if owner is None:
        ui.message = "Choose one of your unmoved towers first."
    elif owner != me:
        ui.message = f"That is {ui.name_of(owner)}'s tower."
    elif obs.is_built(sq):
        ui.message = "That tower is built: it cannot move again."
    elif not obs.targets(sq):
        ui.message = "That tower is pinned: it has nowhere to go."
    else:
        ui.selected = sq
        ui.message = "Now choose where it goes (ESC cancels)."
    return None


def _is_own_unmoved(obs: TowersState, sq: int, me: int | None) -> bool:
    return obs.owner(sq) == me and not obs.is_built(sq)


def _propose(ui: TowersKeyTarget, obs: TowersState, me: int,
             action: Action) -> Submit[Action] | None:
    reason = obs.why_illegal(me, action)
    if reason is not None:
        ui.message = reason
        return None
    ui.message = ""
    return Submit(action)
