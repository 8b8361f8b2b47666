"""The Awari screen and keys."""
from __future__ import annotations

import random

from ansi.canvas import Canvas
from ansi.keys import ENTER, LEFT, RIGHT
from doors._core.door import DOOR_ROWS, RESERVED_KEYS, Request, Submit
from doors.awari import INFO
from doors.awari.keys import handle_key
from doors.awari.rules import AwariState
from doors.awari.view import STEP, AwariUI


def region():
    full = Canvas(80, 24)
    return full, full.region(0, 0, 80, DOOR_ROWS)


def make_ui(me=0, state=None):
    ui = AwariUI(me, ("Alice", "Bob"), {"first": 0})
    state = state or AwariState({"first": 0})
    ui.update(state.clone(), None, 0.0)
    return ui, state


def test_info():
    assert INFO.key == "awari" and INFO.ui_class is AwariUI
    assert INFO.levels == (1, 5)
    lines = INFO.help_text.split("\f")[0].splitlines()
    assert len(lines) <= 18 and all(len(line) <= 78 for line in lines)
    assert INFO.resolve_options({})["first"] == 0
    assert INFO.resolve_options({"first": "random"}, random.Random(1))["first"] in (0, 1)
    assert INFO.new_game({"first": 1}).to_move() == (1,)


def test_digits_arrows_enter_submit():
    ui, _ = make_ui()
    assert ui.on_key("4", 1.0) == Submit(4)
    assert ui.cursor_hole == 4
    assert ui.on_key(LEFT, 1.0) is None and ui.cursor_hole == 5   # hole 6 is on the left
    assert ui.on_key(ENTER, 1.0) == Submit(5)
    ui.on_key(RIGHT, 1.0)
    ui.on_key(RIGHT, 1.0)
    assert ui.on_key(ENTER, 1.0) == Submit(3)
    assert ui.on_key("a", 1.0) == Request("auto_finish")
    assert not ({"a", "1", "6", LEFT, RIGHT, ENTER} & RESERVED_KEYS)


def test_not_your_turn_and_empty_hole():
    ui, _ = make_ui(me=1)
    assert ui.on_key("3", 1.0) is None and "not your turn" in ui.message
    b = [0, 2, 0, 0, 0, 0, 10, 1, 1, 1, 1, 1, 1, 0]
    ui, _ = make_ui(me=0, state=AwariState.from_position(b, 0))
    assert ui.cursor_hole == 2                      # moved off the empty hole
    assert ui.on_key("1", 1.0) is None and ui.message == "That hole is empty."
    assert ui.on_key(LEFT, 1.0) is None and ui.cursor_hole == 2  # nothing that way
    spectator, _ = make_ui(me=None)
    assert spectator.on_key("1", 1.0) is None


def test_canvas_shows_stone_counts_and_names():
    b = [0, 0, 0, 12, 0, 0, 7, 1, 2, 0, 0, 0, 5, 9]
    ui, _ = make_ui(state=AwariState.from_position(b, 0))
    full, reg = region()
    ui.draw(reg, 0.0)
    text = "\n".join(reg.lines())
    assert "12" in text and " 7 " in text and " 9 " in text and " 5 " in text
    assert "Bob" in text and "You" in text
    assert "a = auto finish" in text
    assert "\x1b" not in text and full.row_text(DOOR_ROWS) == " " * 80
    # my row at the bottom: hole 4 (12 stones) is the third box from the left
    lines = reg.lines()
    row = lines[10]
    assert "12" in row[32:39]
    digits = lines[15]
    assert [digits[16 + 3 + 8 * k] for k in range(6)] == list("654321")


