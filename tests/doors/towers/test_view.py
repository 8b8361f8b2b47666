"""TowersUI: keys in, Submit actions out, and what the canvas shows."""
from __future__ import annotations

import random

import pytest

from ansi.canvas import Canvas
from doors._core.conformance import random_playout
from doors._core.door import DOOR_ROWS, RESERVED_KEYS, Submit
from doors.towers import INFO
from doors.towers.rules import TowersState
from doors.towers.view import TowersUI, cell_x, cell_y

from .helpers import PLACEMENTS, move, place, play, position, sq

NAMES = ("Alice", "Bob")


def ui_for(state: TowersState, me=0) -> TowersUI:
    ui = TowersUI(me, NAMES, state.options)
    ui.update(state.observation(me), state.history[-1] if state.history else None, 0.0)
    return ui


def screen(ui: TowersUI) -> list[str]:
    full = Canvas(80, 24)
    ui.draw(full.region(0, 0, 80, DOOR_ROWS), 0.0)
    assert all(not line.strip() for line in full.lines()[DOOR_ROWS:])   # stays in its region
    return full.lines()[:DOOR_ROWS]


def keys(ui: TowersUI, *names: str):
    return [ui.on_key(k, 0.0) for k in names]


def cell_text(ui: TowersUI, name: str) -> str:
    row, col = divmod(sq(name), 8)
    lines = screen(ui)
    return lines[cell_y(row)][cell_x(col):cell_x(col) + 5]


# ----- placement --------------------------------------------------------------
def test_cursor_starts_at_d4_and_arrows_move_it():
    ui = ui_for(TowersState({"first": 0}))
    assert "Cursor: d4" in "\n".join(screen(ui))
    keys(ui, "UP", "UP", "RIGHT")
    assert ui.cursor_sq == sq("e6")
    keys(ui, "LEFT", "LEFT", "LEFT", "LEFT", "LEFT")
    assert ui.cursor_sq == sq("h6")                 # wraps round the edge
    keys(ui, "DOWN")
    assert "Cursor: h5" in "\n".join(screen(ui))


def test_enter_places_a_tower_under_the_cursor():
    state = TowersState({"first": 0})
    ui = ui_for(state)
    keys(ui, "UP")
    assert keys(ui, "ENTER") == [Submit(place("d5"))]
    assert ui.on_key(" ", 0.0) == Submit(place("d5"))


def test_placing_on_a_taken_square_is_refused_locally():
    state = play(TowersState({"first": 0}), "d4", "e5")
    ui = ui_for(state)
    assert keys(ui, "ENTER") == [None]
    assert ui.message == "That square is taken."


def test_not_your_turn_and_spectators_cannot_submit():
    state = TowersState({"first": 1})
    ui = ui_for(state, me=0)
    assert keys(ui, "ENTER") == [None]
    assert "Bob" in ui.message
    watcher = ui_for(state, me=None)
    assert keys(watcher, "ENTER") == [None]
    assert "watching" in watcher.message
    assert "Bob to move." in "\n".join(screen(watcher))


def test_reserved_server_keys_do_nothing():
    state = TowersState({"first": 0})
    ui = ui_for(state)
    before = (ui.cursor_sq, ui.selected, ui.show_lines)
    for key in RESERVED_KEYS:
        assert ui.on_key(key, 0.0) is None
    assert (ui.cursor_sq, ui.selected, ui.show_lines) == before


def test_screen_shows_board_coordinates_names_and_phase():
    state = play(TowersState({"first": 0}), "d4", "e5")
    lines = screen(ui_for(state))
    text = "\n".join(lines)
    assert "a     b     c     d     e     f     g     h" in text
    for row in range(1, 9):
        assert lines[cell_y(row - 1)].lstrip().startswith(str(row))
    assert "Alice (you)" in text and "Bob" in text
    assert "Phase: Placement" in text
    assert "Your turn: place a tower." in text
    assert "to place 7" in text
    assert "Last: e5 (Bob)" in text


