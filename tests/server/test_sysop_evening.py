"""The sysop's whole evening (issue 16), driven end to end: ``gatehouse sysop``
as a real program on a pseudo-terminal, callers over telnet read through
pyte. Dropped and re-attached mid-game, news in a game, stepping out and
back, messages kept until read, chat scroll-back."""
from __future__ import annotations

import pytest

from tests.e2e.harness import (
    DOWN,
    ENTER,
    ESC,
    RIGHT,
    Caller,
    door_digit,
    start_app,
    wait_until,
)

from .inside import play_towers_move, session_of
from .sysop_harness import Console

PGUP, PGDN = "\x1b[5~", "\x1b[6~"
SYNCTERM_PGUP, SYNCTERM_PGDN = "\x1b[V", "\x1b[U"


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


async def game_with_sysop(app, alice: Caller, console: Console):
    """Alice challenges the available sysop to Towers (Alice places first);
    the sysop accepts. Returns the match."""
    console.send("a")
    await alice.expect("Sysop: available")
    alice.send("p" + door_digit("Towers"))
    await alice.expect("choose your opponent")
    opponents = session_of(app, "Alice").screens[-1].opponents
    alice.send(DOWN * opponents.index("The sysop") + ENTER)
    await alice.expect("Who places first")
    alice.send(RIGHT + DOWN * 2 + ENTER)
    await console.expect("Alice challenges you to Towers")
    console.send("y")
    await alice.expect("Your turn")
    await console.expect("Alice to move")
    return session_of(app, "Sysop").screens[-1].match


async def one_move(app, match, alice: Caller, console: Console) -> None:
    """Whoever is to move plays one Towers move, by keys."""
    await wait_until(lambda: bool(match.state.to_move()), what="a turn")
    me = match.state.to_move()[0]
    driver = alice if me == 0 else console
    await play_towers_move(driver, session_of(app, "Alice" if me == 0 else "Sysop"), match, me)


async def test_a_console_dropped_mid_game_is_offered_the_game_back_and_both_play_on(app, config, console):
    alice = await Caller.connect(app.port)
    await alice.login("Alice")
    match = await game_with_sysop(app, alice, console)
    await one_move(app, match, alice, console)
    await one_move(app, match, alice, console)
    await console.close()                        # the sysop's terminal drops
    await alice.expect("Sysop left: the game is suspended")
    again = Console(config)
    try:
        text = await again.expect("Resume it now? (y/n)")
        assert "You have an unfinished game of Towers against Alice" in text
        again.send("y")
        await alice.expect("Sysop is back: the game goes on.")
        await again.expect("TOWERS")
        played = len(match.state.history)
        for _ in range(2):
            await one_move(app, match, alice, again)
        assert len(match.state.history) == played + 2 and not match.ended
        assert "Sysop (you)" in again.text()
    finally:
        await again.close()
    await alice.close()


async def test_the_console_lists_unfinished_games_and_u_resumes_one(app, config, console):
    alice = await Caller.connect(app.port)
    await alice.login("Alice")
    match = await game_with_sysop(app, alice, console)
    await one_move(app, match, alice, console)
    await console.close()
    await alice.expect("Sysop left")
    again = Console(config)
    try:
        await again.expect("Resume it now?")
        again.send("n")                           # not now: the console, with the game waiting
        text = await again.expect("Sysop console")
        assert "Your game of Towers against Alice waits for you.  u resumes it" in text
        assert "u resume" in again.line(23)
        again.send("u")
        await again.expect("Resume it now?")
        again.send("y")
        await alice.expect("Sysop is back")
        await again.expect("TOWERS")
    finally:
        await again.close()
    await alice.close()


async def test_news_reaches_the_sysop_in_a_game_and_q_steps_out_and_back(app, console):
    alice = await Caller.connect(app.port)
    await alice.login("Alice")
    match = await game_with_sysop(app, alice, console)
    assert "q console" in console.line(23)
    # a caller logs on, pages the sysop and challenges the sysop: each shows on the game screen
    bob = await Caller.connect(app.port)
    await bob.login("Bob")
    await console.expect("Bob logged on")
    bob.send("!")
    await bob.expect("Page the sysop, reason:")
    bob.send("hello sysop?" + ENTER)
    text = await console.expect("Page from Bob: hello sysop?")
    assert "Sysop (you)" in text and "Page from Bob" in console.line(0)   # on the game screen
    await bob.expect("The sysop has been paged.")
    await bob.expect_gone("The sysop has been paged.", timeout=20)   # it fades
    bob.send("p" + door_digit("Towers"))
    await bob.expect("choose your opponent")
    opponents = session_of(app, "Bob").screens[-1].opponents
    bob.send(DOWN * opponents.index("The sysop") + ENTER)
    await bob.expect("Who places first")
    bob.send(DOWN * 2 + ENTER)
    await console.expect("Bob challenges you to Towers")
    assert "answer it on the console." in console.line(0) and "q console" in console.line(23)
    # step out: the game waits, Alice is told
    console.send("q")
    text = await console.expect("Sysop console")
    assert "u resumes it" in text and "Bob challenges you to Towers" in text
    await alice.expect("Sysop stepped out to the console")
    assert match.suspended and not match.ended
    console.send("n")                             # decline Bob from the console
    await bob.expect("Sysop declined your challenge.")
    while " Alice: " not in console.line(13):      # w on Alice, the opponent: his own seat back
        before = console.line(13)
        console.send(DOWN)
        await wait_until(lambda seen=before: console.line(13) != seen, what="the selection moved")
    console.send("w")
    await console.expect("Resume it now?")
    console.send("n")
    await console.expect("Sysop console")
    assert "Sysop" not in match.watching()
    console.send("u")
    await console.expect("Resume it now?")
    console.send("y")
    await alice.expect("Sysop is back: the game goes on.")
    await console.expect("TOWERS")
    await one_move(app, match, alice, console)
    assert not match.suspended
    await bob.close()
    await alice.close()


