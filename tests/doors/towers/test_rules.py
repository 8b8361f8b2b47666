"""One test (or more) per rule of RULES.md's Towers section and the seed."""
from __future__ import annotations

import random

import pytest

from doors._core.game import IllegalAction, Termination
from doors.towers import INFO
from doors.towers.rules import Place, TowersState, square_name

from .helpers import PLACEMENTS, move, place, play, position, sq


# ----- board and towers -------------------------------------------------------
def test_board_is_8x8_and_starts_empty():
    state = TowersState({"first": 0})
    assert len(state.cells) == 64
    assert state.legal_actions(0) == [Place(i) for i in range(64)]
    assert state.phase == "placement"


def test_each_player_places_exactly_eight_towers():
    state = play(TowersState({"first": 0}), *PLACEMENTS)
    assert state.phase == "movement"
    assert [state.towers_to_place(p) for p in (0, 1)] == [0, 0]
    assert [state.towers_to_move(p) for p in (0, 1)] == [8, 8]
    assert [sum(1 for s in range(64) if state.owner(s) == p) for p in (0, 1)] == [8, 8]


def test_squares_are_named_a1_to_h8():
    assert square_name(0) == "a1" and square_name(7) == "h1"
    assert square_name(8) == "a2" and square_name(63) == "h8"
    assert sq("e4") == 3 * 8 + 4


# ----- phase 1: placement --------------------------------------------------------
@pytest.mark.parametrize("first", [0, 1])
def test_placement_alternates_starting_with_the_chosen_player(first):
    state = TowersState({"first": first})
    movers = []
    for name in PLACEMENTS:
        movers.append(state.current_player())
        state.apply(state.current_player(), place(name))
    assert movers == [first, 1 - first] * 8


def test_place_only_on_empty_squares():
    state = play(TowersState({"first": 0}), "e4")
    assert state.why_illegal(1, place("e4")) == "That square is taken."
    with pytest.raises(IllegalAction):
        state.apply(1, place("e4"))
    assert Place(sq("e4")) not in state.legal_actions(1)


def test_no_passing_and_no_moving_during_placement():
    state = play(TowersState({"first": 0}), "e4")
    assert all(isinstance(a, Place) for a in state.legal_actions(1))
    assert state.why_illegal(1, move("e4-e5")) == "Place your towers first."
    assert state.why_illegal(0, place("a1")) == "It is not your turn."
    assert state.why_illegal(1, None) == "That is not a Towers move."
    assert state.why_illegal(1, Place(64)) == "No such square."


def test_option_first_random_is_resolved_by_the_door():
    firsts = {INFO.resolve_options({}, random.Random(seed))["first"] for seed in range(20)}
    assert firsts == {0, 1}
    with pytest.raises(ValueError):
        TowersState({"first": "random"})


def test_first_defaults_to_the_challenger_when_missing():
    assert TowersState({}).to_move() == (0,)


def test_bad_options_are_refused():
    with pytest.raises(ValueError):
        TowersState({"games": 3})
    with pytest.raises(ValueError):
        TowersState({"first": 2})


# ----- phase 2: movement -------------------------------------------------------
@pytest.mark.parametrize("first", [0, 1])
def test_movement_starts_with_the_player_who_placed_second(first):
    state = play(TowersState({"first": first}), *PLACEMENTS)
    assert state.phase == "movement"
    assert state.to_move() == (1 - first,)


CROSS = """\
...B....
........
........
B..A....
........
...B....
........
.......A"""


def test_a_tower_moves_like_a_rook_not_through_towers():
    state = position(CROSS, turn=0)
    targets = {square_name(a.target) for a in state.legal_actions(0) if a.origin == sq("d5")}
    assert targets == {"d6", "d7", "d4", "b5", "c5", "e5", "f5", "g5", "h5"}
    assert state.why_illegal(0, move("d5-d8")) == "That square is taken."
    assert state.why_illegal(0, move("d5-d2")) == "Another tower is in the way."
    assert state.why_illegal(0, move("d5-a5")) == "That square is taken."


def test_no_diagonal_moves_and_at_least_one_square():
    state = position(CROSS, turn=0)
    assert state.why_illegal(0, move("d5-e6")) == "Towers move in a straight line, like a rook."
    assert state.why_illegal(0, move("d5-d5")) == "A tower must move at least one square."


def test_only_your_own_towers_move():
    state = position(CROSS, turn=0)
    assert state.why_illegal(0, move("d8-e8")) == "That is not your tower."
    assert state.why_illegal(0, move("e8-e7")) == "There is no tower there."
    assert state.why_illegal(0, place("e4")) == "All towers are placed: move one of yours."


def test_a_moved_tower_is_built_and_never_moves_again():
    state = position(CROSS, turn=0)
    state.apply(0, move("d5-f5"))
    assert state.is_built(sq("f5")) and state.owner(sq("f5")) == 0
    assert state.owner(sq("d5")) is None
    state.apply(1, move("d8-e8"))
    assert state.why_illegal(0, move("f5-f6")) == "That tower is built: it cannot move again."
    assert all(a.origin != sq("f5") for a in state.legal_actions(0))


def test_movement_alternates_while_both_can_move():
    state = position(CROSS, turn=1)
    movers = []
    for _ in range(4):
        p = state.current_player()
        movers.append(p)
        state.apply(p, state.legal_actions(p)[0])
    assert movers == [1, 0, 1, 0]


