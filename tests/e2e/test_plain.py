"""Callers without ANSI: a telnet terminal of type `dumb` (and RLogin
`dumb`, as door mode sends for DOOR32.SYS emulation 0) gets plain text,
line by line, and never one escape byte, through a whole call: register,
chat, an Awari game against the computer to the end with typed commands
(`help`, `sow 3`, `say ...`), log off; and a Stratego game typed from the
setup (`place a4 9`, `random`, `ready`) through moves (`a4 a5`) to its end."""
import asyncio
import json
import time

from ansi.cp437 import decode_cp437

from .harness import ENTER, Caller, db_rows, door_digit, moves_of, start_app, wait_until
from .test_time_left import TimedCaller


def no_escape(data: bytes) -> None:
    assert b"\x1b" not in data, data[max(0, data.find(b"\x1b") - 200):data.find(b"\x1b") + 40]


async def until_seen(caller: Caller, words: str, since: int = 0, timeout: float = 30.0) -> int:
    """Wait until ``words`` arrive after byte ``since``; the bytes' end."""
    deadline = time.monotonic() + timeout
    while words not in decode_cp437(bytes(caller.received[since:])):
        assert time.monotonic() < deadline, f"{words!r} never came:\n" + \
            decode_cp437(bytes(caller.received[since:]))[-1500:]
        await asyncio.sleep(0.02)
    return len(caller.received)


async def test_a_dumb_terminal_plays_a_whole_call_without_one_escape_byte(tmp_path):
    app = await start_app(tmp_path / "g.db")
    try:
        friend = await Caller.connect(app.port)
        await friend.login("Friend")
        caller = await Caller.connect(app.port, term="dumb")
        await caller.login("Plain")
        no_escape(bytes(caller.received))
        caller.send("c")
        caller.send("hello from a dumb terminal" + ENTER)
        await friend.expect("hello from a dumb terminal")
        friend.send("c")
        friend.send("welcome" + ENTER)
        mark = await until_seen(caller, "welcome")
        caller.send(ENTER)                           # an empty line closes the chat line
        await caller.settle()
        caller.send("p")
        mark = await until_seen(caller, "Choose a door", mark)
        caller.send(door_digit("Awari"))
        mark = await until_seen(caller, "choose your opponent", mark)
        caller.send("1")
        mark = await until_seen(caller, "options", mark)
        caller.send(ENTER)
        mark = await until_seen(caller, "help: the commands", mark)
        caller.send("help" + ENTER)
        mark = await until_seen(caller, "sow N", mark)
        caller.send("q")                             # out of the help pages
        mark = await until_seen(caller, "> ", mark)
        caller.send("sow 9" + ENTER)
        mark = await until_seen(caller, "Not a move: 'sow 9'. Type sow N, or help.", mark)
        caller.send("say good luck" + ENTER)
        mark = await until_seen(caller, "good luck", mark)
        deadline = time.monotonic() + 240
        while "GAME OVER" not in decode_cp437(bytes(caller.received[mark:])):
            assert time.monotonic() < deadline, decode_cp437(bytes(caller.received))[-2000:]
            for hole in "123456":                    # the first legal hole is sown
                caller.send(f"sow {hole}" + ENTER)
            await caller.settle()
        no_escape(bytes(caller.received))
        caller.send("lobby" + ENTER)                 # from the finished game to the lobby
        mark = await until_seen(caller, "Who's online", mark)
        caller.send("g")
        await until_seen(caller, "Log off? (y/n)", mark)
        caller.send("y")
        await until_seen(caller, "Goodbye", mark)
        await wait_until(lambda: caller.closed, what="the line hung up")
        no_escape(bytes(caller.received))
        await caller.close()
        await friend.close()
    finally:
        await app.stop()


async def test_door_mode_with_emulation_0_and_rlogin_dumb_get_no_escape_byte(tmp_path):
    """DOOR32.SYS emulation 0 (ASCII): door mode tells the server `dumb`."""
    from server.net.rlogin import build_handshake
    app = await start_app(tmp_path / "g.db", rlogin={"enabled": True, "port": 0, "tag": "VRT"})
    try:
        door = await TimedCaller(app, "Ascii", minutes=30, emulation=0).start()
        await door.expect("Who's online")
        door.send("g")
        await door.expect("Back to the BBS? (y/n)")
        door.send("y")
        assert await asyncio.wait_for(door.door, 30) == 0
        no_escape(bytes(door.raw))
        reader, writer = await asyncio.open_connection("127.0.0.1", app.rlogin_port)
        writer.write(build_handshake("vrt", "Dumbo", "dumb/9600"))
        seen = b""
        while b"Who's online" not in seen:
            more = await asyncio.wait_for(reader.read(4096), 30)
            assert more, seen
            seen += more
        no_escape(seen)
        writer.close()
    finally:
        await app.stop()


