"""The diff renderer: the bytes that turn a caller's screen into a canvas.

``DiffRenderer`` remembers what it last sent (the *front* screen, the cursor
position and the current SGR attributes) and, for each new canvas, sends only
the changed cells, the way prompt_toolkit's ``_output_screen_diff`` does:

* each run of changed cells is reached by the cheapest cursor move of CUP,
  CUU/CUD/CUF/CUB, CR, CR LF, BS, or by re-printing a few unchanged cells whose
  attributes match the current SGR;
* SGR is sent only when the attributes change, as a delta against the
  current ones; a reset (``ESC[0;...m``) is used when bold or blink must turn
  off, or when it is simply shorter;
* a row whose changed tail is blank in one background colour is finished
  with EL (``ESC[K``) when that is cheaper than printing spaces.

Only the ANSI.SYS subset is used (plus ``ESC[?25l``/``ESC[?25h`` for UTF-8
terminals). The renderer is correct for both wrap behaviours found in the
wild: after a character in the last column the cursor is "pending" and only
printing on or an absolute CUP follows. That holds when the canvas is as wide
as the terminal; on a wider one (``screen_width``, e.g. a 132-column caller)
the cursor simply stands in the next column and is moved like anywhere else.

Conventions, chosen to save bytes and to be safe:

* The bottom-right cell is never printed (that would scroll some terminals).
  It is shown as a blank in its canvas background, made with EL when needed.
* A blank cell's foreground (and blink) can't be seen, so cells are compared
  *normalised* (``normalize``): spaces have fg GREY and no blink.
* ``cursor=(x, y)`` leaves the cursor there (and visible). With
  ``cursor=None`` UTF-8 terminals get the cursor hidden and CP437 ones get
  it parked on the bottom-right cell, which is always blank.
* ``render`` returns b"" when nothing changed. ``frames`` counts calls,
  ``bytes_sent`` the bytes returned.
* The first render, and the first after ``invalidate()``, ``resize()`` or a
  change of ``charset``, repaints fully: ``ESC[0m ESC[2J ESC[H`` then the
  non-blank cells. Any other render sends the difference or such a repaint,
  whichever is shorter, so a new screen never costs more than a repaint.
* Moving down never relies on what a terminal does with LF: LF is sent
  only from column 0 (after a CR when needed), so a client that turns LF
  into CR LF (a tty's ONLCR, many telnet clients) shows the same screen.

A canvas larger than the renderer is clipped, a smaller one padded with
blanks. The output may contain a bare CR; a telnet layer not in BINARY mode must
send it as CR NUL.
"""
from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterable, Sequence
from itertools import compress, takewhile
from operator import itemgetter, ne

from .canvas import BLANK, GREY, Canvas, Cell, Row, shared_row
from .cp437 import CHARSETS, encode_char
from .moves import DEFAULT_ATTR, REPRINT_MAX, Attr, Reprint, cup, move_cost, rel_move, sgr

__all__ = ["DiffRenderer", "minimal_diff_cost", "normalize", "sgr", "cup",
           "move_cost", "flowing", "CHARSET_PROBE", "charset_from_probe"]

CLEAR = "\x1b[0m\x1b[2J\x1b[H"
HIDE, SHOW = "\x1b[?25l", "\x1b[?25h"


# Which charset does a terminal decode? From column 0 print one character
# that UTF-8 encodes in three bytes (U+28FF, all of them >= 0xA0 so no
# 8-bit terminal takes them for C1 controls) and ask where the cursor is
# (DSR 6, which ANSI.SYS answers too): column 2 (1-based) for a UTF-8
# terminal, column 4 for CP437 or any other 8-bit one. The first screen
# clears it.
CHARSET_PROBE = b"\r" + "\u28ff".encode() + b"\x1b[6n"


def charset_from_probe(column: int) -> str | None:
    """The charset a cursor report after ``CHARSET_PROBE`` shows (1-based
    column), None when the answer makes no sense."""
    return {2: "utf8", 4: "cp437"}.get(column)

_CHAR = itemgetter(0)             # a cell's character
_BLANKS = tuple(Cell(" ", GREY, bg, False) for bg in range(8))   # a blank, as seen, in each background


def normalize(cell: Cell) -> Cell:
    """``cell`` as seen: a space's foreground and blink are invisible."""
    if cell.char == " " and (cell.fg != GREY or cell.blink):
        return Cell(" ", GREY, cell.bg, False)
    return cell


