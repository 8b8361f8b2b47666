"""Drive the real server over loopback telnet and read each caller's screen
through a terminal emulator (pyte), as a caller would see it."""
from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pyte
import telnetlib3

from ansi.cp437 import FILE_CONTROLS, decode_cp437
from server.app import App
from server.config import Config

__all__ = ["start_app", "Caller", "UP", "DOWN", "LEFT", "RIGHT", "ENTER", "ESC"]

UP, DOWN, RIGHT, LEFT = "\x1b[A", "\x1b[B", "\x1b[C", "\x1b[D"
# a BBS terminal rings its bell on BEL (the game-over bell) and prints nothing
_TERMINAL_CONTROLS = FILE_CONTROLS | {0x07}
ENTER, ESC = "\r", "\x1b"


async def start_app(db: Path, wall: Any = None, **sections: Mapping[str, Any]) -> App:
    """An App on ``db`` (start one again on the same file: a restart);
    ``wall``: a fake wall clock for by-turns games; ``sections``: settings
    by TOML section (``rlogin={"enabled": True, "port": 0}``), checked as a
    settings file is (short delays below a sysop's range allowed), over the
    harness's own."""
    tables: dict[str, dict[str, Any]] = {
        "server": {"port": 0, "connect_maxwait": 0.5,
                   "shutdown_grace_seconds": 0},    # a test's stop does not wait for readers
        "paths": {"state_dir": str(db.parent)},
        "store": {"database": str(db)},
        "sysop": {"socket": str(db.parent / "sysop.sock")},     # never the shared default
        "limits": {"new_accounts_per_hour": 1000},   # tests register many callers from 127.0.0.1
        "timing": {"bot_min_delay": 0.02, "login_fail_delay": 0.01},
        "awari": {"build_endgame": False},
    }
    for section, table in sections.items():
        tables.setdefault(section, {}).update(table)
    config = Config().with_tables(tables, source="start_app", ranges=False)
    app = App(config) if wall is None else App(config, wall)
    await app.start()
    return app


class _AnsweringScreen(pyte.Screen):
    """A pyte screen that answers cursor position requests (ESC[6n) the way
    a real terminal does, through ``answer``."""

    answer: Any = None

    def write_process_input(self, data: str) -> None:
        if self.answer is not None:
            self.answer(data.encode("ascii"))


class Caller:
    """A telnet caller with an 80x24 pyte screen.

    ``charset`` is what the caller's terminal decodes (by default what its
    type says); ``answers`` makes it answer cursor position requests;
    ``onlcr`` makes it turn every LF it receives into CR LF, as many
    telnet clients and a tty's ONLCR do."""

    def __init__(self, reader, writer, charset: str, answers: bool = False, onlcr: bool = False,
                 rows: int = 24):
        self.reader = reader
        self.writer = writer
        self.charset = charset
        self.onlcr = onlcr
        self.screen = _AnsweringScreen(80, rows)
        if answers:
            self.screen.answer = self.send
        self.stream = pyte.Stream(self.screen)
        self.received = bytearray()
        self.closed = False
        self._decoder = None
        self._pump = asyncio.create_task(self._read())

    @classmethod
    async def connect(cls, port: int, term: str = "xterm", cols: int = 80, rows: int = 24,
                      charset: str | None = None, answers: bool = False, onlcr: bool = False,
                      source: str | None = None) -> Caller:
        """``source``: the caller's own address (any of 127.0.0.0/8 on the loopback)."""
        reader, writer = await telnetlib3.open_connection(
            "127.0.0.1", port, encoding=False, term=term, cols=cols, rows=rows,
            connect_minwait=0.05, connect_maxwait=1.0, local_addr=(source, 0) if source else None)
        from server.net.terminal import charset_for_term
        return cls(reader, writer, charset or charset_for_term(term), answers, onlcr, rows)

    async def _read(self) -> None:
        import codecs
        utf8 = codecs.getincrementaldecoder("utf-8")("replace")
        while True:
            data = await self.reader.read(65536)
            if not data:
                self.closed = True
                return
            self.received += data
            if self.onlcr:
                data = data.replace(b"\n", b"\r\n")
            text = utf8.decode(data) if self.charset == "utf8" else decode_cp437(data, _TERMINAL_CONTROLS)
            self.stream.feed(text)

    # ----- reading the screen ---------------------------------------------------
    def text(self) -> str:
        return "\n".join(self.screen.display)

    def line(self, y: int) -> str:
        return self.screen.display[y]

    async def expect(self, pattern: str, timeout: float = 8.0, regex: bool = False) -> str:
        """Wait until ``pattern`` is on screen; returns the screen text."""
        deadline = time.monotonic() + timeout
        while True:
            text = self.text()
            if (re.search(pattern, text) if regex else pattern in text):
                return text
            if time.monotonic() > deadline or self.closed:
                raise AssertionError(f"{pattern!r} never appeared; screen:\n{text}")
            await asyncio.sleep(0.02)

    async def expect_gone(self, pattern: str, timeout: float = 8.0) -> str:
        deadline = time.monotonic() + timeout
        while pattern in self.text():
            if time.monotonic() > deadline:
                raise AssertionError(f"{pattern!r} stayed on screen:\n{self.text()}")
            await asyncio.sleep(0.02)
        return self.text()

    async def settle(self, quiet: float = 0.15, timeout: float = 5.0) -> None:
        """Wait until nothing has arrived for ``quiet`` seconds."""
        deadline = time.monotonic() + timeout
        size = -1
        while time.monotonic() < deadline:
            if len(self.received) == size:
                return
            size = len(self.received)
            await asyncio.sleep(quiet)

    # ----- typing -----------------------------------------------------------------
    def send(self, keys: str | bytes) -> None:
        self.writer.write(keys.encode("utf-8") if isinstance(keys, str) else keys)

    async def type(self, keys: str | bytes, pause: float = 0.0) -> None:
        self.send(keys)
        await asyncio.sleep(pause)

    async def login(self, handle: str, password: str = "secret1", new: bool = True) -> None:
        await self.expect("Handle")
        self.send(handle + ENTER)
        if new:
            await self.expect("Register?")
            self.send("y")
            await self.expect("Choose a password")
            self.send(password + ENTER)
            await self.expect("once more")
            self.send(password + ENTER)
        else:
            await self.expect("Password:")
            self.send(password + ENTER)
        await self.expect("Who's online")

    async def close(self) -> None:
        self.writer.close()
        self._pump.cancel()
        try:
            await self._pump
        except (asyncio.CancelledError, Exception):
            pass


