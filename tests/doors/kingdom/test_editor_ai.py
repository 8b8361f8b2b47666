"""The board editor and the bots."""
from __future__ import annotations

import random

import pytest

from ansi.canvas import Canvas
from ansi.keys import BACKSPACE, DOWN, ENTER, ESC, LEFT, UP
from doors.kingdom.ai import evaluate, make_bot
from doors.kingdom.boards import load_board
from doors.kingdom.editor import BoardEditor
from doors.kingdom.position import PASS, parse_square
from doors.kingdom.rules import KingdomState

from .helpers import make


def keys(ed, *ks):
    out = None
    for k in ks:
        out = ed.on_key(k)
    return out


def test_editor_places_clears_checks_and_saves(tmp_path):
    ed = BoardEditor(directory=tmp_path)
    assert ed.cur == parse_square("j10")
    keys(ed, "#", UP, "Q", LEFT, "p", DOWN, DOWN, "o")
    assert ed.board[parse_square("j10")] == 8 and ed.board[parse_square("j11")] == 2
    assert ed.board[parse_square("i11")] == 7 | 16 and ed.board[parse_square("i9")] == 8
    keys(ed, BACKSPACE)
    assert ed.board[parse_square("i9")] == 0
    ed.cur = parse_square("c3")
    keys(ed, "N", "m")                  # ranks 1-9 copied onto 19-11 for player 2
    assert ed.board[parse_square("c17")] == 4 | 16 and ed.board[parse_square("j19")] == 1 | 16
    assert ed.board[parse_square("i11")] == 0           # overwritten by i9 (empty)
    keys(ed, "v")
    assert "playable" in ed.message
    assert keys(ed, "s", *"my_board", ENTER) == "saved"
    spec = load_board("my_board", tmp_path)
    assert list(spec.board) == ed.board and (tmp_path / "my_board.txt").exists()
    canvas = Canvas(80, 24)
    ed.draw(canvas)
    assert "EDITOR" in "\n".join(canvas.lines())


def test_editor_refuses_bad_boards_and_names(tmp_path):
    (tmp_path / "taken.txt").write_text("x")
    ed = BoardEditor(directory=tmp_path)
    ed.cur = parse_square("j1")
    keys(ed, " ")                                           # no player 1 king
    assert keys(ed, "s") is None and "no king" in ed.message and not ed.naming
    keys(ed, "K", "s")
    assert ed.naming
    assert keys(ed, *"taken", ENTER) is None and "already" in ed.message
    with pytest.raises(ValueError):
        ed.save(tmp_path, "Bad Name")
    keys(ed, ESC)
    assert not ed.naming
    ed.cur = parse_square("c19")
    keys(ed, "P")                                           # pawn on promotion rank
    with pytest.raises(ValueError, match="promotion"):
        ed.save(tmp_path, "fresh")


def test_editor_starts_from_a_layout_and_escape_needs_confirmation(tmp_path):
    layout = load_board("skirmish").layout
    ed = BoardEditor(layout, tmp_path)
    assert tuple(ed.board) == load_board("skirmish").board
    assert keys(ed, ESC) == "cancel"                        # nothing changed
    keys(ed, "#")
    assert keys(ed, ESC) is None and keys(ed, ESC) == "cancel"


def test_bot_takes_a_free_king_and_queen():
    s = make({"e1": "K", "e10": "Q", "e15": "k", "h14": "#"})
    assert make_bot(3, 1).choose(s.clone(), 0) == s.parse_action("e10-e15")
    s = make({"a1": "K", "c3": "B", "h8": "q", "s19": "k"})
    assert s.action_to_str(make_bot(3, 1).choose(s.clone(), 0)) == "c3-h8"


def test_bot_is_deterministic_and_legal_at_every_level():
    s = KingdomState({"board": "skirmish"})
    for level in range(1, 6):
        a = make_bot(level, 7).choose(s.clone(), 0)
        b = make_bot(level, 7).choose(s.clone(), 0)
        assert a == b and a in s.legal_actions()


def test_bot_beats_random_quickly():
    rng = random.Random(3)
    s = KingdomState({"board": "skirmish"})
    bot = make_bot(2, 3)
    for _ in range(300):
        if s.is_terminal():
            break
        p = s.current_player()
        if p == 0:
            mv = bot.choose(s.observation(p), p)
        else:
            mv = rng.choice([m for m in s.legal_actions() if m != PASS])
        s.apply(p, mv)
    assert s.outcome() is not None and s.outcome().winner == 0


def test_evaluate_is_symmetric_on_symmetric_boards():
    s = KingdomState({})
    t = s.clone()
    t.apply(0, PASS)
    assert evaluate(s.pos) == evaluate(t.pos) == 0


def test_time_cap_is_a_backstop_that_still_gives_a_legal_move():
    s = KingdomState({"board": "skirmish"})
    bot = make_bot(5, 7)
    bot.max_time = 0.0                  # out of time at the first look at the clock
    mv = bot.choose(s.clone(), 0)
    assert bot.timed_out and mv in s.legal_actions()
    bot = make_bot(2, 7)                # a small node budget runs out first
    bot.choose(s.clone(), 0)
    assert not bot.timed_out