class _Normalized(dict[Cell, Cell]):
    """``normalize``, remembered per cell (cells are few and shared), so a
    row is normalised in one C-level pass (``map(_NORMAL.__getitem__, row)``)."""

    def __missing__(self, cell: Cell) -> Cell:
        if len(self) > 65536:        # never grows without bound
            self.clear()
        found = self[cell] = normalize(cell)
        return found


_NORMAL = _Normalized()

# A row's bytes from one drawing of it to another, by (the renderer's size,
# charset and wrap, the row, its old and new cells (shared rows: compared by
# identity), the cursor and attributes before): every lobby redraws the same
# rows each minute, and each of them would work out the same bytes.
RowPaint = tuple[Row, Row, tuple["str | bytes", ...], "tuple[int, int] | None", "Attr | None", Row]
_PAINTS: dict[tuple[object, ...], RowPaint] = {}
PAINTS_KEPT = 512


# a shared row's (a tuple's) characters other than spaces, by its id: every
# lobby's minute asks it of the same rows
_PRINTED: dict[int, tuple[Sequence[Cell], int]] = {}


def _printed(row: Sequence[Cell]) -> int:
    """How many of ``row``'s cells a repaint prints (all but the spaces)."""
    if type(row) is not tuple:
        return len(row) - list(map(_CHAR, row)).count(" ")
    hit = _PRINTED.get(id(row))
    if hit is not None and hit[0] is row:
        return hit[1]
    count = len(row) - list(map(_CHAR, row)).count(" ")
    if len(_PRINTED) >= 4096:        # (never grows without bound)
        _PRINTED.clear()
    _PRINTED[id(row)] = (row, count)
    return count


