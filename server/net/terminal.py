"""A caller's terminal: key decoding, charset, size, CTRL-S/CTRL-Q pause and
the output path through one diff renderer.

Facts this is built on (telnetlib3 5.0.1 and real clients): one read is not
one key; Enter arrives as CR, CR LF, CR NUL, LF or LF CR; arrows as ``ESC [ A`` or
``ESC O A``; Backspace as 0x08, or as DEL 0x7F on PuTTY, xterm and Linux
telnet (whose Delete key sends ``ESC [ 3 ~``), where DEL is the Delete key
of BBS terminals; SyncTERM's End,
PgUp, PgDn and Insert as ``ESC [ K``, ``V``, ``U``, ``@``; a lone ESC is
recognised after a short wait; CTRL-S (0x13) and CTRL-Q (0x11) arrive as
bytes and the pause is ours.
"""
from __future__ import annotations

import asyncio
import codecs
import contextlib
import time
from collections.abc import Callable
from typing import Protocol, runtime_checkable

from ansi import keys as K
from ansi.canvas import Canvas, Row
from ansi.plain import PlainRenderer
from ansi.render import DiffRenderer

__all__ = ["KeyDecoder", "Terminal", "Connection", "Pushes", "charset_for_term", "charset_is_sure",
           "is_plain_term",
           "PAUSE", "RESUME", "MIN_COLS", "MIN_ROWS", "SIZE_MIN", "SIZE_MAX", "TERM_MAX",
           "clamp_size", "clean_term", "small_canvas_size"]

PAUSE, RESUME = "PAUSE", "RESUME"
MIN_COLS, MIN_ROWS = 80, 24
# The one range of window sizes a caller may report, whatever the way in
# (telnet NAWS, RLogin window messages, door mode's forwarded NAWS, the
# browser seat): a size sets the cost of every frame drawn for the caller,
# so it is bounded before anything is drawn at it.
SIZE_MIN = (1, 1)        # (cols, rows): a tiny window is told its own size
SIZE_MAX = (255, 255)
TERM_MAX = 40            # characters of a terminal type kept (a type is a short name)


def clamp_size(cols: int, rows: int) -> tuple[int, int]:
    """A reported window size within ``SIZE_MIN``..``SIZE_MAX``; 0 (no
    size reported) stays 0."""
    def one(n: int, low: int, high: int) -> int:
        return 0 if n <= 0 else max(low, min(high, n))
    return one(cols, SIZE_MIN[0], SIZE_MAX[0]), one(rows, SIZE_MIN[1], SIZE_MAX[1])


def clean_term(term: str | None) -> str:
    """A terminal type as the caller sent it, cut to ``TERM_MAX`` printable
    ASCII characters (it is logged and shown to the sysop)."""
    return "".join(c for c in (term or "") if " " < c <= "~")[:TERM_MAX]


def small_canvas_size(cols: int, rows: int) -> tuple[int, int]:
    """The canvas of the "window too small" screen: the caller's size, but
    never more than ``MIN_COLS`` x ``MIN_ROWS`` (a window only too small one
    way is drawn no bigger than a normal screen)."""
    return max(1, min(cols, MIN_COLS)), max(1, min(rows, MIN_ROWS))

_BBS_TERMS = ("ansi", "ansi-bbs", "pcansi", "syncterm", "netrunner", "cterm", "ansi-256color-bbs", "dumb-bbs")


_UTF8_SUFFIXES = ("-utf8", "-utf-8", ".utf8", ".utf-8")


def is_bbs_term(term: str | None) -> bool:
    """A BBS terminal (SyncTERM, NetRunner, ANSI-BBS), whatever its charset:
    its DEL (0x7F) is the Delete key, where the xterm family's is Backspace."""
    term = (term or "").strip().lower()
    for suffix in _UTF8_SUFFIXES:
        term = term.removesuffix(suffix)
    return term in _BBS_TERMS or term.startswith(("ansi-bbs", "syncterm", "pcansi", "netrunner"))


def charset_for_term(term: str | None) -> str:
    """CP437 for BBS terminals, UTF-8 for the rest (and for a type that says
    UTF-8, such as door mode's ``ansi-utf8``)."""
    if (term or "").strip().lower().endswith(_UTF8_SUFFIXES):
        return "utf8"
    return "cp437" if is_bbs_term(term) else "utf8"


def is_plain_term(term: str | None) -> bool:
    """A terminal type that takes no ANSI at all (``dumb``; door mode sends
    ``dumb-bbs`` or ``dumb-utf8`` for DOOR32.SYS emulation 0, naming the
    charset of the caller's 8-bit keys): such a caller gets plain text only."""
    name = (term or "").strip().lower().split("/")[0]
    for suffix in (*_UTF8_SUFFIXES, "-bbs"):
        name = name.removesuffix(suffix)
    return name in ("dumb", "plain", "tty", "ascii")


