"""The sysop console, driven as a real program (``gatehouse sysop``) on a
pseudo-terminal, against the real server and real telnet callers."""
from __future__ import annotations

import asyncio
import contextlib
import os
import re
import stat

import pytest

from server.net import sysop_client
from tests.e2e.harness import (
    DOWN,
    ENTER,
    ESC,
    RIGHT,
    Caller,
    door_digit,
    start_app,
    start_vs_computer,
    wait_until,
)

from .inside import play_towers_move, session_of
from .sysop_harness import Console


@pytest.fixture
async def app(tmp_path):
    app = await start_app(tmp_path / "gatehouse.db", sysop={"socket": str(tmp_path / "run" / "sysop.sock")})
    yield app
    await app.stop()


@pytest.fixture
def config(tmp_path, app):
    path = tmp_path / "gatehouse.toml"
    path.write_text(f'[sysop]\nsocket = "{app.config.sysop.socket}"\n')
    return path


@pytest.fixture
async def console(config):
    console = Console(config)
    await console.expect("Sysop console")
    yield console
    await console.close()


def node_rows(console: Console) -> str:
    return "\n".join(console.line(y) for y in range(2, 13))


def masked(text: str) -> str:
    """A lobby screen without what changes by itself (clock, idle times)."""
    return re.sub(r"\b\d+[smh]\d*\b", "--", re.sub(r"\d\d:\d\d", "HH:MM", text))


async def test_socket_is_owner_only_and_a_missing_server_is_explained(app, tmp_path, capsys):
    mode = os.stat(app.config.sysop.socket).st_mode
    assert stat.S_ISSOCK(mode) and stat.S_IMODE(mode) == 0o600
    assert sysop_client.main(str(tmp_path / "nowhere.sock")) == 1
    assert "no sysop socket at" in capsys.readouterr().err


async def test_node_list_is_live_and_two_consoles_can_attach_and_detach(app, config, console):
    assert "Sysop" in node_rows(console) and "sysop console" in node_rows(console)
    alice = await Caller.connect(app.port)
    await alice.login("Alice")
    bob = await Caller.connect(app.port, term="ansi-bbs")
    await bob.login("Bob")
    for row in (r"Alice\s+lobby\s+\d+s\s+xterm\s+80x24\s+utf8",
                r"Bob\s+lobby\s+\d+s\s+ansi-bbs\s+80x24\s+cp437"):
        await wait_until(lambda row=row: re.search(row, node_rows(console)), what=f"{row} on the console")
    assert "Alice: telnet from 127.0.0.1, xterm 80x24 utf8" in console.line(13)
    # a second console at once gets its own handle
    second = Console(config)
    try:
        await second.expect("Sysop#2")
        await console.expect("Sysop#2")
        # q detaches; nobody else notices
        second.send("q")
        assert await second.wait_exit() == 0
    finally:
        await second.close()
    await wait_until(lambda: "Sysop#2" not in node_rows(console), what="second console gone")
    await alice.expect("Who's online")
    assert "Disconnected" not in alice.text()
    # the console follows a resize of its terminal
    console.resize(70, 20)
    await console.expect("Your window is 70x20")
    console.resize(80, 24)
    await console.expect("Sysop console")
    console.send("q")
    assert await console.wait_exit() == 0
    await wait_until(lambda: app.find_session("Sysop") is None, what="console gone")
    assert app.find_session("Alice") is not None
    await alice.close()
    await bob.close()


async def test_a_page_from_a_caller_rings_and_shows_on_the_console(app, console):
    alice = await Caller.connect(app.port)
    await alice.login("Alice")
    alice.send("!")
    await alice.expect("Page the sysop, reason:")
    alice.send("help me please" + ENTER)
    await alice.expect("The sysop has been paged.")
    text = await console.expect("Page from Alice: help me please")
    assert re.search(r"\d\d:\d\d:\d\d Alice: help me please", text)
    assert b"\x07" in console.received
    await alice.close()


async def test_split_screen_chat_on_both_sides_and_the_caller_gets_the_lobby_back(app, console):
    alice = await Caller.connect(app.port)
    await alice.login("Alice")
    await console.expect("Alice")
    await alice.settle()
    before = masked(alice.text())
    console.send("c")
    await console.expect("Chat with Alice")
    await alice.expect("The sysop is chatting with you")
    console.send("hello alice" + ENTER)
    await alice.expect("Sysop: hello alice")
    top = "\n".join(alice.line(y) for y in range(2, 10))
    assert "Sysop: hello alice" in top
    alice.send("hi sysop" + ENTER)
    await console.expect("Alice: hi sysop")
    bottom = "\n".join(console.line(y) for y in range(12, 20))
    assert "Alice: hi sysop" in bottom and "Sysop: hello alice" not in bottom
    assert "Alice: hi sysop" in "\n".join(alice.line(y) for y in range(12, 20))
    console.send(ESC)
    await alice.expect_gone("chatting with you")
    await alice.settle()
    assert masked(alice.text()) == before
    await console.expect("Sysop console")
    await alice.close()


