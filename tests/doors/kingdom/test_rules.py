"""One or more tests per paragraph of the Kingdom seed and per decision."""
from __future__ import annotations

import pytest

from doors._core.game import IllegalAction, InvalidNotation, replay
from doors.kingdom.position import PASS, Move, parse_square
from doors.kingdom.rules import KingdomState

from .helpers import at, legal, make, play, targets


# ----- the aim, the panel, passing ------------------------------------------
def test_taking_the_king_wins():
    s = make({"e1": "K", "e10": "Q", "e15": "k"})
    play(s, "e10-e15")
    assert s.outcome().winner == 0 and s.outcome().reason == "king taken"
    assert s.legal_actions(1) == [] and s.to_move() == ()


def test_player_0_moves_first_and_may_pass():
    s = KingdomState({"board": "default"})
    assert s.to_move() == (0,)
    assert PASS in s.legal_actions()
    play(s, "pass")
    assert s.to_move() == (1,) and "passed" in s.events


def test_two_passes_in_a_row_draw():
    s = play(KingdomState({}), "pass", "pass")
    assert s.outcome().winner is None and s.outcome().reason == "both players passed"


def test_promotion_piece_is_part_of_the_action():
    s = make({"c18": "P"})
    assert {"c18-c19=Q", "c18-c19=B", "c18-c19=N", "c18-c19=R"} <= legal(s)
    assert "c18-c19" not in legal(s)
    assert "promotion" in s.why_illegal(0, s.parse_action("c18-c19"))
    play(s, "c18-c19=N")
    assert at(s, "c19") == "N" and "pawn promoted" in s.events


# ----- the king ---------------------------------------------------------------
def test_king_moves_one_square_any_direction():
    s = make({"j10": "K"})
    assert targets(s, "j10") == {"i9", "i10", "i11", "j9", "j11", "k9", "k10", "k11"}


def test_king_may_not_move_onto_attacked_square():
    s = make({"j10": "K", "k19": "q"})            # queen covers the k file
    assert targets(s, "j10") == {"i9", "i10", "i11", "j9", "j11"}
    assert "king" in s.why_illegal(0, s.parse_action("j10-k10"))


def test_king_takes_only_undefended_pieces():
    s = make({"j10": "K", "j11": "b", "k11": "n"})
    assert {"j11", "k11"} <= targets(s, "j10")
    s = make({"j10": "K", "j11": "b", "l13": "b"})   # l13 defends j11 (via k12)
    assert "j11" not in targets(s, "j10")


def test_king_cannot_push_rocks():
    s = make({"j10": "K", "j11": "#"})
    assert "j11" not in targets(s, "j10")


def test_king_moves_into_own_rook_making_a_castle():
    s = make({"j10": "K", "j11": "R", "a11": "r"})   # the square is attacked: allowed
    play(s, "j10-j11")
    assert at(s, "j11") == "C" and at(s, "j10") == "." and "castle formed" in s.events
    assert s.pos.kings[0] == parse_square("j11")


def test_no_check_rule_a_pinned_piece_may_move_and_lose():
    s = make({"e1": "K", "e5": "B", "e10": "r"})
    assert "e5-f6" in legal(s)          # the bishop shields the king, yet may move
    play(s, "e5-f6", "e10-e1")
    assert s.outcome().winner == 1


def test_knight_double_jump_attack_counts_for_king_safety():
    s = make({"k10": "K", "o14": "n"})    # o14 -> n12 or m13 -> l11, next to k10
    assert "l11" not in targets(s, "k10")
    s = make({"k10": "K", "o14": "n", "n12": "#", "m13": "R"})   # both first landings barred
    assert "l11" in targets(s, "k10")
    s = make({"k10": "K", "o14": "n", "n12": "#", "m13": "Q"})   # the knight may land on Q
    assert "l11" not in targets(s, "k10")


# ----- the queen and the bishop -----------------------------------------------
def test_queen_moves_any_distance_and_cannot_push_rocks():
    s = make({"j10": "Q", "j12": "#"})
    t = targets(s, "j10")
    assert "j11" in t and "j12" not in t and "j13" not in t
    assert {"a10", "s10", "a1", "s19"} - {"a1", "s19"} <= t


def test_queen_crushed_against_edge():
    s = make({"a10": "q", "c10": "#", "e10": "R", "a19": "K"})
    play(s, "e10-b10")       # rook pushes the rock from c10 to a10: queen crushed at edge
    assert at(s, "a10") == "#" and at(s, "b10") == "R" and "queen crushed" in s.events
    assert s.captured[0] == ["Q"]


