from __future__ import annotations

from ansi import keys
from ansi.canvas import BLUE, YELLOW, Canvas
from ansi.widgets import ChatPane, LineInput, Menu, Pager


def typed(w: LineInput, text: str):
    result = None
    for ch in text:
        result = w.handle(ch)
    return result


def test_line_input_editing():
    w = LineInput(10)
    typed(w, "helo")
    w.handle(keys.LEFT)
    w.handle("l")
    assert (w.text, w.pos) == ("hello", 4)
    w.handle(keys.HOME)
    w.handle(keys.DELETE)
    w.handle(keys.END)
    w.handle(keys.BACKSPACE)
    w.handle(keys.RIGHT)
    assert (w.text, w.pos) == ("ell", 3)
    typed(w, "o world!!!")
    assert w.text == "ello world"                        # max_len 10
    assert w.handle(keys.ENTER) == "ello world" and w.text == ""


def test_delete_at_the_end_of_the_line_is_a_backspace():
    """PuTTY, xterm and Linux telnet send DEL (0x7F) for Backspace: at the
    end of the line it erases the last letter; inside it, the one under the cursor."""
    w = LineInput(10)
    typed(w, "abcd")
    w.handle(keys.DELETE)
    assert (w.text, w.pos) == ("abc", 3)
    w.handle(keys.LEFT)
    w.handle(keys.LEFT)
    w.handle(keys.DELETE)
    assert (w.text, w.pos) == ("ac", 1)
    w = LineInput(10)
    w.handle(keys.DELETE)
    assert (w.text, w.pos) == ("", 0)


def test_line_input_escape_cancels():
    w = LineInput(10, "abc")
    assert w.handle(keys.ESC) is None
    assert w.cancelled and w.text == ""
    w.handle(keys.CTRL_C)
    assert not w.cancelled and w.text == ""


def test_line_input_draws_with_cursor():
    c = Canvas(20, 2)
    w = LineInput(30)
    typed(w, "abcdefghijkl")
    assert w.draw(c, 2, 1, 8) == (9, 1)                   # scrolled: cursor at the end
    assert c.row_text(1) == "  fghijkl" + " " * 11
    assert c.get(9, 1).bg == BLUE
    w.handle(keys.HOME)
    assert w.draw(c, 2, 1, 8) == (2, 1) and c.row_text(1)[2:10] == "abcdefgh"


def test_chat_pane_wraps_and_keeps_newest_at_bottom():
    pane = ChatPane(lines=3)
    pane.add("ann", "hi")
    pane.add("bob", "a fairly long message that wraps")
    pane.add("ann", "bye\x1b[2J")
    c = Canvas(20, 4)
    pane.draw(c)
    assert [line.rstrip() for line in c.lines()] == [
        "ann: hi", "bob: a fairly long", "  message that wraps", "ann: bye?[2J"]
    assert c.get(0, 0).fg == pane.colour("ann") != c.get(6, 0).fg
    pane.add("cy", "four")                                 # ring buffer of 3
    pane.draw(c)
    assert "ann: hi" not in "".join(c.lines()) and c.lines()[-1].startswith("cy: four")


def test_chat_pane_wraps_again_for_a_new_line_or_a_new_width():
    pane = ChatPane(lines=5)
    pane.add("ann", "one two three four")
    wide, narrow = Canvas(30, 3), Canvas(12, 3)
    pane.draw(wide)                     # newest at the bottom: rows left over are above
    assert [line.rstrip() for line in wide.lines()] == ["", "", "ann: one two three four"]
    pane.draw(narrow)
    assert [line.rstrip() for line in narrow.lines()] == ["", "ann: one two", "  three four"]
    pane.add("bob", "hi")
    pane.draw(wide)
    assert [line.rstrip() for line in wide.lines()] == ["", "ann: one two three four", "bob: hi"]
    assert pane.added == 2


def test_chat_pane_pages_back_and_a_reply_does_not_move_the_reader():
    pane = ChatPane(lines=50)
    for n in range(6):
        pane.add("ann", f"line {n}")
    c = Canvas(20, 2)
    pane.draw(c)
    assert [line.rstrip() for line in c.lines()] == ["ann: line 4", "ann: line 5"]
    pane.scroll(1)                                   # one page (two rows) back
    pane.draw(c)
    assert [line.rstrip() for line in c.lines()] == ["ann: line 2", "ann: line 3"] and pane.scrolled
    pane.add("bob", "a reply")                       # arrives while reading back
    pane.draw(c)
    assert [line.rstrip() for line in c.lines()] == ["ann: line 2", "ann: line 3"]
    pane.scroll(10)                                  # never past the oldest
    pane.draw(c)
    assert c.lines()[0].rstrip() == "ann: line 0"
    pane.scroll(-10)                                 # and back to the newest
    pane.draw(c)
    assert c.lines()[-1].rstrip() == "bob: a reply" and not pane.scrolled


def test_shorten_marks_what_it_shortened_and_wrap_breaks_at_spaces():
    from ansi.canvas import shorten, wrap
    assert shorten("Maximilian", 20) == "Maximilian"
    assert shorten("Maximilian Longname1", 12) == "Maximilian …"
    assert len(shorten("x" * 100, 40)) == 40
    assert wrap("If they do not return within 10 minutes, they forfeit.", 30) == [
        "If they do not return within", "10 minutes, they forfeit."]


def test_pager_pages_and_keys():
    text = "\n".join(f"line {i}" for i in range(7)) + "\fsecond part"
    p = Pager(text, 5)
    assert len(p.pages) == 3
    c = Canvas(40, 6)
    p.draw(c)
    assert c.row_text(0).startswith("line 0") and "1/3" in c.row_text(5)
    assert p.handle(" ") and p.page == 1
    p.draw(c)
    assert c.row_text(0).startswith("line 5") and c.row_text(2).strip() == ""
    assert p.handle(keys.PGDN) and p.page == 2
    assert p.handle(keys.BACKSPACE) and p.page == 1
    assert p.handle(keys.ENTER) and p.page == 2
    assert not p.handle(keys.ENTER) and p.done
    q = Pager("x", 5)
    assert not q.handle("q")


def test_menu_lightbar_and_hotkeys():
    m = Menu(["Play", "Watch", ("x", "Exit")])
    c = Canvas(20, 3)
    m.draw(c, 0, 0, 10)
    assert c.get(1, 0).bg == BLUE and c.get(1, 1).bg != BLUE
    assert c.get(1, 1).fg == YELLOW and c.row_text(2).startswith(" Exit")
    assert c.get(2, 2).fg == YELLOW                       # the x of Exit
    assert m.handle(keys.UP) is None and m.selected == 2
    assert m.handle(keys.DOWN) is None and m.selected == 0
    m.handle(keys.DOWN)
    assert m.handle(keys.ENTER) == 1
    assert m.handle("X") == 2 and m.selected == 2
    assert m.handle("z") is None


def test_chat_pane_says_how_many_rows_its_newest_lines_need():
    pane = ChatPane(lines=10)
    assert pane.rows_for(2, 40) == 0                  # nothing yet
    pane.add("Ann", "hi")
    assert pane.rows_for(2, 40) == 1                  # only one line: its rows
    pane.add("Bob", "a reply long enough to wrap onto a second row of forty")
    assert pane.rows_for(1, 40) == 2 and pane.rows_for(2, 40) == 3
    canvas = Canvas(40, 3)
    pane.draw(canvas)                                  # three rows hold both whole
    assert canvas.row_text(0).startswith("Ann: hi") and canvas.row_text(1).startswith("Bob: a reply")
