"""Bad input of any kind: nothing typed by one caller can put control or
escape codes on another caller's screen, and garbage never breaks a session."""
import asyncio
import logging

from ansi.canvas import clean_text
from server.net.telnet_complaints import ComplaintLog
from server.services.chat import clean_chat

from .harness import ENTER, Caller, steady, wait_until
from .test_two_callers import two_in_lobby

EVIL = "\x1b[2J\x1b]0;owned\x07\x07\x1b[31mred\x00\x1bc"


async def test_escape_and_control_bytes_in_chat_never_reach_the_other_caller(app):
    alice, bob = await two_in_lobby(app)
    await bob.expect("Who's online")
    start = len(bob.received)
    alice.send("c")
    await alice.expect("Say:")
    alice.send("one" + EVIL + "two" + ENTER)
    await bob.expect("Alice: two")         # the first line is through before the next
    alice.send("marker" + ENTER)          # the chat line stays open after a line
    await bob.expect("Alice: marker")
    got = bytes(bob.received[start:])
    for bad in (b"\x1b]", b"\x07", b"\x1bc", b"\x00", b"\x1b[2J"):   # OSC, bell, reset, clear
        assert bad not in got, bad
    # Bob's terminal shows what a full repaint (CTRL-L) draws: nothing in the
    # chat moved his cursor, changed a colour for good or cleared his screen
    await bob.settle()
    seen = steady(bob.screen.display)     # the clock may turn meanwhile
    before = len(bob.received)
    bob.send(b"\x0c")
    await wait_until(lambda: len(bob.received) > before, what="the repaint")
    await bob.settle()
    assert steady(bob.screen.display) == seen
    await alice.close()
    await bob.close()


async def test_wide_and_zero_width_characters_in_chat_keep_every_screen_in_its_columns(app):
    """CJK and emoji take two columns on a UTF-8 terminal, combining marks and
    format characters none: each would shift the rest of the line (the chat
    box's right border, the next panels) on every other caller's screen.
    Each is sent as one '?' (a format character is not even typed); accented
    letters and CP437 glyphs stay."""
    alice, bob = await two_in_lobby(app)
    alice.send("c")
    await alice.expect("Say:")
    alice.send("日本 \U0001F600 e\u0301 \u200b| café ♥ ok" + ENTER)
    await bob.expect("ok")
    line = next(row for row in bob.screen.display if "Alice:" in row)
    assert "Alice: ?? ? e? | café ♥ ok" in line
    assert line.rstrip().endswith("║") and len(line.rstrip()) == 80      # the border in column 80
    assert all(row.rstrip().endswith("║") for row in bob.screen.display[15:22])   # the whole box
    await alice.close()
    await bob.close()


async def test_chat_lines_from_any_source_are_cleaned_and_limited():
    assert clean_chat("a\x1b[2Jb\x07c\x9bd") == "a?[2Jb?c?d"
    assert len(clean_chat("x" * 1000)) == 200
    assert clean_text("\x1b") == "?"


async def test_telnet_garbage_and_huge_lines_do_not_hurt_anyone(app):
    alice, bob = await two_in_lobby(app)
    alice.send(bytes(range(256)) * 4)            # every byte value, IAC included
    alice.send(b"\x1b[" + b"9" * 5000)           # an endless escape sequence
    alice.send("c" + "z" * 10000 + ENTER)        # an oversized chat line
    await asyncio.sleep(0.5)
    alice.send(b"\x1b\x1b")
    bob.send("c")
    await bob.expect("Say:")
    bob.send("still fine" + ENTER)
    await bob.expect("Bob: still fine")
    alice.send(b"\x11")     # the garbage held a CTRL-S: release Alice's screen
    await alice.expect("Bob: still fine")
    assert not alice.closed
    await alice.close()
    await bob.close()


async def test_handles_with_control_characters_are_refused(app):
    caller = await Caller.connect(app.port)
    await caller.expect("Handle")
    caller.send("x" + ENTER)
    await caller.expect("A handle is 2 to 20 characters.")
    caller.send("Bad!Name" + ENTER)
    await caller.expect("Use letters, digits, spaces and _ - . [ ] only.")
    caller.send("Sysop" + ENTER)
    await caller.expect("That handle is reserved.")
    await caller.close()


async def _hostile_telnet(port: int, attack: bytes) -> bytes:
    """Send ``attack`` after WILL NAWS, CHARSET and TSPEED; what the server
    said until it hung up."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    told = b""
    try:
        writer.write(b"\xff\xfb\x1f\xff\xfb\x2a\xff\xfb\x20" + attack)
        await writer.drain()
        while chunk := await asyncio.wait_for(reader.read(4096), 30):
            told += chunk
    except ConnectionError:
        pass                    # (hung up on while sending: what it had sent is gone with the socket)
    writer.close()
    return told


async def test_malformed_telnet_subnegotiations_are_logged_a_few_lines_and_end_the_call(app, caplog):
    """A NAWS body of one byte, CHARSET and TSPEED bodies telnetlib3 cannot
    parse: each used to log a ten-line traceback, so a caller could grow the
    log by megabytes and slow everyone down. A few lines are logged for each
    connection, the caller is told goodbye, and others log in as ever."""
    caplog.set_level(logging.INFO)
    bodies = [b"\x1f\x00", b"\x2a\x02\x03", b"\x2a\x01", b"\x20\x00", b"\x20\x00\x00"]
    await _hostile_telnet(app.port, b"".join(b"\xff\xfa" + body + b"\xff\xf0" for body in bodies) * 60)
    told = await _hostile_telnet(app.port, b"\xff\xfa\x1f\x00\xff\xf0" * ComplaintLog.TOO_MANY)
    assert b"Too many bad telnet commands. Goodbye." in told
    caller = await Caller.connect(app.port)
    await caller.login("Norm")
    await caller.expect("Who's online")
    complaints = [r for r in caplog.records if r.name.startswith("telnetlib3") and r.levelno >= logging.WARNING]
    assert len(complaints) <= 2 * ComplaintLog.LOGGED, [r.getMessage() for r in complaints]
    assert not any(r.exc_info for r in complaints)
    assert sum("more bad telnet commands not logged" in r.getMessage() for r in caplog.records) == 2
    await caller.close()


async def test_a_superscript_digit_is_no_number_on_any_numbered_menu(app):
    """'²' (a CP437 key, 0xFD) passes str.isdigit but is no number: on the
    hall of fame, the watch list and the challenge's door menu it is
    ignored, never "Sorry, that went wrong"."""
    alice, bob = await two_in_lobby(app)
    for opener, title in (("h", "Hall of Fame"), ("w", "Watch a game"), ("p", "Choose a door")):
        alice.send(opener)
        await alice.expect(title)
        alice.send("²³¹")
        alice.send(b"\x0c")               # a repaint after the keys were handled
        await alice.settle()
        assert "went wrong" not in alice.text() and title in alice.text()
        alice.send("\x1b")
        await alice.expect("Who's online")
    await alice.close()
    await bob.close()