async def test_any_caller_can_choose_plain_text_under_settings(app):
    caller = await Caller.connect(app.port)          # an xterm: ANSI at first
    await caller.login("Reader")
    caller.send("s")
    await caller.expect("3. Plain text")
    caller.send("3")
    mark = await until_seen(caller, "Plain text for this call")
    caller.send("q")
    await until_seen(caller, "Who's online", mark)
    caller.send("c")
    caller.send("can you hear me" + ENTER)
    await until_seen(caller, "can you hear me", mark)
    await caller.settle()
    no_escape(bytes(caller.received[mark:]))         # from the choice on: no escape byte
    caller.send(ENTER + "s3")
    await caller.expect("Full screen (ANSI) for this call.")
    assert b"\x1b[" in bytes(caller.received[mark:])
    await caller.close()


FRONT = "9999999955"     # Red's front row (row 4), columns A to J: eight Scouts, two Captains
OPENINGS = [f"{col}{row} {col}{row + 1}" for row in (4, 5, 6, 3) for col in "abefij"]


async def test_a_dumb_terminal_sets_up_and_plays_stratego_to_the_end(tmp_path):
    """The whole Stratego game typed: `place` lines, `random` for the rest, `ready`, real moves
    against the computer (`move a4 a5`, `a4 a5`), then `resign` and `y`:
    the game ends on the caller's screen and in the database file."""
    app = await start_app(tmp_path / "g.db")
    try:
        caller = await Caller.connect(app.port, term="dumb")
        await caller.login("Plain")
        caller.send("p")
        mark = await until_seen(caller, "Choose a door")
        caller.send(door_digit("Stratego"))
        mark = await until_seen(caller, "choose your opponent", mark)
        caller.send("1")
        mark = await until_seen(caller, "options", mark)
        caller.send(ENTER)
        mark = await until_seen(caller, "SETUP: place your 40 pieces", mark)
        caller.send("help" + ENTER)
        mark = await until_seen(caller, "place d4 B", mark)
        caller.send("q")                             # out of the help pages
        mark = await until_seen(caller, "> ", mark)
        caller.send("place k4 9" + ENTER)
        mark = await until_seen(caller, "Not a move: 'place k4 9'", mark)
        for placed, (col, rank) in enumerate(zip("abcdefghij", FRONT, strict=True), 1):   # the front row
            caller.send(f"place {col}4 {rank}" + ENTER)
            mark = await until_seen(caller, f"You: {placed}/40", mark)
        caller.send("random" + ENTER)                # the other 30 pieces
        mark = await until_seen(caller, "You: 40/40", mark)
        caller.send("ready" + ENTER)
        mark = await until_seen(caller, "Your move", mark)
        game_id = db_rows(app, "SELECT id FROM games WHERE player0 = 'Plain'")[0][0]

        def my_moves() -> int:
            return len([a for p, a in moves_of(app, game_id) if p == 0 and "-" in a])

        deadline = time.monotonic() + 120
        while my_moves() < 4:
            assert time.monotonic() < deadline, decode_cp437(bytes(caller.received))[-2000:]
            done = my_moves()
            for i, move in enumerate(OPENINGS):      # the first legal one is played
                caller.send(("move " if i % 2 else "") + move + ENTER)
            await wait_until(lambda done=done: my_moves() > done, what="a move of the caller's")
            await caller.settle()
        no_escape(bytes(caller.received))
        caller.send("resign" + ENTER)
        mark = await until_seen(caller, "(y/n)", mark)
        caller.send("y")
        await until_seen(caller, "GAME OVER: you lost", mark)
        await until_seen(caller, "Plain resigned.", mark)       # the reason: the end's own row
        [(status, outcome)] = db_rows(app, "SELECT status, outcome FROM games WHERE id = ?", game_id)
        assert status == "finished"
        assert json.loads(outcome)["winner"] == 1 and json.loads(outcome)["termination"] == "resign"
        no_escape(bytes(caller.received))
        await caller.close()
    finally:
        await app.stop()


async def test_the_lobby_is_a_short_list_for_a_plain_caller(tmp_path):
    """No boxes, one line a thing: who is on, the doors, the chat's last
    lines; a new chat line prints a few lines, not the screen again."""
    app = await start_app(tmp_path / "g.db")
    try:
        friend = await Caller.connect(app.port)
        await friend.login("Friend")
        caller = await Caller.connect(app.port, term="dumb")
        caller_mark = len(caller.received)
        await caller.login("Plain")
        await until_seen(caller, "Doors (p to play): ", caller_mark)
        await caller.settle()
        text = decode_cp437(bytes(caller.received))
        lobby = text[text.rindex("Lobby: Plain"):].splitlines()
        assert lobby[1] == "Who's online (2):"
        assert any("Friend" in line for line in lobby[2:4]) and any("Plain" in line for line in lobby[2:4])
        assert "Stratego" in lobby[4] and "Awari" in lobby[4]
        assert "Lobby chat (c to talk):" in lobby
        assert len(lobby) <= 12, lobby                   # a short list, not 24 lines of boxes
        assert not any(line.startswith(("+", "|")) or "+---" in line for line in lobby), lobby
        mark = len(caller.received)
        friend.send("c")
        friend.send("hello there" + ENTER)
        await until_seen(caller, "Friend: hello there", mark)
        await caller.settle()
        said = decode_cp437(bytes(caller.received[mark:])).splitlines()
        assert len(said) <= 2, said                      # the new chat line, not the lobby again
        no_escape(bytes(caller.received))
        await caller.close()
        await friend.close()
    finally:
        await app.stop()
