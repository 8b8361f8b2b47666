"""StrategoUI: setup keys, play keys, reveal, and no leaks on the canvas."""
from __future__ import annotations

import random

from ansi.canvas import Canvas
from ansi.keys import BACKSPACE, DELETE, DOWN, ENTER, ESC, LEFT, RIGHT, UP
from doors._core.door import DOOR_ROWS, RESERVED_KEYS, Request, Submit
from doors.stratego import INFO
from doors.stratego.keys import StrategoUI
from doors.stratego.pieces import Fill, Move, Place, Ready, Remove
from doors.stratego.rules import StrategoState
from doors.stratego.setup import random_fill, setup_to_text

from .helpers import position, sq, started

NAMES = ("alice", "bob")


def seat(state, me, now=0.0):
    ui = StrategoUI(me, NAMES, state.options, rng=random.Random(7))
    ui.update(state.observation(me), None, now)
    return ui


def draw(ui, now=0.0):
    canvas = Canvas(80, 24)
    ui.draw(canvas.region(0, 0, 80, DOOR_ROWS), now)
    return canvas


def press(state, ui, key, now=0.0):
    """Send a key; apply a Submit to the state; refresh the UI."""
    out = ui.on_key(key, now)
    if isinstance(out, Submit):
        state.apply(ui.me, out.action)
        ui.update(state.observation(ui.me), (ui.me, out.action), now)
    return out


def test_info():
    assert INFO.key == "stratego"
    assert INFO.levels == (1, 5) and INFO.default_level == 3
    assert INFO.ui_class is StrategoUI
    for page in INFO.help_text.split("\f"):
        lines = page.split("\n")
        assert len(lines) <= 18 and max(map(len, lines)) <= 78
    assert INFO.resolve_options({}) == {"scout_strike": 2, "two_square": "seed"}


def test_setup_place_keeps_the_cursor_and_counts_drop():
    """The seed's help: arrows move the cursor, a rank key places a piece on
    the square under it. The cursor stays there unless the player asks (A)."""
    s = StrategoState({})
    ui = seat(s, 0)
    assert ui.cur == sq("A4")
    before = draw(ui).lines()
    assert any("A: after placing, cursor stays put" in line for line in before)
    out = press(s, ui, "F")
    assert out == Submit(Place(sq("A4"), "F"))
    assert ui.cur == sq("A4")
    assert ui.obs.remaining(0)["F"] == 0
    after = draw(ui).lines()
    assert before != after
    assert any("Flag" in line and line.rstrip().endswith("0") for line in after)
    assert press(s, ui, "9") is None and "taken" in ui.message     # still on A4
    press(s, ui, RIGHT)
    assert press(s, ui, "F") is None and "No Flag" in ui.message
    press(s, ui, "b")
    assert s.board[sq("B4")].rank == "B" and ui.cur == sq("B4")


def test_setup_auto_step_is_a_switch():
    s = StrategoState({})
    ui = seat(s, 0)
    assert press(s, ui, "A") is None and "next empty square" in ui.message
    assert any("cursor steps on" in line for line in draw(ui).lines())
    press(s, ui, "F")
    assert ui.cur == sq("B4")
    ui.cur = sq("D4")
    press(s, ui, "9")                  # the cursor steps on to E4
    press(s, ui, LEFT)
    press(s, ui, LEFT)
    press(s, ui, "b")                  # on C4; D4 is taken: it steps over it to E4
    assert s.board[sq("C4")].rank == "B" and ui.cur == sq("E4")
    assert press(s, ui, "a") is None and "stays" in ui.message
    press(s, ui, "9")
    assert s.board[sq("E4")].rank == "9" and ui.cur == sq("E4")
    # arrows stay within the own rows
    for _ in range(6):
        press(s, ui, UP)
    assert ui.cur // 10 == 3
    for _ in range(6):
        press(s, ui, DOWN)
    assert ui.cur // 10 == 0
    ui.cur = sq("A4")
    assert press(s, ui, "9") is None and "taken" in ui.message
    assert press(s, ui, DELETE) == Submit(Remove(sq("A4")))
    assert s.board[sq("A4")] is None


def test_player2_view_and_rows():
    s = StrategoState({})
    ui = seat(s, 1)
    assert ui.cur == sq("A7")
    press(s, ui, UP)
    assert ui.cur == sq("A7")       # row 7 is the top of blue's own rows
    press(s, ui, DOWN)
    assert ui.cur == sq("A8")
    press(s, ui, RIGHT)
    assert ui.cur == sq("B8")
    canvas = draw(ui)
    rows = [canvas.row_text(y)[:2] for y in range(2, 12)]
    assert rows[0].strip() == "1" and rows[-1].strip() == "10"
    red = draw(seat(s, 0))
    rows = [red.row_text(y)[:2] for y in range(2, 12)]
    assert rows[0].strip() == "10" and rows[-1].strip() == "1"


