"""The promises of the game protocol, checked on random games of any door.

``random_playout`` plays uniformly random legal actions (choosing among the
players in ``to_move()`` at random, so simultaneous phases interleave).
``check_game`` plays such a game and asserts, after every action, what the
protocol promises (see ``check_position``), then that the finished game
refuses further actions and replays from its text record. ``check_door``
does that for a registered door, on options drawn at random.
"""
from __future__ import annotations

import pickle
import random
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from .door import Door
from .game import GameState, IllegalAction, replay

__all__ = ["random_playout", "check_game", "check_position", "check_door", "fingerprint"]

#: legal actions checked one by one at each position (all of them when fewer)
ACTIONS_CHECKED = 12

A = TypeVar("A", bound=Hashable)
Obs = TypeVar("Obs")
S = TypeVar("S", bound="GameState[Any, object]")     # any door's state, as its own class


def random_playout(state: S, rng: random.Random, max_steps: int = 100_000,
                   on_step: Callable[[S], None] | None = None) -> S:
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


def fingerprint(state: GameState[A, Obs]) -> bytes:
    """Every field of the state, serialised: two states with the same
    fingerprint hold the same data (board, history, counters, caches)."""
    return pickle.dumps(state.__dict__, protocol=pickle.HIGHEST_PROTOCOL)


def _players(state: GameState[A, Obs]) -> range:
    return range(state.num_players)


def check_position(state: GameState[A, Obs], rng: random.Random) -> None:
    """The protocol's promises at one position of a game going on or over."""
    movers = state.to_move()
    out = state.outcome()
    assert state.is_terminal() == (out is not None) == (not movers), \
        f"terminal {state.is_terminal()}, outcome {out}, to move {movers}"
    assert len(set(movers)) == len(movers) and all(p in _players(state) for p in movers)
    for viewer in (*_players(state), None):
        state.observation(viewer)                  # every seat and a watcher can look
        state.last_action_text(viewer)
    before = fingerprint(state)
    # an action of this game (a mover's, else the last one played), offered
    # to players who may not act now
    probe = next((acts[0] for acts in map(state.legal_actions, movers) if acts),
                 state.history[-1][1] if state.history else None)
    for player in _players(state):
        legal = state.legal_actions(player)
        if player not in movers:
            assert legal == [], f"player {player} is not to move but has actions"
            assert probe is None or state.why_illegal(player, probe) is not None
            continue
        assert legal, f"player {player} is to move but has no legal action"
        for action in rng.sample(legal, min(len(legal), ACTIONS_CHECKED)):
            assert state.why_illegal(player, action) is None, f"legal {action!r} refused"
            text = state.action_to_str(action)
            assert state.parse_action(text) == action, f"{text!r} does not read back"
    # a player out of turn is refused, and the refusal changes nothing
    waiting = [p for p in _players(state) if p not in movers]
    if waiting and probe is not None:
        try:
            state.apply(waiting[0], probe)
        except IllegalAction:
            pass
        else:
            raise AssertionError(f"player {waiting[0]} acted out of turn")
    assert fingerprint(state) == before, "looking at the state or a refused action changed it"
    # a clone is independent: playing on the clone leaves the original as it was
    twin = state.clone()
    assert twin.record() == state.record() and twin.to_move() == movers
    assert twin.outcome() == out
    if movers:
        player = rng.choice(movers)
        twin.apply(player, rng.choice(twin.legal_actions(player)))
        assert fingerprint(state) == before, "changing a clone changed the original"
        assert len(twin.history) == len(state.history) + 1
    twin.history.extend(twin.history[-1:])         # even a shared history list would show
    assert fingerprint(state) == before, "changing a clone changed the original"


def check_game(state: S, rng: random.Random, max_steps: int = 100_000,
               every: int = 1, dense: int = 100) -> S:
    """Play a random game from ``state`` checking ``check_position`` after
    each of the first ``dense`` actions, then after every ``every``-th (and
    at the end: long games stay quick to check); then the game
    is over, refuses any further action, and replays from its options and
    text record to the same record, turn and outcome."""
    start = state.clone()
    check_position(state, rng)
    steps = 0

    def step(s: S) -> None:
        nonlocal steps
        steps += 1
        player, action = s.history[-1]
        text = s.action_to_str(action)
        assert s.parse_action(text) == action, text
        if steps <= dense or steps % every == 0:
            check_position(s, rng)

    random_playout(state, rng, max_steps, step)
    assert state.is_terminal(), "random game did not end"
    check_position(state, rng)
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.winner in (None, *_players(state))
    for _, last in state.history[-1:]:
        for player in _players(state):
            try:
                state.apply(player, last)
            except IllegalAction:
                pass
            else:
                raise AssertionError("an action was accepted after the end")
    assert start.history == [] or len(start.history) < len(state.history), "clone shares history"
    again = replay(type(state), state.options, state.record())
    assert again.record() == state.record()
    assert again.to_move() == state.to_move()
    assert again.outcome() == outcome
    return state


def check_door(info: Door[A, Obs], seed: int, max_steps: int = 100_000, every: int = 1,
               dense: int = 100) -> GameState[A, Obs]:
    """A random game of a registered door, on options drawn at random."""
    rng = random.Random(seed)
    chosen = {spec.key: rng.choice([value for value, _ in spec.choices]) for spec in info.specs()}
    state = info.new_game(chosen, rng)
    assert state.key == info.key, f"{info.key}'s rules call themselves {state.key!r}"
    return check_game(state, rng, max_steps, every, dense)