def test_bishop_pushes_a_rock_as_far_as_it_moves():
    s = make({"e5": "B", "g7": "#"})
    assert {"f6", "g7", "h8", "l12"} <= targets(s, "e5")
    play(s, "e5-j10")
    assert at(s, "j10") == "B" and at(s, "k11") == "#" and at(s, "g7") == "."
    assert "rock pushed" in s.events


def test_bishop_crushed_against_a_rock():
    s = make({"e5": "B", "g7": "#", "j10": "b", "k11": "#"})
    assert "i9" in targets(s, "e5") and "j10" not in targets(s, "e5")
    play(s, "e5-i9")
    assert at(s, "j10") == "#" and at(s, "i9") == "B" and "bishop crushed" in s.events


# ----- the knight -------------------------------------------------------------
def test_knight_single_and_double_jumps():
    s = make({"j10": "N"})
    t = targets(s, "j10")
    assert {"k12", "l11", "h9"} <= t
    assert "k12-l14" in t and "k12-j10" not in t    # never back to its own square
    play(s, "j10-k12-l14")
    assert at(s, "l14") == "N" and at(s, "j10") == "." and at(s, "k12") == "."


def test_knight_landings_must_be_empty_or_enemy_and_it_jumps_over():
    s = make({"j10": "N", "k12": "P", "j11": "#", "k11": "#", "l11": "n"})
    t = targets(s, "j10")
    assert "k12" not in t and not any(x.startswith("k12-") for x in t)
    assert "l11" in t                                  # takes, jumping over rocks
    assert "l11-m13" in t                              # takes two in one move
    s = make({"j10": "N", "k12": "#"})
    assert "k12" not in targets(s, "j10")              # cannot push rocks


def test_knight_double_jump_takes_two():
    s = make({"j10": "N", "k12": "q", "l14": "b"})
    play(s, "j10-k12-l14")
    assert at(s, "l14") == "N" and at(s, "k12") == "." and sorted(s.captured[0]) == ["B", "Q"]


def test_knight_double_jump_onto_rook_stays_on_first_square():
    s = make({"j10": "N", "k12": "b", "l14": "r"})
    play(s, "j10-k12-l14")
    assert at(s, "k12") == "N" and at(s, "l14") == "R" and at(s, "j10") == "."
    assert s.captured[0] == ["B"] and "rook converted" in s.events


def test_knight_double_jump_cannot_pass_through_a_rook():
    s = make({"j10": "N", "k12": "r"})
    assert not any(x.startswith("k12-") for x in targets(s, "j10"))
    assert "k12" in targets(s, "j10")


def test_knight_crushed_by_rock():
    s = make({"j17": "n", "j15": "#", "j13": "R", "j18": "#"})
    play(s, "j13-j16")
    assert at(s, "j17") == "#" and "knight crushed" in s.events


# ----- the rook ---------------------------------------------------------------
def test_rook_pushes_rock():
    s = make({"c3": "R", "c6": "#"})
    assert {"c4", "c5", "c6", "c17", "c18"} <= targets(s, "c3")
    assert "c19" not in targets(s, "c3")               # the rock cannot leave the board
    play(s, "c3-c10")
    assert at(s, "c11") == "#" and at(s, "c10") == "R"


def test_rook_pushes_only_one_rock():
    s = make({"c3": "R", "c6": "#", "c7": "#"})
    assert targets(s, "c3") & {"c6", "c7", "c8"} == set()


def test_rook_between_two_rocks_leaves_a_rock():
    s = make({"j10": "R", "i10": "#", "k10": "#"})
    play(s, "j10-j14")
    assert at(s, "j10") == "#" and "rock created" in s.events


def test_rook_between_rock_and_edge_leaves_a_rock():
    s = make({"a10": "R", "b10": "#"})
    play(s, "a10-a5")
    assert at(s, "a10") == "#"
    s = make({"j1": "R", "j2": "#"})                   # vertical: edge below
    play(s, "j1-p1")
    assert at(s, "j1") == "#"


def test_rook_with_one_rock_and_open_side_leaves_nothing():
    s = make({"j10": "R", "i10": "#"})
    play(s, "j10-j14")
    assert at(s, "j10") == "."
    s = make({"a10": "R"})                             # edge alone is not enough
    play(s, "a10-a5")
    assert at(s, "a10") == "."


def test_rook_is_converted_and_attacker_stays():
    s = make({"c3": "Q", "c10": "r"})
    play(s, "c3-c10")
    assert at(s, "c3") == "Q" and at(s, "c10") == "R" and "rook converted" in s.events


def test_rook_attacked_twice_in_two_moves_is_destroyed():
    s = make({"c3": "Q", "c10": "r", "h10": "r"})
    play(s, "c3-c10")                    # converted to player 0
    play(s, "h10-c10")                   # player 1 attacks it again at once
    assert at(s, "c10") == "r" and at(s, "h10") == "." and "rook destroyed" in s.events


