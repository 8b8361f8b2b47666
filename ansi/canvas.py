"""A cell canvas: what a screen should look like, with no escape codes.

Screens and door views draw into a ``Canvas``; the session's diff renderer
(``ansi.render``) compares it with what the caller already has and sends only
the difference. Characters are Unicode; the renderer encodes them to CP437 or
UTF-8 for each caller, so draw with glyphs that CP437 has (box drawing,
blocks, card suits...).

A cell is a tuple ``(char, fg, bg, blink)``: ``fg`` 0-15 (8-15 are the bright
colours, sent as bold), ``bg`` 0-7, ``blink`` a bool.
"""
from __future__ import annotations

import sys
import textwrap
from collections.abc import Iterator, Sequence
from typing import ClassVar, NamedTuple

__all__ = [
    "BLACK", "RED", "GREEN", "BROWN", "BLUE", "MAGENTA", "CYAN", "GREY",
    "DARK_GREY", "BRIGHT_RED", "BRIGHT_GREEN", "YELLOW", "BRIGHT_BLUE",
    "BRIGHT_MAGENTA", "BRIGHT_CYAN", "WHITE", "Cell", "Row", "Canvas", "shared_row", "BOX_SINGLE",
    "BOX_DOUBLE", "clean_text", "cell", "shorten", "wrap", "ELLIPSIS",
]

BLACK, RED, GREEN, BROWN, BLUE, MAGENTA, CYAN, GREY = range(8)
DARK_GREY, BRIGHT_RED, BRIGHT_GREEN, YELLOW, BRIGHT_BLUE, BRIGHT_MAGENTA, \
    BRIGHT_CYAN, WHITE = range(8, 16)

BOX_SINGLE = "┌┐└┘─│"
BOX_DOUBLE = "╔╗╚╝═║"


class Cell(NamedTuple):
    char: str = " "
    fg: int = GREY
    bg: int = BLACK
    blink: bool = False


BLANK = Cell()
_CELLS: dict[tuple[str, int, int, bool], Cell] = {}


def cell(char: str, fg: int = GREY, bg: int = BLACK, blink: bool = False) -> Cell:
    """The one shared Cell for these values (screens hold thousands of cells:
    sharing them keeps each session's buffers small). A space is kept as
    seen: its foreground and blink show nothing, so they are dropped, and
    rows that look alike are alike."""
    if char == " ":
        fg, blink = GREY, False
    key = (char, fg, bg, blink)
    found = _CELLS.get(key)
    if found is None:
        if len(_CELLS) > 65536:      # never grows without bound
            _CELLS.clear()
        found = _CELLS[key] = Cell(char, fg, bg, blink)
    return found


Row = tuple[Cell, ...]
_ROWS: dict[Row, Row] = {}
_sweep_at = 4096                    # look for rows held by no one else at this size


def shared_row(row: Row) -> Row:
    """The one shared tuple for this row of cells. Renderers and snapshots
    keep rows this way: two thousand callers looking at the same lobby keep
    one copy of each row it has in common, not one each."""
    found = _ROWS.get(row)
    if found is None:
        if len(_ROWS) >= _sweep_at:
            _sweep_rows()
        found = _ROWS[row] = row
    return found


def _sweep_rows() -> None:
    """Forget the rows no screen holds any more (every lobby's header of a
    minute ago): a row held only by this cache is referred to by its key,
    its value, the loop and ``getrefcount``'s argument. The next sweep comes
    when the cache has doubled, so sweeping costs little per row."""
    global _sweep_at
    dead = [row for row in _ROWS if sys.getrefcount(row) <= 4]
    for row in dead:
        del _ROWS[row]
    _sweep_at = max(4096, 2 * len(_ROWS))


class _Palette(dict[str, Cell]):
    """Characters -> the shared Cells in one set of attributes, so that a
    run of text becomes cells in one C-level pass (``map(palette.__getitem__, text)``)."""

    __slots__ = ("attrs",)

    def __init__(self, fg: int, bg: int, blink: bool):
        super().__init__()
        self.attrs = (fg, bg, blink)

    def __missing__(self, char: str) -> Cell:
        found = self[char] = cell(char, *self.attrs)
        return found


