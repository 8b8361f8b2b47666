"""Drive the real server over loopback telnet and read each caller's screen
through a terminal emulator (pyte), as a caller would see it."""
from __future__ import annotations

import asyncio
import json
import re
import sqlite3
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pyte
import telnetlib3

from ansi.cp437 import FILE_CONTROLS, decode_cp437
from server.app import App
from server.config import Config

__all__ = ["start_app", "Caller", "db_rows", "account", "user_exists", "charset_of", "menu_number", "active_game",
           "moves_of", "start_vs_computer", "game_state", "game_status", "towers_move",
           "option_rows", "arrows_between", "wait_until", "wait_while_moving", "door_digit",
           "UP", "DOWN", "LEFT", "RIGHT", "ENTER", "ESC"]

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
        # the wait for a caller's telnet answers (terminal type: its charset):
        # the product's own, which a loaded machine needs (at 0.5 s callers
        # answered too late and were asked their charset)
        "server": {"port": 0, "connect_maxwait": 2.0,
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

    async def expect(self, pattern: str, timeout: float = 30.0, regex: bool = False) -> str:
        """Wait until ``pattern`` is on screen; returns the screen text."""
        deadline = time.monotonic() + timeout
        while True:
            text = self.text()
            if (re.search(pattern, text) if regex else pattern in text):
                return text
            if time.monotonic() > deadline or self.closed:
                raise AssertionError(f"{pattern!r} never appeared; screen:\n{text}")
            await asyncio.sleep(0.02)

    async def expect_gone(self, pattern: str, timeout: float = 30.0) -> str:
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

    async def log_off(self, timeout: float = 30.0) -> None:
        """From the lobby: g, then y; returns once the server has hung up."""
        self.send("g")
        await self.expect("(y/n)")
        self.send("y")
        await self.wait_hung_up(timeout)
        await self.close()

    async def wait_hung_up(self, timeout: float = 30.0) -> None:
        """Wait until the server has closed this connection."""
        deadline = time.monotonic() + timeout
        while not self.closed:
            if time.monotonic() > deadline:
                raise AssertionError(f"the server never hung up; screen:\n{self.text()}")
            await asyncio.sleep(0.02)

    async def close(self) -> None:
        self.writer.close()
        self._pump.cancel()
        try:
            await self._pump
        except (asyncio.CancelledError, Exception):
            pass


IAC, SB, SE, WILL, WONT, DO, DONT = 255, 250, 240, 251, 252, 253, 254
TTYPE, ECHO, SGA = 24, 1, 3


class NoNawsLine:
    """The reading end of a plain telnet client that says its terminal type
    and refuses every other option (NAWS among them): the server never
    learns the window's size. ``read`` gives the data, the telnet
    commands answered and taken out."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, term: str):
        self.reader, self.writer, self.term = reader, writer, term
        self._state, self._verb, self._sub = 0, 0, bytearray()

    async def read(self, n: int) -> bytes:
        while True:
            data = await self.reader.read(n)
            if not data:
                return data
            out = self._filter(data)
            if out:
                return out

    def _filter(self, data: bytes) -> bytes:
        out = bytearray()
        for c in data:
            if self._state == 0:
                if c == IAC:
                    self._state = 1
                else:
                    out.append(c)
            elif self._state == 1:
                if c == IAC:
                    out.append(c)
                    self._state = 0
                elif c in (WILL, WONT, DO, DONT):
                    self._verb, self._state = c, 2
                elif c == SB:
                    self._sub, self._state = bytearray(), 3
                else:
                    self._state = 0
            elif self._state == 2:
                if self._verb == DO:
                    self.writer.write(bytes([IAC, WILL if c == TTYPE else WONT, c]))
                elif self._verb == WILL:
                    self.writer.write(bytes([IAC, DO if c in (ECHO, SGA) else DONT, c]))
                self._state = 0
            elif self._state == 3:
                if c == IAC:
                    self._state = 4
                else:
                    self._sub.append(c)
            elif c == SE:
                if self._sub[:2] == bytes([TTYPE, 1]):       # SEND: our terminal type
                    self.writer.write(bytes([IAC, SB, TTYPE, 0]) + self.term.encode() + bytes([IAC, SE]))
                self._state = 0
            else:
                self._sub.append(c)
                self._state = 3
        return bytes(out)


async def registered(app: App, *handles: str) -> None:
    """Each of ``handles`` calls once, registers and logs off (an account
    that is not on)."""
    for handle in handles:
        caller = await Caller.connect(app.port)
        await caller.login(handle)
        await caller.log_off()


async def connect_without_naws(port: int, term: str = "xterm", cols: int = 80, rows: int = 24) -> Caller:
    """A caller whose client never reports its window (no NAWS), in a
    window of ``cols`` x ``rows``."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    from server.net.terminal import charset_for_term
    caller = Caller(NoNawsLine(reader, writer, term), writer, charset_for_term(term), rows=rows)
    caller.screen.resize(rows, cols)
    return caller


def db_rows(app: App, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    """Rows of a query on the server's database file, opened read-only
    beside the server (what a sysop's own script could read)."""
    with sqlite3.connect(f"file:{app.config.store.database}?mode=ro", uri=True, timeout=30) as con:
        return con.execute(sql, args).fetchall()


def account(app: App, handle: str) -> tuple[str, str] | None:
    """(handle as registered, kind) of the account ``handle`` (any case) in
    the database file; None: no such account."""
    rows = db_rows(app, "SELECT handle, kind FROM users WHERE handle = ? COLLATE NOCASE", handle)
    return (rows[0][0], rows[0][1]) if rows else None


def user_exists(app: App, handle: str) -> bool:
    """Whether the database file holds an account ``handle`` (any case)."""
    return account(app, handle) is not None


def charset_of(app: App, handle: str) -> str | None:
    """The charset the database holds for a caller (None: none yet, or no account)."""
    rows = db_rows(app, "SELECT charset FROM users WHERE handle = ?", handle)
    return rows[0][0] if rows else None


def menu_number(caller: Caller, label: str) -> int:
    """The number shown before ``label`` in a numbered menu on the caller's
    screen (" 2. Bob")."""
    found = re.search(rf"(\d+)\. {re.escape(label)}(?:\s|$)", caller.text(), re.M)
    assert found is not None, f"no {label!r} in the menu:\n{caller.text()}"
    return int(found.group(1))


def arrows_between(src: int, dst: int, size: int) -> str:
    """Arrow keys that take a board cursor from square ``src`` to ``dst``
    (squares numbered row * size + col, row 0 at the bottom, UP adds a row)."""
    (sr, sc), (dr, dc) = divmod(src, size), divmod(dst, size)
    vertical = (UP if dr > sr else DOWN) * abs(dr - sr)
    horizontal = (RIGHT if dc > sc else LEFT) * abs(dc - sc)
    return vertical + horizontal


def steady(display: list[str]) -> list[str]:
    """A screen's lines with the title bar's clock (HH:MM, top row) blanked:
    two looks at a screen a minute apart differ there and nowhere else."""
    return [re.sub(r"\b\d\d:\d\d\b", "--:--", line) if y == 0 else line for y, line in enumerate(display)]


async def wait_until(predicate, timeout: float = 30.0, what: str = "condition") -> None:
    # a bound, not a pace: a loaded 2-core machine (the suite beside the
    # benches) once took more than 10 s for one sowing to land
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


async def wait_while_moving(app: App, game_id: int, predicate, stall: float = 60.0,
                            what: str = "condition") -> None:
    """Wait until ``predicate()`` while game ``game_id`` goes on: the bound is
    on each move (the next one stored within ``stall`` seconds), not on the
    whole game. A game the computer plays out takes as long as its thinking,
    move after move, which a loaded machine stretches: a total is a pace.
    The computer thinks at a lower priority than everything else on the
    machine, so one move may take tens of seconds there: hence a minute."""
    seen, deadline = -1, 0.0
    while not predicate():
        moves = len(moves_of(app, game_id))
        if moves != seen:
            seen, deadline = moves, time.monotonic() + stall
        elif time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}: no move for {stall:.0f} s"
                                 f" after move {moves}")
        await asyncio.sleep(0.05)


