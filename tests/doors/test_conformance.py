"""Every registered door keeps the game protocol's promises in random games,
and the checker itself catches a clone that is not independent."""
from __future__ import annotations

import random
from typing import Any

import pytest

from doors import registry
from doors._core.conformance import check_door, check_game, check_position

from .ai.tiny_games import ExtraTurnNim

DOORS = registry()


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("key", list(DOORS))
def test_random_games_of_every_door_keep_the_protocols_promises(key, seed):
    state = check_door(DOORS[key], seed, every=10)
    assert state.is_terminal() and state.history


def test_all_five_doors_are_registered_and_checked():
    assert set(DOORS) == {"towers", "stratego", "awari", "stone_towers", "kingdom"}


class SharedListNim(ExtraTurnNim):
    """Nim that keeps its takes in a list, and a clone that forgets to copy it."""

    def __init__(self, options: dict[str, Any]):
        super().__init__(options)
        self.takes: list[int] = []

    def _apply(self, player: int, action: Any) -> None:
        super()._apply(player, action)
        self.takes.append(action)

    def clone(self) -> SharedListNim:
        new = SharedListNim(self.options)
        new.pile, new.turn, new.winner = self.pile, self.turn, self.winner
        new.history = list(self.history)
        new.takes = self.takes                  # the bug: shared with the original
        return new


class SharedHistoryNim(ExtraTurnNim):
    def clone(self) -> SharedHistoryNim:
        new = SharedHistoryNim(self.options)
        new.pile, new.turn, new.winner = self.pile, self.turn, self.winner
        new.history = self.history              # the bug: one list for both
        return new


@pytest.mark.parametrize("cls", [SharedListNim, SharedHistoryNim])
def test_the_clone_check_fails_when_a_clone_shares_state(cls):
    state = cls({"pile": 12})
    with pytest.raises(AssertionError, match="changing a clone changed the original"):
        check_position(state, random.Random(0))


def test_a_correct_clone_passes_the_same_check():
    check_game(ExtraTurnNim({"pile": 12}), random.Random(0))
