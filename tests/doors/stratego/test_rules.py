"""Every rule of RULES.md's Stratego section."""
from __future__ import annotations

import pytest

from doors._core.game import IllegalAction, InvalidNotation, Termination, replay
from doors.stratego.pieces import (
    ARMY_SIZE,
    COUNTS,
    LAKES,
    Fill,
    Move,
    Place,
    Ready,
    Remove,
    parse_action,
    square_name,
)
from doors.stratego.rules import StrategoState
from doors.stratego.setup import SetupError, random_fill, setup_from_text, setup_to_text

from .helpers import move, position, sq, started


# ----- board ------------------------------------------------------------------
def test_army_and_lakes():
    assert ARMY_SIZE == 40
    assert COUNTS["9"] == 8 and COUNTS["B"] == 6 and COUNTS["8"] == 5
    assert {square_name(s) for s in LAKES} == {
        "C5", "D5", "C6", "D6", "G5", "H5", "G6", "H6"}


def test_square_names_round_trip():
    for s in range(100):
        assert sq(square_name(s)) == s
    with pytest.raises(InvalidNotation):
        sq("K1")
    with pytest.raises(InvalidNotation):
        sq("A11")


# ----- setup ------------------------------------------------------------------
def test_setup_rows():
    s = StrategoState({})
    assert s.to_move() == (0, 1)
    assert s.why_illegal(0, Place(sq("A1"), "F")) is None
    assert s.why_illegal(0, Place(sq("J4"), "F")) is None
    assert s.why_illegal(0, Place(sq("A5"), "F")) == "Place your pieces in your own four rows."
    assert s.why_illegal(0, Place(sq("A7"), "F")) is not None
    assert s.why_illegal(1, Place(sq("A7"), "F")) is None
    assert s.why_illegal(1, Place(sq("J10"), "F")) is None
    assert s.why_illegal(1, Place(sq("A4"), "F")) is not None
    assert s.why_illegal(1, Place(sq("E6"), "9")) is not None


def test_setup_counts_and_remove():
    s = StrategoState({})
    s.apply(0, Place(sq("A1"), "1"))
    assert s.why_illegal(0, Place(sq("B1"), "1")) == "You have no more of that piece to place."
    assert s.why_illegal(0, Place(sq("A1"), "2")) == "That square is taken."
    assert s.why_illegal(0, Remove(sq("B1"))) is not None
    assert s.why_illegal(0, Remove(sq("A1"))) is None
    s.apply(0, Remove(sq("A1")))
    assert s.board[sq("A1")] is None
    assert s.why_illegal(0, Place(sq("B1"), "1")) is None
    assert s.why_illegal(0, Move(sq("A1"), sq("A2"))) is not None


def test_ready_only_when_complete_and_locks():
    s = StrategoState({})
    assert s.why_illegal(0, Ready()) == "Place all 40 pieces first."
    assert Ready() not in s.legal_actions(0)
    s.apply(0, random_fill(0, (), __import__("random").Random(1)))
    assert Ready() in s.legal_actions(0)
    s.apply(0, Ready())
    assert s.to_move() == (1,)
    assert s.why_illegal(0, Remove(sq("A1"))) == "It is not your turn."
    with pytest.raises(IllegalAction):
        s.apply(0, Place(sq("A1"), "9"))
    s.apply(1, random_fill(1, (), __import__("random").Random(2)))
    assert s.phase == "setup"
    s.apply(1, Ready())
    assert s.phase == "play"
    assert s.to_move() == (0,), "player 1 (index 0) moves first"


def test_fill_replaces_setup_and_validates():
    s = StrategoState({})
    s.apply(0, Place(sq("E2"), "F"))
    fill = Fill(((sq("A1"), "F"), (sq("B1"), "B")))
    s.apply(0, fill)
    assert s.board[sq("E2")] is None and s.board[sq("A1")].rank == "F"
    assert s.why_illegal(0, Fill(((sq("A1"), "F"), (sq("B1"), "F")))) == "Too many of one piece."
    assert s.why_illegal(0, Fill(((sq("A1"), "F"), (sq("A1"), "B")))) == "Two pieces on one square."
    assert s.why_illegal(0, Fill(((sq("A7"), "F"),))) is not None


