"""The client matrix as tests: a short scripted Stratego game against the
computer (log in, challenge, R random fill, ready, two moves) through each
telnet client callers really use, run in tmux and read back through pyte,
and through the harness as a CP437 BBS terminal, an 80x25 SyncTERM and a
terminal that turns LF into CR LF. At the end the caller's screen must be,
cell for cell, what the bytes the server sent mean on a reference terminal
(every row and column in its place), before and after a full redraw."""
from __future__ import annotations

import asyncio
import shutil
import sys
import time
from pathlib import Path

import pytest

from doors.stratego.pieces import Move, square_name

from .clients import TmuxClient, WireRecorder, wait_same_screen
from .harness import (
    DOWN,
    ENTER,
    LEFT,
    RIGHT,
    UP,
    Caller,
    active_game,
    charset_of,
    db_rows,
    door_digit,
    game_state,
    game_status,
    moves_of,
    option_rows,
    start_app,
    wait_until,
)
from .test_stratego import cursor_on, keys_between

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


_ARROW_NAMES = {UP: "Up", DOWN: "Down", LEFT: "Left", RIGHT: "Right"}


def arrows(me: int, src: int, dst: int) -> list[str]:
    """Arrow key names from square ``src`` to ``dst`` on seat ``me``'s screen."""
    keys = keys_between(me, src, dst)
    return [_ARROW_NAMES[keys[i:i + 3]] for i in range(0, len(keys), 3)]


async def my_turn_shown(client) -> None:
    """Wait until the screen says it is my move and shows no strike."""
    deadline = time.monotonic() + 30
    while True:
        text = await client.expect("Your move", timeout=30)
        if "Strike being shown" not in text:
            return
        assert time.monotonic() < deadline, text
        await asyncio.sleep(0.05)


async def play_move(app, client, me: int, game_id: int, frm: int, to: int) -> None:
    """Cursor to ``frm``, Enter, cursor to ``to``, Enter: as the screen
    shows the cursor; returns once the database file holds the move."""
    before = len(moves_of(app, game_id))
    await my_turn_shown(client)     # a strike is shown for a moment, and keys wait for it
    await press(client, *arrows(me, cursor_on(client), frm))
    await client.expect(f"Cursor {square_name(frm)} ")
    await press(client, "Enter")
    await client.expect(f"Selected {square_name(frm)}")
    await press(client, *arrows(me, frm, to))
    await client.expect(f"Cursor {square_name(to)} ")
    await press(client, "Enter")
    await wait_until(lambda: len(moves_of(app, game_id)) > before, what="my move stored")


def my_moves(app, game_id: int, me: int) -> list[Move]:
    """The moves the record lets me make now: none in setup or on the other's turn."""
    state = game_state(app, game_id)
    if state.to_move() != (me,):
        return []
    return [a for a in state.legal_actions(me) if isinstance(a, Move)]


async def play_stratego(app, client, handle: str) -> int:
    """The scripted game; returns the game's id when it is the caller's
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
    await press(client, "p")
    await client.expect("Choose a door")
    await press(client, door_digit("Stratego"))
    await client.expect("choose your opponent")
    await press(client, "1")
    text = await client.expect("Start game")
    await press(client, *["Down"] * (option_rows(text.split("\n")) - 1), "Enter")
    await wait_until(lambda: active_game(app, handle) is not None, what="the game in the database")
    game = active_game(app, handle)
    assert game is not None
    game_id = game[0]
    me = 0 if db_rows(app, "SELECT player0 FROM games WHERE id = ?", game_id)[0][0] == handle else 1
    await client.expect("R random fill")
    await press(client, "R")
    await client.expect("You: 40/40")
    await press(client, "Enter")
    await client.expect("Ready? y/n")
    await press(client, "y")
    for _ in range(2):
        # the computer's setup can be stored before mine: then it is my
        # turn to set up, not to move, so wait for a move I may make
        await wait_until(lambda: my_moves(app, game_id, me), timeout=30, what="my turn")
        move = my_moves(app, game_id, me)[0]
        await play_move(app, client, me, game_id, move.frm, move.to)
    await wait_until(lambda: my_moves(app, game_id, me), timeout=30, what="the computer's answer")
    assert game_status(app, game_id) == "active"
    await my_turn_shown(client)
    assert len(game_state(app, game_id).own_moves(me)) == 2
    return game_id


async def same_screen_as_the_wire(client, recorder: WireRecorder, charset: str, rows: int = 24) -> list[str]:
    """The client shows, cell for cell, what the server's bytes mean on a
    reference terminal, and a full redraw (r) changes nothing: what the
    server sent as changes drew the same screen as the whole."""
    before = await wait_same_screen(client, recorder, charset, rows)
    size = len(recorder.sent)
    await press(client, "r")
    await wait_until(lambda: len(recorder.sent) > size + 500, what="the redraw sent")
    after = await wait_same_screen(client, recorder, charset, rows)
    assert after == before
    return after


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
    recorder = await WireRecorder(app.port).start()
    command = CLIENTS[name].format(port=recorder.port)
    assert shutil.which(command.split()[0]), f"{name} is missing: .ci/run installs it"
    client = await TmuxClient(command, term="xterm").start()
    try:
        await play_stratego(app, client, "Tess")
        seen = await same_screen_as_the_wire(client, recorder, "utf8")
        assert any("A  B  C  D" in line for line in seen) or any("A B C D" in line for line in seen)
        assert charset_of(app, "Tess") == "utf8"
    finally:
        await client.close()
        await recorder.close()


async def test_a_client_behind_tmux_is_probed_and_plays(app):
    """Debian telnet with tmux's own TERM (screen): the server asks the
    terminal for its charset (tmux answers) before the first screen."""
    recorder = await WireRecorder(app.port).start()
    client = await TmuxClient(f"telnet 127.0.0.1 {recorder.port}", term="screen").start()
    try:
        await play_stratego(app, client, "Tim")
        assert charset_of(app, "Tim") == "utf8"
        await same_screen_as_the_wire(client, recorder, "utf8")
    finally:
        await client.close()
        await recorder.close()


@pytest.mark.parametrize("term,rows,onlcr", [("ansi-bbs", 24, False), ("syncterm", 25, False),
                                             ("xterm", 24, True)])
async def test_stratego_through_the_harness_terminals(app, term, rows, onlcr):
    """A CP437 BBS terminal; an 80x25 SyncTERM-like one (CP437, one window
    size report, never updated); a UTF-8 terminal that turns LF into CR LF."""
    recorder = await WireRecorder(app.port).start()
    caller = await Caller.connect(recorder.port, term=term, rows=rows, onlcr=onlcr)
    try:
        await play_stratego(app, caller, "Bea")
        charset = "utf8" if term == "xterm" else "cp437"
        assert charset_of(app, "Bea") == charset
        lines = await same_screen_as_the_wire(caller, recorder, charset, rows)
        assert "Your move" in "\n".join(lines)
        if rows == 25:
            assert caller.screen.display[24].strip() == ""      # the 25th row is left alone
    finally:
        await caller.close()
        await recorder.close()
