"""ANSI art: SAUCE records and an ANSI interpreter that draws onto a Canvas.

``load_ans(path)`` reads a ``.ans`` file: the art (CP437 text with escape
codes) up to the EOF byte 0x1A, and its SAUCE record. ``AnsiInterpreter``
also checks the renderer: feeding it the renderer's output must reproduce
the canvas.

The interpreter understands what BBS art and the renderer use: printable
characters, CR, LF, BS, TAB, CUP/HVP, CUU/CUD/CUF/CUB, CHA, VPA, ED, EL, SGR
(0, 1, 5, 7, 22, 25, 27, 30-37, 39, 40-47, 49, 90-97, 100-107), save and
restore cursor (``ESC[s``/``ESC[u``); other sequences are skipped. Wrapping
is deferred (xterm style): a character in the last column leaves the cursor
there until the next character is printed, which suits both art saved with
line ends after full rows and art relying on the wrap. ``ESC[2J`` also homes
the cursor, as ANSI.SYS does.
"""
from __future__ import annotations

import codecs
import os
import struct
from dataclasses import dataclass, field

from .canvas import BLACK, GREY, Canvas, Cell
from .cp437 import decode_cp437, encode_cp437

__all__ = ["Sauce", "parse_sauce", "AnsiInterpreter", "load_ans", "parse_ans", "art_bytes"]

SAUCE_LEN = 128
_SAUCE = struct.Struct("<5s2s35s20s20s8sIBBHHHHBB22s")


def _text(raw: bytes) -> str:
    return decode_cp437(raw.rstrip(b"\x00 ").replace(b"\x00", b" "),
                        controls=frozenset()).rstrip()


@dataclass
class Sauce:
    """A SAUCE 00 record (the fields, strings right-trimmed)."""
    title: str = ""
    author: str = ""
    group: str = ""
    date: str = ""                 # "CCYYMMDD"
    file_size: int = 0
    datatype: int = 1              # 1 = character
    filetype: int = 1              # 1 = ANSi (for datatype 1)
    tinfo1: int = 80               # width, for character files
    tinfo2: int = 0                # height (number of lines)
    tinfo3: int = 0
    tinfo4: int = 0
    flags: int = 0
    tinfos: str = ""               # font name
    comments: list[str] = field(default_factory=list)
    data_end: int = 0              # where the art ends in the file

    @property
    def width(self) -> int:
        return self.tinfo1

    @property
    def height(self) -> int:
        return self.tinfo2

    @property
    def ice_colors(self) -> bool:
        """Flag bit 0: blink means bright background."""
        return bool(self.flags & 1)

    @property
    def letter_spacing(self) -> int:
        """Flag bits 1-2: 0 legacy, 1 8-pixel font, 2 9-pixel font."""
        return (self.flags >> 1) & 3

    @property
    def aspect_ratio(self) -> int:
        """Flag bits 3-4: 0 legacy, 1 stretch (DOS pixels), 2 square."""
        return (self.flags >> 3) & 3

    def to_bytes(self) -> bytes:
        """EOF, the COMNT block if any, and the 128-byte record."""
        def pad(s: str, n: int) -> bytes:
            return encode_cp437(s)[:n].ljust(n, b" ")

        out = b"\x1a"
        if self.comments:
            out += b"COMNT" + b"".join(pad(c, 64) for c in self.comments)
        return out + _SAUCE.pack(
            b"SAUCE", b"00", pad(self.title, 35), pad(self.author, 20),
            pad(self.group, 20), pad(self.date, 8), self.file_size,
            self.datatype, self.filetype, self.tinfo1, self.tinfo2,
            self.tinfo3, self.tinfo4, len(self.comments), self.flags,
            encode_cp437(self.tinfos)[:22].ljust(22, b"\x00"))


