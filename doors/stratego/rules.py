"""Stratego rules state (pure: stdlib and doors._core only).

Phases: "setup" (both players place at the same time, one action per
placement so the opponent's grid fills live; ``Ready`` locks a complete
setup) and "play" (player 0 -- player 1, the challenger -- moves first).

Options: ``scout_strike`` 1 (a scout may not strike after moving more than
one square) or 2 (it may; default); ``two_square`` "seed" (default: after a
piece went X->Y then Y->X in its player's previous two moves it may not go
X->Y again) or "tournament" (at most five moves in a row between the same two
squares).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from doors._core.game import GameState, Options, Outcome, Termination

from .pieces import (
    COUNTS,
    RANKS,
    Action,
    Fill,
    Move,
    Phase,
    Place,
    Ready,
    Remove,
    TwoSquare,
    action_to_str,
    has_move,
    is_setup_square,
    legal_moves,
    parse_action,
    setup_squares,
    strike,
    why_move_illegal,
)

if TYPE_CHECKING:
    from .observation import StrategoObservation

__all__ = ["Piece", "Strike", "StrategoState", "DEFAULT_OPTIONS"]

DEFAULT_OPTIONS = {"scout_strike": 2, "two_square": TwoSquare.SEED.value}


class Piece(NamedTuple):
    owner: int
    rank: str
    moved: bool = False      # has ever moved: not a bomb nor the flag
    revealed: bool = False   # its rank is known to the opponent


class Strike(NamedTuple):
    """A strike, public to both players once made."""
    ply: int                 # play move number (1-based) of the strike
    player: int              # the striker
    frm: int
    to: int
    attacker: str
    defender: str
    attacker_survived: bool
    defender_survived: bool
    defender_hidden: bool = False   # the struck piece's rank was unknown to the striker
    defender_moved: bool = False    # the struck piece had moved before


class StrategoState(GameState[Action, "StrategoObservation"]):
    """A game of Stratego. Each player sees a ``StrategoObservation``: the
    other army's ranks stay hidden until struck or revealed."""

    key = "stratego"

    def __init__(self, options: Options):
        opts = dict(DEFAULT_OPTIONS)
        opts.update(options)
        if opts["scout_strike"] not in (1, 2):
            raise ValueError("scout_strike must be 1 or 2")
        if opts["two_square"] not in set(TwoSquare):
            raise ValueError("two_square must be 'seed' or 'tournament'")
        super().__init__(opts)
        self.board: list[Piece | None] = [None] * 100
        self.ready = [False, False]
        self.phase = Phase.SETUP
        self.turn = 0
        self.moves: list[tuple[int, int, int]] = []      # (player, from, to)
        self.lost: tuple[list[str], list[str]] = ([], [])
        self.strikes: list[Strike] = []      # every strike, in order (public)
        self._outcome: Outcome | None = None

    # ----- helpers ----------------------------------------------------------
    @property
    def last_strike(self) -> Strike | None:
        return self.strikes[-1] if self.strikes else None

    def own_moves(self, player: int, limit: int = 8) -> list[tuple[int, int]]:
        out = []
        for p, a, b in reversed(self.moves):
            if p == player:
                out.append((a, b))
                if len(out) >= limit:
                    break
        out.reverse()
        return out

    def placed(self, player: int) -> dict[str, int]:
        counts = {r: 0 for r in RANKS}
        for sq in setup_squares(player):
            piece = self.board[sq]
            if piece is not None:
                counts[piece.rank] += 1
        return counts

    def remaining(self, player: int) -> dict[str, int]:
        placed = self.placed(player)
        return {r: COUNTS[r] - placed[r] for r in RANKS}

    @property
    def ply(self) -> int:
        return len(self.moves)

    # ----- protocol ---------------------------------------------------------
    def _to_move(self) -> tuple[int, ...]:
        if self.phase == Phase.SETUP:
            return tuple(p for p in (0, 1) if not self.ready[p])
        return (self.turn,)

    def _legal(self, player: int) -> list[Action]:
        """In setup: every Place, and Ready once complete. ``Remove`` and
        ``Fill`` are legal too but not listed (so random playouts finish
        their setup; every setup is reachable through Place alone)."""
        if self.phase == Phase.SETUP:
            out: list[Action] = []
            remaining = self.remaining(player)
            ranks = [r for r in RANKS if remaining[r] > 0]
            for sq in setup_squares(player):
                if self.board[sq] is None:
                    out.extend(Place(sq, r) for r in ranks)
            if not ranks:
                out.append(Ready())
            return out
        return list(legal_moves(self.board, player, self.options, self.own_moves(player)))

    def _why_illegal(self, player: int, action: Action) -> str | None:
        if self.phase == Phase.SETUP:
            return self._why_setup_illegal(player, action)
        if not isinstance(action, Move):
            return "The setup is over: move a piece."
        return why_move_illegal(self.board, player, self.options,
                                self.own_moves(player), action.frm, action.to)

    def _why_setup_illegal(self, player: int, action: Action) -> str | None:
        if isinstance(action, Move):
            return "The game has not started: finish your setup."
        if isinstance(action, Place):
            if action.rank not in COUNTS:
                return "There is no such piece."
            if not isinstance(action.square, int) or not is_setup_square(player, action.square):
                return "Place your pieces in your own four rows."
            if self.board[action.square] is not None:
                return "That square is taken."
            if self.remaining(player)[action.rank] <= 0:
                return "You have no more of that piece to place."
            return None
        if isinstance(action, Remove):
            if not isinstance(action.square, int) or not is_setup_square(player, action.square) \
                    or self.board[action.square] is None:
                return "There is no piece of yours there."
            return None
        if isinstance(action, Ready):
            if any(self.remaining(player).values()):
                return "Place all 40 pieces first."
            return None
        if isinstance(action, Fill):
            return why_fill_illegal(player, action)
        return "That is not a Stratego action."

    def _apply(self, player: int, action: Action) -> None:
        if isinstance(action, Place):
            self.board[action.square] = Piece(player, action.rank)
        elif isinstance(action, Remove):
            self.board[action.square] = None
        elif isinstance(action, Fill):
            for sq in setup_squares(player):
                self.board[sq] = None
            for sq, rank in action.placements:
                self.board[sq] = Piece(player, rank)
        elif isinstance(action, Ready):
            self.ready[player] = True
            if all(self.ready):
                self.phase = Phase.PLAY
                self.turn = 0
                self._end_if_stuck(1)         # an army that walled itself in loses at once
        else:
            self._apply_move(player, action)

    def _apply_move(self, player: int, move: Move) -> None:
        board = self.board
        piece = board[move.frm]
        assert piece is not None
        target = board[move.to]
        far = abs(move.frm - move.to) not in (1, 10)
        moved = piece._replace(moved=True, revealed=piece.revealed or far)
        board[move.frm] = None
        self.moves.append((player, move.frm, move.to))
        if target is None:
            board[move.to] = moved
        else:
            a_ok, d_ok = strike(piece.rank, target.rank)
            self.strikes.append(Strike(len(self.moves), player, move.frm, move.to,
                                       piece.rank, target.rank, a_ok, d_ok,
                                       not target.revealed, target.moved))
            if not a_ok:
                self.lost[player].append(piece.rank)
            if not d_ok:
                self.lost[target.owner].append(target.rank)
            if a_ok:
                board[move.to] = moved._replace(revealed=True)
            elif d_ok:
                board[move.to] = target._replace(revealed=True)
            else:
                board[move.to] = None
            if target.rank == "F":
                self._outcome = Outcome(player, Termination.RULES, "flag captured")
                return
        self.turn = 1 - player
        self._end_if_stuck(player)

    def _end_if_stuck(self, other: int) -> None:
        """The side to move that cannot move or strike loses; if ``other``
        cannot either, neither wins."""
        board, nxt = self.board, self.turn
        if not has_move(board, nxt, self.options, self.own_moves(nxt)):
            if not has_move(board, other, self.options, self.own_moves(other)):
                self._outcome = Outcome(None, Termination.RULES, "neither side can move")
            else:
                self._outcome = Outcome(other, Termination.RULES, "opponent cannot move")

    def outcome(self) -> Outcome | None:
        return self._outcome

    def clone(self) -> StrategoState:
        new = StrategoState.__new__(StrategoState)
        new.options = dict(self.options)
        new.history = list(self.history)
        new.board = list(self.board)
        new.ready = list(self.ready)
        new.phase = self.phase
        new.turn = self.turn
        new.moves = list(self.moves)
        new.lost = (list(self.lost[0]), list(self.lost[1]))
        new.strikes = list(self.strikes)
        new._outcome = self._outcome
        return new

    def observation(self, player: int | None) -> StrategoObservation:
        from .observation import observe
        return observe(self, player)

    def final_observation(self, player: int | None, outcome: Outcome) -> StrategoObservation:
        """After the end, however it came (a resignation, a forfeit...):
        both armies revealed, the result in the header."""
        from .observation import observe
        return observe(self, player, ended=outcome)

    @classmethod
    def is_setup_text(cls, text: str) -> bool:
        try:
            return not isinstance(parse_action(text), Move)
        except ValueError:
            return False

    def last_action_text(self, viewer: int | None) -> tuple[int, str] | None:
        """Only play moves are public: placements name ranks, so the status
        line shows the last move (and a strike's revealed ranks) instead."""
        obs = self.observation(viewer)
        if not obs.moves:
            return None
        return obs.moves[-1][0], obs.describe_last()

    def action_to_str(self, action: Action) -> str:
        return action_to_str(action)

    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    @classmethod
    def from_options(cls, options: Options) -> StrategoState:
        return cls(options)

    def counts_on_board(self, player: int) -> int:
        return sum(1 for p in self.board if p is not None and p.owner == player)


def why_fill_illegal(player: int, action: Fill) -> str | None:
    seen: set[int] = set()
    counts = dict.fromkeys(RANKS, 0)
    try:
        for sq, rank in action.placements:
            if rank not in COUNTS:
                return "There is no such piece."
            if not isinstance(sq, int) or not is_setup_square(player, sq):
                return "Place your pieces in your own four rows."
            if sq in seen:
                return "Two pieces on one square."
            seen.add(sq)
            counts[rank] += 1
            if counts[rank] > COUNTS[rank]:
                return "Too many of one piece."
    except (TypeError, ValueError):
        return "That is not a setup."
    return None