def test_setup_text_round_trip_either_side():
    rng = __import__("random").Random(3)
    fill = random_fill(0, (), rng)
    text = setup_to_text(0, fill.placements)
    lines = text.splitlines()
    assert len(lines) == 4 and all(len(x) == 10 for x in lines)
    # the last line is player 0's back row (row 1)
    assert lines[3] == "".join(dict(fill.placements)[c] for c in range(10))
    assert setup_from_text(0, text) == tuple(sorted(fill.placements))
    other = setup_from_text(1, text)
    # the same text puts player 2's back row on row 10
    assert dict(other)[90 + 4] == dict(fill.placements)[4]
    with pytest.raises(SetupError):
        setup_from_text(0, text.replace("F", "B"))
    with pytest.raises(SetupError):
        setup_from_text(0, "123")
    with pytest.raises(SetupError):
        setup_from_text(0, text.replace("F", "X"))


# ----- movement ---------------------------------------------------------------
def basic(**opts):
    return position({"A1": (0, "F"), "J10": (1, "F"), "A10": (1, "B"), "J1": (0, "B"),
                     "E4": (0, "5"), "B5": (0, "B"), "E2": (0, "F"),
                     "A4": (0, "9"), "H3": (1, "9")}, **opts)


def test_one_square_never_diagonal():
    s = basic()
    assert s.why_illegal(0, Move(sq("E4"), sq("E5"))) is None
    assert s.why_illegal(0, Move(sq("E4"), sq("F4"))) is None
    assert s.why_illegal(0, Move(sq("E4"), sq("E3"))) is None
    assert s.why_illegal(0, Move(sq("E4"), sq("F5"))) == "Pieces move one square, never diagonally."
    assert s.why_illegal(0, Move(sq("E4"), sq("E6"))) == "Only a scout moves more than one square."


def test_lakes_refused():
    s = position({"C4": (0, "5"), "B5": (0, "9"), "J10": (1, "F"), "A1": (0, "F"),
                  "J9": (1, "5")})
    assert s.why_illegal(0, Move(sq("C4"), sq("C5"))) == "That square is in a lake."
    assert s.why_illegal(0, Move(sq("B5"), sq("C5"))) == "That square is in a lake."
    assert s.why_illegal(0, Move(sq("B5"), sq("E5"))) is not None  # across the lake
    targets = {m.to for m in s.legal_actions(0)}
    assert not targets & LAKES


def test_own_piece_bomb_flag():
    s = basic()
    assert s.why_illegal(0, Move(sq("E4"), sq("E4"))) is not None
    s.board[sq("E3")] = s.board[sq("J1")]
    assert s.why_illegal(0, Move(sq("E4"), sq("E3"))) == "You cannot move onto your own piece."
    assert s.why_illegal(0, Move(sq("B5"), sq("B6"))) == "Bombs never move."
    assert s.why_illegal(0, Move(sq("A1"), sq("B1"))) == "The flag never moves."
    assert s.why_illegal(0, Move(sq("C3"), sq("C2"))) == "There is no piece there."
    assert s.why_illegal(0, Move(sq("H3"), sq("H2"))) == "That is not your piece."
    assert s.why_illegal(1, Move(sq("H3"), sq("H2"))) == "It is not your turn."


def test_scout_moves_far_but_not_through_pieces():
    s = basic()
    assert s.why_illegal(0, Move(sq("A4"), sq("A9"))) is None
    assert s.why_illegal(0, Move(sq("A4"), sq("A10"))) is None  # strike at the end (option 2)
    assert s.why_illegal(0, Move(sq("A4"), sq("F4"))) == "A scout cannot jump over pieces."
    assert s.why_illegal(0, Move(sq("A4"), sq("D4"))) is None
    move(s, "A4", "A9")
    assert s.board[sq("A9")].revealed, "a scout's long move reveals it"
    assert s.observation(1).squares[sq("A9")].rank == "9"


def test_scout_short_move_stays_hidden():
    s = basic()
    move(s, "A4", "A5")
    assert not s.board[sq("A5")].revealed
    assert s.observation(1).squares[sq("A5")].rank is None


def test_scout_option_1_no_strike_after_long_move():
    s = basic(scout_strike=1)
    assert s.why_illegal(0, Move(sq("A4"), sq("A10"))) == \
        "Option 1: a scout may not strike after moving more than one square."
    assert s.why_illegal(0, Move(sq("A4"), sq("A9"))) is None
    s.board[sq("A5")] = s.board[sq("H3")]
    assert s.why_illegal(0, Move(sq("A4"), sq("A5"))) is None  # adjacent strike is fine
    assert Move(sq("A4"), sq("A10")) not in s.legal_actions(0)


