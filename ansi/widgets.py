"""Small drawing helpers for screens: keys in, cells out, no I/O.

Each widget takes key names (``ansi.keys``) through ``handle`` and draws
into a canvas (usually a ``region``) through ``draw``.
"""
from __future__ import annotations

import textwrap
from collections import deque

from . import keys
from .canvas import BLACK, BLUE, BRIGHT_CYAN, ELLIPSIS, GREY, WHITE, YELLOW, Canvas, clean_text, shorten

__all__ = ["LineInput", "ChatPane", "Pager", "Menu"]


class LineInput:
    """A one-line text editor.

    ``handle(key)`` returns the text when ENTER is pressed (and empties the
    line), None otherwise; ESC empties the line and sets ``cancelled``."""

    def __init__(self, max_len: int, text: str = ""):
        self.max_len = max_len
        self.text = clean_text(text)[:max_len]
        self.pos = len(self.text)
        self.cancelled = False

    def clear(self) -> None:
        self.text, self.pos = "", 0

    def handle(self, key: str) -> str | None:
        self.cancelled = False
        t, p = self.text, self.pos
        if key == keys.ENTER:
            self.clear()
            return t
        if key == keys.ESC:
            self.clear()
            self.cancelled = True
        elif keys.is_text(key):
            if len(t) < self.max_len:
                self.text, self.pos = t[:p] + key + t[p:], p + 1
        elif key == keys.BACKSPACE and p > 0:
            self.text, self.pos = t[:p - 1] + t[p:], p - 1
        elif key == keys.DELETE and p < len(t):
            self.text = t[:p] + t[p + 1:]
        elif key == keys.DELETE and p > 0:     # at the end: Backspace (PuTTY's, xterm's and
            self.text, self.pos = t[:p - 1], p - 1   # Linux telnet's Backspace sends DEL, 0x7F)
        elif key == keys.LEFT:
            self.pos = max(0, p - 1)
        elif key == keys.RIGHT:
            self.pos = min(len(t), p + 1)
        elif key == keys.HOME:
            self.pos = 0
        elif key == keys.END:
            self.pos = len(t)
        return None

    def draw(self, canvas: Canvas, x: int = 0, y: int = 0, width: int | None = None,
             fg: int = WHITE, bg: int = BLUE) -> tuple[int, int]:
        """Draws the field (scrolled so the cursor shows); returns the cursor
        position in ``canvas`` coordinates, for ``DiffRenderer.render``."""
        width = max(1, min(width or self.max_len + 1, canvas.width - x))
        start = max(0, self.pos - width + 1)
        canvas.fill(x, y, width, 1, " ", fg, bg)
        canvas.text(x, y, self.text[start:start + width], fg, bg)
        return x + self.pos - start, y


class ChatPane:
    """The last ``lines`` chat lines, word-wrapped, newest at the bottom.
    ``scroll(n)`` pages back (n > 0) or forward through older lines; a new
    line does not move a reader who is scrolled back."""

    COLOURS = (YELLOW, BRIGHT_CYAN, 10, 13, 9, 12)

    def __init__(self, lines: int = 50):
        self.size = lines
        # made at the first line: most panes (ten thousand quiet lobbies) never get one
        self._lines: deque[tuple[str, str]] | None = None
        self.back = 0              # rows scrolled back from the newest
        self.added = 0             # lines ever added: what a screen that caches its drawing compares
        self._rows = 0             # wrapped rows at the last draw
        self._height = 1
        self._wrapped: tuple[int, int, list[tuple[str, str, str, bool]]] = (-1, 0, [])   # (added, width, rows)

    def add(self, who: str, text: str) -> None:
        if self._lines is None:
            self._lines = deque(maxlen=self.size)
        self._lines.append((clean_text(who), clean_text(text)))
        self.added += 1

    def colour(self, who: str) -> int:
        return self.COLOURS[sum(map(ord, who)) % len(self.COLOURS)] if who else GREY

    def scroll(self, pages: int) -> None:
        """Move ``pages`` screens back (positive) or forward (negative)."""
        most = max(0, self._rows - self._height)
        self.back = min(most, max(0, self.back + pages * max(1, self._height)))

    @property
    def scrolled(self) -> bool:
        return self.back > 0

    def _wrap(self, width: int) -> list[tuple[str, str, str, bool]]:
        """The lines wrapped to ``width`` (kept until a line is added: a game's
        log holds 200 lines, and each key redraws the pane)."""
        added, wide, rows = self._wrapped
        if (added, wide) != (self.added, width):
            rows = self._wrap_all(width)
            self._wrapped = (self.added, width, rows)
        return rows

    def _wrap_all(self, width: int) -> list[tuple[str, str, str, bool]]:
        rows: list[tuple[str, str, str, bool]] = []      # (name part, text part, who, first row)
        for who, text in self._lines or ():
            head = f"{who}: " if who else ""
            wrapped = textwrap.wrap(head + text, width, subsequent_indent="  ",
                                    drop_whitespace=True) or [head.rstrip()]
            for i, line in enumerate(wrapped):
                n = min(len(head), len(line)) if i == 0 else 0
                rows.append((line[:n], line[n:], who, i == 0))
        return rows

    def rows_for(self, count: int, width: int) -> int:
        """How many rows the newest ``count`` lines take, wrapped to ``width``
        (what a pane must hold to show them whole)."""
        rows = self._wrap(width)
        starts = [i for i, row in enumerate(rows) if row[3]]
        return len(rows) - starts[-count] if count > 0 and len(starts) >= count else len(rows)

    def draw(self, canvas: Canvas, fg: int = GREY, bg: int = BLACK) -> None:
        canvas.fill(0, 0, canvas.width, canvas.height, " ", fg, bg)
        if canvas.width < 2 or not canvas.height:
            return
        rows = self._wrap(canvas.width)
        grown = len(rows) - self._rows
        if self.back and grown > 0:
            self.back += grown              # keep the reader's place
        self._rows, self._height = len(rows), canvas.height
        self.back = min(self.back, max(0, len(rows) - canvas.height))
        end = len(rows) - self.back
        shown = self._whole(rows, max(0, end - canvas.height), end, canvas.width)
        for y, (name, text, who) in enumerate(shown, canvas.height - len(shown)):
            x = canvas.text(0, y, name, self.colour(who), bg)
            canvas.text(x, y, text, fg, bg)

    @staticmethod
    def _whole(rows: list[tuple[str, str, str, bool]], start: int, end: int,
               width: int) -> list[tuple[str, str, str]]:
        """Rows ``start:end`` without the tail of a line whose head is above
        them (a reader never sees half a line): rows left over stay blank at
        the top. A line too long for the whole pane shows its head, shortened."""
        first = start
        while first < end and not rows[first][3]:
            first += 1
        if first < end or end <= 0:
            return [row[:3] for row in rows[first:end]]
        head = end - 1
        while head > 0 and not rows[head][3]:
            head -= 1
        name, text, who, _ = rows[head]
        return [(name, shorten(text + " " + ELLIPSIS, width - len(name)) if head < end - 1 else text, who)]


