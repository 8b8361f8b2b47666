"""The canvas's snapshots: what a screen keeps of its drawing between frames."""
from __future__ import annotations

import pytest

from ansi.canvas import BLUE, YELLOW, Canvas


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
    with pytest.raises(ValueError):
        Canvas(10, 4).restore(whole.snapshot())
    assert whole.whole and not whole.region(2, 1, 10, 2).whole
