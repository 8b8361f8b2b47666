"""Checks every door's rules state must pass (used by each door's tests).

``random_playout`` plays uniformly random legal actions (choosing among the
players in ``to_move()`` at random, so simultaneous phases interleave);
``check_game`` asserts the protocol's invariants along the way.
"""
from __future__ import annotations

import random
from collections.abc import Callable

from .game import GameState, IllegalAction, replay

__all__ = ["random_playout", "check_game"]


def random_playout(state: GameState, rng: random.Random, max_steps: int = 100_000,
                   on_step: Callable[[GameState], None] | None = None) -> GameState:
    """Play random legal actions until the game ends (or ``max_steps``)."""
    for _ in range(max_steps):
        movers = state.to_move()
        if not movers:
            break
        player = rng.choice(movers)
        actions = state.legal_actions(player)
        assert actions, f"player {player} is to move but has no legal action"
        state.apply(player, rng.choice(actions))
        if on_step is not None:
            on_step(state)
    return state


def check_game(state: GameState, rng: random.Random, max_steps: int = 100_000) -> GameState:
    """Play a random game from ``state`` checking the protocol invariants:
    legal actions exist iff a player is to move, each applied action's text
    round-trips, a clone is independent, an illegal action is refused, and the
    game replays from its options and text record to the same outcome."""
    def step(s: GameState) -> None:
        assert s.is_terminal() == (not s.to_move())
        player, action = s.history[-1]
        text = s.action_to_str(action)
        assert s.parse_action(text) == action, text

    start = state.clone()
    twin = state.clone()
    random_playout(state, rng, max_steps, step)
    assert state.is_terminal(), "random game did not end"
    assert state.outcome() is not None
    assert not state.to_move()
    try:
        state.apply(0, state.history[-1][1] if state.history else None)
    except IllegalAction:
        pass
    else:  # pragma: no cover - a failure path
        raise AssertionError("an action was accepted after the end")
    assert len(twin.history) == len(start.history), "clone shares history"
    again = replay(type(state), state.options, state.record())
    assert again.outcome() == state.outcome()
    return state