def test_towers_are_drawn_and_the_last_move_is_marked():
    state = play(TowersState({"first": 0}), "d4", "e5")
    ui = ui_for(state)
    assert cell_text(ui, "d4") == " ▐█▌ "
    assert cell_text(ui, "e5") == "[«█»]"           # the last move: Bob's, by its shape too
    assert cell_text(ui, "a1") == "     "


# ----- movement -----------------------------------------------------------------
def movement_ui(me=1):
    state = play(TowersState({"first": 0}), *PLACEMENTS)  # player 1 moves first
    return state, ui_for(state, me)


def test_select_then_move_submits_a_move():
    state, ui = movement_ui()
    ui.cursor_sq = sq("a8")
    assert keys(ui, "ENTER") == [None]
    assert ui.selected == sq("a8")
    assert cell_text(ui, "a5").strip() == "•"        # a legal target
    assert keys(ui, "DOWN", "DOWN", "DOWN") == [None] * 3
    assert keys(ui, "ENTER") == [Submit(move("a8-a5"))]


def test_escape_backspace_delete_cancel_a_selection():
    _, ui = movement_ui()
    for cancel in ("ESC", "BACKSPACE", "DELETE"):
        ui.cursor_sq = sq("c8")
        keys(ui, "ENTER")
        assert ui.selected == sq("c8")
        keys(ui, cancel)
        assert ui.selected is None
        assert ui.message == "Selection cancelled."
    keys(ui, "ENTER", "ENTER")                      # Enter on it again also cancels
    assert ui.selected is None


def test_enter_on_a_square_it_cannot_reach_explains_why():
    _, ui = movement_ui()
    ui.cursor_sq = sq("a8")
    keys(ui, "ENTER")
    ui.cursor_sq = sq("b6")
    assert keys(ui, "ENTER") == [None]
    assert ui.message == "Towers move in a straight line, like a rook."
    assert ui.selected == sq("a8")


def test_enter_on_another_own_tower_reselects():
    _, ui = movement_ui()
    ui.cursor_sq = sq("a8")
    keys(ui, "ENTER")
    ui.cursor_sq = sq("b8")
    keys(ui, "ENTER")
    assert ui.selected == sq("b8")


def test_refusals_for_enemy_built_pinned_and_empty_squares():
    state = position("""\
.......A
........
........
........
........
........
B.......
AB.a....""", turn=0)
    ui = ui_for(state, me=0)
    for name, reason in [("b1", "That is Bob's tower."),
                         ("d1", "That tower is built: it cannot move again."),
                         ("a1", "That tower is pinned: it has nowhere to go."),
                         ("e4", "Choose one of your unmoved towers first.")]:
        ui.cursor_sq = sq(name)
        assert keys(ui, "ENTER") == [None]
        assert ui.message == reason
        assert ui.selected is None


def test_selection_clears_when_a_move_arrives():
    state, ui = movement_ui()
    ui.cursor_sq = sq("a8")
    keys(ui, "ENTER")
    state.apply(1, move("a8-a5"))
    ui.update(state.observation(1), state.history[-1], 1.0)
    assert ui.selected is None
    assert cell_text(ui, "a5") == "[«▓»]"           # built (the second side's shape), and the last move
    assert cell_text(ui, "a8").strip() == "∙"       # where it came from
    assert "Phase: Movement" in "\n".join(screen(ui))


def test_end_screen_shows_lines_of_sight_and_the_final_score():
    state = position("""\
........
........
........
........
........
b.b.....
a......a
........""", turn=0)
    ui = ui_for(state, me=1)
    lines = screen(ui)
    text = "\n".join(lines)
    assert "6 pts" in text and "1 pts" in text      # each side's points; the score and result:
    assert "wins" not in text and "6-1" not in text  # the server's rows, said once
    row2 = lines[cell_y(1)]
    assert "─6─" in row2 or "──6" in row2
    assert "─1─" in lines[cell_y(2)]
    keys(ui, "l")
    assert "─6─" not in "\n".join(screen(ui))       # lines can be hidden


