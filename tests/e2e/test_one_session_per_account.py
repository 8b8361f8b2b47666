"""One account, one node: callers racing to log in as one account get one
session; a caller whose old line hangs on may end that session after the
password and come in, the old game waiting for them."""
import asyncio
import re
import time

from server.net.rlogin import build_handshake

from .harness import ENTER, Caller, game_state, game_status, moves_of, start_app, start_vs_computer, wait_until
from .test_bbs_handover import Screen

TAKEOVER = "Disconnect that session and log in here? (y/n)"


async def typed_password(caller: Caller, handle: str, password: str = "secret1") -> None:
    """Up to the password prompt (the password itself is sent by the test)."""
    await caller.expect("Handle")
    caller.send(handle + ENTER)
    await caller.expect("Password:")


async def test_callers_racing_for_one_account_get_one_session(app):
    watcher = await Caller.connect(app.port)
    await watcher.login("Watcher")
    first = await Caller.connect(app.port)
    await first.login("Zed")
    await watcher.expect("Zed")
    await first.close()
    await watcher.expect_gone("Zed", timeout=30)   # Zed's session is over
    callers = [await Caller.connect(app.port) for _ in range(4)]
    await asyncio.gather(*(typed_password(c, "Zed") for c in callers))
    for caller in callers:              # all at once: the checks run side by side
        caller.send("secret1" + ENTER)

    def arrived(caller: Caller) -> bool:
        return "Who's online" in caller.text() or TAKEOVER in caller.text()

    await wait_until(lambda: all(arrived(c) for c in callers), what="every caller answered")
    inside = [c for c in callers if "Who's online" in c.text()]
    assert len(inside) == 1
    nodes = {re.search(r"Zed is already logged in on node (\d+)\.", c.text()).group(1)
             for c in callers if c is not inside[0]}
    assert len(nodes) == 1                      # all told of the one session
    who = [line for line in inside[0].text().splitlines() if "Zed" in line and "lobby" in line]
    assert len(who) == 1
    for caller in [*callers, watcher]:
        await caller.close()


async def alice_and_another_at_her_password(app) -> tuple[Caller, Caller]:
    """Alice in the lobby; a second connection at the password prompt for her account."""
    alice = await Caller.connect(app.port)
    await alice.login("Alice")
    again = await Caller.connect(app.port)
    await typed_password(again, "Alice")
    return alice, again


async def test_no_to_the_takeover_leaves_the_other_session_and_asks_the_handle_again(app):
    alice, again = await alice_and_another_at_her_password(app)
    again.send("secret1" + ENTER)
    await again.expect(TAKEOVER)
    again.send("n")
    text = await again.expect("Handle")
    assert "Alice stays logged in on node 1." in text
    assert not alice.closed and "Alice" in await alice.expect("Who's online")
    await again.close()
    await alice.close()


async def test_a_wrong_password_never_offers_the_takeover(app):
    alice, intruder = await alice_and_another_at_her_password(app)
    intruder.send("guessing" + ENTER)
    text = await intruder.expect("Wrong password.")
    assert TAKEOVER not in text and not alice.closed
    await intruder.close()
    await alice.close()


async def test_logging_in_again_ends_a_silent_session_and_its_game_waits(app):
    old = await Caller.connect(app.port)
    await old.login("Ada")
    game_id, _level = await start_vs_computer(old, app, "Ada", "Awari")
    await old.expect("Your move")
    hole = game_state(app, game_id).legal_actions(0)[0]
    old.send(str(hole))
    await wait_until(lambda: len(moves_of(app, game_id)) >= 2, what="a move each")
    await wait_until(lambda: 0 in game_state(app, game_id).to_move(), what="Ada's turn")
    moves = game_state(app, game_id).moves_played()
    old._pump.cancel()                  # the old line goes silent: nothing read from here on

    new = await Caller.connect(app.port)
    await typed_password(new, "Ada")
    new.send("secret1" + ENTER)
    text = await new.expect(TAKEOVER)
    assert "Ada is already logged in on node 1." in text
    new.send("y")
    text = await new.expect("unfinished game of Awari against Computer")
    assert f"({moves} move{'' if moves == 1 else 's'} so far)" in text
    assert game_status(app, game_id) == "active"

    # the server closed the old connection, with a goodbye line on its screen
    deadline = time.monotonic() + 30
    while True:
        data = await asyncio.wait_for(old.reader.read(65536), max(0.1, deadline - time.monotonic()))
        if not data:
            break
        old.stream.feed(data.decode("utf-8", "replace"))
    assert "You logged in again on node 2: this connection is closed." in old.text()

    new.send("y")
    await new.expect("Your move")
    assert game_state(app, game_id).moves_played() == moves
    await new.close()


async def test_a_bbs_caller_handed_over_again_may_end_the_old_session(tmp_path):
    app = await start_app(tmp_path / "g.db", rlogin={"enabled": True, "port": 0, "tag": "VRT"})
    try:
        seats = []
        for _ in range(2):
            reader, writer = await asyncio.open_connection("127.0.0.1", app.rlogin_port)
            writer.write(build_handshake("vertrauen", "Bobby", "ansi-bbs/38400"))
            assert await reader.readexactly(1) == b"\0"
            seats.append((Screen(reader), writer))
        (first, _), (second, writer) = seats
        await first.expect("Who's online")
        await second.expect("[VRT]Bobby is already logged in on node 1.")
        writer.write(b"y")
        await second.expect("Who's online")
        await first.expect("You logged in again on node 2: this connection is closed.")
        await asyncio.wait_for(first.task, 30)      # the server hung up on the old one
        # the who-list (node, handle, ...) shows Bobby once, on node 2
        await wait_until(lambda: re.findall(r"(\d+) \[VRT\]Bobby", "\n".join(second.screen.display)) == ["2"],
                         what="Bobby only on node 2 in the who-list")
        writer.close()
    finally:
        await app.stop()