PINNED = """\
........
........
........
........
........
Ba......
AB......
aa......"""


def test_a_player_whose_unmoved_towers_are_all_pinned_skips():
    # player 0's only unmoved tower (a2) is walled in: player 1 moves again
    state = position(PINNED, turn=0)
    assert not state.can_move(0) and state.can_move(1)
    assert state.to_move() == (1,)
    state.apply(1, move("a3-a8"))
    # a3 is free now: the pinned tower may move, and it is player 0's turn
    assert state.to_move() == (0,)
    assert move("a2-a3") in state.legal_actions(0)


def test_a_player_with_no_unmoved_tower_left_skips():
    state = position("""\
........
........
........
........
........
........
........
a......B""", turn=0)
    assert state.to_move() == (1,)
    state.apply(1, move("h1-h8"))
    assert state.is_terminal()


def test_phase_2_ends_when_neither_can_move_and_unmoved_towers_score():
    state = position("""\
........
........
........
........
........
bb......
ABb.....
Ab.....b""", turn=1)
    # no tower can move: the game is over at once; a1, a2 and b2 never moved
    assert state.is_terminal()
    assert state.towers_to_move(0) == 2 and state.towers_to_move(1) == 1
    assert state.owner(sq("a1")) == 0 and state.owner(sq("b2")) == 1
    # they stay and count: b1-h1 is a line of sight for player 1
    assert state.outcome().score == (0, 5)


def test_game_ends_only_when_no_tower_can_move():
    rng = random.Random(3)
    state = TowersState({"first": 1})
    while not state.is_terminal():
        p = state.current_player()
        state.apply(p, rng.choice(state.legal_actions(p)))
    for s in range(64):
        if state.owner(s) is not None and not state.is_built(s):
            assert state.targets(s) == []          # left unmoved only if pinned


# ----- scoring ------------------------------------------------------------------
def test_a_pair_scores_the_empty_squares_between():
    state = position("""\
........
........
........
........
........
........
........
A.....A.""", turn=0)
    assert state.score() == (5, 0)
    assert state.scoring_lines() == [(sq("a1"), sq("g1"), 5, 0)]


def test_columns_score_too():
    state = position("""\
.......B
........
........
........
........
........
........
.......B""", turn=0)
    assert state.score() == (0, 6)
    assert state.scoring_lines() == [(sq("h1"), sq("h8"), 6, 1)]


def test_adjacent_towers_score_zero():
    state = position("........\n" * 7 + "AA....BB", turn=0)
    assert state.score() == (0, 0)
    assert len(state.scoring_lines(include_zero=True)) == 2
    assert state.scoring_lines() == []


def test_any_tower_between_blocks_the_line():
    state = position("........\n" * 7 + "A..B..A.", turn=0)
    assert state.score() == (0, 0)
    own_between = position("........\n" * 7 + "A..A..A.", turn=0)
    # only neighbouring pairs: a1-d1 and d1-g1, not a1-g1
    assert own_between.score() == (4, 0)


def test_most_points_wins():
    final = position("""\
........
........
........
........
........
b.b.....
a......a
........""", turn=0)
    out = final.outcome()
    assert out.score == (6, 1)
    assert out.winner == 0
    assert out.termination == Termination.RULES
    assert "6-1" in out.reason


def test_a_draw_is_possible():
    final = position("""\
........
........
........
........
........
........
b..b....
a..a....""", turn=0)
    out = final.outcome()
    assert out.score == (2, 2)
    assert out.winner is None
    assert "draw" in out.reason
    assert final.returns() == (0.0, 0.0)


# ----- a match of two ------------------------------------------------------------
def _finish(state: TowersState, rng: random.Random, until_game: int | None = None) -> None:
    while not state.is_terminal() and (until_game is None or state.game < until_game):
        p = state.current_player()
        state.apply(p, rng.choice(state.legal_actions(p)))


@pytest.mark.parametrize("first", [0, 1])
def test_match_second_game_swaps_the_first_placer(first):
    state = TowersState({"first": first, "games": 2})
    _finish(state, random.Random(first), until_game=1)
    assert not state.is_terminal()
    assert state.game == 1 and len(state.results) == 1
    assert state.phase == "placement" and not any(state.cells)
    assert state.to_move() == (1 - first,)
    assert state.first_placer() == 1 - first
    assert state.last_action_this_game() is None
    for name in PLACEMENTS:
        state.apply(state.current_player(), place(name))
    assert state.to_move() == (first,)             # placed second in game 2


def test_match_winner_is_decided_by_the_sum_of_margins():
    # find a match where player 0 wins game 1 by more than they lose game 2
    for seed in range(300):
        state = TowersState({"first": 0, "games": 2})
        _finish(state, random.Random(seed))
        (a1, b1), (a2, b2) = state.results
        if a1 - b1 > 0 and a2 - b2 < 0 and (a1 - b1) + (a2 - b2) != 0:
            break
    else:  # pragma: no cover
        pytest.fail("no split match found")
    out = state.outcome()
    margin = (a1 - b1) + (a2 - b2)
    assert out.winner == (0 if margin > 0 else 1)
    assert out.score == (a1 + a2, b1 + b2)
    assert "match of two" in out.reason
    assert state.total_margin(0) == margin


def test_single_game_by_default():
    state = TowersState({"first": 0})
    _finish(state, random.Random(1))
    assert len(state.results) == 1 and state.games == 1
    assert state.outcome().score == state.results[0]