def test_scout_option_2_strikes_after_long_move():
    s = basic(scout_strike=2)
    assert Move(sq("A4"), sq("A10")) in s.legal_actions(0)
    move(s, "A4", "A10")   # scout hits a bomb
    assert s.board[sq("A10")].rank == "B" and s.lost[0] == ["9"]


# ----- strikes ----------------------------------------------------------------
def strike_case(att, dfn, player=0):
    s = position({"A1": (0, "F"), "J1": (0, "B"), "J10": (1, "F"), "A10": (1, "9"),
                  "E4": (player, att), "E5": (1 - player, dfn)}, turn=player)
    move(s, "E4", "E5")
    return s


@pytest.mark.parametrize("att,dfn,winner", [
    ("5", "7", "att"), ("7", "5", "def"), ("1", "2", "att"), ("9", "S", "att"),
    ("S", "9", "def"), ("6", "6", "both"), ("1", "1", "both"),
    ("S", "1", "att"), ("1", "S", "att"), ("2", "S", "att"),
    ("8", "B", "att"), ("1", "B", "def"), ("9", "B", "def"), ("S", "B", "def"),
])
def test_strike(att, dfn, winner):
    s = strike_case(att, dfn)
    st = s.last_strike
    assert (st.attacker, st.defender) == (att, dfn)
    target = s.board[sq("E5")]
    assert s.board[sq("E4")] is None
    if winner == "att":
        assert target.owner == 0 and target.rank == att and target.revealed
        assert s.lost == ([], [dfn])
    elif winner == "def":
        assert target.owner == 1 and target.rank == dfn and target.revealed
        assert s.lost == ([att], [])
    else:
        assert target is None and s.lost == ([att], [dfn])
    for viewer in (0, 1, None):
        obs = s.observation(viewer)
        assert (obs.last_strike.attacker, obs.last_strike.defender) == (att, dfn)


def test_spy_only_wins_when_striking():
    s = strike_case("1", "S")
    assert s.board[sq("E5")].rank == "1"
    s = strike_case("S", "1")
    assert s.board[sq("E5")].rank == "S"


def test_flag_struck_wins():
    s = strike_case("9", "F")
    out = s.outcome()
    assert out.winner == 0 and out.termination is Termination.RULES
    assert out.reason == "flag captured"
    assert s.to_move() == ()
    assert s.observation(1).phase == "over"


def test_bombs_and_flag_never_strike():
    s = position({"A1": (0, "F"), "A2": (0, "B"), "A3": (1, "5"), "B1": (1, "9"),
                  "J10": (1, "F"), "J1": (0, "5")})
    assert s.why_illegal(0, Move(sq("A2"), sq("A3"))) == "Bombs never move."
    assert s.why_illegal(0, Move(sq("A1"), sq("B1"))) == "The flag never moves."


def test_strike_is_the_whole_turn():
    s = strike_case("5", "7")
    assert s.to_move() == (1,)


# ----- two-square rule --------------------------------------------------------
def shuffle_pos(**opts):
    return position({"A1": (0, "F"), "E4": (0, "5"), "J10": (1, "F"), "A9": (1, "5"),
                     "B2": (0, "9")}, **opts)


def test_two_square_seed():
    s = shuffle_pos()
    move(s, "E4", "E5")
    move(s, "A9", "A8")
    move(s, "E5", "E4")
    move(s, "A8", "A9")
    assert s.why_illegal(0, Move(sq("E4"), sq("E5"))) == \
        "Two-square rule: that piece may not go back again."
    assert Move(sq("E4"), sq("E5")) not in s.legal_actions(0)
    assert s.why_illegal(0, Move(sq("E4"), sq("F4"))) is None
    assert s.why_illegal(0, Move(sq("E4"), sq("E3"))) is None
    # another piece moving in between lifts it
    move(s, "B2", "B3")
    move(s, "A9", "B9")
    assert s.why_illegal(0, Move(sq("E4"), sq("E5"))) is None


def test_two_square_seed_scout_counts_start_and_end():
    s = shuffle_pos()
    move(s, "B2", "B4")
    move(s, "A9", "A8")
    move(s, "B4", "B2")
    move(s, "A8", "A9")
    assert s.why_illegal(0, Move(sq("B2"), sq("B4"))) is not None
    assert s.why_illegal(0, Move(sq("B2"), sq("B3"))) is None
    assert s.why_illegal(0, Move(sq("B2"), sq("B5"))) is None