def test_random_fill_and_ready():
    s = StrategoState({})
    ui = seat(s, 0)
    press(s, ui, "F")
    assert press(s, ui, ENTER) is None and "left" in ui.message
    out = press(s, ui, "R")
    assert isinstance(out.action, Fill)
    assert s.board[sq("A4")].rank == "F"
    assert sum(s.remaining(0).values()) == 0
    assert press(s, ui, ENTER) is None and ui.mode == "ready"
    assert press(s, ui, "n") is None and ui.mode is None
    press(s, ui, ENTER)
    assert press(s, ui, "y") == Submit(Ready())
    assert s.ready[0]
    assert press(s, ui, "9") is None and "waiting" in ui.message


def test_save_and_load_setup():
    s = StrategoState({})
    ui = seat(s, 1)
    assert press(s, ui, "W") is None and "40" in ui.message
    press(s, ui, "R")
    press(s, ui, "W")
    for k in "mine":
        press(s, ui, k)
    press(s, ui, BACKSPACE)
    press(s, ui, "e")
    out = press(s, ui, ENTER)
    assert isinstance(out, Request) and out.kind == "save_setup"
    name, text = out.name, out.text
    assert name == "mine" and text == setup_to_text(1, ui.own_placements())
    # load it as red
    red = seat(s, 0)
    assert press(s, red, "L") is None and "No saved" in red.message
    red.saved_setups = ["other", "mine"]
    press(s, red, "L")
    press(s, red, DOWN)
    assert draw(red).lines()
    out = press(s, red, ENTER)
    assert out == Request("load_setup", "mine")
    sub = red.setup_loaded("mine", text)
    assert isinstance(sub, Submit)
    s.apply(0, sub.action)
    # the same relative setup: red's back row (1) equals blue's back row (10)
    assert [s.board[c].rank for c in range(10)] == [s.board[90 + c].rank for c in range(10)]
    assert red.setup_loaded("bad", "nonsense") is None and "not valid" in red.message
    press(s, red, "L")
    assert press(s, red, ESC) is None and red.mode is None


def test_play_select_and_move():
    s = started(3)
    red = seat(s, 0)
    # find a movable red piece with a legal move
    mv = s.legal_actions(0)[0]
    red.cur = mv.frm
    assert press(s, red, ENTER) is None and red.selected == mv.frm
    press(s, red, DELETE)
    assert red.selected is None
    press(s, red, ENTER)
    red.cur = mv.to
    out = press(s, red, ENTER)
    assert out == Submit(mv)
    assert red.selected is None
    # not red's turn any more
    red.cur = s.legal_actions(1)[0].frm        # a blue piece
    assert press(s, red, ENTER) is None and "enemy piece" in red.message
    red.cur = mv.to                            # the red piece just moved
    assert press(s, red, ENTER) is None and "not your turn" in red.message
    press(s, red, "h")
    assert red.cur in (sq("E5"), sq("E6"))


def test_play_refusals_have_reasons():
    s = position({"A1": (0, "F"), "B1": (0, "B"), "E4": (0, "5"), "J10": (1, "F"),
                  "D4": (0, "9")})
    ui = seat(s, 0)
    ui.cur = sq("B1")
    press(s, ui, ENTER)
    assert ui.message == "That is a Bomb: bombs never move. Choose another piece."
    assert ui.selected is None
    ui.cur = sq("E4")
    press(s, ui, ENTER)
    ui.cur = sq("F5")
    assert press(s, ui, ENTER) is None
    assert ui.message == "Pieces move one square, never diagonally."
    ui.cur = sq("D4")         # reselect another own piece
    press(s, ui, ENTER)
    assert ui.selected == sq("D4")
    ui.cur = sq("D5")
    assert press(s, ui, ENTER) is None and ui.message == "That square is in a lake."


