"""The Towers bots: legal, deterministic, and sensible."""
from __future__ import annotations

import random
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from doors._ai import alphabeta
from doors._ai.random_bot import RandomBot
from doors._core.conformance import random_playout
from doors.towers.ai import make_bot
from doors.towers.evaluate import evaluate_fast, evaluate_full, order_actions
from doors.towers.rules import Move, TowersState

from .helpers import move, position


def exact_margin(state: TowersState, player: int, memo: dict | None = None) -> int:
    """Brute force: the final margin ``player`` gets with best play."""
    memo = {} if memo is None else memo
    key = (state.key_for_tt(), player)
    if key not in memo:
        memo[key] = _exact(state, player, memo)
    return memo[key]


def _exact(state: TowersState, player: int, memo: dict) -> int:
    if state.is_terminal():
        a, b = state.outcome().score
        return (a - b) if player == 0 else (b - a)
    mover = state.current_player()
    values = []
    for action in state.legal_actions(mover):
        child = state.clone()
        child.apply(mover, action)
        values.append(exact_margin(child, mover, memo))
    best = max(values)
    return best if mover == player else -best


ENDGAMES = [
    # player 0: take the long line a1-h1
    ("""\
........
........
........
........
.......A
........
........
a.......""", 0),
    # player 0 must block b's threat h3-h8 (a8-h8) or take its own line
    ("""\
b......A
........
........
........
........
.......B
........
a.....B.""", 0),
    # both sides have two towers to move
    ("""\
a..B....
........
..A.....
........
.....B..
........
.A......
b......a""", 1),
]


@pytest.mark.parametrize("diagram,turn", ENDGAMES)
@pytest.mark.parametrize("level", [4, 5])
def test_strong_levels_play_endgames_perfectly(diagram, turn, level):
    state = position(diagram, turn=turn)
    p = state.current_player()
    best = exact_margin(state, p)
    choice = make_bot(level, seed=1).choose(state.observation(p), p)
    child = state.clone()
    child.apply(p, choice)
    assert exact_margin(child, p) == best


def test_long_line_is_taken():
    state = position(ENDGAMES[0][0], turn=0)
    assert make_bot(5, seed=0).choose(state.clone(), 0) == move("h4-h1")


@pytest.mark.parametrize("level", [1, 2, 3])
def test_every_level_plays_legal_moves_to_the_end(level):
    state = TowersState({"first": level % 2})
    bots = [make_bot(level, seed=level), RandomBot(seed=level)]
    while not state.is_terminal():
        p = state.current_player()
        action = bots[p].choose(state.observation(p), p)
        assert state.why_illegal(p, action) is None
        state.apply(p, action)
    assert state.outcome() is not None


@pytest.mark.parametrize("level", [4, 5])
def test_strong_levels_answer_in_time_in_the_opening(level, monkeypatch):
    """A move's work is bounded by a node budget, whatever the machine's
    speed: on a clock that never moves the bot still answers, having searched
    no more than its budget. (Seconds per move: bench/towers_ai.py.)"""
    monkeypatch.setattr(alphabeta, "time", SimpleNamespace(monotonic=lambda: 0.0))
    state = random_playout(TowersState({}), random.Random(level), max_steps=3)
    p = state.current_player()
    bot = make_bot(level, seed=0)
    assert isinstance(bot, alphabeta.AlphaBetaBot) and bot.max_nodes is not None
    action = bot.choose(state.observation(p), p)
    assert bot.last_info["nodes"] <= bot.max_nodes + 1
    assert state.why_illegal(p, action) is None


def test_levels_are_clamped():
    state = TowersState({})
    for level in (0, 9):
        assert make_bot(level, seed=0).choose(state.clone(), 0) in state.legal_actions(0)


def test_a_bot_is_deterministic_for_a_seed():
    state = random_playout(TowersState({}), random.Random(1), max_steps=20)
    p = state.current_player()
    picks = {make_bot(2, seed=7).choose(state.clone(), p) for _ in range(3)}
    assert len(picks) == 1


def test_level_3_beats_random_with_either_side():
    for side in (0, 1):
        state = TowersState({"first": 0})
        bots = {side: make_bot(3, seed=side), 1 - side: RandomBot(seed=side)}
        while not state.is_terminal():
            p = state.current_player()
            state.apply(p, bots[p].choose(state.observation(p), p))
        assert state.outcome().winner == side


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 31))
def test_evaluations_are_zero_sum(seed, steps):
    state = random_playout(TowersState({"games": 2}), random.Random(seed), max_steps=steps)
    for evaluate in (evaluate_fast, evaluate_full):
        assert evaluate(state, 0) == pytest.approx(-evaluate(state, 1))


def test_ordering_puts_the_best_immediate_gain_first():
    state = position(ENDGAMES[0][0], turn=0)
    actions = order_actions(state, 0, state.legal_actions(0))
    assert actions[0] == move("h4-h1")
    assert sorted(actions) == sorted(state.legal_actions(0))
    assert all(isinstance(a, Move) for a in actions)


def test_generic_mcts_plays_legal_towers_moves():
    from doors._ai.mcts import MCTSBot
    state = random_playout(TowersState({}), random.Random(6), max_steps=17)
    p = state.current_player()
    action = MCTSBot(iterations=30, seed=0).choose(state.clone(), p)
    assert state.why_illegal(p, action) is None
