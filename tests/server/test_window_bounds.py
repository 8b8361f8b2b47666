"""Every input that sets what a caller costs has a bound: window sizes (all
ways in), the "too small" screen's canvas, resizes a second, terminal types
and telnet sub-negotiations (NEW-ENVIRON values)."""
from __future__ import annotations

import asyncio
import json
import types
from typing import Any

import pytest
import telnetlib3.stream_writer

from server.config import Config
from server.net.flood import ResizeRate
from server.net.rlogin import RloginInputFilter, WindowSize, window_message
from server.net.streams import StreamConnection
from server.net.telnet import SUBNEGOTIATION_MAX, TelnetConnection, TelnetInputFilter
from server.net.terminal import MIN_COLS, MIN_ROWS, SIZE_MAX, SIZE_MIN, TERM_MAX, clamp_size, clean_term
from server.net.web import WebConnection
from server.screens.session import Session
from server.services import events as E
from server.services.ids import NodeId

IAC, SB, SE, NAWS, TTYPE = 255, 250, 240, 31, 24


def naws(cols: int, rows: int) -> bytes:
    body = (cols.to_bytes(2, "big") + rows.to_bytes(2, "big")).replace(b"\xff", b"\xff\xff")
    return bytes([IAC, SB, NAWS]) + body + bytes([IAC, SE])


def test_sizes_are_clamped_to_one_range_and_no_size_stays_unknown():
    assert clamp_size(79, 65535) == (79, SIZE_MAX[1])
    assert clamp_size(65535, 65535) == SIZE_MAX
    assert clamp_size(1, 1) == SIZE_MIN
    assert clamp_size(0, 0) == (0, 0)
    assert clamp_size(132, 50) == (132, 50)


def test_terminal_types_are_cut_to_printable_ascii():
    assert clean_term("xterm-256color") == "xterm-256color"
    assert clean_term("ansi\x1b[2J\x07") == "ansi[2J"
    assert len(clean_term("x" * 100_000)) == TERM_MAX


class _FakeConn:
    """A transport that reports whatever size it is given, unchecked."""

    peer = "192.0.2.1"
    term = "xterm"

    def __init__(self, cols: int, rows: int) -> None:
        self.cols, self.rows = cols, rows
        self.on_resize = None
        self.sent = bytearray()

    def write(self, data: bytes) -> None:
        self.sent += data

    def backlog(self) -> int:
        return 0

    async def drain(self) -> None:
        return None

    def is_closing(self) -> bool:
        return False

    def close(self) -> None:
        return None


def _session(conn: _FakeConn) -> Session:
    services: Any = types.SimpleNamespace(config=Config())
    return Session(services, conn, NodeId(1))  # type: ignore[arg-type]


def _too_small(size: tuple[int, int]) -> tuple[_FakeConn, Session, Any]:
    """A session whose window is ``size``, drawn once: (conn, session, the canvas shown)."""
    conn = _FakeConn(*size)
    session = _session(conn)
    session._draw()
    shown = session.terminal.renderer.shown()
    assert shown is not None
    return conn, session, shown[0]


@pytest.mark.parametrize("size", [(79, 65535), (65535, 23), (1, 65535), (79, 255), (20, 10), (1, 1)])
def test_the_too_small_screen_is_drawn_on_at_most_80x24_whatever_the_size(size):
    conn, session, canvas = _too_small(size)
    assert canvas.width <= MIN_COLS and canvas.height <= MIN_ROWS
    assert session.terminal.renderer.width <= MIN_COLS and session.terminal.renderer.height <= MIN_ROWS
    assert len(conn.sent) < 4 * MIN_COLS * MIN_ROWS
    if canvas.width > len("Need 80x24"):                  # (the words: the test below)
        assert "80x24" in conn.sent.decode("utf-8", "replace")


@pytest.mark.parametrize("size, told", [
    ((60, 20), "Your window is 60x20. Gatehouse needs at least 80x24: please enlarge it."),
    ((20, 10), "Your window is 20x10. Gatehouse needs at least 80x24: please enlarge it."),
    ((12, 6), "Window 12x6: enlarge it to 80x24."),
    ((8, 2), "Need 80x24")])
def test_a_window_too_small_is_told_its_own_size_in_words_that_fit_in_it(size, told):
    _conn, _session_, canvas = _too_small(size)
    rows = [line.rstrip() for line in canvas.lines()]
    assert canvas.width == size[0] and canvas.height == size[1]
    assert all(len(row) < size[0] for row in rows)          # short of the last column
    assert " ".join(row for row in rows if row) == told