def test_enter_on_what_cannot_move_says_why():
    """Issue 16.9: a Bomb, the Flag, a lake, an empty square or an enemy
    piece under the cursor: ENTER says why nothing is selected, in the
    player's turn or not."""
    s = position({"A1": (0, "F"), "B1": (0, "B"), "E4": (0, "5"), "J10": (1, "F"),
                  "E7": (1, "3")})
    for turn in (0, 1):
        if turn:
            s.apply(0, Move(sq("E4"), sq("E5")))
        ui = seat(s, 0)
        expected = {"B1": "Bomb: bombs never move", "A1": "Flag: the flag never moves",
                    "C5": "lake", "D6": "lake", "F2": "empty", "E7": "enemy piece"}
        for name, words in expected.items():
            ui.cur = sq(name)
            assert press(s, ui, ENTER) is None
            assert words in ui.message and ui.selected is None, (turn, name, ui.message)
    ui.cur = sq("E5")                       # own piece, not red's turn
    press(s, ui, ENTER)
    assert ui.message == "It is not your turn."


def test_selecting_a_piece_names_it_and_the_next_step():
    s = position({"A1": (0, "F"), "E4": (0, "5"), "J10": (1, "F")})
    ui = seat(s, 0)
    ui.cur = sq("E4")
    press(s, ui, ENTER)
    assert ui.selected == sq("E4") and ui.message.startswith("Captain selected")


def test_strike_reveal_then_resolved():
    s = position({"A1": (0, "F"), "J10": (1, "F"), "E4": (0, "5"), "E5": (1, "7"),
                  "A2": (0, "9"), "J9": (1, "9")})
    red, blue = seat(s, 0), seat(s, 1)
    s.apply(0, Move(sq("E4"), sq("E5")))
    for ui in (red, blue):
        ui.update(s.observation(ui.me), (0, Move(sq("E4"), sq("E5"))), 10.0)
        assert ui.frame_due(10.0) == 10.0 + StrategoUI.REVEAL_SECONDS
        text = "\n".join(draw(ui, 10.5).lines())
        assert "STRIKE!" in text and "Sergeant" in text
    blue.cur = sq("J9")
    assert press(s, blue, ENTER, now=10.5) is None and "strike" in blue.message
    assert blue.frame_due(13.5) is None
    late = "\n".join(draw(blue, 13.5).lines())
    assert "STRIKE!" not in late and "Last strike" in late


def test_reserved_keys_not_used():
    s = StrategoState({})
    ui = seat(s, 0)
    for key in RESERVED_KEYS:
        assert ui.on_key(key, 0.0) is None


def test_spectator_draws_and_ignores_action_keys():
    s = started(2)
    ui = seat(s, None)
    assert ui.on_key(ENTER, 0.0) is None
    draw(ui)


def test_update_drops_opponent_setup_actions():
    s = StrategoState({})
    ui = seat(s, 1)
    s.apply(0, Place(sq("A1"), "F"))
    ui.update(s.observation(1), (0, Place(sq("A1"), "F")), 0.0)
    assert ui.last is None


def test_hidden_pieces_identical_on_screen():
    """Through scripted random games, each player's canvas is the same as the
    one a twin game would give whose unrevealed enemy ranks are permuted."""
    from .test_props import scramble
    for seed in range(3):
        state = started(seed, scout_strike=1 + seed % 2)
        rng = random.Random(seed)
        twin_rng = random.Random(seed + 50)
        uis = {v: (StrategoUI(v, NAMES, state.options, rng=random.Random(1)),
                   StrategoUI(v, NAMES, state.options, rng=random.Random(1)))
               for v in (0, 1, None)}
        now = 0.0
        for i in range(70):
            if state.outcome() is not None:
                break   # the end reveals everything
            for v, (ui, ui_twin) in uis.items():
                sides = {0, 1} if v is None else {1 - v}
                twin = scramble(state, sides, twin_rng)
                last = state.history[-1] if state.history else None
                ui.update(state.observation(v), last, now)
                ui_twin.update(twin.observation(v), last, now)
                for t in (now + 1.0, now + 3.5):
                    assert draw(ui, t).cells == draw(ui_twin, t).cells
                key = [LEFT, UP, ENTER, RIGHT, DOWN, ENTER, "h"][i % 7]
                assert ui.on_key(key, now) == ui_twin.on_key(key, now)
            player = state.to_move()[0]
            state.apply(player, rng.choice(state.legal_actions(player)))
            now += 2.0


def test_setup_canvases_hide_opponent_ranks():
    rng = random.Random(5)
    fill_a = random_fill(1, (), rng)
    ranks = [r for _, r in fill_a.placements]
    random.Random(6).shuffle(ranks)
    fill_b = Fill(tuple(zip([s for s, _ in fill_a.placements], ranks, strict=True)))
    canv = []
    for fill in (fill_a, fill_b):
        s = StrategoState({})
        s.apply(1, fill)
        ui = seat(s, 0)
        canv.append(draw(ui))
    assert canv[0] == canv[1]