def test_two_square_tournament():
    s = shuffle_pos(two_square="tournament")
    squares = ["E4", "E5"]
    for i in range(5):
        move(s, squares[i % 2], squares[(i + 1) % 2])
        move(s, "A9" if i % 2 == 0 else "A8", "A8" if i % 2 == 0 else "A9")
    # five moves made between E4 and E5; the piece is on E5; the sixth is refused
    assert s.board[sq("E5")] is not None
    assert s.why_illegal(0, Move(sq("E5"), sq("E4"))) == \
        "Two-square rule: no sixth move in a row between the same two squares."
    assert s.why_illegal(0, Move(sq("E5"), sq("F5"))) is None


def test_tournament_allows_the_third_move():
    s = shuffle_pos(two_square="tournament")
    move(s, "E4", "E5")
    move(s, "A9", "A8")
    move(s, "E5", "E4")
    move(s, "A8", "A9")
    assert s.why_illegal(0, Move(sq("E4"), sq("E5"))) is None


# ----- the end ----------------------------------------------------------------
def test_cannot_move_loses():
    s = position({"A1": (0, "F"), "J10": (1, "F"), "J9": (1, "B"), "I10": (1, "B"),
                  "E4": (0, "5"), "E5": (1, "6"), "A2": (0, "9")})
    move(s, "E4", "E5")   # blue's last movable piece dies
    out = s.outcome()
    assert out.winner == 0 and out.reason == "opponent cannot move"
    assert s.to_move() == ()


WALLED = ["BB12BBS3BB", "3444555566", "6677778888", "899999999F"]   # bombs where a way out would be
OPEN = ["9955556666", "7777888889", "9999912334", "44SBBBBBBF"]


def set_up_and_ready(red: list[str], blue: list[str]) -> StrategoState:
    s = StrategoState({})
    s.apply(0, Fill(setup_from_text(0, "\n".join(red))))
    s.apply(1, Fill(setup_from_text(1, "\n".join(blue))))
    s.apply(0, Ready())
    s.apply(1, Ready())
    return s


def test_an_army_walled_in_by_its_own_bombs_loses_as_play_begins():
    s = set_up_and_ready(WALLED, OPEN)
    out = s.outcome()
    assert out is not None and out.winner == 1 and out.reason == "opponent cannot move"
    assert s.to_move() == ()


def test_both_armies_walled_in_is_a_draw_as_play_begins():
    s = set_up_and_ready(WALLED, WALLED)
    out = s.outcome()
    assert out is not None and out.winner is None and out.reason == "neither side can move"


def test_two_square_can_leave_no_move():
    s = position({"A1": (0, "F"), "A3": (0, "5"), "A4": (0, "B"), "B3": (0, "B"),
                  "J10": (1, "F"), "A9": (1, "5")})
    move(s, "A3", "A2")
    move(s, "A9", "A8")
    move(s, "A2", "A3")
    move(s, "A8", "A9")
    out = s.outcome()
    assert out is not None and out.winner == 1 and out.reason == "opponent cannot move"


def test_neither_side_can_move_draw():
    s = position({"A1": (0, "F"), "J10": (1, "F"), "E4": (0, "5"), "E5": (1, "5"),
                  "C1": (0, "B"), "H10": (1, "B")})
    move(s, "E4", "E5")
    out = s.outcome()
    assert out.winner is None and out.reason == "neither side can move"


# ----- notation ----------------------------------------------------------------
def test_notation_round_trip():
    s = StrategoState({})
    for a in [Place(sq("A1"), "F"), Remove(sq("J4")), Ready(), Move(sq("A4"), sq("A9")),
              Fill(((sq("A1"), "F"), (sq("B1"), "S")))]:
        assert parse_action(s.action_to_str(a)) == a
    for bad in ["", "place Z1 F", "place A1 X", "fill A1", "jump"]:
        with pytest.raises(InvalidNotation):
            parse_action(bad)


def test_replay_and_options_stored():
    s = started(5, scout_strike=1, two_square="tournament")
    assert s.options == {"scout_strike": 1, "two_square": "tournament"}
    for _ in range(10):
        s.apply(s.turn, s.legal_actions()[0])
    again = replay(StrategoState, s.options, s.record())
    assert again.board == s.board and again.moves == s.moves


def test_bad_options_refused():
    with pytest.raises(ValueError):
        StrategoState({"scout_strike": 3})
    with pytest.raises(ValueError):
        StrategoState({"two_square": "x"})


def test_clone_is_independent():
    s = started(1)
    c = s.clone()
    c.apply(0, c.legal_actions(0)[0])
    assert s.moves == [] and len(c.moves) == 1 and s.board != c.board
