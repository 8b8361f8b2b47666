"""The one game protocol every door implements.

In the spirit of OpenSpiel's ``State``: a rules state knows who may act now,
which actions are legal, how to apply one, when the game is over and how it
ended, how to copy itself, what each player may see, and how to write each
action as text for the record.

Never assume players alternate: ``to_move()`` says who may act, and may name
both players at once (Stratego's simultaneous setup) or the same player twice
in a row (Awari's extra turn).

A game is fully reproducible from ``options`` plus its history of
``(player, action_to_str(action))`` pairs: that is what the store records and
what replay and resume use.

``GameState[A, Obs]`` is generic in the door's action type ``A`` and the
observation type ``Obs`` that ``observation(player)`` returns (a perfect-
information door's observation is a copy of its own state class). Each door
names both, so mypy checks its rules, screen and bots against them.

Rules modules import only the standard library and ``doors._core``.
"""
from __future__ import annotations

import abc
import dataclasses
import enum
from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import Any, ClassVar, Generic, TypeAlias, TypeVar

__all__ = [
    "Player", "TERMINAL", "SIMULTANEOUS", "Json", "Options", "Termination", "Outcome",
    "IllegalAction", "InvalidNotation", "GameState", "replay",
]

Player = int  # 0 = player 1 (the challenger), 1 = player 2
TERMINAL: Player = -1
SIMULTANEOUS: Player = -2

# A value the store keeps as JSON (a game's options, an outcome's record):
# arbitrary by nature; whoever reads one checks it (each door its own options).
Json: TypeAlias = Any
# A game's options as chosen and stored: each door reads and checks its own keys.
Options: TypeAlias = Mapping[str, Json]

A = TypeVar("A", bound=Hashable)      # a door's action
Obs = TypeVar("Obs", covariant=True)  # what one player may see (observation)
S = TypeVar("S", bound="GameState[Any, object]")   # any door's state, as its own class


class Termination(enum.Enum):
    RULES = "rules"            # the game's own rules ended it
    RESIGN = "resign"
    FORFEIT = "forfeit"        # a player left and did not come back in time
    AGREED_DRAW = "agreed draw"
    ABORTED = "aborted"


@dataclasses.dataclass(frozen=True)
class Outcome:
    """How a game ended. ``winner`` is None for a draw."""

    winner: Player | None
    termination: Termination
    reason: str                                # human text: "flag captured"
    score: tuple[int, int] | None = None       # points, stones, squares...

    def returns(self) -> tuple[float, float]:
        if self.winner is None:
            return (0.0, 0.0)
        return (1.0, -1.0) if self.winner == 0 else (-1.0, 1.0)

    def to_json(self) -> dict[str, Json]:
        return {"winner": self.winner, "termination": self.termination.value,
                "reason": self.reason,
                "score": list(self.score) if self.score is not None else None}

    @classmethod
    def from_json(cls, data: Mapping[str, Json]) -> Outcome:
        score = data.get("score")
        return cls(data.get("winner"), Termination(data["termination"]),
                   str(data.get("reason", "")),
                   tuple(score) if score is not None else None)


class IllegalAction(ValueError):
    """An action the rules refuse. ``str(err)`` is a short reason for the
    status line ("That square is in a lake.")."""


class InvalidNotation(ValueError):
    """Text that is not an action of this game."""