async def test_a_chat_from_the_sysop_over_a_callers_turn_stops_her_clock(app, console):
    """Alice cannot move while the sysop chats with her (only he ends it):
    her time per move stands still until the chat ends."""
    alice = await Caller.connect(app.port)
    await alice.login("Alice")
    await console.expect("Alice")
    game_id, _level = await start_vs_computer(alice, app, "Alice", "Towers")
    match = app.matches.live[game_id]
    await wait_until(lambda: match.move_time_left(0) is not None, what="Alice's clock running")
    console.send("c")
    await alice.expect("The sysop is chatting with you")
    await wait_until(lambda: match.move_time_left(0) is None, what="her clock held")
    console.send(ESC)
    await alice.expect_gone("chatting with you")
    await wait_until(lambda: match.move_time_left(0) is not None, what="her clock going on")
    await alice.close()


async def test_the_sysop_plays_a_full_game_of_towers_against_a_caller(app, console):
    alice = await Caller.connect(app.port)
    await alice.login("Alice")
    console.send("a")
    await alice.expect("Sysop: available")
    alice.send("p" + door_digit("Towers"))
    await alice.expect("choose your opponent")
    opponents = session_of(app, "Alice").screens[-1].opponents
    alice.send(DOWN * opponents.index("The sysop") + ENTER)
    await alice.expect("Who places first")
    alice.send(RIGHT + DOWN * 2 + ENTER)        # random -> Alice places first; send
    await alice.expect("Waiting for Sysop")
    await console.expect("Alice challenges you to Towers")
    console.send("y")
    await alice.expect("Your turn")
    sysop = session_of(app, "Sysop")
    match = sysop.screens[-1].match
    assert match.names() == ("Alice", "Sysop")
    await console.expect("Alice to move")
    drivers = {0: (alice, session_of(app, "Alice")), 1: (console, sysop)}
    while not match.ended:
        await wait_until(lambda: match.ended or bool(match.state.to_move()), what="a turn")
        if match.ended:
            break
        me = match.state.to_move()[0]
        driver, session = drivers[me]
        await play_towers_move(driver, session, match, me)
    score = match.outcome.score
    for screen in (alice, console):
        text = await screen.expect("GAME OVER")
        assert f"{score[0]}-{score[1]}" in text
    console.send(ESC)
    await console.expect("Sysop console")
    await alice.close()


async def test_message_then_kick_shows_the_reason_to_the_caller(app, console):
    alice = await Caller.connect(app.port)
    await alice.login("Alice")
    await console.expect("Alice")
    console.send("m")
    await console.expect("Message:")
    console.send("please behave" + ENTER)
    await alice.expect("Sysop: please behave")
    console.send("k")
    await console.expect("Kick, reason:")
    console.send("spamming the lobby" + ENTER)
    await alice.expect("Disconnected by the sysop: spamming the lobby")
    await wait_until(lambda: alice.closed, what="Alice hung up on")
    await wait_until(lambda: "Alice" not in node_rows(console), what="Alice off the node list")
    await alice.close()


async def test_a_kick_typed_for_a_caller_who_hangs_up_meanwhile_reaches_nobody(app, console):
    """Alice selected, k, the reason typed; she hangs up before ENTER: the
    kick is not turned on Bob (the next node), and the console says why."""
    alice = await Caller.connect(app.port)
    await alice.login("Alice")
    bob = await Caller.connect(app.port)
    await bob.login("Bob")
    await console.expect("Bob")
    while " Alice: " not in console.line(13):
        before = console.line(13)
        console.send(DOWN)
        await wait_until(lambda seen=before: console.line(13) != seen, what="the selection moved")
    console.send("k")
    await console.expect("Kick, reason:")
    console.send("spamming")
    await alice.close()
    await wait_until(lambda: "Alice" not in node_rows(console), what="Alice off the node list")
    console.send(ENTER)
    await console.expect("Alice has gone: nothing sent.")
    assert not bob.closed and app.find_session("Bob") is not None
    assert "Disconnected" not in bob.text()
    await bob.close()


async def test_the_sysop_challenges_a_caller_and_watches_her_game(app, console):
    alice = await Caller.connect(app.port)
    await alice.login("Alice")
    await console.expect("Alice")
    console.send("p")
    await console.expect("Choose a door")
    console.send(door_digit("Towers"))          # Alice is chosen: no second question
    await console.expect("Towers against Alice: options")
    console.send(DOWN * 2 + ENTER)
    await console.expect("Challenge sent to Alice")
    await alice.expect("Sysop challenges you to Towers")
    alice.send("n")
    await console.expect("Alice declined your challenge.")
    # Alice plays the computer; the sysop watches
    alice.send("p" + door_digit("Towers"))
    await alice.expect("choose your opponent")
    alice.send("1" + DOWN * 3 + ENTER)
    await alice.expect("Your turn")
    console.send("w")
    text = await console.expect("TOWERS")
    assert "Alice" in text and "Computer (" in text and "ESC console" in console.line(23)
    # Alice places a tower on a free square (the computer may have placed
    # first, under her cursor): the sysop sees it
    session = session_of(app, "Alice")
    match = session.screens[-1].match
    await play_towers_move(alice, session, match, match.names().index("Alice"))
    await console.expect("red  to place 7")     # one of Alice's eight towers is down
    console.send(ESC)
    await console.expect("Sysop console")
    await alice.close()


