"""Stratego's keys (the seed's), on top of the view: ``StrategoUI``.

Setup: arrows move the cursor over your four rows; 1-9, S, B, F place that
piece on the empty square under the cursor (the cursor stays there, as the
seed's help says; A switches on stepping to the next empty square after each
placement, and off again); DELETE/BACKSPACE removes the piece under the
cursor; R fills the rest at random; W saves the setup under a name, L loads
one; ENTER (all 40 placed) asks "Ready? y/n".
Play: ENTER on your piece selects it, ENTER on the target moves or strikes;
DELETE/BACKSPACE cancels the selection; h puts the cursor on the centre.
The server keeps c, r, ?, Q, = and CTRL-L.
"""
from __future__ import annotations

import random

from ansi.keys import ARROWS, BACKSPACE, DELETE, DOWN, ENTER, ESC, UP, is_text
from doors._core.door import Request, RequestKind, Submit
from doors._core.game import Options, Player

from .observation import StrategoObservation
from .pieces import COUNTS, LAKES, NAMES, Action, Fill, Move, Phase, Place, Ready, Remove, setup_squares
from .setup import SetupError, random_fill, setup_from_text, setup_to_text
from .view import SetupMode, StrategoView

__all__ = ["StrategoUI"]

_NOTHING_YET = object()          # no observation seen yet
RANK_KEYS = {k: k for k in COUNTS} | {"s": "S", "b": "B", "f": "F"}


