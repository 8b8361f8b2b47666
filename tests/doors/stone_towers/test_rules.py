"""Stone Towers rules: the source's worked examples and RULES.md decisions."""
from __future__ import annotations

import random

import pytest

from doors._core.conformance import check_game
from doors._core.game import IllegalAction, InvalidNotation, replay
from doors.stone_towers.rules import BLUE, NOBODY, PASS, RED, Board, StoneTowersState, parse_square


def state_with(rows: list[str], ply: int = 1, turns: int = 20) -> StoneTowersState:
    board = Board.from_rows(rows)
    state = StoneTowersState({"size": board.size, "turns": turns})
    state.board = board
    state.ply = ply                      # odd ply: blue to move
    return state


def sq(state: StoneTowersState, name: str) -> int:
    return parse_square(state.size, name)


# The source's 3x3 examples, squares A-I, set in the middle of a 5x5 board:
#   A b2  B c2  C d2
#   D b3  E c3  F d3
#   G b4  H c4  I d4
EXAMPLE_1 = [
    ". . . . .",
    ". B1 R1 R1 .",
    ". b r R1 .",
    ". B1 B2 b .",
    ". . . . .",
]
EXAMPLE_2 = [
    ". . . . .",
    ". B1 R1 R1 .",
    ". B1 R1 R1 .",
    ". B1 B2 b .",
    ". . . . .",
]


def test_example_1_tie_two_two_keeps_red():
    s = state_with(EXAMPLE_1)
    e = sq(s, "c3")
    assert s.influence(e) == (2, 2)
    assert s.owner(e) == RED
    # settling the whole board changes nothing inside the example
    s.board.settle(range(25))
    assert s.owner(e) == RED


@pytest.mark.parametrize("square", ["b3", "c4"])   # build on D / fortify H
def test_example_1_blue_takes_e(square):
    s = state_with(EXAMPLE_1)
    s.board.settle(range(25))
    e = sq(s, "c3")
    s.apply(BLUE, sq(s, square))
    assert s.owner(e) == BLUE
    assert s.castle(e) == 0
    assert s.last_turn.kind == ("build" if square == "b3" else "fortify")
    assert e in s.last_turn.gained


def test_example_2_tie_three_three_keeps_red():
    s = state_with(EXAMPLE_2)
    e = sq(s, "c3")
    assert s.influence(e) == (3, 3)
    s.board.settle(range(25))
    assert s.owner(e) == RED and s.castle(e) == 1


@pytest.mark.parametrize("square", ["b3", "c4"])   # fortify D / fortify H
def test_example_2_blue_destroys_red_castle(square):
    s = state_with(EXAMPLE_2)
    s.board.settle(range(25))
    e = sq(s, "c3")
    s.apply(BLUE, sq(s, square))
    assert s.last_turn.kind == "fortify"
    assert s.owner(e) == BLUE
    assert s.castle(e) == 0                          # now a blue flag
    assert e in s.last_turn.destroyed
    assert s.last_turn.rounds[0].destroyed == (e,)


def test_build_on_empty_takes_neighbours():
    s = StoneTowersState({"size": 5, "turns": 5})
    c = sq(s, "c3")
    s.apply(RED, c)
    assert s.counts() == (5, 0)
    assert s.castle(c) == 1
    assert all(s.owner(j) == RED for j in s.board.area[c])
    assert s.last_turn.gained == (c,) + tuple(sorted(s.board.area[c][1:]))


def test_empty_neighbours_of_new_castle_become_builders():
    s = StoneTowersState({"size": 5, "turns": 5})
    s.apply(RED, sq(s, "a1"))
    s.apply(BLUE, sq(s, "c1"))
    # d1 and c2 were empty with no red influence: blue's now
    assert s.owner(sq(s, "d1")) == BLUE and s.owner(sq(s, "c2")) == BLUE
    # b1 has red influence 1, blue 1: the tie keeps it red
    assert s.influence(sq(s, "b1")) == (1, 1)
    assert s.owner(sq(s, "b1")) == RED
    assert s.counts() == (3, 3)


def test_tie_keeps_previous_owner_after_fortify():
    s = StoneTowersState({"size": 5, "turns": 5})
    s.apply(RED, sq(s, "a1"))
    s.apply(BLUE, sq(s, "c1"))
    s.apply(RED, sq(s, "e5"))
    s.apply(BLUE, sq(s, "c1"))      # blue 2 on b1 vs red 1: b1 turns blue
    assert s.owner(sq(s, "b1")) == BLUE
    s.apply(RED, sq(s, "a1"))       # 2-2: b1 stays blue
    assert s.influence(sq(s, "b1")) == (2, 2)
    assert s.owner(sq(s, "b1")) == BLUE


def test_unowned_square_stays_unowned_on_tie():
    # a square influenced 1-1 by two castles built in the same settle
    b = Board.from_rows([
        "R1 . B1 . .",
        ". . . . .",
        ". . . . .",
        ". . . . .",
        ". . . . .",
    ])
    b.settle(range(25))
    assert b.owner[1] == NOBODY and b.influence(1) == (1, 1)


def test_build_on_own_flag():
    s = StoneTowersState({"size": 5, "turns": 5})
    s.apply(RED, sq(s, "c3"))
    s.apply(BLUE, sq(s, "a5"))
    flag = sq(s, "c2")
    assert s.owner(flag) == RED and s.castle(flag) == 0
    assert s.why_illegal(RED, flag) is None
    s.apply(RED, flag)
    assert s.castle(flag) == 1 and s.last_turn.kind == "build"


