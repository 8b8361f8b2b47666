"""A bot that plays a uniformly random legal action (baseline and tests)."""
from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from doors._core.game import Player

__all__ = ["RandomBot"]

ActionsOf = Callable[[Any, Player], list[Any]]


def _legal_actions(observation: Any, player: Player) -> list[Any]:
    return list(observation.legal_actions(player))


class RandomBot:
    """Uniform random legal action of the given player.

    ``actions_of(observation, player)`` lists the choices; by default the
    observation's own ``legal_actions(player)`` (perfect-information games,
    whose observation is a state)."""

    def __init__(self, seed: int | None = None, actions_of: ActionsOf | None = None):
        self.rng = random.Random(seed)
        self.actions_of = actions_of or _legal_actions

    def choose(self, observation: Any, player: Player) -> Any:
        actions = self.actions_of(observation, player)
        if not actions:
            raise ValueError(f"player {player} has no legal action")
        return self.rng.choice(actions)