def session_of(app: App, handle: str):
    """The server's session of a caller (tests read it; they type through telnet)."""
    session = app.find_session(handle)
    assert session is not None, f"{handle} is not online"
    return session


def composed_text(app: App, handle: str) -> str:
    """The screen the server last composed for a caller, whether or not it
    was sent (while a caller holds output with CTRL-S it is not)."""
    latest = session_of(app, handle).terminal.composed()
    return "" if latest is None else "\n".join(latest[0].lines())


def arrows_between(src: int, dst: int, size: int) -> str:
    """Arrow keys that take a board cursor from square ``src`` to ``dst``
    (squares numbered row * size + col, row 0 at the bottom, UP adds a row)."""
    (sr, sc), (dr, dc) = divmod(src, size), divmod(dst, size)
    vertical = (UP if dr > sr else DOWN) * abs(dr - sr)
    horizontal = (RIGHT if dc > sc else LEFT) * abs(dc - sc)
    return vertical + horizontal


async def wait_until(predicate, timeout: float = 30.0, what: str = "condition") -> None:
    # a bound, not a pace: a loaded 2-core machine (the suite beside the
    # benches) once took more than 10 s for one sowing to land
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


async def challenge_computer(caller: Caller, app: App, handle: str, title: str,
                             option_keys: str = "") -> Any:
    """From the lobby: p, the door by its title, the computer, options typed
    as keys on the options screen, then start. Returns the match."""
    caller.send("p")
    await caller.expect("Choose a door")
    doors = [info.title for info in session_of(app, handle).screens[-1].doors]
    caller.send(str(doors.index(title) + 1))
    await caller.expect("choose your opponent")
    caller.send("1")
    await caller.expect("options")
    screen = session_of(app, handle).screens[-1]
    rows = len(screen._rows())
    # the options keys move the selection down/up and change values; then as
    # many DOWNs as take it to the last row ("start"), all in typing order
    index = (option_keys.count(DOWN) - option_keys.count(UP)) % rows
    caller.send(option_keys + DOWN * (rows - 1 - index) + ENTER)
    await wait_until(lambda: hasattr(session_of(app, handle).screens[-1], "match"), what="game screen")
    return session_of(app, handle).screens[-1].match


def door_digit(title: str) -> str:
    """The key that picks a door by its title on the new-game screen."""
    from doors import registry
    return str([info.title for info in registry().values()].index(title) + 1)


async def play_towers_move(driver: Caller, session, match, me: int, pick: int = 0) -> None:
    """One legal Towers move for seat ``me`` (legal action number ``pick``),
    typed by ``driver`` with arrows and Enter as a person would."""
    from doors.towers.rules import Move, Place
    ui = session.screens[-1].ui
    action = match.state.legal_actions(me)[pick]
    before = len(match.state.history)
    if isinstance(action, Place):
        driver.send(arrows_between(ui.cursor_sq, action.square, 8) + ENTER)
    else:
        assert isinstance(action, Move)
        driver.send(arrows_between(ui.cursor_sq, action.origin, 8) + ENTER)
        await wait_until(lambda: ui.selected == action.origin, what="selection")
        driver.send(arrows_between(action.origin, action.target, 8) + ENTER)
    await wait_until(lambda: len(match.state.history) > before, what="move applied")