OPTION_TOP, OPTION_STEP = 5, 2    # the new-game options screen: first row's line, lines per row


def active_game(app: App, handle: str) -> tuple[int, str] | None:
    """(id, opponent label) of ``handle``'s newest game going on, from the database file."""
    rows = db_rows(app, "SELECT id, player0, player1 FROM games WHERE status = 'active'"
                        " AND ? IN (player0, player1) ORDER BY id DESC LIMIT 1", handle)
    if not rows:
        return None
    game_id, first, second = rows[0]
    return game_id, second if first == handle else first


def moves_of(app: App, game_id: int) -> list[tuple[int, str]]:
    """(player, action text) of each move of a game, from the database file."""
    return [(p, a) for p, a in db_rows(app, "SELECT player, action FROM moves WHERE game_id = ? ORDER BY ply",
                                       game_id)]


def game_state(app: App, game_id: int) -> Any:
    """A game as the database file holds it (door, options, moves), replayed
    by its door's rules: what a referee with the record would know."""
    from doors import registry
    from doors._core.game import replay
    rows = db_rows(app, "SELECT door, options FROM games WHERE id = ?", game_id)
    assert rows, f"no game {game_id}"
    door, options = rows[0]
    return replay(registry()[door].state_class, json.loads(options), moves_of(app, game_id))