class DiffRenderer:
    """Brings a caller's screen from what it last sent to a new canvas."""

    def __init__(self, width: int = 80, height: int = 24, charset: str = "cp437"):
        if charset not in CHARSETS:
            raise ValueError(f"unknown charset {charset!r}")
        self.width, self.height = width, height
        self.screen_width = width       # the terminal's; wider: no wrap at ``width``
        self._charset = charset
        self.bytes_sent = 0
        self.frames = 0
        self._cursor: tuple[int, int] | None = None
        self.invalidate()

    # ----- state ------------------------------------------------------------
    @property
    def charset(self) -> str:
        return self._charset

    @charset.setter
    def charset(self, value: str) -> None:
        if value not in CHARSETS:
            raise ValueError(f"unknown charset {value!r}")
        if value != self._charset:
            self._charset = value
            self.invalidate()

    def invalidate(self) -> None:
        """Forget the caller's screen: the next render repaints fully."""
        self._front: list[Row] | None = None
        self._raw: list[Row | None] = [None] * self.height   # canvas rows last seen
        self._pos: tuple[int, int] | None = None
        self._attr: Attr | None = None
        self._visible: bool | None = None

    def set_screen_width(self, cols: int) -> None:
        """The terminal is ``cols`` wide (0: unknown). Wider than the canvas,
        writing its last column does not wrap; unknown, it may or may not:
        repaint without relying on it, and after the last column, move to
        the next cell by its address."""
        cols = 0 if cols <= 0 else max(cols, self.width)
        if cols != self.screen_width:
            self.screen_width = cols
            self.invalidate()

    def shown(self) -> tuple[Canvas, tuple[int, int] | None] | None:
        """What the caller's screen shows (as a canvas) and where the cursor
        rests, or None when that is not known; rendering it after
        ``invalidate()`` repaints the same screen."""
        if self._front is None:
            return None
        cells: list[Cell] = []
        for row in self._front:
            cells.extend(row)
        return Canvas(self.width, self.height, cells), self._cursor

    def resize(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.invalidate()

    def release(self) -> bytes:
        """What hands the terminal back at the end of a call: colours reset,
        the cursor shown, on a line of its own below the last row."""
        return b"\x1b[0m" + SHOW.encode("ascii") + b"\x1b[%d;1H\r\n" % self.height

    def full(self, canvas: Canvas, cursor: tuple[int, int] | None = None) -> bytes:
        """A complete repaint of ``canvas`` (the renderer's state follows)."""
        self.invalidate()
        return self.render(canvas, cursor)

    # ----- rendering --------------------------------------------------------
    def _target_row(self, canvas: Canvas | None, y: int, raw: Row | None) -> list[Cell]:
        w = self.width
        if raw is not None:
            row = list(map(_NORMAL.__getitem__, raw))
        elif canvas is not None and y < canvas.height:
            row = [normalize(canvas.get(x, y)) if x < canvas.width else BLANK
                   for x in range(w)]
        else:
            row = [BLANK] * w
        if y == self.height - 1:
            c = row[w - 1]
            row[w - 1] = Cell(" ", GREY, c.bg, False) if c.char != " " else c
        return row

    def render(self, canvas: Canvas, cursor: tuple[int, int] | None = None) -> bytes:
        """The bytes bringing the screen from the last render to ``canvas``:
        the difference, or a clear-and-repaint when that is shorter (a new
        screen replacing a different one)."""
        w = self.width
        return self._render(lambda: canvas, cursor, None,
                            (canvas.row_cells(y)[:w] for y in range(min(self.height, canvas.height))))

    def render_rows(self, changes: dict[int, tuple[Row, Row]],
                    cursor: tuple[int, int] | None = None) -> bytes | None:
        """As ``render`` for a canvas that differs from the last one only in
        the rows ``changes`` names, each ``y: (old, new)``: ``old`` the very
        row (as a canvas keeps it) the last render had there, ``new`` the
        full-width row that replaces it. None, with nothing sent, when the
        renderer does not hold those rows (another frame went out since, or
        it must repaint): then render the whole canvas. For a screen that
        changes a few rows on its own (a clock) without drawing a canvas."""
        raw = self._raw
        if self._front is None or any(
                not 0 <= y < self.height or raw[y] is not old or len(new) != self.width
                for y, (old, new) in changes.items()):
            return None
        rows = [changes[y][1] if y in changes else raw[y] for y in range(self.height)]
        if any(row is None for row in rows):
            return None

        def canvas() -> Canvas:
            return Canvas(self.width, self.height, [c for row in rows for c in row or ()])
        return self._render(canvas, cursor, {y: new for y, (_old, new) in changes.items()}, rows)

    def _render(self, canvas: Callable[[], Canvas], cursor: tuple[int, int] | None,
                only: dict[int, Row] | None, rows: Iterable[Sequence[Cell] | None]) -> bytes:
        repaint = self._front is None
        data = self._paint(canvas() if only is None else None, cursor, only)
        if not repaint and len(data) > len(CLEAR) and self._may_repaint_shorter(rows, len(data)):
            kept = ([row[:] for row in self._front or ()], self._raw[:], self._pos,
                    self._attr, self._visible)
            self.invalidate()
            full = self._paint(canvas(), cursor, None)
            if len(full) < len(data):
                data = full
            else:
                front, self._raw, self._pos, self._attr, self._visible = kept
                self._front = front
        self.frames += 1
        self.bytes_sent += len(data)
        return data

    def _may_repaint_shorter(self, rows: Iterable[Sequence[Cell] | None], budget: int) -> bool:
        """False when a repaint surely costs at least ``budget`` bytes: it
        prints every non-blank character after the clear."""
        budget -= len(CLEAR)
        for row in rows:
            if row is not None:
                budget -= _printed(row)
            if budget <= 0:
                return False
        return True

    def _paint(self, canvas: Canvas | None, cursor: tuple[int, int] | None,
               only: dict[int, Row] | None = None) -> bytes:
        """The bytes for ``canvas``, or (``canvas`` None) for the rows
        ``only`` gives, the others being as last sent."""
        w, h, cs = self.width, self.height, self._charset
        wraps = self.screen_width == w
        out: list[str | bytes] = []
        if self._front is None:
            out.append(CLEAR)
            self._front = [shared_row((BLANK,) * w)] * h
            self._pos, self._attr = (0, 0), DEFAULT_ATTR
        front = self._front
        work: list[Cell] = []          # the row being brought up to date
        work_y = -1

        def reprint_fn(y: int) -> Reprint:
            row = work if y == work_y else front[y]

            def reprint(a: int, b: int) -> str | None:
                if b - a > REPRINT_MAX or self._attr is None:
                    return None
                fg, bg, blink = self._attr
                text = []
                for c in row[a:b]:
                    if c.bg != bg or (c.char != " " and (c.fg, c.blink) != (fg, blink)):
                        return None
                    text.append(encode_char(c.char, cs).decode("latin-1"))
                return "".join(text)
            return reprint

        def goto(x: int, y: int, printing: bool = False) -> None:
            """Move there; a pending wrap counts as the next row's start only
            when a character is printed next (terminals differ otherwise)."""
            pos = self._pos
            if pos is not None and pos[0] >= w and (wraps and not printing or not self.screen_width):
                pos = None              # (a pending wrap; or past the edge of a width not known)
            m = move_cost(pos, (x, y), w, reprint_fn, wraps)
            if m:
                out.append(m)
            self._pos = (x, y)

        def put(x: int, y: int, cell: Cell) -> None:
            pos = self._pos
            if not (pos == (x, y) or (x == 0 and wraps and pos == (w, y - 1))):
                goto(x, y, printing=True)
            attr = self._attr
            if cell.char == " " and attr is not None:
                want = (attr[0], cell.bg, attr[2])
            else:
                want = (cell.fg, cell.bg, cell.blink)
            s = sgr(attr, want)
            if s:
                out.append(s)
                self._attr = want
            out.append(encode_char(cell.char, cs))
            work[x] = cell
            self._pos = (x + 1, y)

        whole: list[Cell] | None = None
        restored: list[Row | None] = []
        ys: Iterable[int] = sorted(only or ())
        if canvas is not None:
            whole = canvas.cells if canvas.whole and canvas.width == w else None
            restored = canvas.kept_rows() if whole is not None else [None] * canvas.height
            ys = range(h)
        for y in ys:
            raw: Row | None = None
            sent = self._raw[y]
            if canvas is None:
                raw = (only or {})[y]
                if raw is sent:
                    continue
                self._raw[y] = raw
                if raw == sent:
                    continue             # the same cells: the renderer holds the new row
            elif y < canvas.height and canvas.width == w:
                kept = restored[y]
                if kept is not None and kept is sent:
                    continue             # the very row sent last time (a restored snapshot's)
                raw = kept or tuple(whole[y * w:y * w + w] if whole is not None else canvas.row_cells(y))
                if raw == sent:
                    continue             # the very same cells as last time: nothing to do
                self._raw[y] = raw = kept or shared_row(raw)
            else:
                self._raw[y] = None
            old = front[y]
            # a canvas keeps its cells as seen (``ansi.canvas.cell``): its row is the
            # target (but for a character in the bottom-right cell, never printed)
            target = raw if raw is not None and (y < h - 1 or raw[w - 1].char == " ") else None
            if target is not None:
                if target == old:
                    continue
                new = list(target)
            else:
                new = self._target_row(canvas, y, raw)
                if tuple(new) == old:
                    continue
            key = (w, h, cs, wraps, y, id(old), id(raw), self._pos, self._attr)
            hit = _PAINTS.get(key)
            if hit is not None and hit[0] is old and hit[1] is raw:
                out.extend(hit[2])
                self._pos, self._attr, front[y] = hit[3], hit[4], hit[5]
                continue
            mark = len(out)
            changed = list(compress(range(w), map(ne, new, old)))
            work, work_y = list(old), y
            last_row = y == h - 1
            # blank tail in one background: candidate for EL
            el_from = None
            tail_bg = new[w - 1].bg if new[w - 1].char == " " else None
            blank_tail = _BLANKS[tail_bg or 0]
            if tail_bg is not None:
                t = w - len(list(takewhile(blank_tail.__eq__, reversed(new))))
                in_tail = changed[bisect_left(changed, t):]
                if in_tail:
                    first, last = in_tail[0], in_tail[-1]
                    if (last_row and last == w - 1) or last - first + 1 > 3:
                        el_from = first
            stop = w if el_from is None else el_from
            i, n = 0, len(changed)
            while i < n and changed[i] < stop:
                x = changed[i]
                put(x, y, new[x])
                i += 1
                # The changed cells after it that need no other SGR go out as one
                # run, with the unchanged ones between them when printing those
                # is shorter than moving over them (as ``goto`` would choose).
                fg, bg, blink = self._attr or DEFAULT_ATTR
                end = x + 1
                while i < n and changed[i] < stop and changed[i] - end <= REPRINT_MAX:
                    nxt = changed[i]
                    if nxt == end:       # the next cell (most often): just its attributes
                        c = new[nxt]
                        if c.bg != bg or (c.char != " " and (c.fg != fg or c.blink != blink)):
                            break        # needs another SGR
                    else:
                        for c in new[end:nxt + 1]:
                            if c.bg != bg or (c.char != " " and (c.fg != fg or c.blink != blink)):
                                nxt = -1     # needs another SGR
                                break
                        if nxt < 0 or (sum(len(encode_char(c.char, cs)) for c in new[end:nxt])
                                       >= len(rel_move(nxt - end, "C", ""))):
                            break            # (or moving over the gap is as short)
                    end = nxt + 1
                    i += 1
                if end > x + 1:
                    text = "".join(map(_CHAR, new[x + 1:end]))
                    out.append(text.encode("ascii") if text.isascii() and text.isprintable()
                               else b"".join([encode_char(ch, cs) for ch in text]))
                    work[x + 1:end] = new[x + 1:end]
                    self._pos = (end, y)
            if el_from is not None and tail_bg is not None:
                goto(el_from, y)
                attr = self._attr
                want: Attr = (attr[0], tail_bg, attr[2]) if attr else (GREY, tail_bg, False)
                s = sgr(attr, want)
                if s:
                    out.append(s)
                    self._attr = want
                out.append("\x1b[K")
                work[el_from:w] = [blank_tail] * (w - el_from)
            front[y] = target or shared_row(tuple(work))
            work_y = -1
            if raw is not None:
                if len(_PAINTS) >= PAINTS_KEPT:
                    _PAINTS.clear()
                _PAINTS[key] = (old, raw, tuple(out[mark:]), self._pos, self._attr, front[y])

        # the cursor
        self._cursor = cursor
        if cursor is not None:
            cx = min(max(cursor[0], 0), w - 1)
            cy = min(max(cursor[1], 0), h - 1)
            goto(cx, cy)
            if cs == "utf8" and self._visible is not True:
                out.append(SHOW)
                self._visible = True
        elif cs == "utf8":
            if self._visible is not False:
                out.append(HIDE)
                self._visible = False
        else:
            goto(w - 1, h - 1)

        return b"".join([p if isinstance(p, bytes) else p.encode("latin-1") for p in out])


def minimal_diff_cost(front: Canvas, back: Canvas, charset: str = "cp437") -> int:
    """A baseline for the renderer: bytes of the changed cells' characters,
    plus the cheapest plain cursor move (no re-printing; LF only from
    column 0, as the renderer) to each run of
    changed cells (the first one from an unknown position: a CUP), plus the
    SGR delta between consecutive changed cells (the first one free).

    ``front`` is what the screen shows, ``back`` the new canvas; both are
    compared normalised, the bottom-right cell excluded."""
    w, h = back.width, back.height
    total = 0
    pos: tuple[int, int] | None = None
    attr: Attr | None = None
    for y in range(h):
        for x in range(w):
            if (x, y) == (w - 1, h - 1):
                continue
            new = normalize(back.get(x, y))
            if new == normalize(front.get(x, y)):
                continue
            if not (pos == (x, y) or (x == 0 and pos == (w, y - 1))):
                total += len(move_cost(pos, (x, y), w))
            want = (new.fg, new.bg, new.blink)
            if new.char == " " and attr is not None:
                want = (attr[0], new.bg, attr[2])
            total += len(sgr(attr, want)) if attr is not None else 0
            attr = want
            total += len(encode_char(new.char, charset))
            pos = (x + 1, y)
    return total


def flowing(canvas: Canvas, charset: str = "cp437") -> bytes:
    """The canvas as a flowing text file (BBS art, a bulletin): its rows top
    to bottom, each ended by CR LF, with SGR deltas and no cursor moves, so
    it shows from wherever the caller's cursor is and scrolls as it goes.
    Trailing blanks are not sent (the attributes are reset before each line
    end so no background colour runs on) and the last column is never
    printed, so no terminal wraps before the CR LF."""
    out: list[str | bytes] = ["\x1b[0m"]
    attr: Attr = DEFAULT_ATTR
    for y in range(canvas.height):
        cells = [normalize(c) for c in canvas.row_cells(y)[:canvas.width - 1]]
        while cells and cells[-1] == BLANK:
            cells.pop()
        for cell in cells:
            want: Attr = (cell.fg, cell.bg, cell.blink)
            if cell.char == " ":
                want = (attr[0], cell.bg, attr[2])
            out.append(sgr(attr, want))
            attr = want
            out.append(encode_char(cell.char, charset))
        if attr != DEFAULT_ATTR:
            out.append("\x1b[0m")
            attr = DEFAULT_ATTR
        out.append("\r\n")
    return b"".join(part if isinstance(part, bytes) else part.encode("ascii") for part in out)
