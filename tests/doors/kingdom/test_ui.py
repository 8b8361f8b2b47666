"""The Kingdom screen and keys, and the door's registry entry."""
from __future__ import annotations

from ansi.canvas import Canvas
from ansi.keys import BACKSPACE, DOWN, ENTER, ESC, LEFT, RIGHT, UP
from doors._core.door import DOOR_ROWS, RESERVED_KEYS, Submit
from doors.kingdom import INFO
from doors.kingdom.position import PASS, parse_square
from doors.kingdom.rules import KingdomState
from doors.kingdom.view import KingdomUI

from .helpers import make


def ui_for(state, me=0):
    ui = KingdomUI(me, ("Alice", "Bob"), state.options)
    ui.update(state.clone(), None, 0.0)
    return ui


def goto(ui, name):
    ui.cur = parse_square(name)


def press(ui, *keys):
    out = None
    for k in keys:
        out = ui.on_key(k, 0.0)
    return out


def draw(ui):
    canvas = Canvas(80, 24)
    ui.draw(canvas.region(0, 0, 80, DOOR_ROWS), 0.0)
    return canvas


def test_info_entry():
    assert INFO.key == "kingdom" and INFO.levels == (1, 5) and INFO.default_level == 3
    keys = {o.key for o in INFO.options}
    assert keys == {"board", "pawns"}
    board_opt = next(o for o in INFO.options if o.key == "board")
    assert board_opt.default == "default" and {"default", "fortress", "skirmish"} <= {
        v for v, _ in board_opt.choices}
    for page in INFO.help_text.split("\f"):
        lines = page.strip("\n").split("\n")
        assert len(lines) <= 18 and all(len(line) <= 78 for line in lines), page[:30]
    state = INFO.new_game({"board": "fortress"})
    assert state.options["layout"] and state.options["pawns"] == "move"


def test_select_and_move_submits():
    ui = ui_for(KingdomState({}))
    goto(ui, "b2")
    assert press(ui, ENTER) is None and ui.selected == parse_square("b2")
    goto(ui, "b5")
    out = press(ui, ENTER)
    assert isinstance(out, Submit) and ui.obs.action_to_str(out.action) == "b2-b5"


def test_arrows_follow_the_screen_for_both_players():
    ui = ui_for(KingdomState({}), me=0)
    goto(ui, "j10")
    press(ui, UP, RIGHT)
    assert ui.cur == parse_square("k11")
    ui = ui_for(KingdomState({}), me=1)            # turned half round
    goto(ui, "j10")
    press(ui, UP, RIGHT)
    assert ui.cur == parse_square("i9")
    press(ui, DOWN, LEFT)
    assert ui.cur == parse_square("j10")


def test_each_player_sees_own_army_at_bottom():
    from doors.kingdom.view import SIDE_FG
    state = KingdomState({})
    for me in (0, 1):
        canvas = draw(ui_for(state, me))
        assert canvas.row_text(18).lstrip().startswith("1 " if me == 0 else "19")
        assert canvas.get(3, 18).char == "R" and canvas.get(3, 18).fg == SIDE_FG[me]
        assert canvas.get(3, 0).fg == SIDE_FG[1 - me]
    assert draw(ui_for(state, 0)).row_text(19).strip().startswith("a")
    assert draw(ui_for(state, 1)).row_text(19).strip().startswith("s")


def test_canvas_shows_board_panels_and_no_escape_codes():
    state = KingdomState({})
    canvas = draw(ui_for(state))
    text = "\n".join(canvas.lines())
    assert "KINGDOM" in text and "Alice" not in text and "You" in text and "Bob" in text
    assert "()" in text and "\x1b" not in text
    assert canvas.row_text(18)[3:41].replace(" ", "") == "RNBRNBQKBBNRBNR"


def test_cancel_keys():
    ui = ui_for(KingdomState({}))
    for key in (ESC, BACKSPACE):
        goto(ui, "b2")
        press(ui, ENTER)
        press(ui, key)
        assert ui.selected == -1


def test_knight_double_jump_by_keys():
    ui = ui_for(make({"j10": "N", "k12": "p"}))
    goto(ui, "j10")
    press(ui, ENTER)
    goto(ui, "k12")
    assert press(ui, ENTER) is None and ui.mid == parse_square("k12")
    goto(ui, "l14")
    out = press(ui, ENTER)
    assert ui.obs.action_to_str(out.action) == "j10-k12-l14"


def test_knight_enter_twice_stops_after_one_jump():
    ui = ui_for(make({"j10": "N"}))
    goto(ui, "j10")
    press(ui, ENTER)
    goto(ui, "k12")
    press(ui, ENTER)
    out = press(ui, ENTER)
    assert ui.obs.action_to_str(out.action) == "j10-k12"


