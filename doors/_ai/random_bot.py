"""A bot that plays a uniformly random legal action (baseline and tests)."""
from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from typing import Generic, Protocol, TypeVar, cast, overload

from doors._core.game import Player

__all__ = ["RandomBot", "ListsActions"]

A = TypeVar("A", bound=Hashable)
A_co = TypeVar("A_co", bound=Hashable, covariant=True)
Obs = TypeVar("Obs")


class ListsActions(Protocol[A_co]):
    """An observation that lists a player's legal actions (a perfect-
    information game's, which is a ``GameState``)."""

    def legal_actions(self, player: Player | None = None) -> Sequence[A_co]: ...


class RandomBot(Generic[Obs, A]):
    """Uniform random legal action of the given player.

    ``actions_of(observation, player)`` lists the choices; by default the
    observation's own ``legal_actions(player)`` (perfect-information games,
    whose observation is a state)."""

    @overload
    def __init__(self: RandomBot[ListsActions[A], A], seed: int | None = None) -> None: ...

    @overload
    def __init__(self, seed: int | None = None, *,
                 actions_of: Callable[[Obs, Player], Sequence[A]]) -> None: ...

    def __init__(self, seed: int | None = None,
                 actions_of: Callable[[Obs, Player], Sequence[A]] | None = None):
        self.rng = random.Random(seed)
        self.actions_of = actions_of

    def choose(self, observation: Obs, player: Player) -> A:
        if self.actions_of is not None:
            actions = list(self.actions_of(observation, player))
        else:   # built without actions_of: the first overload made Obs a ListsActions[A]
            actions = list(cast(ListsActions[A], observation).legal_actions(player))
        if not actions:
            raise ValueError(f"player {player} has no legal action")
        return self.rng.choice(actions)
