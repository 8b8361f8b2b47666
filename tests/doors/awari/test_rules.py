"""Every rule of RULES.md "Awari", plus the protocol checks."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from doors._core.conformance import check_game
from doors._core.game import IllegalAction, InvalidNotation, replay
from doors.awari.rules import AwariState, facing, hole_index, sow


def board(p0=(0,) * 6, h0=0, p1=(0,) * 6, h1=0):
    return list(p0) + [h0] + list(p1) + [h1]


def test_start_position():
    s = AwariState({"first": 0})
    assert s.board == [3] * 6 + [0] + [3] * 6 + [0]
    assert sum(s.board) == 36
    assert s.to_move() == (0,)
    assert s.legal_actions() == [1, 2, 3, 4, 5, 6]
    assert AwariState({"first": 1}).to_move() == (1,)
    with pytest.raises(ValueError):
        AwariState({"first": "random"})


def test_layout_helpers():
    assert hole_index(0, 1) == 0 and hole_index(0, 6) == 5
    assert hole_index(1, 1) == 7 and hole_index(1, 6) == 12
    assert facing(0) == 12 and facing(5) == 7 and facing(7) == 5


def test_sowing_passes_both_homes():
    # player 1's hole 6 with 9 stones: own home, all of player 2's row, their home, own hole 1
    b = board(p0=(1, 0, 0, 0, 0, 9), p1=(1,) * 6)
    r = sow(b, 0, 6)
    assert r.path == (6, 7, 8, 9, 10, 11, 12, 13, 0)
    assert r.board[6] == 1 and r.board[13] == 1
    assert r.board[7:13] == (2,) * 6
    assert r.board[0] == 2 and r.board[5] == 0
    assert not r.home_landing and r.captured == 0


def test_player_two_sows_through_player_one_side():
    b = board(p0=(1,) * 6, p1=(0, 0, 0, 0, 0, 3))
    r = sow(b, 1, 6)
    assert r.path == (13, 0, 1)
    assert r.board[13] == 1 and r.board[0] == 2 and r.board[1] == 2


def test_fourteen_stones_fill_the_origin_hole_too():
    b = board(p0=(14, 1, 1, 1, 1, 1), p1=(1,) * 6)
    r = sow(b, 0, 1)
    assert len(r.path) == 14
    assert r.path[-1] == 0                      # lands back in its own hole
    assert r.path.count(0) == 1
    # the hole was emptied, so the 14th stone falls into an empty hole whose
    # facing hole got a stone on the way: 14 stones always capture
    assert r.capture_holes == (0, 12) and r.captured == 1 + 2
    assert r.board[6] == 1 + 3 and r.board[13] == 1
    # 15 stones: the origin gets one, the next hole two
    b = board(p0=(15, 1, 1, 1, 1, 1), p1=(1,) * 6)
    r = sow(b, 0, 1)
    assert r.board[0] == 1 and r.board[1] == 3
    assert sum(r.board) == sum(b)


def test_origin_empty_before_last_stone_captures():
    # 14 stones from an otherwise empty situation: the last stone lands in the
    # origin, which was emptied -> empty before the last drop -> capture facing
    b = board(p0=(14, 0, 0, 0, 0, 0), p1=(0,) * 6)
    r = sow(b, 0, 1)
    # facing hole 12 received one stone during the sowing
    assert r.captured == 2 and r.capture_holes == (0, 12)
    assert r.board[6] == 1 + 2


def test_extra_turn_and_no_third_turn():
    s = AwariState.from_position(board(p0=(0, 0, 0, 0, 2, 1), p1=(1,) * 6), 0)
    s.apply(0, 6)                    # 1 stone into home
    assert s.to_move() == (0,) and s.extra
    s.apply(0, 5)                    # 2 stones, the last into home again: no third turn
    assert s.board[6] == 2
    assert s.to_move() == (1,) and not s.extra


def test_extra_turn_then_ordinary_move_passes():
    s = AwariState.from_position(board(p0=(0, 0, 0, 2, 1, 1), p1=(1,) * 6), 0)
    s.apply(0, 6)
    s.apply(0, 4)                    # 2 stones: holes 5 and 6
    assert s.to_move() == (1,)
    assert not s.extra


def test_extra_turn_for_player_two():
    s = AwariState.from_position(board(p0=(1,) * 6, p1=(0, 0, 0, 0, 1, 1)), 1)
    s.apply(1, 6)
    assert s.board[13] == 1 and s.to_move() == (1,)


def test_capture_on_own_side():
    b = board(p0=(1, 0, 0, 0, 0, 0), p1=(0, 0, 0, 0, 4, 0), h0=0)
    r = sow(b, 0, 1)                 # lands in own empty hole 2 (index 1), facing 11
    assert r.captured == 5 and r.capture_holes == (1, 11)
    assert r.board[1] == 0 and r.board[11] == 0 and r.board[6] == 5


def test_capture_on_opponents_side_takes_own_facing_hole():
    # player 1's hole 6 with 3 stones: home, index 7, index 8 (empty) -> facing index 4 (own)
    b = board(p0=(0, 0, 0, 0, 5, 3), p1=(2, 0, 0, 0, 0, 1))
    r = sow(b, 0, 6)
    assert r.path == (6, 7, 8)
    assert r.captured == 1 + 5 and r.capture_holes == (8, 4)
    assert r.board[4] == 0 and r.board[8] == 0 and r.board[6] == 1 + 6


def test_no_capture_when_facing_empty_or_hole_not_empty():
    b = board(p0=(1, 0, 0, 0, 0, 0), p1=(1,) * 6)
    b[11] = 0                         # facing of index 1 empty
    r = sow(b, 0, 1)
    assert r.captured == 0 and r.board[1] == 1
    b = board(p0=(1, 2, 0, 0, 0, 0), p1=(1,) * 6)   # target not empty
    r = sow(b, 0, 1)
    assert r.captured == 0 and r.board[1] == 3


def test_last_stone_in_opponents_home_does_nothing():
    b = board(p0=(0, 0, 0, 0, 0, 8), p1=(1,) * 6)
    s = AwariState.from_position(b, 0)
    s.apply(0, 6)
    assert s.board[13] == 1
    assert s.to_move() == (1,) and not s.extra
    assert s.board[6] == 1


def test_game_ends_when_mover_has_no_stones():
    # player 1 moves the last stone of their row into home: extra turn, but empty row -> end
    s = AwariState.from_position(board(p0=(0, 0, 0, 0, 0, 1), h0=10, p1=(5,) * 5 + (0,), h1=0), 0)
    s.apply(0, 6)
    assert s.is_terminal()
    out = s.outcome()
    assert out.winner == 0 and out.score == (11, 0)        # rows not counted
    assert out.reason == "the player to move has no stones to sow"   # no "player 1": callers have names
    # the opponent to move with an empty row
    s = AwariState.from_position(board(p0=(0, 0, 0, 0, 1, 0), h0=1, p1=(0,) * 6, h1=5), 0)
    s.apply(0, 5)                                            # 1 stone to hole 6, no capture
    assert s.is_terminal() and s.outcome().winner == 1


def test_game_ends_at_nineteen():
    b = board(p0=(0, 0, 0, 0, 0, 1), h0=18, p1=(3,) * 6, h1=0)
    s = AwariState.from_position(b, 0)
    s.apply(0, 6)
    assert s.is_terminal() and s.outcome().winner == 0
    assert "19" in s.outcome().reason
    assert s.to_move() == () and s.legal_actions(0) == []


def test_tie():
    s = AwariState.from_position(board(p0=(0, 0, 0, 0, 0, 1), h0=5, p1=(0,) * 6, h1=6), 0)
    s.apply(0, 6)                                            # extra turn, but no stones
    out = s.outcome()
    assert out is not None and out.winner is None and out.score == (6, 6)


def test_illegal_actions_and_notation():
    s = AwariState.from_position(board(p0=(0, 1, 0, 0, 0, 0), p1=(1,) * 6), 0)
    assert s.legal_actions() == [2]
    assert s.why_illegal(0, 1) == "That hole is empty."
    assert s.why_illegal(0, 7) is not None
    assert s.why_illegal(1, 1) == "It is not your turn."
    with pytest.raises(IllegalAction):
        s.apply(0, 3)
    assert s.parse_action(" 4 ") == 4 and s.action_to_str(4) == "4"
    for bad in ("0", "7", "x", "", "12"):
        with pytest.raises(InvalidNotation):
            s.parse_action(bad)


def test_replay_and_clone_independent():
    s = AwariState({"first": 1})
    s.apply(1, 3)
    c = s.clone()
    c.apply(c.current_player(), c.legal_actions()[0])
    assert len(s.history) == 1 and s.board != c.board
    again = replay(AwariState, s.options, s.record())
    assert again.board == s.board and again.player == s.player


@pytest.mark.parametrize("seed", range(20))
def test_conformance(seed):
    check_game(AwariState({"first": seed % 2}), random.Random(seed))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 1), st.lists(st.integers(0, 5), max_size=400))
def test_stones_conserved_and_games_end(first, picks):
    s = AwariState({"first": first})
    run = 0
    last = None
    for k in picks:
        if s.is_terminal():
            break
        p = s.current_player()
        acts = s.legal_actions()
        s.apply(p, acts[k % len(acts)])
        assert sum(s.board) == 36
        assert min(s.board) >= 0
        run = run + 1 if p == last else 1
        last = p
        assert run <= 2                      # never a third turn in a row
    rng = random.Random(len(picks))
    while not s.is_terminal():
        p = s.current_player()
        s.apply(p, rng.choice(s.legal_actions()))
        assert sum(s.board) == 36
    out = s.outcome()
    h0, h1 = s.homes()
    assert out.score == (h0, h1)
    assert out.winner == (None if h0 == h1 else (0 if h0 > h1 else 1))
    assert max(h0, h1) >= 19 or not any(s.row(s.player))
