"""Kingdom keys: what each key does on a player's screen.

Arrows move the cursor (screen directions: your army is at the bottom).
ENTER on one of your pieces selects it; ENTER on a target plays the move.
Knight double jumps: ENTER on the first landing square, then ENTER on the
second (or ENTER again on the same square to stop after one jump); ENTER
straight on a square only a double jump reaches plays it when the way there
does not matter. ESC / BACKSPACE / DELETE cancel. Panel keys: ``t`` show or
hide legal targets, ``k`` find your king (even inside a castle), ``p``
cycle the promotion piece (queen, bishop, knight, rook), ``x`` then ``x``
again passes. The server keeps c, r, ?, Q, = and CTRL-L.
"""
from __future__ import annotations

from typing import Protocol

from ansi.keys import ARROWS, BACKSPACE, DELETE, ENTER, ESC, HOME
from doors._core.door import Request, Submit

from .position import KNIGHT, PASS, PAWN, PROMOTIONS, ROOK, Move, square_name
from .rules import KingdomState

__all__ = ["KingdomKeyTarget", "KEY_HELP", "PROMO_NAMES", "handle_key"]


class KingdomKeyTarget(Protocol):
    """What the keymap reads and changes on a seat's Kingdom screen (the view,
    ``view.KingdomUI``, has it; this module does not import the view)."""
    me: int | None
    obs: KingdomState | None
    message: str
    cur: int
    selected: int
    mid: int
    promo: str
    show_targets: bool
    pass_armed: bool

    def screen_xy(self, sq: int) -> tuple[int, int]: ...

    def square_at(self, x: int, y: int) -> int: ...


PROMO_NAMES = {"Q": "queen", "B": "bishop", "N": "knight", "R": "rook"}
KEY_HELP = ("Arrows move  Enter select/move",
            "Esc cancel  t targets  k king",
            "p promote  x then x pass")
CANCEL_KEYS = (ESC, BACKSPACE, DELETE)


def _my_turn(ui: KingdomKeyTarget) -> bool:
    obs = ui.obs
    return (ui.me is not None and obs is not None and not obs.is_terminal()
            and ui.me in obs.to_move())


def _cancel(ui: KingdomKeyTarget) -> None:
    ui.selected = -1
    ui.mid = -1


def _submit(ui: KingdomKeyTarget, obs: KingdomState, me: int, mv: Move) -> Submit[Move] | None:
    reason = obs.why_illegal(me, mv)
    if reason is not None:
        ui.message = reason
        return None
    _cancel(ui)
    ui.pass_armed = False
    return Submit(mv)


def _with_promo(ui: KingdomKeyTarget, moves: list[Move]) -> Move:
    """The move among ``moves`` (same from/to/mid) with the panel's piece."""
    for mv in moves:
        if mv.promo in ("", ui.promo):
            return mv
    return moves[0]


def _enter(ui: KingdomKeyTarget, obs: KingdomState, me: int) -> Submit[Move] | None:
    sq = ui.cur
    if not _my_turn(ui):
        ui.message = "The game is over." if obs.is_terminal() else "It is not your turn."
        return None
    board = obs.pos.board
    if ui.selected < 0:
        code = board[sq]
        if not code & 7 or code >> 4 != ui.me:
            ui.message = "Choose one of your pieces."
            return None
        if not obs.pos.moves_from(sq):
            ui.message = "That piece cannot move."
            return None
        ui.selected, ui.mid = sq, -1
        ui.message = f"{square_name(sq)} selected: Enter on a target, Esc to cancel."
        return None
    frm = ui.selected
    moves = obs.pos.moves_from(frm)
    if ui.mid >= 0:                      # a knight waiting on its first landing
        if sq == ui.mid:
            single = [m for m in moves if m.to == sq and m.mid < 0]
            if single:
                return _submit(ui, obs, me, single[0])
        double = [m for m in moves if m.mid == ui.mid and m.to == sq]
        if double:
            return _submit(ui, obs, me, double[0])
        ui.message = "The knight cannot jump there from " + square_name(ui.mid) + "."
        return None
    if sq == frm:
        _cancel(ui)
        ui.message = "Selection cancelled."
        return None
    single = [m for m in moves if m.to == sq and m.mid < 0]
    if board[frm] & 7 == KNIGHT:
        via = [m for m in moves if m.mid == sq]
        if single and via:
            ui.mid = sq
            ui.message = (f"Knight to {square_name(sq)}: Enter again to stop there, "
                          "or Enter on the second landing.")
            return None
        if not single:
            doubles = [m for m in moves if m.to == sq and m.mid >= 0]
            if doubles:
                quiet = [m for m in doubles if board[m.mid] == 0]
                # the way matters on an enemy rook: it is converted and the knight stays at the first landing
                converts = board[sq] & 7 == ROOK and board[sq] >> 4 != me
                if len(doubles) == 1 or (len(quiet) == len(doubles) and not converts):
                    return _submit(ui, obs, me, doubles[0])
                ui.message = "Several ways there: Enter on the first landing square first."
                return None
    if single:
        mv = _with_promo(ui, single)
        if mv.promo:
            ui.message = f"Promoting to a {PROMO_NAMES[mv.promo]}."
        return _submit(ui, obs, me, mv)
    code = board[sq]
    if code & 7 and code >> 4 == ui.me and obs.pos.moves_from(sq):
        ui.selected, ui.mid = sq, -1          # another of my pieces: select it
        ui.message = f"{square_name(sq)} selected."
        return None
    reason = obs.why_illegal(me, Move(frm, sq, -1, ui.promo if board[frm] & 7 == PAWN else ""))
    ui.message = reason or "That piece cannot move there."
    return None


def handle_key(ui: KingdomKeyTarget, key: str, now: float) -> Submit[Move] | Request | None:
    obs, me = ui.obs, ui.me
    if obs is None:
        return None
    if key != "x":
        ui.pass_armed = False
    if key in ARROWS:
        dx, dy = ARROWS[key]
        x, y = ui.screen_xy(ui.cur)
        x = min(18, max(0, x + dx))
        y = min(18, max(0, y + dy))
        ui.cur = ui.square_at(x, y)
        return None
    if key == ENTER:
        if me is None:
            return None
        return _enter(ui, obs, me)
    if key in CANCEL_KEYS:
        if ui.selected >= 0 or ui.mid >= 0:
            _cancel(ui)
            ui.message = "Selection cancelled."
        return None
    if key == "t":
        ui.show_targets = not ui.show_targets
        ui.message = "Legal targets shown." if ui.show_targets else "Legal targets hidden."
        return None
    if key in ("k", HOME):
        who = me if me is not None else obs.pos.turn
        king = obs.pos.kings[who]
        if king >= 0:
            ui.cur = king
            inside = obs.pos.board[king] & 7 != 1
            ui.message = (f"Your king is on {square_name(king)}"
                          + (", inside a castle." if inside else "."))
        return None
    if key == "p":
        ui.promo = PROMOTIONS[(PROMOTIONS.index(ui.promo) + 1) % len(PROMOTIONS)]
        ui.message = f"Pawns will be promoted to a {PROMO_NAMES[ui.promo]}."
        return None
    if key == "x":
        if me is None:
            return None
        if not _my_turn(ui):
            ui.message = "It is not your turn."
            return None
        if not ui.pass_armed:
            ui.pass_armed = True
            ui.message = "Pass this move? Press x again to pass."
            return None
        return _submit(ui, obs, me, PASS)
    return None