def test_knight_straight_to_a_double_jump_square():
    ui = ui_for(make({"j10": "N"}))
    goto(ui, "j10")
    press(ui, ENTER)
    goto(ui, "j14")                 # only reached by two jumps, both ways empty
    out = press(ui, ENTER)
    assert out.action.to == parse_square("j14") and out.action.mid >= 0


def test_knight_two_ways_to_an_enemy_rook_asks_which_way():
    """On an enemy rook the knight stays at its first landing (the rook is
    converted): the way decides where it ends, so the player chooses it."""
    ui = ui_for(make({"j9": "N", "j13": "r"}))
    goto(ui, "j9")
    press(ui, ENTER)
    goto(ui, "j13")
    assert press(ui, ENTER) is None
    assert ui.message == "Several ways there: Enter on the first landing square first."
    goto(ui, "i11")
    press(ui, ENTER)
    goto(ui, "j13")
    assert ui.obs.action_to_str(press(ui, ENTER).action) == "j9-i11-j13"


def test_a_redraw_or_a_notice_keeps_the_half_made_move():
    """r, CTRL-L, help closed or a notice refresh the screen with the same
    position: the selected piece stays selected."""
    state = make({"j9": "N"})
    ui = ui_for(state)
    goto(ui, "j9")
    press(ui, ENTER)
    ui.update(state.clone(), None, 1.0)               # the same position, drawn again
    assert ui.selected == parse_square("j9")
    goto(ui, "i11")
    assert press(ui, ENTER) is None and ui.mid == parse_square("i11")   # a first landing, kept going
    ui.update(state.clone(), None, 2.0)
    assert ui.mid == parse_square("i11")


def test_a_king_inside_his_castle_is_never_shown_in_check():
    ui = ui_for(make({"e1": "C", "e10": "q"}))
    assert not ui.obs.pos.in_check(0)
    assert "CHECK" not in "\n".join(draw(ui).lines())
    ui = ui_for(make({"e1": "K", "e10": "q"}))
    assert ui.obs.pos.in_check(0) and "CHECK" in "\n".join(draw(ui).lines())


def test_promotion_choice_from_panel():
    ui = ui_for(make({"c18": "P"}))
    assert press(ui, "p", "p") is None and ui.promo == "N"
    goto(ui, "c18")
    press(ui, ENTER)
    goto(ui, "c19")
    assert ui.obs.action_to_str(press(ui, ENTER).action) == "c18-c19=N"
    assert "Promote to: knight" in "\n".join(draw(ui).lines())


def test_find_king_even_in_castle():
    ui = ui_for(make({"e5": "C"}))
    press(ui, "k")
    assert ui.cur == parse_square("e5") and "castle" in ui.message


def test_pass_needs_confirmation():
    ui = ui_for(KingdomState({}))
    assert press(ui, "x") is None
    out = press(ui, "x")
    assert out == Submit(PASS)
    assert press(ui, "x", LEFT, "x") is None


def test_targets_toggle_and_not_my_turn():
    state = KingdomState({})
    ui = ui_for(state)
    goto(ui, "b2")
    press(ui, ENTER)
    canvas = draw(ui)
    x, y = 3 + 2 * 1, 18 - 3                   # b4 on player 0's screen
    assert canvas.get(x + 1, y).char == "*"
    press(ui, "t")
    assert draw(ui).get(x + 1, y).char != "*"
    other = ui_for(state, me=1)
    goto(other, "b18")
    assert press(other, ENTER) is None and "not your turn" in other.message


def test_illegal_target_gives_reason_and_reserved_keys_unused():
    ui = ui_for(KingdomState({}))
    goto(ui, "b2")
    press(ui, ENTER)
    goto(ui, "b9")
    assert press(ui, ENTER) is None and "pawn" in ui.message
    for key in RESERVED_KEYS:
        before = (ui.cur, ui.selected, ui.promo, ui.show_targets)
        assert press(ui, key) is None
        assert (ui.cur, ui.selected, ui.promo, ui.show_targets) == before


def test_update_reports_what_happened():
    state = make({"c3": "Q", "c10": "r"})
    ui = ui_for(state)
    state.apply(0, state.parse_action("c3-c10"))
    ui.update(state.clone(), state.history[-1], 1.0)
    assert "rook converted" in ui.message and "c3-c10" in ui.message


def test_spectator_can_look_but_not_move():
    ui = ui_for(KingdomState({}), me=None)
    goto(ui, "b2")
    assert press(ui, ENTER) is None and press(ui, "x") is None
    assert "KINGDOM" in "\n".join(draw(ui).lines())