async def test_a_window_dragged_past_the_burst_is_redrawn_once_at_rest_and_the_call_goes_on():
    """xterm reports every cell of a drag: a hundred changes or more. Past
    the burst the screen is not redrawn for each; it is redrawn once, when
    a change is allowed again, and the caller is never cut off."""
    session = _session(_FakeConn(80, 24))
    session.screens.append(types.SimpleNamespace())  # type: ignore[arg-type]
    redraws: list[int] = []
    session.terminal = types.SimpleNamespace(redraw=lambda: redraws.append(1))  # type: ignore[assignment]
    for _ in range(int(ResizeRate.BURST) + 80):
        await session._dispatch(E.Resized())
    assert not session.closed and len(redraws) == int(ResizeRate.BURST)
    async with asyncio.timeout(60):                   # (only turns a hang into a failure)
        event = await session.inbox.get()             # the one redraw at rest
    await session._dispatch(event)
    assert not session.closed and len(redraws) == int(ResizeRate.BURST) + 1
    assert session.inbox.empty()


def test_the_resize_rate_refills_a_few_a_second():
    rate = ResizeRate()
    t = rate.stamp
    assert all(rate.allow(t) for _ in range(int(ResizeRate.BURST)))
    assert not rate.allow(t)
    assert rate.allow(t + 1.0)                        # a second later: a few more
    assert sum(rate.allow(t + 100.0 + i) for i in range(100)) == 100   # once a second, for ever


class _Writer:
    def __init__(self, info: dict[str, Any]) -> None:
        self.info = info

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return self.info.get(name, default)


def test_telnet_sizes_and_terminal_type_are_bounded_and_a_size_that_clamps_the_same_is_no_change():
    writer = _Writer({"peername": ("192.0.2.1", 1), "cols": 79, "rows": 65535, "TERM": "a" * 5000})
    conn = TelnetConnection(None, writer)
    assert (conn.cols, conn.rows) == (79, SIZE_MAX[1])
    assert len(conn.term) == TERM_MAX
    resizes: list[int] = []
    conn.on_resize = lambda: resizes.append(1)
    writer.info["rows"] = 65534                       # the attack's other size: the same once bounded
    conn._resized()
    assert resizes == []
    writer.info["cols"] = 100
    conn._resized()
    assert resizes == [1]


def test_door_mode_forwards_a_bounded_naws():
    clean, size = TelnetInputFilter().feed(b"ab" + naws(79, 65535) + b"c")
    assert clean == b"abc"
    assert size == (79, SIZE_MAX[1])


class _StreamWriter:
    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return ("192.0.2.2", 1) if name == "peername" else default


class _Reader:
    def __init__(self, chunks: list[bytes]) -> None:
        self.chunks = chunks

    async def read(self, n: int) -> bytes:
        return self.chunks.pop(0) if self.chunks else b""


async def test_rlogin_window_messages_are_bounded():
    reader = _Reader([window_message(WindowSize(65535, 79, 0, 0)) + b"k"])
    conn = StreamConnection(reader, _StreamWriter(), "x" * 999, input_filter=RloginInputFilter())  # type: ignore[arg-type]
    assert len(conn.term) == TERM_MAX
    assert await conn.read() == b"k"
    assert (conn.cols, conn.rows) == (79, SIZE_MAX[1])


def test_browser_size_reports_are_bounded():
    conn = object.__new__(WebConnection)
    conn.cols = conn.rows = 0
    conn.on_resize = None
    conn._size_report(json.dumps({"cols": 79, "rows": 10 ** 30}))
    assert (conn.cols, conn.rows) == (79, SIZE_MAX[1])
    conn._size_report(json.dumps({"cols": 0, "rows": 24}))   # no size: ignored
    assert (conn.cols, conn.rows) == (79, SIZE_MAX[1])


def test_a_telnet_subnegotiation_longer_than_the_bound_is_discarded():
    found: list[str] = []
    filt = TelnetInputFilter()
    filt._interpreter.set_ext_callback(TTYPE, lambda term: found.append(term))
    assert telnetlib3.stream_writer._MAX_SUBNEGOTIATION == SUBNEGOTIATION_MAX
    huge = bytes([IAC, SB, TTYPE, 0]) + b"x" * (SUBNEGOTIATION_MAX * 4) + bytes([IAC, SE])
    clean, _ = filt.feed(huge + b"ok")
    assert clean == b"ok"
    assert found == []
    assert filt.feed(naws(100, 30) + b"on") == (b"on", (100, 30))   # and the line goes on
