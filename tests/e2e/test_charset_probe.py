"""A terminal whose type doesn't say its charset (unknown, vt100, or a CP437
terminal behind tmux/screen) is asked before the first screen: the server
prints one three-byte UTF-8 character and asks where the cursor is. The
emulators here answer the way real ones do (pyte's cursor report), one
decoding UTF-8 (the cursor moves one column), one CP437 (three), and one
never answers (the caller chooses on the title screen with one key)."""
from __future__ import annotations

from .harness import ENTER, Caller, charset_of, wait_until

TITLE_ART = "▄██████ ▄█████▄ ███████"          # the title's first row, as drawn
TEST_LINE = "┌──┐ ░▒▓█ ♥ ♦ ♣ ♠ └──┘"


async def test_cp437_terminal_behind_tmux_gets_cp437_from_the_first_screen(app):
    caller = await Caller.connect(app.port, term="screen", charset="cp437", answers=True)
    try:
        await caller.expect(TITLE_ART)          # the whole first screen, not just its first bytes
        text = await caller.expect("charset cp437")
        assert TITLE_ART in text
        assert "Γû" not in text                 # no UTF-8 read as CP437 anywhere
        assert caller.line(22).rstrip().endswith("pick one):")   # the reply never became keys
        await caller.login("Cora")
        await wait_until(lambda: charset_of(app, "Cora") == "cp437", what="Cora's charset saved")
    finally:
        await caller.close()


async def test_utf8_terminal_with_an_unknown_type_gets_utf8(app):
    caller = await Caller.connect(app.port, term="unknown", charset="utf8", answers=True)
    try:
        await caller.expect(TITLE_ART)
        text = await caller.expect("charset utf8")
        assert TITLE_ART in text
        assert caller.line(22).rstrip().endswith("pick one):")
        await caller.login("Uma")
        await wait_until(lambda: charset_of(app, "Uma") == "utf8", what="Uma's charset saved")
    finally:
        await caller.close()


async def test_a_silent_terminal_lets_the_caller_choose_with_one_key(app):
    # a CP437 terminal that never answers: the server's guess (UTF-8) looks wrong
    caller = await Caller.connect(app.port, term="vt100", charset="cp437", answers=False)
    try:
        text = await caller.expect("(y/n)")
        assert "now UTF-8" in text and TEST_LINE not in text     # mojibake: the caller sees it's wrong
        caller.send("n")
        text = await caller.expect("now CP437")
        assert TEST_LINE in text and TITLE_ART in text
        caller.send("y")
        await caller.expect("Handle")
        # a cursor report arriving late is swallowed, never typed into the handle
        caller.send(b"\x1b[1;4R")
        caller.send("Vic" + ENTER)
        text = await caller.expect("Register?")
        assert "No caller named Vic." in text
        caller.send("y")
        await caller.expect("Choose a password")
        caller.send("secret1" + ENTER)
        await caller.expect("once more")
        caller.send("secret1" + ENTER)
        await caller.expect("Who's online")
        await wait_until(lambda: charset_of(app, "Vic") == "cp437", what="Vic's charset saved")
    finally:
        await caller.close()


async def test_yes_keeps_the_guess_and_terminal_types_that_say_skip_the_probe(app):
    silent = await Caller.connect(app.port, term="vt220", charset="utf8", answers=False)
    bbs = await Caller.connect(app.port, term="ansi-bbs", answers=False)
    try:
        await silent.expect("(y/n)")
        assert TEST_LINE in silent.text()
        silent.send(ENTER)
        await silent.expect("Handle")
        # a BBS type says CP437: no probe, no question, straight to the handle
        text = await bbs.expect("charset cp437")
        assert "(y/n)" not in text and b"\x1b[6n" not in bytes(bbs.received)
        # each login screen names the charset its caller gets
        assert "charset utf8" in await silent.expect("Handle")
    finally:
        await silent.close()
        await bbs.close()


def printed(data: bytes) -> list[str]:
    """What a printing terminal (no ANSI) shows: ESC printed as ``^[``, CR
    back to the start of the line (overwriting), LF a new line."""
    lines: list[str] = []
    line: list[str] = []
    col = 0
    for ch in data.decode("utf-8", "replace").replace("\x1b", "^["):
        if ch == "\r":
            col = 0
        elif ch == "\n":
            lines.append("".join(line))
            line, col = [], 0
        else:
            if col < len(line):
                line[col] = ch
            else:
                line.append(ch)
            col += 1
    return lines + ["".join(line)]


async def test_a_terminal_that_says_nothing_and_answers_nothing_gets_clean_plain_text(app):
    """No terminal type, no answer to the probe: plain text, and the probe
    as such a terminal printed it is blanked before the first line."""
    caller = await Caller.connect(app.port, term="unknown", answers=False)
    try:
        await wait_until(lambda: b"Handle" in bytes(caller.received), what="the plain title")
        shown = printed(bytes(caller.received))
        assert not [line for line in shown if "\u28ff" in line or "[6n" in line], shown[:3]
        assert any("Handle" in line for line in shown)
    finally:
        await caller.close()
