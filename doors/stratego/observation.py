"""What one player (or a spectator) may know of a Stratego game.

An observation is built from the state but keeps only: every occupied square
with its owner; the rank of the viewer's own pieces and of enemy pieces
revealed by a strike (or a scout's long move); per piece whether it has
moved and whether it is revealed; lost pieces (all revealed by strikes); the
public move list (the last few moves) and, for each enemy piece, a record
of what it did over the whole game (``record.tracks``: when it last moved,
how it moved about the viewer's shown Marshal); every strike so far, the
last apart; phase, turn, ready flags and options.

An unrevealed enemy rank is never stored, not even indirectly: hidden pieces
are listed by square only, with no identity. Two games differing only in
hidden ranks give equal observations (the tests check this, pickled).
After the game ends everything is revealed.
"""
from __future__ import annotations

import dataclasses
from typing import NamedTuple

from doors._core.game import Json, Outcome

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
    is_setup_square,
    legal_moves,
    setup_squares,
    square_name,
    why_move_illegal,
)
from .record import Record, Track, tracks
from .rules import StrategoState, Strike

__all__ = ["MOVES_KEPT", "Seen", "StrategoObservation", "observe"]

MOVES_KEPT = 40     # the public moves an observation carries, both sides (a long chase shows in them)


class Seen(NamedTuple):
    owner: int
    rank: str | None         # None: a hidden enemy piece
    moved: bool              # has moved: not a bomb nor the flag
    revealed: bool           # rank known to both players

    @property
    def known_rank(self) -> str:
        """The rank of a piece the viewer knows (its own, or revealed)."""
        assert self.rank is not None, "a hidden piece's rank"
        return self.rank