_UTF8_TERMS = ("xterm", "rxvt", "linux", "putty", "konsole", "gnome", "alacritty", "kitty", "foot",
               "st-", "wezterm", "iterm", "mintty", "vte", "contour", "ghostty", "eterm", "urxvt")


def charset_is_sure(term: str | None) -> bool:
    """Whether the terminal type says the charset: BBS types (CP437) and
    the xterm family (UTF-8) do; an unknown or generic type (vt100, dumb,
    or screen/tmux, which can sit in front of a CP437 terminal) does not,
    and the session probes the terminal (``ansi.render.CHARSET_PROBE``)."""
    term = (term or "").strip().lower()
    return charset_for_term(term) == "cp437" or term == "st" or term.startswith(_UTF8_TERMS)


_CSI_FINAL = {"A": K.UP, "B": K.DOWN, "C": K.RIGHT, "D": K.LEFT, "H": K.HOME, "F": K.END,
              "P": K.F1,
              # SyncTERM (and ANSI-BBS terminals): End ESC[K, PgUp ESC[V, PgDn ESC[U, Insert ESC[@
              "K": K.END, "V": K.PGUP, "U": K.PGDN, "@": K.INSERT}
_CSI_TILDE = {"1": K.HOME, "7": K.HOME, "2": K.INSERT, "3": K.DELETE, "4": K.END, "8": K.END,
              "5": K.PGUP, "6": K.PGDN, "11": K.F1}
_CONTROL = {0x09: K.TAB, 0x08: K.BACKSPACE, 0x7F: K.DELETE, 0x0C: K.CTRL_L, 0x03: K.CTRL_C,
            0x04: K.CTRL_D, 0x13: PAUSE, 0x11: RESUME}
_MAX_SEQ = 16
# Enter is one key whichever end of line the client sends: CR LF, CR NUL and
# LF CR are one Enter (the second byte is dropped, even in a later read); a
# second CR after a CR is Enter pressed twice.
_AFTER_CR = (0x0A, 0x00)
_AFTER_LF = (0x0D,)


class KeyDecoder:
    """Turns a stream of bytes into key names (see ``ansi.keys``).

    ``feed`` returns the complete keys; an unfinished escape sequence waits
    for more bytes, and ``flush`` (after ``ESC_WAIT`` seconds) turns a lone
    ESC into the ESC key."""

    ESC_WAIT = 0.25

    def __init__(self, charset: str = "utf8", del_is_delete: bool = True):
        self.charset = charset
        self._del = K.DELETE if del_is_delete else K.BACKSPACE     # what DEL (0x7F) is on this terminal
        self._utf8 = codecs.getincrementaldecoder("utf-8")("replace")
        self._pending = ""            # an unfinished escape sequence
        self._pending_since = 0.0
        self._eol_rest: tuple[int, ...] = ()   # what would end a two-byte end of line begun by the last byte
        self._overlong = False        # inside an overlong sequence: dropped up to its final byte
        self.cursor_reports: list[tuple[int, int]] = []   # (row, column), 1-based: never keys

    def _decode(self, data: bytes) -> str:
        if self.charset == "utf8":
            return self._utf8.decode(data)
        return data.decode("cp437", "replace")

    def feed(self, data: bytes, now: float | None = None) -> list[str]:
        now = time.monotonic() if now is None else now
        out: list[str] = []
        text = self._pending + self._decode(data)
        self._pending = ""
        i = 0
        while i < len(text):
            ch = text[i]
            code = ord(ch)
            if self._overlong:
                self._overlong = "\x20" <= ch <= "\x3f"
                if self._overlong or "\x40" <= ch <= "\x7e":
                    i += 1
                    continue
            if self._eol_rest:
                rest, self._eol_rest = self._eol_rest, ()
                if code in rest:
                    i += 1
                    continue
            if code == 0x1B:
                key, used = self._escape(text, i)
                if used == 0:      # incomplete: wait for more
                    self._pending = text[i:]
                    self._pending_since = now
                    break
                if key:
                    out.append(key)
                i += used
                continue
            i += 1
            if code == 0x0D:
                out.append(K.ENTER)
                self._eol_rest = _AFTER_CR
            elif code == 0x0A:
                out.append(K.ENTER)
                self._eol_rest = _AFTER_LF
            elif code == 0x7F:
                out.append(self._del)
            elif code in _CONTROL:
                out.append(_CONTROL[code])
            elif ch.isprintable():
                out.append(ch)
            # other control characters and NULs are ignored
        return out

    def _escape(self, text: str, i: int) -> tuple[str | None, int]:
        """(key or None to ignore, characters used); used 0 = incomplete."""
        if i + 1 >= len(text):
            return None, 0
        intro = text[i + 1]
        if intro == "\x1b":
            return K.ESC, 1
        if intro not in "[O":
            return K.ESC, 1        # ESC then an ordinary key: both count
        j = i + 2
        while j < len(text) and j - i < _MAX_SEQ:
            c = text[j]
            if "\x40" <= c <= "\x7e" and not (intro == "[" and c == "[" and j == i + 2):
                body = text[i + 2:j]
                if c == "~":
                    return _CSI_TILDE.get(body.split(";")[0]), j + 1 - i
                if intro == "O" and c in "PQRS":
                    return (K.F1 if c == "P" else None), j + 1 - i
                if body.startswith("["):   # the Linux console's F1-F5 (ESC [ [ A to E): never arrows
                    return (K.F1 if c == "A" else None), j + 1 - i
                if c == "R":           # a cursor position report (ESC[row;colR): not a key
                    row, _, col = body.partition(";")
                    if row.isdecimal() and col.isdecimal():
                        self.cursor_reports.append((int(row), int(col)))
                    return None, j + 1 - i
                return _CSI_FINAL.get(c), j + 1 - i
            if not ("\x20" <= c <= "\x3f" or c == "["):
                return None, j - i      # garbage: drop the broken sequence
            j += 1
        if j - i >= _MAX_SEQ:        # too long to be a key: swallowed to its final byte
            while j < len(text) and "\x20" <= text[j] <= "\x3f":
                j += 1
            if j == len(text):
                self._overlong = True
            elif "\x40" <= text[j] <= "\x7e":
                j += 1
            return None, j - i
        return None, 0

    def pending_deadline(self) -> float | None:
        return self._pending_since + self.ESC_WAIT if self._pending else None

    def flush(self, now: float | None = None) -> list[str]:
        """After the wait, a lone ESC (and whatever followed) becomes keys."""
        now = time.monotonic() if now is None else now
        if not self._pending or now < self._pending_since + self.ESC_WAIT:
            return []
        rest, self._pending = self._pending[1:], ""
        return [K.ESC] + self.feed(rest.encode("utf-8") if self.charset == "utf8"
                                   else rest.encode("cp437", "replace"), now)


