"""Telnet negotiation as the server does it, and failed logins."""
import logging

import pytest
from telnetlib3.telopt import ECHO, LFLOW, SGA

from .harness import ENTER, Caller, wait_until


async def test_server_asks_for_character_mode_and_never_for_local_flow_control(app):
    caller = await Caller.connect(app.port)
    await caller.login("Flo")
    writer = caller.writer                           # the caller's side of the link
    assert writer.remote_option.enabled(SGA) and writer.remote_option.enabled(ECHO)   # WILL SGA, WILL ECHO
    # DO LFLOW was never asked (the client would have answered and noted it):
    # clients that accept it swallow CTRL-S/CTRL-Q
    assert LFLOW not in writer.local_option
    carl = await Caller.connect(app.port)            # a caller who does not hold his screen
    await carl.login("Carl")
    await caller.expect("Carl")
    caller.send(b"\x13")                             # CTRL-S: hold the screen
    bob = await Caller.connect(app.port)
    await bob.login("Bob")
    bob.send("c")
    await bob.expect("Say:")
    bob.send("hello" + ENTER)
    await bob.expect("Bob: hello")
    await carl.expect("Bob: hello")
    assert "Bob: hello" not in caller.text() and "Bob" not in caller.text()
    caller.send(b"\x11")                             # CTRL-Q: what changed meanwhile comes
    await caller.expect("Bob: hello")
    for one in (caller, carl, bob):
        await one.close()


async def test_three_wrong_passwords_hang_up(app):
    caller = await Caller.connect(app.port)
    await caller.login("Eve", "right-one")
    await caller.close()
    caller = await Caller.connect(app.port)
    for attempt in range(3):
        await caller.expect("Handle")
        caller.send("Eve" + ENTER)
        await caller.expect("Password:")
        caller.send(f"wrong{attempt}" + ENTER)
        if attempt < 2:
            await caller.expect("Wrong password.")
    await caller.expect("Too many failed attempts. Goodbye.")
    await wait_until(lambda: caller.closed, what="the line hung up")
    assert caller.closed
    await caller.close()


@pytest.mark.parametrize("eol", [b"\r", b"\n", b"\r\x00", b"\r\n", b"\n\r", b"\r\n\x00"],
                         ids=["CR", "LF", "CR-NUL", "CR-LF", "LF-CR", "CR-LF-NUL"])
async def test_every_line_ending_is_one_enter_at_the_login(app, eol, caplog):
    """Whatever a client ends its lines with, Enter is one key, even when the
    rest of the line ending arrives after the next prompt is on screen: no
    empty password is tried (no failed login) and the password never shows."""
    caplog.set_level(logging.WARNING, logger="gatehouse.login")
    caller = await Caller.connect(app.port)
    await caller.login("Lynn", "hidden42")
    await caller.close()
    caller = await Caller.connect(app.port)
    await caller.expect("Handle")
    caller.send(b"Lynn" + eol[:1])
    await caller.expect("Password:")
    caller.send(eol[1:] + b"hidden42" + eol[:1])    # the handle's line ending ends only now
    await caller.expect("Who's online")
    caller.send(eol[1:])
    caller.send("c")                                 # a key after it still works
    await caller.expect("Say:")
    assert not [r for r in caplog.records if "failed login" in r.getMessage()]   # the server's log
    assert "hidden42" not in caller.text()
    assert b"hidden42" not in caller.received
    await caller.close()