async def test_sysop_messages_stay_until_read_and_chat_pages_back(app, console):
    alice = await Caller.connect(app.port)
    await alice.login("Alice")
    match = await game_with_sysop(app, alice, console)
    # chat: five lines each way; the two-line pane shows the newest, PGUP the older ones
    for n in range(1, 4):
        alice.send("c" + f"alice line {n}" + ENTER + ENTER)
        await console.expect(f"Alice: alice line {n}")
        console.send("c" + f"sysop line {n}" + ENTER + ENTER)
        await alice.expect(f"Sysop: sysop line {n}")
    assert "alice line 1" not in alice.text()
    alice.send(PGUP)
    await alice.expect("Alice: alice line 2")
    assert "PGDN: newer" in alice.text()
    alice.send(SYNCTERM_PGUP)                  # SyncTERM's PgUp and PgDn page the same
    await alice.expect("Alice: alice line 1")
    alice.send(PGDN + SYNCTERM_PGDN)
    await alice.expect("Sysop: sysop line 3")
    await alice.expect_gone("PGDN: newer")
    # the chat line: an empty ENTER closes it, and the prompt says so
    alice.send("c")
    await alice.expect("ENTER on an empty line or ESC closes; PGUP older")
    alice.send(ENTER)
    await alice.expect_gone("Say:")
    # a sysop message: the sysop steps out, messages Alice, comes back
    console.send("q")
    await console.expect("Sysop console")
    console.send("m")
    await console.expect("Message:")
    console.send("server restarts at midnight" + ENTER)
    await console.expect("Message sent to Alice.")
    await alice.expect("Sysop: server restarts at midnight")
    assert "server restarts at midnight" in alice.line(0)
    assert alice.line(21).strip() or alice.line(22).strip()
    # it stays on the top line while Alice is away (no time limit, no key)...
    sess = session_of(app, "Alice")
    await wait_until(lambda: sess.pinned is not None, what="pinned")
    assert "Sysop: server restarts at midnight" in "\n".join(alice.screen.display[21:24])
    # ...and after it is read, it is still in the log
    assert sess.notice is None or "midnight" not in sess.notice[0]    # not a fading notice
    sess.pinned = (sess.pinned[0], sess.pinned[1] - 10)     # as if shown 10 s ago: the next key reads it
    alice.send("r")
    await wait_until(lambda: "midnight" not in alice.line(0), what="top line freed once read")
    assert "Sysop: server restarts at midnight" in "\n".join(alice.screen.display[21:24])
    console.send("u")
    await console.expect("Resume it now?")
    console.send("y")
    await alice.expect("Sysop is back")
    assert not match.ended
    # back in the lobby, the message is in the lobby's chat box too
    alice.send("Qy")
    await alice.expect("GAME OVER")
    alice.send(ESC)
    await alice.expect("Lobby chat")
    assert "Sysop: server restarts at midnight" in "\n".join(alice.screen.display[15:22])
    await alice.close()


async def test_console_help_and_a_key_line_that_fits(console):
    line = console.line(23)
    for key in ("? help", "q quit", "g play", "h hold"):
        assert key in line
    for key in ("u resume", "m msg", "c chat", "y accept", "x withdraw"):   # nobody to do them with
        assert key not in line
    console.send("?")
    text = await console.expect("THE SYSOP CONSOLE")
    assert "split-screen chat with the selected caller" in text and "  u " in text
    console.send(ESC)
    await console.expect("Sysop console")


async def test_lobby_logoff_asks_first_and_r_redraws(app):
    alice = await Caller.connect(app.port)
    await alice.login("Alice")
    alice.send("g")
    await alice.expect("Log off? (y/n)")
    alice.send("n")
    await alice.expect("You stay.")
    assert not alice.closed
    alice.screen.reset()                          # as if the screen was garbled
    alice.send("r")
    await alice.expect("Who's online")
    alice.send("gy")
    await alice.expect("Thanks for calling Gatehouse. Goodbye!")
    await wait_until(lambda: alice.closed, what="hung up")
    await alice.close()


async def test_a_second_console_takes_over_the_game_of_a_console_that_dropped(app, config, console):
    """Two consoles: "Sysop" plays and drops; "Sysop#2", still attached,
    finds the game under u and plays on."""
    second = Console(config)
    try:
        await second.expect("Sysop#2")
        alice = await Caller.connect(app.port)
        await alice.login("Alice")
        match = await game_with_sysop(app, alice, console)
        await console.close()
        await alice.expect("Sysop left")
        await second.expect("Your game of Towers against Alice waits for you.")
        second.send("u")
        await second.expect("Resume it now?")
        second.send("y")
        await alice.expect("Sysop is back: the game goes on.")
        await second.expect("TOWERS")
        assert tuple(match.state.to_move()) == (0,) and not match.suspended
        await play_towers_move(alice, session_of(app, "Alice"), match, 0)
        await play_towers_move(second, session_of(app, "Sysop#2"), match, 1)
        assert len(match.state.history) == 2 and not match.suspended
        await alice.close()
    finally:
        await second.close()
