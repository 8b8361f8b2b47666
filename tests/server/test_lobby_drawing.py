"""The lobby's minute is drawn from its kept drawing and from rows other
lobbies drew (``_BOXES``): what the caller sees is exactly a fresh drawing."""
from __future__ import annotations

from ansi.canvas import GREY, YELLOW, Canvas
from ansi.widgets import ChatPane
from server.screens import lobby as L


def screen() -> L.LobbyScreen:
    shown = object.__new__(L.LobbyScreen)       # its drawing only: no session needed
    shown.chat = ChatPane(20)
    return shown


def parts(header: str, who: tuple[tuple[str, int], ...], online: int) -> L.Backdrop:
    return L.Backdrop(header, who, online, "", False, (), (), (0, 0))


def fresh(p: L.Backdrop) -> Canvas:
    L._BOXES.clear()
    canvas = Canvas()
    screen()._draw_backdrop(canvas, p)
    return canvas


def test_a_minute_later_the_kept_drawing_shows_what_a_fresh_one_does():
    who = (("  1 alice   lobby   -  0m", GREY), ("  2 bob     lobby   -  3m", YELLOW))
    later_who = (("  1 alice   lobby   -  1m", GREY), ("  2 bob     lobby   -  4m", YELLOW))
    before = parts("bob · node 2 · 12:59", who, 2)
    cases = [parts("bob · node 2 · 13:00", later_who, 2),        # the clock and the idle times
             parts("bob · node 2 · 13:00", later_who, 9000),     # and how many are on
             parts("bobby · node 2 · 13:00", who, 2)]            # a new header (renamed)
    for after in cases:
        first = Canvas()
        lobby = screen()
        lobby._draw_backdrop(first, before)
        redrawn = Canvas()
        redrawn.restore(first.snapshot())
        lobby._draw_backdrop(redrawn, after, before)
        assert redrawn.lines() == fresh(after).lines()
        assert redrawn.cells == fresh(after).cells                # colours too


def test_lobbies_showing_the_same_who_list_share_its_rows():
    who = (("  1 alice   lobby   -  0m", GREY),)
    L._BOXES.clear()
    one, two = Canvas(), Canvas()
    screen()._draw_backdrop(one, parts("carol · node 7 · 13:00", who, 5000))
    screen()._draw_backdrop(two, parts("dave · node 8 · 13:00", who, 5000))
    assert len(L._BOXES) == 1                                     # drawn once
    assert two.cells == fresh(parts("dave · node 8 · 13:00", who, 5000)).cells
    assert "and 4992 more" in two.row_text(11)
    assert "dave" in two.row_text(0) and "carol" in one.row_text(0)
