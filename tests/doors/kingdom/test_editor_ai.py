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


def choose(ed, name):
    """l, then DOWN to ``name`` in the list, ENTER."""
    keys(ed, "l")
    assert ed.choosing is not None and name in ed.choosing
    keys(ed, *[DOWN] * ed.choosing.index(name), ENTER)


def test_editor_loads_a_shipped_board_and_saves_the_change_under_a_new_name(tmp_path):
    from doors.kingdom import boards
    ed = BoardEditor(directory=tmp_path)    # saves into the saved-boards folder
    choose(ed, "fortress")
    assert tuple(ed.board) == load_board("fortress").board and ed.opened == "fortress"
    assert "new name" in ed.message
    empty = next(sq for sq in range(parse_square("a10"), parse_square("s10") + 1) if not ed.board[sq])
    ed.cur = empty
    keys(ed, "#", "s")
    assert ed.naming and ed.name == ""                      # a shipped board: no name offered
    assert keys(ed, *"fortress", ENTER) is None and "comes with Gatehouse" in ed.message
    assert keys(ed, *[BACKSPACE] * 8, *"fort2", ENTER) == "saved"
    spec = load_board("fort2", tmp_path)
    assert spec.board[empty] == 8 and spec.board != load_board("fortress").board
    assert boards.list_boards(tmp_path) == ["default", "fort2", "fortress", "skirmish"]
    assert boards.list_boards() == ["default", "fortress", "skirmish"]     # shipped ones alone
    assert load_board("fortress").board == boards.parse_board(
        boards.SHIPPED.joinpath("fortress.txt").read_text(), "f").board   # untouched


def test_editor_loads_a_saved_board_and_saves_it_again_in_place(tmp_path):
    from doors.kingdom import boards
    (tmp_path / "mine.txt").write_text(boards.format_board(load_board("skirmish").board,
                                                           "Mine: a skirmish"))
    (tmp_path / "other.txt").write_text(boards.format_board(load_board("default").board, "Other"))
    ed = BoardEditor(directory=tmp_path)
    choose(ed, "mine")
    assert "s saves it again" in ed.message
    empty = next(sq for sq in range(parse_square("a10"), parse_square("s10") + 1) if not ed.board[sq])
    ed.cur = empty
    keys(ed, "#", "s")
    assert ed.name == "mine"                                # its own name is offered
    assert keys(ed, ENTER) == "saved"
    again = load_board("mine", tmp_path)
    assert again.board[empty] == 8 and again.title == "Mine: a skirmish"
    # another board's name is still refused
    keys(ed, "s", *[BACKSPACE] * 4, *"other", ENTER)
    assert "already" in ed.message and load_board("other", tmp_path).title == "Other"


def test_editor_board_list_can_be_left_and_draws(tmp_path):
    ed = BoardEditor(directory=tmp_path)
    keys(ed, "l")
    canvas = Canvas(80, 24)
    ed.draw(canvas)
    text = "\n".join(canvas.lines())
    assert "Open which board?" in text and "default" in text and "shipped" in text
    keys(ed, ESC)
    assert ed.choosing is None and ed.message == "Nothing opened."
    assert keys(ed, ESC) == "cancel"


def test_a_caller_saves_over_only_their_own_boards_and_keeps_a_bounded_number(tmp_path):
    from doors.kingdom import boards, editor
    (tmp_path / "sysop.txt").write_text("; the sysop's own\n" + boards.format_board(
        load_board("skirmish").board, "Sysop's"))
    ann = BoardEditor(author="Ann", directory=tmp_path)
    assert keys(ann, "s", *"annsboard", ENTER) == "saved"
    assert editor.board_author(tmp_path / "annsboard.txt") == "Ann"
    for name in ("sysop", "annsboard"):
        bob = BoardEditor(author="Bob", directory=tmp_path)
        choose(bob, name)
        assert "not yours" in bob.message
        keys(bob, "s")
        assert bob.naming and bob.name == ""                # no name offered
        assert keys(bob, *name, ENTER) is None and "already" in bob.message
        with pytest.raises(ValueError, match="not yours"):  # nor by the back door
            bob.save(tmp_path, name, replace=True)
    assert (tmp_path / "sysop.txt").read_text().startswith("; the sysop's own")
    again = BoardEditor(author="ann", directory=tmp_path)   # Ann again (any case): hers
    choose(again, "annsboard")
    keys(again, "#", "s")
    assert again.name == "annsboard" and keys(again, ENTER) == "saved"
    sysop = BoardEditor(directory=tmp_path)                 # the sysop may replace any saved board
    choose(sysop, "annsboard")
    keys(sysop, "s")
    assert sysop.name == "annsboard" and keys(sysop, ENTER) == "saved"
    assert editor.board_author(tmp_path / "annsboard.txt") is None
    for n in range(editor.MAX_PER_CALLER):
        assert keys(BoardEditor(author="Cy", directory=tmp_path), "s", *f"cy{n}", ENTER) == "saved"
    full = BoardEditor(author="Cy", directory=tmp_path)
    assert keys(full, "s", *"cy-more", ENTER) is None
    assert full.message.startswith(f"You have {editor.MAX_PER_CALLER} boards saved")
    assert not (tmp_path / "cy-more.txt").exists()
    keys(full, ESC)                                         # leave the name prompt
    choose(full, "cy3")                                     # one of theirs may still be saved over
    keys(full, "#", "s")
    assert keys(full, ENTER) == "saved"