def test_refusals():
    s = StoneTowersState({"size": 5, "turns": 10})
    s.apply(RED, sq(s, "c3"))
    assert s.why_illegal(BLUE, sq(s, "c2")) == "That is red's land."
    assert s.why_illegal(BLUE, sq(s, "c3")) == "That is red's land."
    assert s.why_illegal(RED, sq(s, "a1")) == "It is not your turn."
    with pytest.raises(IllegalAction):
        s.apply(BLUE, sq(s, "c2"))
    s.apply(BLUE, sq(s, "a1"))
    assert s.why_illegal(RED, sq(s, "a1")) == "That is blue's land."
    assert s.why_illegal(RED, PASS) is not None
    assert s.why_illegal(RED, 99) is not None


def test_fortify_limit_three():
    s = StoneTowersState({"size": 5, "turns": 10})
    c = sq(s, "c3")
    for _ in range(3):
        s.apply(RED, c)
        s.apply(BLUE, sq(s, "a1") if s.owner(sq(s, "a1")) != RED else sq(s, "e5"))
    assert s.castle(c) == 3
    assert s.influence(c) == (3, 0)
    assert s.why_illegal(RED, c) == "That castle already has three flags."
    assert c not in s.legal_actions(RED)


def test_domino_cascade_in_rounds():
    # A chain of red castles b2 c2 d2 leaning on each other, each held on a
    # tie. Fortifying a2 takes b2; without b2, c2 falls; without c2, d2.
    rows = [
        ". B1 B1 B2 .",
        "B1 R1 R1 R1 r",
        ". . B2 . .",
        ". . . . .",
        ". . . . .",
    ]
    s = state_with(rows)
    castles = list(s.board.castle)
    s.board.settle(range(25))
    assert s.board.castle == castles                 # a settled position
    b2, c2, d2 = (sq(s, n) for n in ("b2", "c2", "d2"))
    assert [s.influence(j) for j in (b2, c2, d2)] == [(2, 2), (3, 3), (2, 2)]
    before = s.counts()
    s.apply(BLUE, sq(s, "a2"))
    rounds = s.last_turn.rounds
    assert [r.destroyed for r in rounds] == [(b2,), (c2,), (d2,)]
    assert all(s.owner(j) == BLUE and s.castle(j) == 0 for j in (b2, c2, d2))
    assert s.owner(sq(s, "e2")) == RED               # 0-0 now: stays red
    assert s.counts() == (before[0] - 3, before[1] + 3)
    assert s.last_turn.destroyed == (b2, c2, d2)
    # the frames show the board after each step
    frames = s.last_turn.frames
    assert len(frames) == len(rounds) + 2
    assert frames[0][1][b2] == 1 and frames[2][1][b2] == 0 and frames[2][1][c2] == 1
    assert frames[-1] == (tuple(s.board.owner), tuple(s.board.castle))


def test_pass_only_when_no_move():
    s = StoneTowersState({"size": 5, "turns": 60})
    rng = random.Random(3)
    while PASS not in s.legal_actions() and not s.is_terminal():
        s.apply(s.current_player(), rng.choice(s.legal_actions()))
    assert not s.is_terminal()
    assert s.legal_actions() == [PASS]
    s.apply(s.current_player(), PASS)
    assert s.last_turn.kind == "pass"


def test_game_ends_after_turns_and_counts():
    s = StoneTowersState({"size": 5, "turns": 5})
    rng = random.Random(1)
    for i in range(10):
        assert s.turns_left(RED) == 5 - (i + 1) // 2
        assert s.turns_left(BLUE) == 5 - i // 2
        s.apply(s.current_player(), rng.choice(s.legal_actions()))
    assert s.is_terminal()
    out = s.outcome()
    assert out.score == s.counts()
    red, blue = s.counts()
    assert out.winner == (None if red == blue else (RED if red > blue else BLUE))


def test_notation_round_trip():
    s = StoneTowersState({"size": 15, "turns": 5})
    for i in range(225):
        assert s.parse_action(s.action_to_str(i)) == i
    assert s.action_to_str(0) == "a1" and s.action_to_str(224) == "o15"
    assert s.parse_action("pass") == PASS
    for bad in ("p1", "a16", "zz", "", "a0"):
        with pytest.raises(InvalidNotation):
            s.parse_action(bad)


def test_options_validated():
    with pytest.raises(ValueError):
        StoneTowersState({"size": 4})
    with pytest.raises(ValueError):
        StoneTowersState({"turns": 61})
    with pytest.raises(ValueError):
        StoneTowersState({"turns": 4})
    s = StoneTowersState({})
    assert s.options == {"size": 9, "turns": 20}


@pytest.mark.parametrize("size,turns,seed", [(5, 60, 0), (9, 20, 1), (15, 10, 2), (7, 40, 3)])
def test_conformance(size, turns, seed):
    check_game(StoneTowersState({"size": size, "turns": turns}), random.Random(seed))


def test_replay_reproduces_board():
    s = StoneTowersState({"size": 9, "turns": 20})
    rng = random.Random(7)
    while not s.is_terminal():
        s.apply(s.current_player(), rng.choice(s.legal_actions()))
    again = replay(StoneTowersState, s.options, s.record())
    assert again.board.owner == s.board.owner and again.board.castle == s.board.castle