def test_lines_key_shows_lines_during_play():
    state = play(TowersState({"first": 0}), "a1", "a8", "h1")
    ui = ui_for(state)
    assert "─" not in screen(ui)[cell_y(0)][cell_x(1):cell_x(7)]
    keys(ui, "l")
    assert "6" in screen(ui)[cell_y(0)][cell_x(1):cell_x(7)]


def test_match_of_two_shows_game_one_with_tab():
    state = random_playout(TowersState({"first": 0, "games": 2}), random.Random(4), max_steps=40)
    assert state.game == 1
    ui = ui_for(state)
    text = "\n".join(screen(ui))
    assert "game 2 of 2" in text and "Game 1:" in text
    keys(ui, "TAB")
    text = "\n".join(screen(ui))
    assert "Game 1's final board" in text
    assert "▓▓▓" in text
    assert keys(ui, "ENTER") == [None]
    keys(ui, "TAB")
    assert "Game 1's final board" not in "\n".join(screen(ui))


def test_tab_in_a_single_game_explains():
    ui = ui_for(TowersState({"first": 0}))
    keys(ui, "TAB")
    assert ui.message == "There is no earlier game to show." and not ui.show_previous


def test_cursor_is_inside_the_region():
    ui = ui_for(TowersState({}))
    x, y = ui.cursor()
    assert 0 <= x < 80 and 0 <= y < DOOR_ROWS


def test_help_text_fits_the_help_screen():
    pages = INFO.help_text.split("\f")
    for page in pages:
        lines = page.rstrip("\n").split("\n")
        assert len(lines) <= 18
        assert all(len(line) <= 78 for line in lines)
    assert "rook" in INFO.help_text


def test_door_info():
    assert INFO.key == "towers" and INFO.title == "Towers"
    assert INFO.state_class is TowersState and INFO.ui_class is TowersUI
    assert INFO.levels == (1, 5) and 1 <= INFO.default_level <= 5
    assert {o.key for o in INFO.options} == {"first", "games"}
    game = INFO.new_game({"first": 1, "games": 2}, random.Random(0))
    assert game.to_move() == (1,) and game.games == 2


def test_waiting_screen_before_the_first_observation():
    ui = TowersUI(0, NAMES, {})
    assert any("Waiting" in line for line in screen(ui))


@pytest.mark.parametrize("name", ["Al\x1b[2Jice", "B" * 40])
def test_names_are_cleaned_and_clipped(name):
    ui = TowersUI(0, (name, "Bob"), {})
    ui.update(TowersState({}), None, 0.0)
    text = "\n".join(screen(ui))
    assert "\x1b" not in text and "B" * 19 not in text


def test_cursor_selection_and_players_are_coloured():
    from ansi.canvas import BLUE, BRIGHT_CYAN, BRIGHT_GREEN, BRIGHT_RED, GREEN, YELLOW
    state, ui = movement_ui()
    ui.cursor_sq = sq("h8")
    keys(ui, "ENTER")                               # select h8 (Bob's: ours)
    keys(ui, "LEFT")                                # cursor on g8 (Bob's too)
    full = Canvas(80, 24)
    ui.draw(full.region(0, 0, 80, DOOR_ROWS), 0.0)
    row, col = divmod(sq("g8"), 8)
    x, y = cell_x(col), cell_y(row)
    assert full.get(x + 2, y).bg == BLUE                     # the cursor square
    assert full.get(x + 2, y).fg == BRIGHT_CYAN              # Bob's tower
    assert full.get(cell_x(0) + 2, cell_y(0)).fg == BRIGHT_RED   # Alice's a1
    assert full.get(x - 1, y).fg in (YELLOW, BRIGHT_GREEN)   # its frame
    hx = cell_x(7)
    assert full.get(hx + 2, y).fg == BRIGHT_CYAN and full.get(hx + 2, y).bg == GREEN
    assert full.get(hx + 5, y).fg == BRIGHT_GREEN            # the selection's frame