def test_rook_double_attack_needs_the_very_next_move():
    s = make({"c3": "Q", "c10": "r", "h10": "r", "b2": "P"})
    play(s, "c3-c10", "pass", "b2-b3")
    s = make({"c3": "Q", "c10": "r", "h10": "r", "b2": "P", "s5": "p"})
    play(s, "c3-c10", "s5-s4", "b2-b3", "h10-c10")   # too late: converted back
    assert at(s, "c10") == "r" and at(s, "h10") == "r"


def test_king_in_check_takes_rook_and_moves_in():
    s = make({"j10": "K", "j11": "r", "a10": "q"})    # queen checks along rank 10
    play(s, "j10-j11")
    assert at(s, "j11") == "K" and at(s, "j10") == "." and "rook destroyed" in s.events


def test_king_not_in_check_converts_rook():
    s = make({"j10": "K", "k11": "r"})      # diagonal: the rook does not check him
    play(s, "j10-k11")
    assert at(s, "k11") == "R" and at(s, "j10") == "K"


def test_king_in_check_converts_rook_when_its_square_is_attacked():
    s = make({"j10": "K", "j11": "r", "a10": "q", "a11": "q"})
    play(s, "j10-j11")
    assert at(s, "j11") == "R" and at(s, "j10") == "K"


def test_rooks_cannot_be_crushed():
    s = make({"c3": "R", "c6": "#", "c8": "r", "c9": "#"})
    assert targets(s, "c3") & {"c6", "c7"} == {"c6"}     # pushes to c7, not onto c8


# ----- the castle -------------------------------------------------------------
def test_castle_moves_like_rook_but_cannot_take_or_push():
    s = make({"j10": "C", "j14": "#", "n10": "q"})
    t = targets(s, "j10")
    assert {"j11", "j13", "a10", "m10", "j1"} <= t
    assert {"j14", "n10", "j15"} & t == set()


def test_castle_creates_no_rock():
    s = make({"j10": "C", "i10": "#", "k10": "#"})
    play(s, "j10-j12")
    assert at(s, "j10") == "." and at(s, "j12") == "C"


def test_king_leaves_castle_diagonally():
    s = make({"j10": "C"})
    play(s, "j10-k11")
    assert at(s, "j10") == "R" and at(s, "k11") == "K" and "king left his castle" in s.events
    assert s.pos.kings[0] == parse_square("k11")


def test_king_leaving_castle_must_be_safe():
    s = make({"j10": "C", "k19": "q"})
    assert "k11" not in targets(s, "j10") and "i11" in targets(s, "j10")


def test_king_moves_from_castle_into_neighbouring_rook():
    s = make({"j10": "C", "j11": "R", "k11": "R"})
    assert {"j11", "k11"} <= targets(s, "j10")
    play(s, "j10-k11")
    assert at(s, "j10") == "R" and at(s, "k11") == "C"


def test_castle_taken_by_non_rook_ends_game():
    s = make({"j10": "C", "j15": "q"}, turn=1)
    play(s, "j15-j10")
    assert s.outcome().winner == 1 and s.outcome().reason == "castle taken"


def test_castle_taken_by_rook_both_rooks_die_king_lives():
    s = make({"j10": "C", "j15": "r"}, turn=1)
    play(s, "j15-j10")
    assert at(s, "j10") == "K" and at(s, "j15") == "." and not s.is_terminal()
    assert "castle broken" in s.events[0]


def test_castle_cannot_be_crushed_and_is_not_in_check():
    s = make({"j10": "C", "j13": "r", "j12": "#", "j9": "#"}, turn=1)
    assert "j12" in targets(s, "j13") and "j11" not in targets(s, "j13")
    s = make({"j10": "C", "a11": "q"})
    assert "j11" in targets(s, "j10")      # the castle may go onto an attacked square


# ----- pawns ------------------------------------------------------------------
def test_pawn_moves_up_to_four_forward():
    s = make({"e2": "P"})
    assert targets(s, "e2") == {"e3", "e4", "e5", "e6"}
    s = make({"e2": "P", "e5": "n"})
    assert targets(s, "e2") == {"e3", "e4"}


def test_pawns_push_option_one_square():
    s = make({"e2": "P"}, pawns="push")
    assert targets(s, "e2") == {"e3"}


def test_player_1_pawns_move_down():
    s = make({"e18": "p"}, turn=1)
    assert targets(s, "e18") == {"e17", "e16", "e15", "e14"}