class StrategoUI(StrategoView):
    """One seat's (or a spectator's) Stratego screen and controller."""

    def __init__(self, me: Player | None, names: tuple[str, str], options: Options,
                 rng: random.Random | None = None):
        super().__init__(me, names, options)
        self.rng = rng or random.Random()
        self._strike_seen: object = _NOTHING_YET     # the last strike seen (a Strike or None)

    @property
    def text_input(self) -> bool:
        """True while the setup panel asks something that takes every key
        (a name to save under, a setup to load, "Ready? y/n"): a hint for
        the server to pass ESC, c, r, Q, = and ? through, so ESC cancels
        the question, never leaves a game by turns."""
        return self.mode in (SetupMode.SAVE, SetupMode.LOAD, SetupMode.READY)

    # ----- server calls -----------------------------------------------------
    def update(self, obs: StrategoObservation, last: tuple[Player, Action] | None, now: float) -> None:
        # never keep the opponent's setup actions (they name ranks)
        self.obs = obs
        self.last = last if last is not None and isinstance(last[1], Move) else None
        st = obs.last_strike
        # a strike is shown at the moment it is made, not again to a player
        # who comes back to the game or a spectator who starts watching
        fresh = self._strike_seen is not _NOTHING_YET
        if fresh and st is not None and st.ply == obs.ply and st != self._strike_seen:
            self.reveal = st
            self.reveal_until = now + self.REVEAL_SECONDS
        self._strike_seen = st
        if self.selected is not None:
            seen = obs.squares[self.selected]
            if seen is None or seen.owner != self.me or obs.phase != Phase.PLAY:
                self.selected = None
        if obs.phase != Phase.SETUP and self.mode is not None:
            self.mode = None
        if obs.phase == Phase.PLAY and self.message.startswith("Ready"):
            self.message = "The battle begins."     # the setup's last word is old news

    def setup_loaded(self, name: str, text: str) -> Submit[Action] | None:
        """The server's answer to Request("load_setup", name)."""
        obs = self.obs
        if self.me is None or obs is None or obs.phase != Phase.SETUP or obs.ready[self.me]:
            self.message = "Too late to load a setup."
            return None
        try:
            placements = setup_from_text(self.me, text)
        except SetupError as err:
            self.message = f"Setup {name!r} is not valid: {err}"
            return None
        self.message = f"Loaded setup {name!r}."
        return Submit(Fill(placements))

    def own_placements(self) -> list[tuple[int, str]]:
        """The caller's own pieces placed so far (a watcher has none)."""
        obs, me = self.obs, self.me
        if me is None or obs is None:
            return []
        return [(sq, obs.piece(sq).known_rank) for sq in setup_squares(me)
                if obs.squares[sq] is not None]

    # ----- keys -------------------------------------------------------------
    def on_key(self, key: str, now: float) -> Submit[Action] | Request | None:
        obs = self.obs
        if obs is None:
            return None
        if self.mode == SetupMode.SAVE:
            return self.key_save(key)
        if self.mode == SetupMode.LOAD:
            return self.key_load(key)
        if self.mode == SetupMode.READY:
            self.mode = None
            if key in ("y", "Y"):
                self.message = "Ready: waiting for your opponent."
                return Submit(Ready())
            self.message = "Not ready yet."
            return None
        if key in ARROWS:
            self.move_cursor(*ARROWS[key])
            return None
        if key in ("h", "H"):
            self.cur = self.square_at(4, 4)
            self.clamp_cursor()
            return None
        if self.me is None or obs.outcome is not None or self.outcome is not None:
            return None
        if obs.phase == Phase.SETUP:
            return self.key_setup(key, self.me)
        return self.key_play(key, now)

    def move_cursor(self, dx: int, dy: int) -> None:
        drow = self.display_row(self.cur) + dy
        col = self.cur % 10 + dx
        drow = max(0, min(9, drow))
        col = max(0, min(9, col))
        self.cur = self.square_at(drow, col)
        self.clamp_cursor()

    def clamp_cursor(self) -> None:
        if self.obs is None or self.obs.phase != Phase.SETUP or self.me is None:
            return
        rows = setup_squares(self.me)
        row, col = divmod(self.cur, 10)
        row = max(rows[0] // 10, min(rows[-1] // 10, row))
        self.cur = row * 10 + col

    def reading_order(self, me: int) -> list[int]:
        order = sorted(setup_squares(me), key=lambda s: (self.display_row(s), s % 10))
        return order

    def key_setup(self, key: str, me: int) -> Submit[Action] | Request | None:
        obs = self.shown
        if obs.ready[me]:
            self.message = "You are ready: waiting for your opponent."
            return None
        if key in RANK_KEYS:
            rank = RANK_KEYS[key]
            if obs.squares[self.cur] is not None:
                self.message = "That square is taken: DELETE removes its piece."
                return None
            if obs.remaining(me)[rank] <= 0:
                self.message = f"No {NAMES[rank]} left to place."
                return None
            action = Place(self.cur, rank)
            if self.auto_step:
                order = self.reading_order(me)
                i = order.index(self.cur)
                for sq in order[i + 1:] + order[:i]:
                    if obs.squares[sq] is None and sq != self.cur:
                        self.cur = sq
                        break
            self.message = ""
            return Submit(action)
        if key in ("A", "a"):
            self.auto_step = not self.auto_step
            self.message = ("The cursor now steps to the next empty square after each piece."
                            if self.auto_step else "The cursor now stays where you place a piece.")
            return None
        if key in (DELETE, BACKSPACE):
            seen = obs.squares[self.cur]
            if seen is None or seen.owner != me:
                self.message = "No piece of yours there."
                return None
            return Submit(Remove(self.cur))
        if key == "R":
            return Submit(random_fill(me, self.own_placements(), self.rng))
        if key == ENTER:
            left = sum(obs.remaining(me).values())
            if left:
                self.message = f"Place all 40 pieces first ({left} left; R fills them)."
                return None
            self.mode = SetupMode.READY
            self.message = "Ready? y/n"
            return None
        if key in ("W", "w"):
            if sum(obs.remaining(me).values()):
                self.message = "Place all 40 pieces before saving the setup."
                return None
            self.mode, self.buffer = SetupMode.SAVE, ""
            self.message = "Name for this setup (ENTER saves, ESC cancels):"
            return None
        if key in ("L", "l"):
            if not self.saved_setups:
                self.message = "No saved setups yet (W saves one)."
                return None
            self.mode, self.load_index = SetupMode.LOAD, 0
            self.message = "Choose a setup: arrows and ENTER, ESC cancels."
            return None
        return None

    def why_not_selectable(self, sq: int) -> str | None:
        """Why ENTER on ``sq`` cannot pick a piece to move, or None."""
        if sq in LAKES:
            return "That is a lake: no piece may stand or move there."
        seen = self.shown.squares[sq]
        if seen is None:
            return "That square is empty: put the cursor on one of your pieces, then ENTER."
        if seen.owner != self.me:
            return "That is an enemy piece: select one of yours first, then strike it."
        if seen.rank == "B":
            return "That is a Bomb: bombs never move. Choose another piece."
        if seen.rank == "F":
            return "That is your Flag: the flag never moves. Choose another piece."
        return None

    def key_save(self, key: str) -> Request | None:
        if key == ESC:
            self.mode = None
            self.message = "Not saved."
        elif key in (BACKSPACE, DELETE):
            self.buffer = self.buffer[:-1]
        elif key == ENTER:
            name = self.buffer.strip()
            if not name:
                self.message = "Type a name first (ESC cancels)."
                return None
            self.mode = None
            if self.me is None:
                return None
            text = setup_to_text(self.me, self.own_placements())
            self.message = f"Saving setup {name!r}."
            return Request(RequestKind.SAVE_SETUP, name, text)
        elif is_text(key) and len(self.buffer) < 20:
            self.buffer += key
        return None

    def key_load(self, key: str) -> Request | None:
        names = self.saved_setups
        if key == ESC or not names:
            self.mode = None
            return None
        if key == UP:
            self.load_index = (self.load_index - 1) % len(names)
        elif key == DOWN:
            self.load_index = (self.load_index + 1) % len(names)
        elif key.isdecimal() and 1 <= int(key) <= min(9, len(names)):
            self.load_index = int(key) - 1
            key = ENTER
        if key == ENTER:
            self.mode = None
            return Request(RequestKind.LOAD_SETUP, names[self.load_index])
        return None

    def key_play(self, key: str, now: float) -> Submit[Action] | None:
        obs = self.shown
        me = self.me
        if key in (DELETE, BACKSPACE):
            if self.selected is not None:
                self.selected = None
                self.message = "Selection cancelled."
            return None
        if key != ENTER:
            return None
        seen = obs.squares[self.cur]
        if self.selected is None:
            why = self.why_not_selectable(self.cur)
            if why is not None:
                self.message = why
                return None
        if me not in obs.to_move:
            self.message = "It is not your turn."
            return None
        if self.revealing(now):
            self.message = "Wait: the strike is being shown."
            return None
        if seen is not None and seen.owner == me and (self.selected is None or self.cur != self.selected):
            why = self.why_not_selectable(self.cur)
            if why is not None:
                self.message = why
                return None
            self.selected = self.cur
            self.message = f"{NAMES[seen.known_rank]} selected: cursor to the target, ENTER (DEL cancels)."
            return None
        if self.selected is None or self.cur == self.selected:
            self.selected = None
            return None
        action = Move(self.selected, self.cur)
        reason = obs.why_illegal(action)
        if reason is not None:
            self.message = reason
            return None
        self.selected = None
        self.message = ""
        return Submit(action)