def test_sowing_animation_and_messages():
    s = AwariState.from_position([0, 0, 0, 0, 0, 4, 0, 1, 1, 1, 1, 1, 1, 0], 0)
    ui, _ = make_ui(state=s)
    prev = s.clone()
    s.apply(0, 6)                                    # home, 7, 8, 9
    ui.update(s.clone(), (0, 6), 10.0)
    assert ui.anim is not None
    full, reg = region()
    ui.draw(reg, 10.0)                               # origin emptied, nothing dropped
    assert ui.anim.board(10.0)[5] == 0 and ui.anim.board(10.0)[6] == 0
    due = ui.frame_due(10.0)
    assert abs(due - (10.0 + STEP)) < 1e-9
    assert ui.anim.board(10.0 + 2.5 * STEP)[7] == 2
    ui.draw(reg, 10.0 + 4 * STEP + 0.01)
    assert ui.anim is None and ui.frame_due(20.0) is None
    assert ui.message == "You sowed hole 6"
    assert prev.board != s.board

    # extra turn message
    s = AwariState.from_position([0, 0, 0, 0, 2, 1, 0, 1, 1, 1, 1, 1, 1, 0], 0)
    ui, _ = make_ui(state=s)
    s.apply(0, 6)
    ui.update(s.clone(), (0, 6), 0.0)
    ui.draw(region()[1], 1.0)
    assert "extra turn" in ui.message

    # capture by the other player, skipped by a key
    s = AwariState.from_position([1, 1, 1, 1, 1, 1, 0, 2, 0, 0, 0, 0, 0, 0], 1)
    ui, _ = make_ui(state=s)
    s.apply(1, 1)                                    # indices 8, 9: 9 empty, facing 3
    ui.update(s.clone(), (1, 1), 0.0)
    assert ui.on_key("3", 0.05) is None              # the key only skips
    assert ui.anim is None
    assert ui.message == "Bob sowed hole 1, captured 2"


def test_spectator_and_game_over_panel():
    s = AwariState.from_position([0, 0, 0, 0, 0, 1, 18, 3, 3, 3, 3, 3, 2, 0], 0)
    s.apply(0, 6)
    ui, _ = make_ui(me=None, state=s)
    full, reg = region()
    ui.draw(reg, 0.0)
    text = "\n".join(reg.lines())
    assert "Game over" in text and "wins" not in text     # the result: the server's rows
    assert "auto finish" not in text
    ui2, _ = make_ui(me=0, state=s)
    ui2.outcome = s.outcome()
    full2, reg2 = region()
    ui2.draw(reg2, 0.0)
    player = "\n".join(reg2.lines())
    assert "Game over" in player and "choose a hole" not in player and "Your turn" not in player
    assert ui2.on_key("a", 0.0) is None and "over" in ui2.message


def test_random_game_through_the_ui():
    rng = random.Random(3)
    s = AwariState({"first": 0})
    uis = [AwariUI(p, ("Alice", "Bob"), {}) for p in (0, 1)]
    now = 0.0
    for ui in uis:
        ui.update(s.clone(), None, now)
    while not s.is_terminal():
        p = s.current_player()
        key = str(rng.choice(s.legal_actions()))
        now += 5.0
        result = handle_key(uis[p], key, now)
        assert result == Submit(int(key))
        s.apply(p, result.action)
        for ui in uis:
            ui.update(s.clone(), (p, result.action), now)
            ui.draw(region()[1], now + 0.05)
    assert all(ui.obs.is_terminal() for ui in uis)


def test_long_names_are_shortened_never_written_over_each_other():
    long = ("Thunderstruck Alpha1", "Computer 2 (5) Watch")      # 20 characters each, as handles may be
    for me in (0, None):                                        # a player, and a spectator
        state = AwariState({"first": 0})
        rng = random.Random(3)
        while not state.is_terminal():
            ui = AwariUI(me, long, {"first": 0})
            ui.update(state.clone(), None, 0.0)
            full, area = region()
            ui.draw(area, 100.0)
            row15 = "".join(full.get(x, 15).char for x in range(80))
            row16 = "".join(full.get(x, 16).char for x in range(80))
            turn, homes = row16[3:].split("Homes: ")            # both on the row, homes on the right
            assert turn.endswith("  ") and turn.strip()           # a gap between them
            assert "Homes: " in row16 and row16.count("Homes:") == 1
            bottom = row15[5:18].strip()
            assert bottom.endswith("\u2026") if me is None else bottom.endswith("You")   # shortened, marked
            assert row15[18] == " "                                  # and clear of the hole numbers
            assert long[1 - ui.bottom][:6] in homes                   # whose home is whose, still said
            state.apply(state.to_move()[0], rng.choice(state.legal_actions(state.to_move()[0])))
        ui = AwariUI(me, long, {"first": 0})
        ui.update(state.clone(), None, 0.0)
        full, area = region()
        ui.draw(area, 100.0)
        row16 = "".join(full.get(x, 16).char for x in range(80))
        assert row16[3:].startswith("Game over.") and "Homes: " in row16