@dataclasses.dataclass(frozen=True)
class StrategoObservation:
    viewer: int | None
    phase: Phase
    to_move: tuple[int, ...]
    options: tuple[tuple[str, Json], ...]     # the game's options, as stored
    squares: tuple[Seen | None, ...]          # 100 entries, index = square
    ready: tuple[bool, bool]
    lost: tuple[tuple[str, ...], tuple[str, ...]]   # per player, sorted by rank
    moves: tuple[tuple[int, int, int], ...]   # last public moves (player, from, to)
    ply: int                                  # play moves made so far
    last_strike: Strike | None
    outcome: Outcome | None
    strikes: tuple[Strike, ...] = ()          # every strike so far, public
    tracks: tuple[tuple[int, Track], ...] = ()  # the enemy's pieces, game-long (``record.py``)
    walkers: tuple[str, ...] = ()             # ranks of their shown pieces that walked up to our Marshal

    # ----- convenience ------------------------------------------------------
    @property
    def opts(self) -> dict[str, Json]:
        return dict(self.options)

    def piece(self, sq: int) -> Seen:
        """The piece on ``sq``, where the caller knows there is one."""
        seen = self.squares[sq]
        assert seen is not None, f"no piece on {square_name(sq)}"
        return seen

    def track(self, sq: int) -> Track:
        """The game-long record of the enemy piece on ``sq`` (a fresh one if
        the observation carries none)."""
        return dict(self.tracks).get(sq, Track(self.ply))

    @property
    def last_move(self) -> tuple[int, int, int] | None:
        return self.moves[-1] if self.moves else None

    def own_moves(self, player: int) -> list[tuple[int, int]]:
        return [(a, b) for p, a, b in self.moves if p == player]

    def remaining(self, player: int) -> dict[str, int]:
        """Pieces ``player`` still has to place (known for one's own side)."""
        counts = dict(COUNTS)
        for sq in setup_squares(player):
            seen = self.squares[sq]
            if seen is not None and seen.rank is not None:
                counts[seen.rank] -= 1
        return counts

    def placed_count(self, player: int) -> int:
        return sum(1 for sq in setup_squares(player) if self.squares[sq] is not None)

    def hidden_squares(self, player: int) -> list[int]:
        """Squares of ``player``'s pieces whose rank this observer lacks."""
        return [sq for sq, s in enumerate(self.squares)
                if s is not None and s.owner == player and s.rank is None]

    def legal_actions(self) -> list[Action]:
        """The viewer's legal actions, computed from the observation alone
        (``Remove`` and ``Fill`` are legal in setup but not listed)."""
        me = self.viewer
        if me is None or me not in self.to_move:
            return []
        if self.phase == Phase.SETUP:
            out: list[Action] = []
            rem = self.remaining(me)
            ranks = [r for r in RANKS if rem[r] > 0]
            for sq in setup_squares(me):
                if self.squares[sq] is None:
                    out.extend(Place(sq, r) for r in ranks)
            if not ranks:
                out.append(Ready())
            return out
        return list(legal_moves(self.squares, me, self.opts, self.own_moves(me)))

    def why_illegal(self, action: Action) -> str | None:
        """The reason the rules would refuse the viewer's action, or None."""
        me = self.viewer
        if self.outcome is not None:
            return "The game is over."
        if me is None or me not in self.to_move:
            return "It is not your turn."
        if self.phase == Phase.SETUP:
            if isinstance(action, Move):
                return "The game has not started: finish your setup."
            if isinstance(action, Place):
                if not is_setup_square(me, action.square):
                    return "Place your pieces in your own four rows."
                if self.squares[action.square] is not None:
                    return "That square is taken."
                if self.remaining(me).get(action.rank, 0) <= 0:
                    return "You have no more of that piece to place."
                return None
            if isinstance(action, Remove):
                seen = self.squares[action.square]
                return None if seen is not None and seen.owner == me else "There is no piece of yours there."
            if isinstance(action, Ready):
                return "Place all 40 pieces first." if any(self.remaining(me).values()) else None
            if isinstance(action, Fill):
                return None
            return "That is not a Stratego action."
        if not isinstance(action, Move):
            return "The setup is over: move a piece."
        return why_move_illegal(self.squares, me, self.opts, self.own_moves(me),
                                action.frm, action.to)

    def describe_last(self) -> str:
        """Public text of the last play move (safe for any viewer)."""
        if not self.moves:
            return ""
        p, a, b = self.moves[-1]
        text = f"{square_name(a)}-{square_name(b)}"
        st = self.last_strike
        if st is not None and st.ply == self.ply:
            text += f" strikes: {st.attacker} on {st.defender}"
        return text


def observe(state: StrategoState, viewer: int | None,
            ended: Outcome | None = None) -> StrategoObservation:
    """``ended``: the game's outcome when it ended outside the rules (a
    resignation, a forfeit, an agreed draw): everything is revealed then too."""
    outcome = state.outcome() or ended
    over = outcome is not None
    squares: list[Seen | None] = []
    for piece in state.board:
        if piece is None:
            squares.append(None)
            continue
        known = over or piece.revealed or piece.owner == viewer
        squares.append(Seen(piece.owner, piece.rank if known else None,
                            piece.moved, piece.revealed))
    lost = tuple(tuple(sorted(state.lost[p], key=RANKS.index)) for p in (0, 1))
    record = Record((), ()) if viewer is None or over or state.phase != Phase.PLAY \
        else tracks(squares, state.moves, state.strikes, viewer)
    return StrategoObservation(
        viewer=viewer,
        phase=Phase.OVER if over else state.phase,
        to_move=() if over else state.to_move(),
        options=tuple(sorted(state.options.items())),
        squares=tuple(squares),
        ready=(state.ready[0], state.ready[1]),
        lost=lost,  # type: ignore[arg-type]
        moves=tuple(state.moves[-MOVES_KEPT:]),
        ply=len(state.moves),
        last_strike=state.last_strike,
        outcome=outcome,
        strikes=tuple(state.strikes),
        tracks=record.tracks,
        walkers=record.walkers,
    )
