"""Stone Towers screen and keys."""
from __future__ import annotations

from ansi.canvas import GREY, YELLOW, Canvas
from ansi.keys import DOWN, ENTER, LEFT, RIGHT, UP
from doors._core.door import DOOR_ROWS, RESERVED_KEYS, Submit
from doors.stone_towers import INFO
from doors.stone_towers.keys import CENTRE_KEYS, OVERLAY_KEY
from doors.stone_towers.rules import BLUE, PASS, RED, Board, StoneTowersState, parse_square
from doors.stone_towers.view import BOARD_X, STEP_SECONDS, StoneTowersUI

from .test_rules import state_with


def screen(ui: StoneTowersUI, now: float = 100.0) -> Canvas:
    canvas = Canvas(80, 24)
    ui.draw(canvas.region(0, 0, 80, DOOR_ROWS), now)
    return canvas


def text(canvas: Canvas) -> str:
    return "\n".join(canvas.lines())


def new_ui(state: StoneTowersState, me=RED, names=("alice", "bob")) -> StoneTowersUI:
    ui = INFO.ui_class(me, names, state.options)
    ui.update(state.clone(), None, 0.0)
    return ui


def cell(ui: StoneTowersUI, canvas: Canvas, name: str, size: int):
    y, x = divmod(parse_square(size, name), size)
    return [canvas.get(BOARD_X + 3 * x + i, 1 + y) for i in range(3)]


def test_info():
    assert INFO.key == "stone_towers" and INFO.ui_class is StoneTowersUI
    assert INFO.levels == (1, 3) and INFO.default_level == 2
    assert INFO.resolve_options({}) == {"size": 9, "turns": 20}
    for page in INFO.help_text.split("\f"):
        lines = page.strip("\n").split("\n")
        assert len(lines) <= 18 and max(map(len, lines)) <= 78
    assert OVERLAY_KEY not in RESERVED_KEYS
    assert not set(CENTRE_KEYS) & RESERVED_KEYS


def test_keys_move_and_submit():
    s = StoneTowersState({"size": 9, "turns": 5})
    ui = new_ui(s)
    assert (ui.cx, ui.cy) == (4, 4)
    for key in (UP, UP, LEFT):
        assert ui.on_key(key, 1.0) is None
    assert ui.on_key(ENTER, 1.0) == Submit(parse_square(9, "d3"))
    for _ in range(20):
        ui.on_key(RIGHT, 1.0)
        ui.on_key(DOWN, 1.0)
    assert (ui.cx, ui.cy) == (8, 8)                   # clamped at the edge
    ui.on_key("h", 1.0)
    assert (ui.cx, ui.cy) == (4, 4)


def test_refusal_reasons_on_status_line():
    s = StoneTowersState({"size": 5, "turns": 5})
    s.apply(RED, parse_square(5, "c3"))
    ui = new_ui(s, me=BLUE)
    assert ui.on_key(ENTER, 1.0) is None
    assert ui.message == "That is red's land."
    red_ui = new_ui(s, me=RED)
    assert red_ui.on_key(ENTER, 1.0) is None
    assert red_ui.message == "It is not your turn."
    full = state_with([". . . . .", ". . . . .", ". . R3 . .", ". . . . .", ". . . . ."], ply=0)
    ui = new_ui(full, me=RED)
    assert ui.on_key(ENTER, 1.0) is None
    assert ui.message == "That castle already has three flags."
    watcher = new_ui(s, me=None)
    assert watcher.on_key(ENTER, 1.0) is None and "watching" in watcher.message


def test_forced_pass_submitted_by_enter():
    board = Board.from_rows(["R3 R3 R3 R3 R3"] * 5)
    s = StoneTowersState({"size": 5, "turns": 5})
    s.board = board
    ui = new_ui(s, me=RED)
    assert s.legal_actions(RED) == [PASS]
    ui.update(s.clone(), None, 1.0)
    assert "ENTER passes" in ui.message
    assert ui.on_key(ENTER, 1.0) == Submit(PASS)


def test_panel_names_counts_turns():
    s = StoneTowersState({"size": 15, "turns": 20})
    s.apply(RED, parse_square(15, "h8"))
    ui = new_ui(s, me=BLUE, names=("al\x1b[2Jice", "bob"))
    out = text(screen(ui))
    assert "\x1b" not in out
    assert "al?[2Jice" in out and "bob (you)" in out
    assert "5 squares  19 turns left" in out
    assert "0 squares  20 turns left" in out
    assert "Your turn (blue)." in out
    assert " o" in out.split("\n")[0] and out.split("\n")[15].startswith("15")


def test_castle_strengths_look_different():
    s = state_with([". . . . .", "R1 . R2 . R3", ". . . . .", "b . . . .", ". . . . ."])
    ui = new_ui(s)
    c = screen(ui)
    glyphs = {name: "".join(x.char for x in cell(ui, c, name, 5)) for name in ("a2", "c2", "e2", "a4", "b4")}
    assert len({glyphs["a2"], glyphs["c2"], glyphs["e2"]}) == 3
    assert glyphs["a4"] == " b " and glyphs["b4"] == " · "     # blue land, marked as blue's; free land
    assert cell(ui, c, "a4", 5)[1].bg != cell(ui, c, "b4", 5)[1].bg   # blue land vs nothing