def test_pawn_takes_diagonally_forward_only():
    s = make({"e5": "P", "d6": "n", "f6": "n", "e6": "n", "d4": "n"})
    assert targets(s, "e5") >= {"d6", "f6"} and targets(s, "e5") & {"e6", "d4"} == set()


def test_pawn_pushes_rocks_in_five_directions_one_square():
    s = make({"j10": "P", "i10": "#", "i11": "#", "j11": "#", "k11": "#", "k10": "#",
              "j9": "#"})
    assert targets(s, "j10") == {"i10", "i11", "j11", "k11", "k10"}   # not back
    play(s, "j10-j11")
    assert at(s, "j12") == "#" and at(s, "j11") == "P"


def test_pawn_pushes_pawns_forward_back_left_right():
    s = make({"j10": "P", "j11": "p", "j9": "P", "i10": "p", "k10": "P"})
    assert targets(s, "j10") >= {"j11", "j9", "i10", "k10"}
    play(s, "j10-j9")
    assert at(s, "j9") == "P" and at(s, "j8") == "P" and at(s, "j10") == "."


def test_strength_in_numbers():
    s = make({"j10": "P", "j11": "P", "j12": "b"})
    play(s, "j10-j11")
    assert at(s, "j12") == "P" and at(s, "j11") == "P" and s.captured[0] == ["B"]
    assert "strength in numbers" in s.events
    s = make({"j10": "P", "j11": "p", "j12": "b"})       # an enemy pawn cannot take
    assert "j11" not in targets(s, "j10")


def test_enemy_pawn_not_pushed_onto_its_promotion_rank():
    s = make({"j3": "P", "j2": "p"})
    assert "j2" not in targets(s, "j3")


def test_pawn_crushed_by_a_single_rock():
    s = make({"c3": "R", "c6": "#", "c9": "p"})
    play(s, "c3-c8")
    assert at(s, "c9") == "#" and "pawn crushed" in s.events


def test_pushed_friendly_pawn_promotes():
    s = make({"j17": "P", "j18": "P"})
    assert "j17-j18=R" in legal(s)
    play(s, "j17-j18=R")
    assert at(s, "j19") == "R" and at(s, "j18") == "P"


# ----- rocks ------------------------------------------------------------------
def test_crush_needs_a_rock_or_edge_behind():
    s = make({"c3": "R", "c6": "#", "c9": "q"})
    assert "c8" not in targets(s, "c3")
    s = make({"c3": "R", "c6": "#", "c9": "q", "c10": "#"})
    assert "c8" in targets(s, "c3")


def test_own_pieces_are_never_crushed():
    s = make({"c3": "R", "c6": "#", "c9": "P"})
    assert "c8" not in targets(s, "c3")


def test_king_crushed_ends_the_game():
    s = make({"a17": "R", "c17": "#", "e17": "k", "f17": "#"})
    play(s, "a17-d17")
    assert s.outcome().winner == 0 and s.outcome().reason == "king crushed"


# ----- notation, errors, options ----------------------------------------------
def test_notation_round_trip_and_errors():
    s = KingdomState({})
    for text in ("k10-k12", "e3-f5-g7", "a18-a19=Q", "pass"):
        assert s.action_to_str(s.parse_action(text)) == text
    assert s.parse_action("E3-F5-G7") == Move(parse_square("e3"), parse_square("g7"),
                                               parse_square("f5"))
    for bad in ("", "k10", "t1-t2", "a0-a1", "a20-a1", "k10-k12=K", "hello"):
        with pytest.raises(InvalidNotation):
            s.parse_action(bad)


def test_illegal_reasons():
    s = KingdomState({})
    with pytest.raises(IllegalAction, match="no piece"):
        s.apply(0, s.parse_action("j10-j11"))
    assert s.why_illegal(1, PASS) == "It is not your turn."
    assert "pawn" in s.why_illegal(0, s.parse_action("b2-b7"))
    assert s.why_illegal(0, "j1") is not None


def test_layout_in_options_keeps_records_replayable(tmp_path, monkeypatch):
    s = KingdomState({"board": "default"})
    assert s.options["layout"] and s.options["board"] == "default"
    play(s, "b2-b5", "b18-b15")
    from doors.kingdom import boards
    monkeypatch.setattr(boards, "SHIPPED", tmp_path)     # the file "changes"
    again = replay(KingdomState, s.options, s.record())
    assert again.pos.board == s.pos.board


def test_options_choose_board_and_pawn_rule():
    s = KingdomState({"board": "skirmish", "pawns": "push"})
    assert s.pos.pawn_steps == 1 and "Skirmish" in s.options["title"]


def test_clone_is_independent():
    s = KingdomState({})
    c = s.clone()
    play(c, "b2-b5")
    assert s.history == [] and s.pos.board != c.pos.board
