"""Plain output for callers without ANSI (a dumb terminal, DOOR32.SYS
emulation 0, a screen reader): line by line, no cursor movement, not one
escape byte. Each frame prints the screen's lines that changed since the
last one, in order; a new screen (most lines changed) prints all of its
non-blank lines after a separator. The line the caller types in (the only
one changed, with the cursor on it) is printed once and left open: each
key then sends what it added, or backspaces over what it took away, as a
line-mode terminal's own echo would. Text is 7-bit ASCII (box lines become
``-``, ``|`` and ``+``; anything else unknown ``?``); lines end CR LF.

``PlainRenderer`` has the interface of ``ansi.render.DiffRenderer`` that a
terminal uses, so a session swaps one for the other."""
from __future__ import annotations

import unicodedata

from ansi.canvas import Canvas

__all__ = ["PlainRenderer", "to_ascii"]

_BOXES = str.maketrans({
    **dict.fromkeys("─═━┄┈╌▀▄", "-"), **dict.fromkeys("│║┃┆┊╎▌▐", "|"),
    **dict.fromkeys("┌┐└┘├┤┬┴┼╔╗╚╝╠╣╦╩╬╒╓╕╖╘╙╛╜╞╟╡╢╤╥╧╨╪╫", "+"),
    "·": ".", "•": "*", "█": "#", "▓": "#", "▒": "#", "░": ".", "±": "+", "►": ">", "◄": "<",
    "▲": "^", "▼": "v", "←": "<", "→": ">", "↑": "^", "↓": "v", "…": "...", "×": "x", "°": "o",
    "■": "#", "≈": "~", "∙": ".",      # (a hidden piece and a lake are not both "?")
})


def to_ascii(text: str) -> str:
    """``text`` in printable 7-bit ASCII: boxes as ``-|+``, accents dropped,
    control characters (ESC among them) and anything else as ``?``."""
    text = text.translate(_BOXES)
    out = []
    for ch in text:
        if " " <= ch <= "~":
            out.append(ch)
            continue
        base = unicodedata.normalize("NFKD", ch).encode("ascii", "ignore").decode()
        out.append(base if base and all(" " <= c <= "~" for c in base) else "?")
    return "".join(out)


class PlainRenderer:
    """Frames as changed lines of ASCII text (see the module doc)."""

    def __init__(self, width: int = 80, height: int = 24, charset: str = "ascii"):
        self.width, self.height = width, height
        self.screen_width = width
        self.charset = charset          # kept for the session; the output is ASCII whatever it is
        self.bytes_sent = 0
        self.frames = 0
        self._lines: list[str] | None = None
        self._canvas: Canvas | None = None
        self._open: tuple[int, str] | None = None    # (row, text) of the typed line left open

    def invalidate(self) -> None:
        self._lines = None

    def set_screen_width(self, cols: int) -> None:
        self.screen_width = max(cols, self.width)

    def shown(self) -> tuple[Canvas, tuple[int, int] | None] | None:
        return None if self._canvas is None or self._lines is None else (self._canvas, None)

    def resize(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.invalidate()

    def render(self, canvas: Canvas, cursor: tuple[int, int] | None = None) -> bytes:
        lines = [to_ascii(line).rstrip() for line in canvas.lines()]
        before = self._lines
        self._lines, self._canvas = lines, canvas
        if before is not None and len(before) == len(lines):
            changed = [y for y, line in enumerate(lines) if line != before[y]]
            if not changed:
                return b""
            if len(changed) == 1 and cursor is not None and cursor[1] == changed[0]:
                return self._typing(changed[0], lines[changed[0]])
            if len(changed) * 2 <= len(lines):
                out = [lines[y] for y in changed if lines[y].strip()]
                return self._emit(out)
        return self._emit(["-" * 20] + [line for line in lines if line.strip()])

    def release(self) -> bytes:
        """The end of a call: the last line ends, nothing else."""
        self._open = None
        return b"\r\n"

    def full(self, canvas: Canvas, cursor: tuple[int, int] | None = None) -> bytes:
        self.invalidate()
        return self.render(canvas, cursor)

    def _typing(self, y: int, line: str) -> bytes:
        """The typed line changed: what was added, or backspaces over what
        was taken away; a line that changed otherwise, printed anew."""
        kept = self._open[1] if self._open is not None and self._open[0] == y else None
        if kept is not None and line.startswith(kept):
            text = line[len(kept):]
        elif kept is not None and kept.startswith(line):
            text = "\b \b" * (len(kept) - len(line))
        else:
            text = ("\r\n" if self._open is not None else "") + line
        self._open = (y, line)
        return self._send(text)

    def _emit(self, lines: list[str]) -> bytes:
        if not lines:
            return b""
        text = "\r\n".join(lines) + "\r\n"
        if self._open is not None:           # the typed line ends first
            text, self._open = "\r\n" + text, None
        return self._send(text)

    def _send(self, text: str) -> bytes:
        if not text:
            return b""
        data = text.encode("ascii", "replace")
        self.bytes_sent += len(data)
        self.frames += 1
        return data