def parse_sauce(data: bytes) -> Sauce | None:
    """The SAUCE record at the end of ``data``, or None if there is none."""
    if len(data) < SAUCE_LEN or data[-SAUCE_LEN:-SAUCE_LEN + 7] != b"SAUCE00":
        return None
    (_, _, title, author, group, date, size, dtype, ftype, t1, t2, t3, t4,
     ncomments, flags, tinfos) = _SAUCE.unpack(data[-SAUCE_LEN:])
    end = len(data) - SAUCE_LEN
    comments: list[str] = []
    if ncomments:
        start = end - 5 - 64 * ncomments
        if start >= 0 and data[start:start + 5] == b"COMNT":
            block = data[start + 5:end]
            comments = [_text(block[i:i + 64]) for i in range(0, len(block), 64)]
            end = start
    if end > 0 and data[end - 1] == 0x1A:
        end -= 1
    return Sauce(_text(title), _text(author), _text(group), _text(date), size,
                 dtype, ftype, t1, t2, t3, t4, flags,
                 tinfos.rstrip(b"\x00 ").decode("latin-1"), comments, end)


def art_bytes(data: bytes) -> bytes:
    """The art part of a file: before the SAUCE and the first EOF byte."""
    sauce = parse_sauce(data)
    if sauce is not None:
        data = data[:sauce.data_end]
    return data.split(b"\x1a", 1)[0]