class Connection(Protocol):
    """What a session needs of its transport (telnet, RLogin, sysop socket)."""

    peer: str
    on_resize: Callable[[], None] | None

    @property
    def term(self) -> str: ...
    @property
    def cols(self) -> int: ...
    @property
    def rows(self) -> int: ...

    async def read(self) -> bytes: ...          # b"" at the end
    def write(self, data: bytes) -> None: ...
    def backlog(self) -> int: ...               # bytes written, not yet handed to the network
    async def drain(self) -> None: ...
    def close(self) -> None: ...
    def is_closing(self) -> bool: ...


@runtime_checkable
class Pushes(Protocol):
    """A connection that can hand its input over as it arrives, with no task
    waiting on ``read`` (a key reaches its screen one turn of the event loop
    sooner): ``listen(on_data, on_end)`` returns False when it can't, and
    ``pause_reading``/``resume_reading`` hold back a caller typing faster
    than the session works."""

    def listen(self, on_data: Callable[[bytes], None], on_end: Callable[[], None]) -> bool: ...
    def pause_reading(self) -> None: ...
    def resume_reading(self) -> None: ...


class Terminal:
    """The output side: sends the latest screen through the session's diff
    renderer. While paused (CTRL-S) nothing is sent; on CTRL-Q the current
    screen is sent, not a backlog of every change. While the line drains a
    frame, newer ones wait and only the latest is sent, so a slow line never
    queues stale frames. Once sent, the canvas is let go: the renderer
    remembers what the caller's screen shows (a redraw repaints from that)."""

    __slots__ = ("conn", "renderer", "paused", "bytes_sent", "_latest", "_flush_due", "_draining")

    def __init__(self, conn: Connection, charset: str, plain: bool = False):
        self.conn = conn
        self.renderer: DiffRenderer | PlainRenderer = (PlainRenderer(MIN_COLS, MIN_ROWS, charset) if plain
                                                       else DiffRenderer(MIN_COLS, MIN_ROWS, charset))
        self.paused = False
        self.bytes_sent = 0
        self._latest: tuple[Canvas, tuple[int, int] | None] | None = None
        self._flush_due = False
        self._draining: asyncio.Task[None] | None = None

    @property
    def charset(self) -> str:
        return self.renderer.charset

    @charset.setter
    def charset(self, value: str) -> None:
        if value != self.renderer.charset:
            self._keep_shown()
            self.renderer.charset = value

    @property
    def plain(self) -> bool:
        """Line by line, no escape byte ever (``ansi.plain``)."""
        return isinstance(self.renderer, PlainRenderer)

    def set_plain(self, plain: bool) -> None:
        """Change to plain text (or back to ANSI) from the next frame."""
        if plain != self.plain:
            charset = self.renderer.charset
            self.renderer = (PlainRenderer(MIN_COLS, MIN_ROWS, charset) if plain
                             else DiffRenderer(MIN_COLS, MIN_ROWS, charset))
            self.redraw()

    def too_small(self) -> bool:
        """Whether the window cannot hold a screen (plain text goes out line
        by line: a 72-column teletype or a 20-row window takes it)."""
        cols, rows = self.conn.cols, self.conn.rows
        return not self.plain and (0 < cols < MIN_COLS or 0 < rows < MIN_ROWS)

    async def stop(self) -> None:
        self._latest = None
        task, self._draining = self._draining, None
        if task is not None:
            task.cancel()
            try:
                await task
            except (asyncio.CancelledError, Exception):
                pass

    async def finish(self, tail: bytes, timeout: float = 2.0) -> None:
        """The last frame (sent even while paused), then ``tail``; waits at
        most ``timeout`` for the line to take them."""
        self.paused = False
        self._flush()
        with contextlib.suppress(TimeoutError, ConnectionError, OSError):
            async with asyncio.timeout(timeout):
                while self._draining is not None:     # (the drain sends the waiting frame next)
                    await asyncio.shield(self._draining)
                if not self.conn.is_closing():
                    self.conn.write(tail)
                    await self.conn.drain()

    def show(self, canvas: Canvas, cursor: tuple[int, int] | None = None) -> bool:
        """Send ``canvas`` now (unless paused, or the line is still draining
        the last frame: then it waits, and only the latest is sent). True
        when it was rendered now."""
        self._latest = (canvas, cursor)
        return self._flush()

    def show_rows(self, changes: dict[int, tuple[Row, Row]], cursor: tuple[int, int] | None = None) -> bool:
        """Send the change of a few rows of the last frame (``DiffRenderer.render_rows``)
        now, with no canvas drawn. False, with nothing sent, when that can't
        be: paused, a frame waiting or still draining, the screen's width
        changed, or the last frame had other rows there; then show the whole."""
        if self.paused or self._latest is not None or self._draining is not None or self.conn.is_closing():
            return False
        renderer = self.renderer
        if not isinstance(renderer, DiffRenderer) or \
                max(clamp_size(self.conn.cols, 0)[0], renderer.width) != renderer.screen_width:
            return False                 # plain text; or its width changed: a repaint (``_flush``)
        data = renderer.render_rows(changes, cursor)
        if data is None:
            return False
        self._send(data)
        return True

    def composed(self) -> tuple[Canvas, tuple[int, int] | None] | None:
        """The screen last composed for the caller and its cursor: the frame
        waiting to be sent (held by CTRL-S, or this very turn of the loop),
        else what the caller's screen shows."""
        return self._latest or self.renderer.shown()

    def redraw(self) -> None:
        """Repaint everything on the next frame (CTRL-L, resize, charset)."""
        self._keep_shown()
        self.renderer.invalidate()
        self._flush_soon()

    def _keep_shown(self) -> None:
        """Before the renderer forgets the screen: keep it to repaint, unless
        a newer frame is waiting anyway."""
        if self._latest is None:
            self._latest = self.renderer.shown()

    def bell(self) -> None:
        if not self.paused and not self.conn.is_closing():
            self.conn.write(b"\x07")

    def pause(self) -> None:
        self.paused = True

    def resume(self) -> None:
        if self.paused:
            self.paused = False
            self._flush_soon()

    def _flush_soon(self) -> None:
        if not self._flush_due:
            self._flush_due = True
            asyncio.get_running_loop().call_soon(self._flush)

    def _flush(self) -> bool:
        self._flush_due = False
        if self.paused or self._latest is None or self._draining is not None:
            return False
        if self.conn.is_closing():
            self._latest = None
            return False
        canvas, cursor = self._latest
        self._latest = None
        self.renderer.set_screen_width(clamp_size(self.conn.cols, 0)[0])   # wider than 80: no wrap to lean on
        self._send(self.renderer.render(canvas, cursor))
        return True

    def _send(self, data: bytes) -> None:
        if data:
            self.conn.write(data)
            self.bytes_sent += len(data)
            if self.conn.backlog():      # (most frames go out at once: no waiting to set up)
                self._draining = asyncio.create_task(self._drain())

    async def _drain(self) -> None:
        try:
            await self.conn.drain()
        except (ConnectionError, OSError):
            return                       # the caller is gone: nothing more to send
        finally:
            self._draining = None
        self._flush()
