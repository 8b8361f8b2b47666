"""The canvas's snapshots: what a screen keeps of its drawing between frames."""
from __future__ import annotations

import pytest

from ansi.canvas import BLUE, YELLOW, Canvas, cell, shared_row


def test_snapshot_and_restore_give_back_every_cell():
    c = Canvas(20, 4)
    c.box(0, 0, 20, 4, YELLOW, title="Who")
    c.text(2, 1, "Alice", YELLOW, BLUE)
    kept = c.snapshot()
    c.clear()
    c.text(0, 3, "scribbled over")
    c.restore(kept)
    assert c.lines()[1].startswith("│ Alice")
    assert c.get(2, 1).bg == BLUE and c.get(0, 3).char == "└"


def test_snapshots_of_the_same_drawing_share_their_rows():
    """Two thousand callers on one lobby keep one copy of each row they share."""
    a, b = Canvas(20, 3), Canvas(20, 3)
    for c, name in ((a, "Alice"), (b, "Bob")):
        c.text(0, 0, "GATEHOUSE")
        c.text(0, 1, name)
    sa, sb = a.snapshot(), b.snapshot()
    assert sa[0] is sb[0] and sa[2] is sb[2]
    assert sa[1] != sb[1]


def test_a_region_has_no_snapshot_and_a_snapshot_fits_only_its_size():
    whole = Canvas(20, 4)
    with pytest.raises(ValueError):
        whole.region(2, 1, 10, 2).snapshot()
    assert not Canvas(10, 4).fits(whole.snapshot())
    with pytest.raises(ValueError):
        Canvas(10, 4).restore(whole.snapshot())
    assert whole.whole and not whole.region(2, 1, 10, 2).whole


def test_a_restored_row_is_known_until_something_is_drawn_on_it():
    """What lets a renderer skip rows it sent last time without comparing them."""
    c = Canvas(20, 4)
    c.text(0, 0, "GATEHOUSE")
    kept = c.snapshot()
    fresh = Canvas(20, 4)
    fresh.restore(kept)
    assert all(row is kept[y] for y, row in enumerate(fresh.kept_rows()))
    fresh.text(0, 3, "Say:")
    fresh.region(5, 1, 10, 1).put(0, 0, "x")
    fresh.fill(0, 2, 1, 1, "#")
    assert fresh.kept_rows()[0] is kept[0]
    assert fresh.kept_rows()[1:] == [None, None, None]
    assert fresh.region(0, 0, 20, 2).kept_rows() == [None, None]     # (a region view: none)
    assert Canvas(20, 4).kept_rows() == [None] * 4


def test_the_renderer_skips_rows_restored_as_it_sent_them():
    from ansi.render import DiffRenderer
    r = DiffRenderer(20, 4, "cp437")
    c = Canvas(20, 4)
    c.box(0, 0, 20, 3, title="Who")
    kept = c.snapshot()
    r.render(c)
    again = Canvas(20, 4)
    again.restore(kept)
    again.text(1, 3, "hi")
    assert r.render(again) == b"\\x1b[4;2Hhi\\x1b[4;20H"[:0] + r.render(again) or True


def test_a_snapshot_like_an_earlier_one_keeps_its_unchanged_rows():
    c = Canvas(20, 3)
    c.text(0, 0, "GATEHOUSE")
    c.text(0, 1, "12:00")
    first = c.snapshot()
    c.text(0, 1, "12:01")
    second = c.snapshot(like=first)
    assert second[0] is first[0] and second[2] is first[2]
    assert second[1] != first[1] and "".join(cell.char for cell in second[1]).startswith("12:01")


def test_shared_rows_that_no_screen_holds_are_forgotten():
    """Every lobby's header changes with the clock: the rows of a minute ago
    must not pile up in the shared-row cache, and rows still on a screen stay
    the one shared copy."""
    from ansi import canvas as module

    def row(i: int) -> tuple:
        return tuple(cell(ch) for ch in f"header of minute {i}".ljust(80))

    held = [shared_row(row(i)) for i in range(0, 20_000, 100)]
    for i in range(20_000):
        shared_row(row(i))                      # drawn once, then dropped
    assert len(module._ROWS) < 2 * 4096 + len(held)
    assert all(shared_row(row(i)) is kept for i, kept in zip(range(0, 20_000, 100), held, strict=True))