_PALETTES: dict[tuple[int, int, bool], _Palette] = {}


def _palette(fg: int, bg: int, blink: bool) -> _Palette:
    key = (fg, bg, blink)
    found = _PALETTES.get(key)
    if found is None or len(found) > 4096:     # (a palette never grows without bound)
        found = _PALETTES[key] = _Palette(fg, bg, blink)
    return found


def clean_text(text: str) -> str:
    """``text`` with every control or escape character replaced by '?'.

    Anything typed by one user and shown to another passes through here."""
    return "".join(ch if ch.isprintable() else "?" for ch in text)


ELLIPSIS = "…"


def shorten(text: str, width: int) -> str:
    """``text`` in at most ``width`` columns: a name or a typed line that is
    too long ends in an ellipsis, so the reader sees it was shortened."""
    if len(text) <= width:
        return text
    return text[:max(0, width - 1)] + ELLIPSIS if width > 0 else ""


def wrap(text: str, width: int) -> list[str]:
    """``text`` broken into lines of at most ``width`` columns, at spaces."""
    return textwrap.wrap(text, max(1, width), break_on_hyphens=False) or [""]


class Canvas:
    """A grid of cells. ``region()`` gives a clipped, offset view onto the
    same cells, so a door view can draw in its own rectangle.

    ``Canvas.cut`` is None; a test sets it to a list to collect every text
    that ``text()`` cut at the right edge of its canvas or region, as
    (x, y, text): the 80-column check over every screen. ``Canvas.over``
    likewise collects every text written over the side of a ``box`` (a
    frame a text runs into), as (x, y, text)."""

    cut: ClassVar[list[tuple[int, int, str]] | None] = None
    over: ClassVar[list[tuple[int, int, str]] | None] = None

    def __init__(self, width: int = 80, height: int = 24,
                 _cells: list[Cell] | None = None, _stride: int = 0,
                 _ox: int = 0, _oy: int = 0, _kept: list[Row | None] | None = None):
        self.width = width
        self.height = height
        self._stride = _stride or width
        self._ox = _ox
        self._oy = _oy
        self.cells: list[Cell] = _cells if _cells is not None else [BLANK] * (width * height)
        # per row of the cells: the snapshot row it holds unchanged since
        # ``restore`` (None once anything is drawn on it); shared with regions
        self._kept: list[Row | None] = _kept if _kept is not None else [None] * (len(self.cells) // self._stride)
        # while Canvas.over is set: the cells that are a box's sides (shared with regions)
        self._sides: set[int] = set()

    # ----- views ------------------------------------------------------------
    def region(self, x: int, y: int, width: int, height: int) -> Canvas:
        """A view of the rectangle at (x, y), clipped to this canvas."""
        width = max(0, min(width, self.width - x))
        height = max(0, min(height, self.height - y))
        view = Canvas(width, height, self.cells, self._stride,
                      self._ox + x, self._oy + y, self._kept)
        view._sides = self._sides
        return view

    def _index(self, x: int, y: int) -> int:
        return (self._oy + y) * self._stride + self._ox + x

    @property
    def whole(self) -> bool:
        """A canvas of its own, not a ``region`` of a larger one."""
        return len(self.cells) == self.width * self.height

    def snapshot(self, like: tuple[Row, ...] | None = None) -> tuple[Row, ...]:
        """Every cell, row by row, to ``restore`` later (a screen keeps the
        parts of its drawing that seldom change this way; the rows are
        shared, so many callers' snapshots of one screen cost little).
        Rows equal to those of an earlier snapshot ``like`` are taken from
        it (cheaper than finding the shared row). Whole canvases only."""
        if not self.whole:
            raise ValueError("a snapshot is of a whole canvas, not a region")
        w, cells = self.width, self.cells
        earlier: Sequence[Row | None] = like if like is not None and len(like) == self.height else [None] * self.height
        taken: list[Row] = []
        for y, (kept, old) in enumerate(zip(self._kept, earlier, strict=True)):
            if kept is None:            # drawn on since a restore: take the cells
                row = tuple(cells[y * w:y * w + w])
                kept = old if old == row else shared_row(row)
            taken.append(kept)
        self._kept[:] = taken           # the canvas holds these very rows now
        return tuple(taken)

    def fits(self, rows: tuple[Row, ...]) -> bool:
        """Whether ``restore(rows)`` may be called: a whole canvas of the snapshot's size."""
        return self.whole and len(rows) == self.height and set(map(len, rows)) == {self.width}

    def restore(self, rows: tuple[Row, ...]) -> None:
        """Every cell back as ``snapshot`` took it (see ``fits``)."""
        if not self.fits(rows):
            raise ValueError("restore onto a whole canvas of the snapshot's size")
        w, cells = self.width, self.cells
        for y, row in enumerate(rows):
            cells[y * w:y * w + w] = row
        self._kept[:] = rows
        self._sides.clear()

    def take_rows(self, y: int, count: int) -> tuple[Row, ...]:
        """Rows y..y+count-1 as shared rows, to ``put_rows`` on another
        canvas (many callers' screens share a part: it is drawn once).
        Whole canvases only."""
        if not self.whole:
            raise ValueError("rows are taken from a whole canvas, not a region")
        w, cells = self.width, self.cells
        taken = tuple(self._kept[r] or shared_row(tuple(cells[r * w:r * w + w])) for r in range(y, y + count))
        self._kept[y:y + count] = taken
        return taken

    def put_rows(self, y: int, rows: tuple[Row, ...]) -> None:
        """Rows from ``take_rows`` back at row ``y``, as they were (a
        renderer that sent those very rows skips them). Whole canvases only."""
        if not self.whole or y + len(rows) > self.height or any(len(row) != self.width for row in rows):
            raise ValueError("put_rows needs a whole canvas with room for the rows")
        w, cells = self.width, self.cells
        for r, row in enumerate(rows, y):
            cells[r * w:r * w + w] = row
        self._kept[y:y + len(rows)] = rows
        self._forget_sides(0, y, w, len(rows))

    def kept_rows(self) -> list[Row | None]:
        """Per row, the snapshot row ``restore`` put there (or ``snapshot``
        took) if nothing has been drawn on it since, else None (a renderer
        that sent that very row skips it). A region's are all None."""
        return self._kept[:] if self.whole else [None] * self.height

    def _drawn(self, y: int, rows: int = 1) -> None:
        """Rows y..y+rows-1 (of this view) are drawn on: no longer as restored."""
        top, bottom = max(0, y), min(self.height, y + rows)
        if top < bottom:
            self._kept[self._oy + top:self._oy + bottom] = [None] * (bottom - top)

    def copy(self) -> Canvas:
        return Canvas(self.width, self.height,
                      [self.get(x, y) for y in range(self.height) for x in range(self.width)])

    # ----- reading ----------------------------------------------------------
    def get(self, x: int, y: int) -> Cell:
        return self.cells[self._index(x, y)]

    def row_cells(self, y: int) -> list[Cell]:
        """Row ``y``'s cells (a copy)."""
        base = self._index(0, y)
        return self.cells[base:base + self.width]

    def row_text(self, y: int) -> str:
        return "".join(self.get(x, y).char for x in range(self.width))

    def lines(self) -> list[str]:
        return [self.row_text(y) for y in range(self.height)]

    def __iter__(self) -> Iterator[Cell]:
        for y in range(self.height):
            for x in range(self.width):
                yield self.get(x, y)

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Canvas) and self.width == other.width
                and self.height == other.height and list(self) == list(other))

    # ----- drawing ----------------------------------------------------------
    def put(self, x: int, y: int, char: str, fg: int = GREY, bg: int = BLACK,
            blink: bool = False) -> None:
        if 0 <= x < self.width and 0 <= y < self.height:
            if len(char) != 1 or not char.isprintable():
                char = "?" if char not in ("", " ") else " "
            self.cells[self._index(x, y)] = cell(char, fg & 15, bg & 7, blink)
            self._kept[self._oy + y] = None

    def text(self, x: int, y: int, text: str, fg: int = GREY, bg: int = BLACK,
             blink: bool = False) -> int:
        """Write ``text`` from (x, y), clipped; returns the x after it."""
        end = x + len(text)
        if not 0 <= y < self.height:
            return end
        if end > self.width and Canvas.cut is not None and text[max(0, self.width - x):].strip():
            Canvas.cut.append((self._ox + x, self._oy + y, text))
        if not text.isprintable():
            text = "".join(ch if ch.isprintable() else "?" for ch in text)
        start, stop = max(x, 0), min(end, self.width)
        if start < stop and Canvas.over is not None and self._sides:
            self._check_sides(x, y, text, start, stop)
        if start < stop:
            base = (self._oy + y) * self._stride + self._ox
            self.cells[base + start:base + stop] = map(
                _palette(fg & 15, bg & 7, bool(blink)).__getitem__, text[start - x:stop - x])
            self._kept[self._oy + y] = None
        return end

    def _check_sides(self, x: int, y: int, text: str, start: int, stop: int) -> None:
        """Record ``text`` if a letter of it lands on a box's side (Canvas.over)."""
        assert Canvas.over is not None
        base = (self._oy + y) * self._stride + self._ox
        for i in range(start, stop):
            if base + i in self._sides and not text[i - x].isspace() \
                    and text[i - x] != self.cells[base + i].char:
                Canvas.over.append((self._ox + x, self._oy + y, text))
                return

    def _forget_sides(self, x: int, y: int, width: int, height: int) -> None:
        """Cells drawn over as a whole (fill, blit): no longer a box's sides."""
        if not self._sides:
            return
        for yy in range(max(0, y), min(self.height, y + height)):
            base = self._index(0, yy)
            self._sides.difference_update(range(base + max(0, x), base + min(self.width, x + width)))

    def center(self, y: int, text: str, fg: int = GREY, bg: int = BLACK) -> None:
        self.text(max(0, (self.width - len(text)) // 2), y, text, fg, bg)

    def fill(self, x: int = 0, y: int = 0, width: int | None = None,
             height: int | None = None, char: str = " ", fg: int = GREY,
             bg: int = BLACK) -> None:
        width = self.width - x if width is None else width
        height = self.height - y if height is None else height
        start, stop = max(0, x), min(self.width, x + width)
        if start >= stop:
            return
        filler = [cell(char, fg & 15, bg & 7, False)] * (stop - start)
        for yy in range(max(0, y), min(self.height, y + height)):
            base = self._index(0, yy)
            self.cells[base + start:base + stop] = filler
        self._drawn(y, height)
        if self._sides:
            self._forget_sides(x, y, width, height)

    def clear(self, fg: int = GREY, bg: int = BLACK) -> None:
        self.fill(0, 0, self.width, self.height, " ", fg, bg)

    def box(self, x: int, y: int, width: int, height: int, fg: int = GREY,
            bg: int = BLACK, style: str = BOX_SINGLE, title: str = "") -> None:
        """A frame; the inside is left as it is."""
        if width < 2 or height < 2:
            return
        tl, tr, bl, br, hz, vt = tuple(style)
        self.text(x, y, tl + hz * (width - 2) + tr, fg, bg)
        self.text(x, y + height - 1, bl + hz * (width - 2) + br, fg, bg)
        side = cell(vt, fg & 15, bg & 7)
        cells, right = self.cells, x + width - 1
        for yy in range(max(0, y + 1), min(self.height, y + height - 1)):
            base = (self._oy + yy) * self._stride + self._ox
            if 0 <= x < self.width:
                cells[base + x] = side
            if 0 <= right < self.width:
                cells[base + right] = side
            if Canvas.over is not None:
                self._sides.update(base + c for c in (x, right) if 0 <= c < self.width)
        self._drawn(y, height)
        if title:
            self.text(x + 2, y, f" {title[:width - 6]} ", fg, bg)

    def blit(self, other: Canvas, x: int = 0, y: int = 0) -> None:
        """Copy ``other`` with its top-left at (x, y), clipped (row by row:
        its cells are already checked and shared)."""
        start, stop = max(0, x), min(self.width, x + other.width)
        if start >= stop:
            return
        for yy in range(max(0, y), min(self.height, y + other.height)):
            src = other._index(start - x, yy - y)
            dst = self._index(start, yy)
            self.cells[dst:dst + stop - start] = other.cells[src:src + stop - start]
        self._drawn(y, other.height)
        if self._sides:
            self._forget_sides(x, y, other.width, other.height)