def test_overlay_cycles_cursor_all_off():
    s = state_with(["R1 . . . .", ". . . . .", ". . B2 . .", ". . . . .", ". . . . ."], ply=0)
    ui = new_ui(s)
    ui.cx, ui.cy = 2, 1                                # c2: red 0, blue 2
    assert "Influence" not in text(screen(ui))
    ui.on_key(OVERLAY_KEY, 1.0)
    out = text(screen(ui))
    assert "Influence on c2:" in out and "red 0" in out and "blue 2" in out
    ui.on_key(OVERLAY_KEY, 1.0)
    c = screen(ui)
    assert "".join(x.char for x in cell(ui, c, "c3", 5))[1:] == "02"
    assert "".join(x.char for x in cell(ui, c, "a1", 5))[1:] == "10"
    ui.on_key(OVERLAY_KEY, 1.0)
    assert "Influence" not in text(screen(ui))


def domino_state() -> StoneTowersState:
    s = state_with([
        ". B1 B1 B2 .",
        "B1 R1 R1 R1 r",
        ". . B2 . .",
        ". . . . .",
        ". . . . .",
    ])
    s.board.settle(range(25))
    return s


def test_cascade_animated_step_by_step_and_marked():
    s = domino_state()
    ui = new_ui(s, me=RED)
    a2 = parse_square(5, "a2")
    s.apply(BLUE, a2)
    ui.update(s.clone(), (BLUE, a2), 10.0)
    assert ui.message == "blue fortified a2: took 3 squares, 3 castles destroyed."
    # step 0: the fortified castle, the chain still standing
    c = screen(ui, 10.1)
    assert "".join(x.char for x in cell(ui, c, "b2", 5)) == " ▲ "
    assert "Step: the castle" in text(c)
    assert ui.frame_due(10.1) == 10.0 + STEP_SECONDS
    # round 1: b2 destroyed, c2 still a castle
    c = screen(ui, 10.0 + 1.1 * STEP_SECONDS)
    assert cell(ui, c, "b2", 5)[1].char == "☼"
    assert "".join(x.char for x in cell(ui, c, "c2", 5)) == " ▲ "
    assert "Round 1: 1 square, 1 castle" in text(c)
    c = screen(ui, 10.0 + 2.1 * STEP_SECONDS)
    assert cell(ui, c, "c2", 5)[1].char == "☼" and "Round 2" in text(c)
    # afterwards: all three destroyed castles marked, no more frames
    c = screen(ui, 20.0)
    assert [cell(ui, c, n, 5)[1].char for n in ("b2", "c2", "d2")] == ["☼"] * 3
    assert cell(ui, c, "b2", 5)[1].fg == YELLOW
    assert ui.frame_due(20.0) is None


def test_any_key_skips_the_replay():
    s = domino_state()
    ui = new_ui(s, me=RED)
    a2 = parse_square(5, "a2")
    s.apply(BLUE, a2)
    ui.update(s.clone(), (BLUE, a2), 10.0)
    cursor = (ui.cx, ui.cy)
    assert ui.on_key(UP, 10.1) is None
    assert (ui.cx, ui.cy) == cursor                   # the key only skipped
    assert ui.frame_due(10.1) is None
    assert [cell(ui, screen(ui, 10.2), n, 5)[1].char for n in ("b2", "c2", "d2")] == ["☼"] * 3


def test_gained_squares_marked_after_build():
    s = StoneTowersState({"size": 5, "turns": 5})
    ui = new_ui(s, me=BLUE)
    s.apply(RED, parse_square(5, "c3"))
    ui.update(s.clone(), (RED, 12), 5.0)
    c = screen(ui, 50.0)
    assert cell(ui, c, "c3", 5)[1].bg == GREY         # the cursor
    ui.on_key(LEFT, 50.0)
    c = screen(ui, 50.0)
    assert cell(ui, c, "c2", 5)[1].char == "•"
    assert cell(ui, c, "c3", 5)[1].fg == YELLOW
    assert ui.message == "red built at c3: took 5 squares."
    assert ui.cursor() == (BOARD_X + 3 * 1 + 1, 3)


def test_no_escape_codes_fits_region_every_size():
    for size in (5, 9, 15):
        s = StoneTowersState({"size": size, "turns": 5})
        ui = new_ui(s)
        big = Canvas(80, 24)
        ui.draw(big.region(0, 0, 80, DOOR_ROWS), 1.0)
        assert all(line.strip() == "" for line in big.lines()[DOOR_ROWS:])
        assert all(ch.char.isprintable() for ch in big)


def test_the_sides_differ_by_shape_not_only_colour_and_the_cursor_is_read_out():
    s = state_with([". . . . .", "R2 . B2 . .", ". . . . .", "r . b . .", ". . . . ."])
    ui = new_ui(s)
    c = screen(ui)
    glyphs = {name: "".join(x.char for x in cell(ui, c, name, 5)) for name in ("a2", "c2", "a4", "c4")}
    assert glyphs["a2"] == "▲ ▲" and glyphs["c2"] == "▼ ▼"       # red castles up, blue down
    assert glyphs["a4"] == " r " and glyphs["c4"] == " b "
    ui.cx, ui.cy = 2, 1
    c = screen(ui)
    text = "\n".join("".join(x.char for x in c.row_cells(y)) for y in range(20))
    assert "Cursor c2: blue castle 2" in text
