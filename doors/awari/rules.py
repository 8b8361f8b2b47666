"""Awari rules, as the source program ("Awwari", Stefan Zeiger 1993) plays them.

Board: 14 holes in one cycle, sown in increasing index order::

    index  0..5   player 1's holes 1-6      6  player 1's home
    index  7..12  player 2's holes 1-6      13 player 2's home

So each player sows first along their own row into their own home, then
through the opponent's row and the opponent's home, and round again. The hole
facing index ``i`` (not a home) is ``12 - i``.

A turn (see RULES.md "Awari"): take every stone of one of your non-empty holes
and drop them one by one into the following holes, every hole including both
homes and, for 14+ stones, the emptied hole itself.

* last stone in your own home: an extra turn, but never a third turn in a row;
* last stone into an empty hole (either side, not a home) whose facing hole
  is not empty: both holes go to the mover's home (the facing hole may be the
  mover's own);
* last stone in the opponent's home: nothing special.

The game ends when the player to move has no stones in their row, or at once
when a home holds 19 or more. More stones in the home wins; equal is a tie.
Stones left in the rows are not counted.

Actions are the mover's hole numbers 1..6, written "1".."6".
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from doors._core.game import GameState, InvalidNotation, Options, Outcome, Player, Termination

__all__ = ["RULES_VERSION", "HOLES", "STONES", "WIN_HOME", "HOME", "hole_index",
           "facing", "SowResult", "sow", "AwariState", "initial_board"]

RULES_VERSION = 1          # bump when the rules change (endgame table header)
HOLES = 6                  # holes per row
STONES = 36                # stones in the game
WIN_HOME = 19              # a home this full ends the game at once
HOME = (6, 13)             # home index of each player


def hole_index(player: Player, hole: int) -> int:
    """Board index of ``player``'s hole number ``hole`` (1..6)."""
    return player * 7 + hole - 1


def facing(index: int) -> int:
    """Index of the hole facing row hole ``index``."""
    return 12 - index


def initial_board() -> tuple[int, ...]:
    return (3,) * 6 + (0,) + (3,) * 6 + (0,)


class SowResult(NamedTuple):
    """What one sowing did (used by the rules and by the view's animation)."""

    board: tuple[int, ...]        # the board afterwards (captures done)
    path: tuple[int, ...]         # index each stone dropped into, in order
    origin: int                   # index the stones were taken from
    captured: int                 # stones moved home by a capture (0: none)
    capture_holes: tuple[int, ...]  # (last hole, facing hole) when captured
    home_landing: bool            # the last stone fell in the mover's home
    extra_turn: bool              # ... and that earned an extra turn


def sow(board: Sequence[int], player: Player, hole: int,
        already_extra: bool = False) -> SowResult:
    """Sow ``player``'s hole ``hole`` (1..6, must be non-empty).

    ``already_extra``: this turn is itself an extra turn, so landing in the
    home gives no further turn."""
    b = list(board)
    origin = hole_index(player, hole)
    stones = b[origin]
    if stones <= 0:
        raise ValueError("empty hole")
    b[origin] = 0
    path = []
    i = origin
    for _ in range(stones):
        i = (i + 1) % 14
        b[i] += 1
        path.append(i)
    home = HOME[player]
    captured = 0
    capture_holes: tuple[int, ...] = ()
    if i != 6 and i != 13 and b[i] == 1:
        f = 12 - i
        if b[f] > 0:
            captured = b[i] + b[f]
            b[home] += captured
            b[i] = b[f] = 0
            capture_holes = (i, f)
    landing = i == home
    return SowResult(tuple(b), tuple(path), origin, captured, capture_holes,
                     landing, landing and not already_extra)


class AwariState(GameState[int, "AwariState"]):
    """Board (14 ints), side to move, and whether this turn is an extra one.
    An action is the hole to sow (1-6, on the mover's side); every player
    sees the whole state."""

    key = "awari"

    def __init__(self, options: Options):
        super().__init__(options)
        first = self.options.get("first", 0)
        if first not in (0, 1):
            raise ValueError(f"bad 'first' option: {first!r}")
        self.board: list[int] = list(initial_board())
        self.player: Player = first
        self.extra = False
        self._outcome: Outcome | None = None

    # ----- who acts ---------------------------------------------------------
    def _to_move(self) -> tuple[Player, ...]:
        return (self.player,)

    def _legal(self, player: Player) -> list[int]:
        base = player * 7
        return [h for h in range(1, 7) if self.board[base + h - 1] > 0]

    def _why_illegal(self, player: Player, action: int) -> str | None:
        if not isinstance(action, int) or isinstance(action, bool) or not 1 <= action <= 6:
            return "Choose one of your holes, 1 to 6."
        if self.board[hole_index(player, action)] == 0:
            return "That hole is empty."
        return None

    def _apply(self, player: Player, action: int) -> None:
        res = sow(self.board, player, action, self.extra)
        self.board = list(res.board)
        if res.extra_turn:
            self.extra = True
        else:
            self.extra = False
            self.player = 1 - player
        self._outcome = self._compute_outcome()

    # ----- the end ----------------------------------------------------------
    def _compute_outcome(self) -> Outcome | None:
        h0, h1 = self.board[6], self.board[13]
        if h0 >= WIN_HOME or h1 >= WIN_HOME:
            reason = f"{WIN_HOME} stones in a home"
        elif not any(self.board[self.player * 7:self.player * 7 + 6]):
            reason = "the player to move has no stones to sow"
        else:
            return None
        winner = None if h0 == h1 else (0 if h0 > h1 else 1)
        return Outcome(winner, Termination.RULES, reason, (h0, h1))

    def outcome(self) -> Outcome | None:
        return self._outcome

    # ----- copies and views -------------------------------------------------
    def observation(self, player: Player | None) -> AwariState:
        return self.clone()

    def clone(self) -> AwariState:
        new = object.__new__(AwariState)
        new.options = dict(self.options)
        new.history = list(self.history)
        new.board = list(self.board)
        new.player = self.player
        new.extra = self.extra
        new._outcome = self._outcome
        return new

    @classmethod
    def from_position(cls, board: Sequence[int], player: Player = 0,
                      extra: bool = False,
                      options: Options | None = None) -> AwariState:
        """A state with the given board (tests, analysis; no history)."""
        state = cls(options or {"first": player})
        if len(board) != 14 or min(board) < 0:
            raise ValueError("a board is 14 non-negative counts")
        state.board = list(board)
        state.player = player
        state.extra = extra
        state._outcome = state._compute_outcome()
        return state

    def homes(self) -> tuple[int, int]:
        return self.board[6], self.board[13]

    def row(self, player: Player) -> list[int]:
        return self.board[player * 7:player * 7 + 6]

    # ----- notation ---------------------------------------------------------
    def action_to_str(self, action: int) -> str:
        return str(action)

    def parse_action(self, text: str) -> int:
        text = text.strip()
        if len(text) == 1 and text in "123456":
            return int(text)
        raise InvalidNotation(f"not a hole number 1-6: {text!r}")

    def __repr__(self) -> str:
        return (f"AwariState(board={self.board}, player={self.player}, "
                f"extra={self.extra})")