def game_status(app: App, game_id: int) -> str:
    return str(db_rows(app, "SELECT status FROM games WHERE id = ?", game_id)[0][0])


async def towers_move(driver: Caller, app: App, game_id: int, pick: int = 0) -> None:
    """One legal Towers move for the player to move (legal action number
    ``pick`` of the game the database holds), typed by ``driver`` with
    arrows and Enter from where the screen says the cursor is."""
    from doors.towers.rules import Move, Place, parse_square, square_name
    state = game_state(app, game_id)
    action = state.legal_actions(state.to_move()[0])[pick]
    before = len(state.history)
    if state.history:                                  # the screen has caught up with the record
        await driver.expect(f"Last: {state.action_to_str(state.history[-1][1])} ", timeout=30)
    await driver.expect("Your turn:", timeout=30)
    found = re.search(r"Cursor: ([a-h][1-8])", driver.text())
    assert found is not None, driver.text()
    cursor = parse_square(found.group(1))
    if isinstance(action, Place):
        driver.send(arrows_between(cursor, action.square, 8) + ENTER)
    else:
        assert isinstance(action, Move)
        driver.send(arrows_between(cursor, action.origin, 8) + ENTER)
        driver.send(arrows_between(action.origin, action.target, 8) + ENTER)
    await wait_until(lambda: len(moves_of(app, game_id)) > before,
                     what=f"{action} typed from {square_name(cursor)} applied (moves {moves_of(app, game_id)});"
                          f" the screen:\n{driver.text()}")


def option_rows(display: list[str]) -> int:
    """How many rows the new-game options screen shows (its last: "Start
    game" or "Send challenge")."""
    last = next(y for y, line in enumerate(display) if "Start game" in line or "Send challenge" in line)
    return (last - OPTION_TOP) // OPTION_STEP + 1


async def start_vs_computer(caller: Caller, app: App, handle: str, title: str,
                            option_keys: str = "") -> tuple[int, int]:
    """From the lobby: p, the door by its title, the computer, options typed
    as keys on the options screen, then start; all read off the screen.
    Returns the game's id and the computer's level, from the database file."""
    caller.send("p")
    await caller.expect("Choose a door")
    caller.send(door_digit(title))
    await caller.expect("choose your opponent")
    caller.send(str(menu_number(caller, "The computer")))
    await caller.expect("Start game")
    rows = option_rows(caller.screen.display)
    index = (option_keys.count(DOWN) - option_keys.count(UP)) % rows
    caller.send(option_keys + DOWN * (rows - 1 - index) + ENTER)
    await wait_until(lambda: active_game(app, handle) is not None, what="the game in the database")
    game = active_game(app, handle)
    assert game is not None and game[1].startswith("computer:"), game
    return game[0], int(game[1].split(":")[1])


def door_digit(title: str) -> str:
    """The key that picks a door by its title on the new-game screen."""
    from doors import registry
    return str([info.title for info in registry().values()].index(title) + 1)