async def test_a_challenge_the_sysop_withdraws_cannot_be_accepted(app, console):
    """The board owns challenges: after the sysop's x, the caller no longer
    sees the challenge, and her y starts no game."""
    alice = await Caller.connect(app.port)
    await alice.login("Alice")
    await console.expect("Alice")
    console.send("p")
    await console.expect("Choose a door")
    console.send(door_digit("Towers"))          # Alice is chosen: no second question
    await console.expect("Towers against Alice: options")
    console.send(DOWN * 2 + ENTER)
    await console.expect("Waiting for Alice to answer")
    await alice.expect("Sysop challenges you to Towers")
    console.send("x")
    await console.expect("Challenge withdrawn.")
    await console.expect_gone("Waiting for Alice to answer")
    await alice.expect("Sysop withdrew the challenge to Towers.")
    await alice.expect_gone("challenges you to")
    alice.send("y?")                            # y, then help: once help shows, y was handled
    await alice.expect("THE LOBBY")
    assert not app.matches.live
    assert "challenges you" not in alice.text()
    assert not any(hasattr(s, "match") for s in session_of(app, "Alice").screens)
    assert "Sysop console" in console.text()
    await alice.close()


@pytest.mark.parametrize("header", [b'{"cols": Infinity, "rows": 24}\n', b'{"rows": -Infinity}\n',
                                    b'{"cols": 1e999}\n', b'[1, 2]\n', b'{"cols": "wide"}\n'])
async def test_a_bad_console_header_gets_a_reply_and_no_console(tmp_path, header):
    from server.net.sysop_socket import start_sysop_listener, stop_sysop_listener
    consoles: list[object] = []

    async def on_console(conn: object) -> None:
        consoles.append(conn)
    path = str(tmp_path / "sysop.sock")
    server = await start_sysop_listener(path, on_console)
    try:
        reader, writer = await asyncio.open_unix_connection(path)
        writer.write(header)
        reply = await asyncio.wait_for(reader.read(), 30)
        writer.close()
        assert reply.startswith(b"Gatehouse: bad console header (") and consoles == []
    finally:
        stop_sysop_listener(server, path)


@contextlib.asynccontextmanager
async def callers_on(tmp_path, handles, **server):
    """A server (its console's socket under ``tmp_path``) with ``handles``
    logged in: (the app, their lines); every line closed and the server
    stopped after."""
    app = await start_app(tmp_path / "gatehouse.db", sysop={"socket": str(tmp_path / "sysop.sock")},
                          server=server)
    callers: list[Caller] = []
    try:
        for handle in handles:
            caller = await Caller.connect(app.port)
            callers.append(caller)
            await caller.login(handle)
        yield app, callers
    finally:
        for caller in callers:
            await caller.close()
        await app.stop()


@contextlib.asynccontextmanager
async def console_on(app, tmp_path):
    """The sysop's console on ``app``, through a config file naming its socket."""
    path = tmp_path / "gatehouse.toml"
    path.write_text(f'[sysop]\nsocket = "{app.config.sysop.socket}"\n')
    console = Console(path)
    try:
        await console.expect("Sysop console")
        yield console
    finally:
        await console.close()


async def test_a_full_board_still_lets_the_sysop_in(tmp_path):
    """Idle callers (or a flood) filling every node never lock the sysop
    out of their own console; a caller is still turned away."""
    async with callers_on(tmp_path, ("Alice", "Bob"), max_sessions=2) as (app, callers):
        late = await Caller.connect(app.port)
        callers.append(late)
        await late.expect("Gatehouse is full right now")
        async with console_on(app, tmp_path) as console:
            await wait_until(lambda: "Alice" in node_rows(console) and "Bob" in node_rows(console),
                             what="both callers on the console")


async def test_the_node_list_scrolls_to_the_selected_node(tmp_path):
    """Twelve on (the sysop and eleven callers): the list has ten rows,
    and DOWN to the last caller brings it into view, selected."""
    callers = [f"Caller{i:02d}" for i in range(11)]
    async with callers_on(tmp_path, callers, max_per_ip=20) as (app, _lines), console_on(app, tmp_path) as console:
        await wait_until(lambda: "Caller08" in node_rows(console), what="the first ten on the console")
        assert "Caller10" not in node_rows(console)
        console.send(DOWN * 10)
        await wait_until(lambda: "Caller10" in node_rows(console), what="the last caller in view")
        assert "Caller10" in console.line(13)                   # and it is the one selected
