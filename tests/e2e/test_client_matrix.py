"""The client matrix as tests: a short scripted Stratego game against the
computer (log in, challenge, R random fill, ready, two moves) through each
telnet client callers really use, run in tmux and read back through pyte,
and through the harness as a CP437 BBS terminal, an 80x25 SyncTERM and a
terminal that turns LF into CR LF. At the end the caller's screen must be
the server's, cell for cell: every row and column in its place."""
from __future__ import annotations

import shutil
import sys
import time
from pathlib import Path

import pytest

from doors.stratego.pieces import Move

from .clients import TmuxClient, wait_same_screen
from .harness import DOWN, ENTER, LEFT, RIGHT, UP, Caller, door_digit, session_of, start_app, wait_until

TELNETLIB3_CLIENT = str(Path(sys.executable).with_name("telnetlib3-client"))
_NAMED = {"Enter": ENTER, "Up": UP, "Down": DOWN, "Left": LEFT, "Right": RIGHT,
          "BSpace": "\x7f"}     # (in tmux: the Backspace key, as the client sends it)


async def press(client, *tokens: str) -> None:
    """Key names (Enter, Up, ...) or literal text, typed by the client."""
    for token in tokens:
        if isinstance(client, TmuxClient):
            await (client.keys(token) if token in _NAMED else client.type(token))
        else:
            client.send(_NAMED.get(token, token))


def arrows(ui, square: int) -> list[str]:
    drow = ui.display_row(square) - ui.display_row(ui.cur)
    dcol = square % 10 - ui.cur % 10
    return ["Down" if drow > 0 else "Up"] * abs(drow) + ["Right" if dcol > 0 else "Left"] * abs(dcol)


async def play_move(client, match, ui, frm: int, to: int) -> None:
    before = len(match.state.history)
    await press(client, *arrows(ui, frm))
    await wait_until(lambda: ui.cur == frm, what=f"cursor on {frm}, at {ui.cur}")
    # a strike is shown for a moment, and keys wait for it (as a caller does)
    await wait_until(lambda: ui.obs.ply == match.state.ply and not ui.revealing(time.monotonic()),
                     what="the screen up to date, any strike shown")
    await press(client, "Enter")
    await wait_until(lambda: ui.selected == frm, what="piece selected")
    await press(client, *arrows(ui, to))
    await wait_until(lambda: ui.cur == to, what=f"cursor on {to}, at {ui.cur}")
    await press(client, "Enter")
    await wait_until(lambda: len(match.state.history) > before, what="my move stored")


async def play_stratego(app, client, handle: str):
    """The scripted game; returns the caller's session when it is their
    move again after two moves of their own."""
    await client.expect("Handle")
    await press(client, handle + "zz", "BSpace", "BSpace", "Enter")    # a slip, mended with Backspace
    await client.expect("Register?")
    await press(client, "y")
    await client.expect("Choose a password")
    await press(client, "secret1", "Enter")
    await client.expect("once more")
    await press(client, "secret1", "Enter")
    await client.expect("Who's online")
    session = session_of(app, handle)
    await press(client, "p")
    await client.expect("Choose a door")
    await press(client, door_digit("Stratego"))
    await client.expect("choose your opponent")
    await press(client, "1")
    await client.expect("options")
    options = session.screens[-1]
    await press(client, *["Down"] * (len(options._rows()) - 1 - options.index), "Enter")
    await wait_until(lambda: hasattr(session.screens[-1], "match"), what="the game screen")
    screen = session.screens[-1]
    match, ui = screen.match, screen.ui
    me = ui.me
    await client.expect("R random fill")
    await press(client, "R")
    await wait_until(lambda: sum(match.state.placed(me).values()) == 40, what="the random fill")
    await press(client, "Enter")
    await client.expect("Ready? y/n")
    await press(client, "y")
    await wait_until(lambda: ui.obs.phase == "play", what="play begins")
    for _ in range(2):
        await wait_until(lambda: match.state.to_move() == (me,), timeout=20, what="my turn")
        move = next(a for a in match.state.legal_actions(me) if isinstance(a, Move))
        await play_move(client, match, ui, move.frm, move.to)
    await wait_until(lambda: match.state.to_move() == (me,) and match.outcome is None, timeout=20,
                     what="the computer's answer")
    await client.expect("Your move")
    assert len(match.state.own_moves(me)) == 2
    return session


@pytest.fixture
async def app(tmp_path):
    app = await start_app(tmp_path / "gatehouse.db", stratego={"reveal_seconds": 0.3})
    yield app
    await app.stop()


CLIENTS = {
    "debian-telnet": "telnet 127.0.0.1 {port}",
    "busybox-telnet": "busybox telnet 127.0.0.1 {port}",
    "plink": "plink -telnet -P {port} 127.0.0.1",
    "telnetlib3-client": TELNETLIB3_CLIENT + " 127.0.0.1 {port}",
}


@pytest.mark.parametrize("name", list(CLIENTS))
async def test_stratego_through_a_real_client_in_tmux(app, name):
    command = CLIENTS[name].format(port=app.port)
    assert shutil.which(command.split()[0]), f"{name} is missing: .ci/run installs it"
    client = await TmuxClient(command, term="xterm").start()
    try:
        session = await play_stratego(app, client, "Tess")
        seen = await wait_same_screen(client, session, "utf8")
        assert any("A  B  C  D" in line for line in seen) or any("A B C D" in line for line in seen)
        assert session.charset == "utf8"
    finally:
        await client.close()


async def test_a_client_behind_tmux_is_probed_and_plays(app):
    """Debian telnet with tmux's own TERM (screen): the server asks the
    terminal for its charset (tmux answers) before the first screen."""
    client = await TmuxClient(f"telnet 127.0.0.1 {app.port}", term="screen").start()
    try:
        session = await play_stratego(app, client, "Tim")
        assert session.charset == "utf8"
        await wait_same_screen(client, session, "utf8")
    finally:
        await client.close()


@pytest.mark.parametrize("term,rows,onlcr", [("ansi-bbs", 24, False), ("syncterm", 25, False),
                                             ("xterm", 24, True)])
async def test_stratego_through_the_harness_terminals(app, term, rows, onlcr):
    """A CP437 BBS terminal; an 80x25 SyncTERM-like one (CP437, one window
    size report, never updated); a UTF-8 terminal that turns LF into CR LF."""
    caller = await Caller.connect(app.port, term=term, rows=rows, onlcr=onlcr)
    try:
        session = await play_stratego(app, caller, "Bea")
        charset = "utf8" if term == "xterm" else "cp437"
        assert session.charset == charset
        lines = await wait_same_screen(_FirstRows(caller, 24), session, charset)
        assert "Your move" in "\n".join(lines)
        if rows == 25:
            assert caller.screen.display[24].strip() == ""      # the 25th row is left alone
    finally:
        await caller.close()


class _FirstRows:
    """A caller's screen text limited to the rows the server draws."""

    def __init__(self, caller, rows: int):
        self.caller, self.rows = caller, rows

    def text(self) -> str:
        return "\n".join(self.caller.screen.display[:self.rows])