class GameState(abc.ABC, Generic[A, Obs]):
    """Base of every door's rules state: ``A`` its actions, ``Obs`` what
    ``observation`` gives one player.

    Subclasses implement the private hooks (``_to_move``, ``_legal``,
    ``_apply``, ``_outcome``...); the public methods guard invariants and keep
    the history, as OpenSpiel's ``_legal_actions``/``_apply_action``.
    """

    key: ClassVar[str] = ""        # door key, e.g. "towers"
    num_players: ClassVar[int] = 2

    def __init__(self, options: Options):
        self.options: dict[str, Json] = dict(options)
        self.history: list[tuple[Player, A]] = []

    # ----- who acts ---------------------------------------------------------
    @abc.abstractmethod
    def _to_move(self) -> tuple[Player, ...]:
        """Players who may act now (empty when the game is over)."""

    def to_move(self) -> tuple[Player, ...]:
        if self.is_terminal():
            return ()
        return self._to_move()

    def current_player(self) -> Player:
        movers = self.to_move()
        if not movers:
            return TERMINAL
        if len(movers) > 1:
            return SIMULTANEOUS
        return movers[0]

    # ----- actions ----------------------------------------------------------
    @abc.abstractmethod
    def _legal(self, player: Player) -> list[A]:
        """Legal actions of ``player`` in a deterministic order."""

    def legal_actions(self, player: Player | None = None) -> list[A]:
        if player is None:
            player = self.current_player()
            if player == SIMULTANEOUS:
                raise ValueError("several players may act: name one")
        if player not in self.to_move():
            return []
        return self._legal(player)

    def _why_illegal(self, player: Player, action: A) -> str | None:
        """Reason an action of a player whose turn it is would be refused.

        The default checks membership in ``_legal``; doors override it with
        specific reasons (and a faster check)."""
        return None if action in self._legal(player) else "That move is not allowed."

    def why_illegal(self, player: Player, action: A) -> str | None:
        """None if ``player`` may play ``action`` now, else a short reason."""
        if self.is_terminal():
            return "The game is over."
        if player not in self.to_move():
            return "It is not your turn."
        return self._why_illegal(player, action)

    @abc.abstractmethod
    def _apply(self, player: Player, action: A) -> None:
        """Change the state; the action is known to be legal."""

    def apply(self, player: Player, action: A) -> None:
        reason = self.why_illegal(player, action)
        if reason is not None:
            raise IllegalAction(reason)
        self._apply(player, action)
        self.history.append((player, action))

    def forced_action(self, player: Player) -> A | None:
        """An action the rules make for ``player`` (a pass when nothing else
        is legal); the match applies it without asking. None by default."""
        return None

    # ----- the end ----------------------------------------------------------
    @abc.abstractmethod
    def outcome(self) -> Outcome | None:
        """The rules' outcome, or None while the game goes on."""

    def is_terminal(self) -> bool:
        return self.outcome() is not None

    def returns(self) -> tuple[float, float]:
        out = self.outcome()
        return out.returns() if out is not None else (0.0, 0.0)

    # ----- copies and views -------------------------------------------------
    @abc.abstractmethod
    def clone(self: S) -> S:
        """An independent copy (history included)."""

    @abc.abstractmethod
    def observation(self, player: Player | None) -> Obs:
        """What ``player`` may see (None: a spectator, who sees only what both
        players see). Perfect-information games return a clone of the state
        (``Obs`` is then their own class); hidden-information games return their
        own observation type."""

    def final_observation(self, player: Player | None, outcome: Outcome) -> Obs:
        """What ``player`` may see once the game has ended with ``outcome``,
        however it ended (the rules, a resignation, a forfeit, an agreed
        draw): the server asks this instead of ``observation`` then.
        Hidden-information games reveal everything and show the result; the
        default is the usual observation."""
        return self.observation(player)

    def last_action_text(self, viewer: Player | None) -> tuple[Player, str] | None:
        """(actor, text) of the last action as ``viewer`` may see it, for the
        status line. Hidden-information games override it: their record
        (Stratego's placements) names what the other side may not see."""
        if not self.history:
            return None
        player, action = self.history[-1]
        return player, self.action_to_str(action)

    # ----- notation and record ----------------------------------------------
    @abc.abstractmethod
    def action_to_str(self, action: A) -> str:
        """Text of an action for the record (round-trips with parse_action)."""

    @abc.abstractmethod
    def parse_action(self, text: str) -> A:
        """Action from its text; raises InvalidNotation."""

    @classmethod
    def from_options(cls: type[S], options: Options) -> S:
        return cls(options)

    def record(self) -> list[tuple[Player, str]]:
        """The history as text, as the store keeps it."""
        return [(p, self.action_to_str(a)) for p, a in self.history]

    # ----- counting moves -----------------------------------------------------
    @classmethod
    def is_setup_text(cls, text: str) -> bool:
        """Is this recorded action part of a setup (pieces placed before
        play begins) rather than a game move? Doors with a setup phase say
        so; by default every action is a move."""
        return False

    @classmethod
    def count_moves(cls, record: Iterable[tuple[Player, str]]) -> tuple[int, int]:
        """(game moves, setup actions) in a record of ``(player, text)``:
        what "moves so far" means to a player, whatever the door."""
        moves = setup = 0
        for _, text in record:
            if cls.is_setup_text(text):
                setup += 1
            else:
                moves += 1
        return moves, setup

    def moves_played(self) -> int:
        """Game moves made so far (setup actions not counted)."""
        return self.count_moves(self.record())[0]


def replay(cls: type[S], options: Options,
           moves: Sequence[tuple[Player, str]]) -> S:
    """Rebuild a game from its options and recorded moves."""
    state = cls.from_options(options)
    for player, text in moves:
        state.apply(player, state.parse_action(text))
    return state
