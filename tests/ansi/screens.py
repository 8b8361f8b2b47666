"""Test helpers: what a caller's screen shows, read back two ways."""
from __future__ import annotations

import pyte

from ansi.art import AnsiInterpreter
from ansi.canvas import Canvas, Cell
from ansi.cp437 import decode_cp437, wire_char
from ansi.render import normalize

PYTE_COLOURS = ["black", "red", "green", "brown", "blue", "magenta", "cyan", "white"]


def visible(canvas: Canvas, charset: str) -> Canvas:
    """What a caller should see for ``canvas``: normalised cells, characters
    as sent for ``charset``, and the never-printed bottom-right cell blank."""
    out = Canvas(canvas.width, canvas.height)
    for y in range(canvas.height):
        for x in range(canvas.width):
            c = normalize(canvas.get(x, y))
            out.cells[y * canvas.width + x] = normalize(
                Cell(wire_char(c.char, charset), c.fg, c.bg, c.blink))
    w, h = canvas.width, canvas.height
    out.cells[-1] = Cell(" ", 7, canvas.get(w - 1, h - 1).bg, False)
    return out


def normalized(canvas: Canvas) -> Canvas:
    return Canvas(canvas.width, canvas.height, [normalize(c) for c in canvas])


class Emulators:
    """The renderer's output fed to our interpreter and to pyte."""

    def __init__(self, width: int, height: int, charset: str):
        self.charset = charset
        self.ours = Canvas(width, height)
        self.interp = AnsiInterpreter(self.ours, charset)
        self.screen = pyte.Screen(width, height)
        # a second pyte whose line discipline turns LF into CR LF (a tty's
        # ONLCR, telnetlib3-client and other telnet clients)
        self.onlcr_screen = pyte.Screen(width, height)
        if charset == "utf8":
            self.stream = pyte.ByteStream(self.screen)
            self.onlcr_stream = pyte.ByteStream(self.onlcr_screen)
        else:
            self.stream = pyte.Stream(self.screen)
            self.onlcr_stream = pyte.Stream(self.onlcr_screen)

    def feed(self, data: bytes) -> None:
        self.interp.feed(data)
        onlcr = data.replace(b"\n", b"\r\n")
        if self.charset == "utf8":
            self.stream.feed(data)
            self.onlcr_stream.feed(onlcr)
        else:
            self.stream.feed(decode_cp437(data))
            self.onlcr_stream.feed(decode_cp437(onlcr))

    def pyte_canvas(self, onlcr: bool = False) -> Canvas:
        s = self.onlcr_screen if onlcr else self.screen
        c = Canvas(s.columns, s.lines)
        for y in range(s.lines):
            row = s.buffer[y]
            for x in range(s.columns):
                ch = row[x]
                fg = 7 if ch.fg == "default" else PYTE_COLOURS.index(ch.fg)
                bg = 0 if ch.bg == "default" else PYTE_COLOURS.index(ch.bg)
                c.cells[y * s.columns + x] = normalize(
                    Cell(ch.data, fg | (8 if ch.bold else 0), bg, ch.blink))
        return c

    def ours_canvas(self) -> Canvas:
        return normalized(self.ours)