class Pager:
    """Pages of text: split on form feeds, then every ``height`` lines.

    SPACE/ENTER/PGDN next (past the last page: done), PGUP/BACKSPACE back,
    ESC/q quit. ``handle`` returns False once the reader is done."""

    def __init__(self, text: str, height: int):
        self.height = max(1, height)
        self.pages: list[list[str]] = []
        for chunk in text.split("\f"):
            lines = [clean_text(line.expandtabs(8)) for line in chunk.splitlines()]
            for i in range(0, max(1, len(lines)), self.height):
                self.pages.append(lines[i:i + self.height])
        self.page = 0
        self.done = False

    def handle(self, key: str) -> bool:
        if key in (" ", keys.ENTER, keys.PGDN):
            if self.page + 1 < len(self.pages):
                self.page += 1
            else:
                self.done = True
        elif key in (keys.PGUP, keys.BACKSPACE):
            self.page = max(0, self.page - 1)
        elif key in (keys.ESC, "q", "Q"):
            self.done = True
        return not self.done

    def draw(self, canvas: Canvas, fg: int = GREY, bg: int = BLACK) -> None:
        """The page, and a status line below it if the canvas has room."""
        canvas.fill(0, 0, canvas.width, canvas.height, " ", fg, bg)
        for y, line in enumerate(self.pages[self.page]):
            canvas.text(0, y, line, fg, bg)
        if canvas.height > self.height:
            status = (f" page {self.page + 1}/{len(self.pages)} "
                      "SPACE next  BACKSPACE back  Q quit ")
            canvas.text(0, self.height, status[:canvas.width], BLACK, 7)


class Menu:
    """A lightbar menu. Items are labels, or (hotkey, label) pairs; a
    label's own first letter is its hotkey otherwise. ``handle`` returns the
    chosen index on ENTER or a hotkey, None otherwise."""

    def __init__(self, items: list[str | tuple[str, str]], selected: int = 0):
        self.items: list[tuple[str, str]] = []
        for item in items:
            hot, label = item if isinstance(item, tuple) else (item[:1], item)
            self.items.append((hot.lower(), clean_text(label)))
        self.selected = min(max(0, selected), max(0, len(self.items) - 1))

    def handle(self, key: str) -> int | None:
        n = len(self.items)
        if not n:
            return None
        if key == keys.UP:
            self.selected = (self.selected - 1) % n
        elif key == keys.DOWN:
            self.selected = (self.selected + 1) % n
        elif key == keys.HOME:
            self.selected = 0
        elif key == keys.END:
            self.selected = n - 1
        elif key == keys.ENTER:
            return self.selected
        elif keys.is_text(key):
            for i, (hot, _) in enumerate(self.items):
                if hot and hot == key.lower():
                    self.selected = i
                    return i
        return None

    def draw(self, canvas: Canvas, x: int = 0, y: int = 0, width: int | None = None,
             fg: int = GREY, bg: int = BLACK, bar_fg: int = WHITE, bar_bg: int = BLUE,
             hot_fg: int = YELLOW) -> None:
        width = width or max((len(label) for _, label in self.items), default=0) + 2
        for i, (hot, label) in enumerate(self.items):
            f, b = (bar_fg, bar_bg) if i == self.selected else (fg, bg)
            canvas.fill(x, y + i, width, 1, " ", f, b)
            canvas.text(x + 1, y + i, label[:width - 2], f, b)
            at = label.lower().find(hot) if hot else -1
            if 0 <= at < width - 2:
                canvas.put(x + 1 + at, y + i, label[at], hot_fg, b)
