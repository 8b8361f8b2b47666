"""Shared helpers for the Towers tests."""
from __future__ import annotations

from doors.towers.rules import Move, Place, TowersState, parse_square


def sq(name: str) -> int:
    return parse_square(name)


def position(diagram: str, turn: int = 0, **options) -> TowersState:
    """A movement-phase state from a diagram (row 8 first): '.' empty, A/a
    player 0's unmoved/built tower, B/b player 1's."""
    return TowersState({"setup": {"board": diagram, "turn": turn, "phase": "movement"},
                        **options})


def place(name: str) -> Place:
    return Place(sq(name))


def move(text: str) -> Move:
    a, b = text.split("-")
    return Move(sq(a), sq(b))


def play(state: TowersState, *texts: str) -> TowersState:
    """Apply moves written as text, each by the player to move."""
    for text in texts:
        state.apply(state.current_player(), state.parse_action(text))
    return state


# 16 placements, first placer's towers on rows 1-2 columns a-d and e-h alternating
PLACEMENTS = ["a1", "a8", "b1", "b8", "c1", "c8", "d1", "d8",
              "e1", "e8", "f1", "f8", "g1", "g8", "h1", "h8"]