class AnsiInterpreter:
    """Draws ANSI text onto ``canvas``.

    ``feed`` takes str, or bytes in ``charset`` ("cp437": low bytes other
    than the controls are glyphs; "utf8": decoded incrementally). With
    ``scroll`` a line feed on the last row scrolls up; without it the cursor
    stays on the last row. ``max_row`` is the lowest row printed on."""

    def __init__(self, canvas: Canvas, charset: str = "cp437", scroll: bool = True):
        self.canvas = canvas
        self.charset = charset
        self.scroll = scroll
        self.x = self.y = 0
        self.saved = (0, 0)
        self.fg, self.bg = GREY, BLACK
        self.bold = self.blink = self.reverse = False
        self.max_row = -1
        self.eof = False
        self._esc = ""                   # a partial escape sequence
        self._utf8 = codecs.getincrementaldecoder("utf-8")("replace")

    # ----- input ------------------------------------------------------------
    def feed(self, data: bytes | str) -> None:
        if isinstance(data, bytes):
            data = (decode_cp437(data) if self.charset == "cp437"
                    else self._utf8.decode(data))
        for ch in data:
            if self.eof:
                return
            if self._esc:
                self._escape(ch)
            elif ch == "\x1b":
                self._esc = ch
            elif ch >= " " and ch != "\x7f":
                self._print(ch)
            else:
                self._control(ch)

    def _control(self, ch: str) -> None:
        w = self.canvas.width
        if ch == "\r":
            self.x = 0
        elif ch == "\n":
            self._linefeed()
        elif ch == "\b":
            self.x = max(0, min(self.x, w - 1) - 1)
        elif ch == "\t":
            self.x = min(w - 1, (self.x // 8 + 1) * 8)
        elif ch == "\x1a":
            self.eof = True

    def _escape(self, ch: str) -> None:
        self._esc += ch
        if len(self._esc) == 2:
            if ch != "[":
                self._esc = ""          # a two-character sequence: skip it
            return
        if "\x40" <= ch <= "\x7e":
            body, self._esc = self._esc[2:-1], ""
            self._csi(body, ch)
        elif len(self._esc) > 64:
            self._esc = ""

    # ----- output -----------------------------------------------------------
    def _cell(self, char: str) -> Cell:
        fg = (self.fg & 7) | (8 if self.bold or self.fg >= 8 else 0)
        bg = self.bg
        if self.reverse:
            fg, bg = bg, fg & 7
        return Cell(char, fg, bg, self.blink)

    def _print(self, ch: str) -> None:
        c = self.canvas
        if self.x >= c.width:
            self.x = 0
            self._linefeed()
        cell = self._cell(ch)
        c.put(self.x, self.y, cell.char, cell.fg, cell.bg, cell.blink)
        self.max_row = max(self.max_row, self.y)
        self.x += 1

    def _linefeed(self) -> None:
        c = self.canvas
        if self.y < c.height - 1:
            self.y += 1
        elif self.scroll:
            for yy in range(c.height - 1):
                for xx in range(c.width):
                    g = c.get(xx, yy + 1)
                    c.put(xx, yy, g.char, g.fg, g.bg, g.blink)
            c.fill(0, c.height - 1, c.width, 1)

    def _erase(self, x0: int, y0: int, x1: int, y1: int) -> None:
        """Blank cells from (x0, y0) to (x1, y1) inclusive, row-major."""
        c = self.canvas
        bg = self.bg
        for y in range(y0, y1 + 1):
            a = x0 if y == y0 else 0
            b = x1 if y == y1 else c.width - 1
            c.fill(a, y, b - a + 1, 1, " ", GREY, bg)

    def _csi(self, body: str, final: str) -> None:
        c = self.canvas
        if body.startswith(("?", "=", ">")):
            return
        try:
            args = [int(p) if p else 0 for p in body.split(";")] if body else []
        except ValueError:
            return
        n = max(1, args[0]) if args else 1
        w, h = c.width, c.height
        x = min(self.x, w - 1)
        if final in "Hf":
            row = args[0] if args else 1
            col = args[1] if len(args) > 1 else 1
            self.y = min(max(row, 1), h) - 1
            self.x = min(max(col, 1), w) - 1
        elif final == "A":
            self.y, self.x = max(0, self.y - n), x
        elif final == "B":
            self.y, self.x = min(h - 1, self.y + n), x
        elif final == "C":
            self.x = min(w - 1, x + n)
        elif final == "D":
            self.x = max(0, x - n)
        elif final == "G":
            self.x = min(w, n) - 1
        elif final == "d":
            self.y = min(h, n) - 1
        elif final == "J":
            mode = args[0] if args else 0
            if mode == 0:
                self._erase(x, self.y, w - 1, h - 1)
            elif mode == 1:
                self._erase(0, 0, x, self.y)
            else:
                self._erase(0, 0, w - 1, h - 1)
                self.x = self.y = 0
        elif final == "K":
            mode = args[0] if args else 0
            a, b = {0: (x, w - 1), 1: (0, x)}.get(mode, (0, w - 1))
            self._erase(a, self.y, b, self.y)
        elif final == "m":
            self._sgr(args or [0])
        elif final == "s":
            self.saved = (self.x, self.y)
        elif final == "u":
            self.x, self.y = self.saved

    def _sgr(self, args: list[int]) -> None:
        for a in args:
            if a == 0:
                self.fg, self.bg = GREY, BLACK
                self.bold = self.blink = self.reverse = False
            elif a == 1:
                self.bold = True
            elif a in (5, 6):
                self.blink = True
            elif a == 7:
                self.reverse = True
            elif a == 22:
                self.bold = False
            elif a == 25:
                self.blink = False
            elif a == 27:
                self.reverse = False
            elif 30 <= a <= 37:
                self.fg = a - 30
            elif a == 39:
                self.fg = GREY
            elif 40 <= a <= 47:
                self.bg = a - 40
            elif a == 49:
                self.bg = BLACK
            elif 90 <= a <= 97:
                self.fg = a - 90 + 8
            elif 100 <= a <= 107:
                self.bg = a - 100


MAX_WIDTH = 1000      # columns of art kept; wider art is cut, as the screen cuts it anyway


def load_ans(path: str | os.PathLike[str], width: int | None = None) -> tuple[Canvas, Sauce | None]:
    """The art of a ``.ans`` file on a canvas as wide as its SAUCE says (or
    ``width``, or 80) and as tall as its SAUCE says or its art reaches."""
    with open(path, "rb") as f:
        return parse_ans(f.read(), width)


def parse_ans(data: bytes, width: int | None = None) -> tuple[Canvas, Sauce | None]:
    """``load_ans`` of a ``.ans`` file's bytes (package data, for one)."""
    sauce = parse_sauce(data)
    if width is None:
        width = sauce.width if sauce and sauce.datatype == 1 and sauce.width else 80
    width = min(width, MAX_WIDTH)     # (SAUCE may say 65535: a canvas of half a gigabyte)
    tall = Canvas(width, 1000)
    interp = AnsiInterpreter(tall, "cp437", scroll=False)
    interp.feed(art_bytes(data))
    height = sauce.height if sauce and sauce.height else interp.max_row + 1
    return tall.region(0, 0, width, max(1, height)).copy(), sauce
