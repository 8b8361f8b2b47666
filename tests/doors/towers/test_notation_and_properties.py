"""Notation, record and replay, conformance and random-game properties."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from doors._core.conformance import check_game, random_playout
from doors._core.game import InvalidNotation, replay
from doors.towers.evaluate import move_gain, place_effect
from doors.towers.rules import Move, Place, TowersState, line_pairs, line_score, parse_diagram

from .helpers import move, place, sq


def test_actions_write_as_squares():
    state = TowersState({})
    assert state.action_to_str(Place(0)) == "a1"
    assert state.action_to_str(Move(sq("c3"), sq("c7"))) == "c3-c7"


def test_every_action_round_trips():
    state = TowersState({})
    for a in range(64):
        assert state.parse_action(state.action_to_str(Place(a))) == Place(a)
        for b in (0, 7, 56, 63):
            m = Move(a, b)
            assert state.parse_action(state.action_to_str(m)) == m


def test_parsing_is_lenient_about_case_and_spaces():
    state = TowersState({})
    assert state.parse_action(" E4 ") == place("e4")
    assert state.parse_action("e2 - E7") == move("e2-e7")
    assert state.parse_action("e2e7") == move("e2-e7")


@pytest.mark.parametrize("text", ["", "i1", "a9", "a0", "e4-", "e4-e", "pass", "e4-e5-e6", "11"])
def test_bad_notation_raises(text):
    with pytest.raises(InvalidNotation):
        TowersState({}).parse_action(text)


def test_diagram_checks():
    with pytest.raises(ValueError):
        parse_diagram("........")
    with pytest.raises(ValueError):
        parse_diagram("X.......\n" + "........\n" * 7)
    with pytest.raises(ValueError):
        parse_diagram("AAAAAAAA\nAAAAAAAA\n" + "........\n" * 6)


@pytest.mark.parametrize("first", [0, 1])
@pytest.mark.parametrize("games", [1, 2])
def test_conformance(first, games):
    for seed in range(3):
        state = check_game(TowersState({"first": first, "games": games}), random.Random(seed))
        assert state.is_terminal()


def test_conformance_from_a_setup_position():
    options = {"setup": {"board": "A......B/" * 8, "turn": 1, "phase": "movement"}}
    state = check_game(TowersState(options), random.Random(5))
    assert state.outcome() is not None


def test_replay_rebuilds_the_same_position():
    state = random_playout(TowersState({"first": 1, "games": 2}), random.Random(9), max_steps=45)
    again = replay(TowersState, state.options, state.record())
    assert again.cells == state.cells and again.results == state.results
    assert again.to_move() == state.to_move()
    assert again.key_for_tt() == state.key_for_tt()


def test_clone_is_independent():
    state = random_playout(TowersState({}), random.Random(2), max_steps=10)
    twin = state.clone()
    twin.apply(twin.current_player(), twin.legal_actions()[0])
    assert state.cells != twin.cells
    assert len(state.history) == 10 and len(twin.history) == 11


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), first=st.sampled_from([0, 1]),
       games=st.sampled_from([1, 2]))
def test_random_games_end_with_a_valid_score(seed, first, games):
    rng = random.Random(seed)
    state = TowersState({"first": first, "games": games})
    previous_mover = None
    while not state.is_terminal():
        p = state.current_player()
        if state.phase == "movement" and previous_mover == p and state.game_plies > 16:
            assert not state.can_move(1 - p)       # a repeat only if the other is pinned
        previous_mover = p
        state.apply(p, rng.choice(state.legal_actions(p)))
    out = state.outcome()
    assert len(state.results) == games
    assert state.results[-1] == line_score(state.final_boards[-1])
    assert all(a >= 0 and b >= 0 for a, b in state.results)
    assert all(a + b <= 96 for a, b in state.results)
    total = (sum(r[0] for r in state.results), sum(r[1] for r in state.results))
    assert out.score == total
    assert out.winner == (0 if total[0] > total[1] else 1 if total[1] > total[0] else None)
    # each game: 16 placements, then at most 16 moves
    assert 16 * games < len(state.history) <= 32 * games


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 31))
def test_scoring_lines_add_up_and_gains_are_exact(seed, steps):
    state = random_playout(TowersState({}), random.Random(seed), max_steps=steps)
    pairs = list(line_pairs(state.cells))
    assert state.score() == (sum(p[2] for p in pairs if p[3] == 0),
                             sum(p[2] for p in pairs if p[3] == 1))
    if state.is_terminal():
        return
    p = state.current_player()
    before = state.score()
    for action in state.legal_actions(p)[:20]:
        child = state.clone()
        child.apply(p, action)
        after = child.score()
        real = (after[p] - before[p]) - (after[1 - p] - before[1 - p])
        est = (move_gain(state.cells, *action) if isinstance(action, Move)
               else place_effect(state.cells, action.square, p))
        assert est == real
