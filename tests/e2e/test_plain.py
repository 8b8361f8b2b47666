"""Callers without ANSI: a telnet terminal of type `dumb`, a door-mode caller
with DOOR32.SYS emulation 0, and an RLogin caller of terminal `dumb` get plain
text, line by line, and never one escape byte, through a whole call: chat, an
Awari game against the computer to the end with typed commands (`help`,
`sow 3`, `say ...`), a Stratego game typed from the setup (`place a4 9`,
`random`, `ready`) through moves (`a4 a5`) to a resignation, and leaving."""
import asyncio
import json
import time

from ansi.cp437 import decode_cp437

from .harness import ENTER, Caller, active_game, db_rows, door_digit, game_state, moves_of, start_app, wait_until
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


class Line:
    """A caller's connection as a test sees it: the bytes received, and keys typed.
    Built from a reader/writer pair (RLogin), or over a caller that already
    keeps its bytes (telnet, door mode)."""

    def __init__(self, received: bytearray, send) -> None:
        self.received = received
        self.send = send

    @classmethod
    def of(cls, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> "Line":
        line = cls(bytearray(), lambda keys: writer.write(keys.encode()))
        line.pump = asyncio.create_task(line._read(reader))
        return line

    async def _read(self, reader: asyncio.StreamReader) -> None:
        while data := await reader.read(4096):
            self.received += data

    async def settle(self, quiet: float = 0.15, timeout: float = 5.0) -> None:
        """Wait until nothing has arrived for ``quiet`` seconds."""
        deadline = time.monotonic() + timeout
        size = -1
        while time.monotonic() < deadline and len(self.received) != size:
            size = len(self.received)
            await asyncio.sleep(quiet)


async def chat_in_the_lobby(line, friend: Caller, words: str) -> int:
    """The caller says ``words`` in the lobby chat, the friend sees it and answers."""
    line.send("c")
    line.send(words + ENTER)
    await friend.expect(words)
    answer = f"welcome, {words.split()[-1]}"
    friend.send("c")
    friend.send(answer + ENTER)
    mark = await until_seen(line, answer)
    line.send(ENTER)                                 # an empty line closes the chat line
    await line.settle()
    return mark


async def play_awari_to_the_end(line, app, name: str, mark: int = 0) -> int:
    """From the lobby: an Awari game against the computer with typed commands
    (`help`, a wrong `sow 9`, `say`, `sow N`) to GAME OVER, then `lobby`.
    The game is finished in the database file."""
    line.send("p")
    mark = await until_seen(line, "Choose a door", mark)
    line.send(door_digit("Awari"))
    mark = await until_seen(line, "choose your opponent", mark)
    line.send("1")
    mark = await until_seen(line, "options", mark)
    line.send(ENTER)
    mark = await until_seen(line, "help: the commands", mark)
    line.send("help" + ENTER)
    mark = await until_seen(line, "sow N", mark)
    line.send("q")                                   # out of the help pages
    mark = await until_seen(line, "> ", mark)
    line.send("sow 9" + ENTER)
    mark = await until_seen(line, "Not a move: 'sow 9'. Type sow N, or help.", mark)
    line.send("say good luck" + ENTER)
    mark = await until_seen(line, "good luck", mark)
    deadline = time.monotonic() + 240
    while "GAME OVER" not in decode_cp437(bytes(line.received[mark:])):
        assert time.monotonic() < deadline, decode_cp437(bytes(line.received))[-2000:]
        for hole in "123456":                        # the first legal hole is sown
            line.send(f"sow {hole}" + ENTER)
        await line.settle()
    [(status,)] = db_rows(app, "SELECT status FROM games WHERE door = 'awari' AND player0 = ? "
                          "ORDER BY id DESC LIMIT 1", name)
    assert status == "finished"
    no_escape(bytes(line.received))
    line.send("lobby" + ENTER)                       # from the finished game to the lobby
    return await until_seen(line, "Who's online", mark)


FRONT = "9999999955"     # Red's front row (row 4), columns A to J: eight Scouts, two Captains
OPENINGS = [f"{col}{row} {col}{row + 1}" for row in (4, 5, 6, 3) for col in "abefij"]


async def play_stratego_and_resign(line, app, name: str, mark: int = 0) -> int:
    """From the lobby: a Stratego game against the computer typed from the setup
    (`place` lines, a wrong `place k4 9`, `random` for the rest, `ready`), four
    real moves (`move a4 a5`, `a4 a5`), then `resign` and `y`: the game ends on
    the caller's screen and in the database file; `lobby` goes back."""
    line.send("p")
    mark = await until_seen(line, "Choose a door", mark)
    line.send(door_digit("Stratego"))
    mark = await until_seen(line, "choose your opponent", mark)
    line.send("1")
    mark = await until_seen(line, "options", mark)
    line.send(ENTER)
    mark = await until_seen(line, "SETUP: place your 40 pieces", mark)
    line.send("help" + ENTER)
    mark = await until_seen(line, "place d4 B", mark)
    line.send("q")                                   # out of the help pages
    mark = await until_seen(line, "> ", mark)
    line.send("place k4 9" + ENTER)
    mark = await until_seen(line, "Not a move: 'place k4 9'", mark)
    for placed, (col, rank) in enumerate(zip("abcdefghij", FRONT, strict=True), 1):   # the front row
        line.send(f"place {col}4 {rank}" + ENTER)
        mark = await until_seen(line, f"You: {placed}/40", mark)
    line.send("random" + ENTER)                      # the other 30 pieces
    mark = await until_seen(line, "You: 40/40", mark)
    line.send("ready" + ENTER)
    mark = await until_seen(line, "Your move", mark)
    game_id = db_rows(app, "SELECT id FROM games WHERE door = 'stratego' AND player0 = ? "
                      "ORDER BY id DESC LIMIT 1", name)[0][0]

    def my_moves() -> int:
        return len([a for p, a in moves_of(app, game_id) if p == 0 and "-" in a])

    deadline = time.monotonic() + 120
    while my_moves() < 4:
        assert time.monotonic() < deadline, decode_cp437(bytes(line.received))[-2000:]
        done = my_moves()
        # the computer's reply first: a move typed before it is refused, and
        # none would follow it
        await wait_until(lambda: game_state(app, game_id).to_move() == (0,), what="the caller's turn")
        for i, move in enumerate(OPENINGS):          # the first legal one is played
            line.send(("move " if i % 2 else "") + move + ENTER)
        await wait_until(lambda done=done: my_moves() > done, what="a move of the caller's")
        await line.settle()
    no_escape(bytes(line.received))
    line.send("resign" + ENTER)
    mark = await until_seen(line, "(y/n)", mark)
    line.send("y")
    await until_seen(line, "GAME OVER: you lost", mark)
    mark = await until_seen(line, f"{name} resigned.", mark)    # the reason: the end's own row
    [(status, outcome)] = db_rows(app, "SELECT status, outcome FROM games WHERE id = ?", game_id)
    assert status == "finished"
    assert json.loads(outcome)["winner"] == 1 and json.loads(outcome)["termination"] == "resign"
    no_escape(bytes(line.received))
    line.send("lobby" + ENTER)
    return await until_seen(line, "Who's online", mark)


async def test_a_dumb_terminal_plays_a_whole_call_without_one_escape_byte(tmp_path):
    app = await start_app(tmp_path / "g.db")
    try:
        friend = await Caller.connect(app.port)
        await friend.login("Friend")
        caller = await Caller.connect(app.port, term="dumb")
        await caller.login("Plain")
        no_escape(bytes(caller.received))
        mark = await chat_in_the_lobby(caller, friend, "hello from a dumb terminal")
        mark = await play_awari_to_the_end(caller, app, "Plain", mark)
        mark = await play_stratego_and_resign(caller, app, "Plain", mark)
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


async def test_door_mode_with_emulation_0_and_rlogin_dumb_play_whole_calls_without_escape(tmp_path):
    """DOOR32.SYS emulation 0 (ASCII): door mode tells the server `dumb-bbs`.
    That caller, and an RLogin caller of terminal `dumb`, each chat, play
    Awari to the end and Stratego to a resignation, and go back to the BBS."""
    from server.net.rlogin import build_handshake
    app = await start_app(tmp_path / "g.db", rlogin={"enabled": True, "port": 0, "tag": "VRT"})
    try:
        friend = await Caller.connect(app.port)
        await friend.login("Friend")
        door = await TimedCaller(app, "Ascii", minutes=30, emulation=0).start()
        reader, writer = await asyncio.open_connection("127.0.0.1", app.rlogin_port)
        writer.write(build_handshake("vrt", "Dumbo", "dumb/9600"))
        callers = [(Line(door.raw, door.send), "Ascii"), (Line.of(reader, writer), "Dumbo")]
        for line, alias in callers:
            mark = await until_seen(line, "Who's online")
            name = next(n for (n,) in db_rows(app, "SELECT handle FROM users") if n.endswith(alias))
            mark = await chat_in_the_lobby(line, friend, f"hello from {alias}")
            mark = await play_awari_to_the_end(line, app, name, mark)
            mark = await play_stratego_and_resign(line, app, name, mark)
            line.send("g")
            mark = await until_seen(line, "Back to the BBS? (y/n)", mark)
            line.send("y")
        assert await asyncio.wait_for(door.door, 30) == 0
        await wait_until(lambda: reader.at_eof(), what="the RLogin line hung up")
        for line, _ in callers:
            no_escape(bytes(line.received))
        writer.close()
        await friend.close()
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


async def test_a_dumb_terminal_smaller_than_80x24_logs_in_line_by_line(tmp_path):
    """Plain text is printed line by line: a 72-column teletype, or a dumb
    terminal of 20 rows that tells its size, is never told to enlarge."""
    app = await start_app(tmp_path / "g.db")
    try:
        for cols, rows in ((72, 24), (80, 20)):
            caller = await Caller.connect(app.port, term="dumb", cols=cols, rows=rows)
            await caller.login(f"Plain{cols}")
            seen = decode_cp437(bytes(caller.received))
            assert "enlarge" not in seen and "Who's online" in seen
            no_escape(bytes(caller.received))
            await caller.close()
    finally:
        await app.stop()


async def plain_options(app, door: str) -> tuple[Caller, int]:
    """A new dumb-terminal caller at the options of ``door`` against the computer."""
    line = await Caller.connect(app.port, term="dumb")
    await line.login("Plain")
    line.send("p")
    mark = await until_seen(line, "Choose a door")
    line.send(door_digit(door))
    mark = await until_seen(line, "choose your opponent", mark)
    line.send("1")
    return line, await until_seen(line, "options", mark)


async def test_a_dumb_terminal_typing_a_move_reads_each_key_echoed_once(tmp_path):
    """Typing `sow 3` key by key in a game: each key comes back as itself
    (as a line-mode terminal echoes), never the whole command line again."""
    app = await start_app(tmp_path / "g.db")
    try:
        line, mark = await plain_options(app, "Awari")
        line.send(ENTER)
        mark = await until_seen(line, "help: the commands", mark)
        line.send("help" + ENTER)                    # a command typed and done: the typed line is known
        mark = await until_seen(line, "sow N", mark)
        line.send("q")
        mark = await until_seen(line, "> ", mark)
        line.send("s")
        await wait_until(lambda: decode_cp437(bytes(line.received[mark:])).endswith("s"), what="s echoed")
        mark = len(line.received)
        for count, key in enumerate("ow 3", start=1):
            line.send(key)
            if key != " ":                               # (a space shows with the key after it)
                want = mark + count
                await wait_until(lambda: len(line.received) >= want, what=f"{key!r} echoed")  # noqa: B023
        assert decode_cp437(bytes(line.received[mark:])) == "ow 3", bytes(line.received[mark - 40:])
        no_escape(bytes(line.received))
        await line.close()
    finally:
        await app.stop()


async def test_an_emulation_0_door_caller_types_cp437_letters_others_read_as_typed(tmp_path):
    """A caller of a CP437 BBS with no ANSI types `Grüße aus Köln` in the
    lobby chat: another caller reads those letters, not replacement marks."""
    app = await start_app(tmp_path / "g.db", rlogin={"enabled": True, "port": 0, "tag": "VRT"})
    try:
        friend = await Caller.connect(app.port)
        await friend.login("Friend")
        door = await TimedCaller(app, "Jorg", minutes=90, emulation=0).start()
        line = Line(door.raw, door.send)
        mark = await until_seen(line, "Who's online")
        door.send("c")
        mark = await until_seen(line, "Say:", mark)
        door.writer.write("Grüße aus Köln".encode("cp437") + b"\r")
        await friend.expect("[VRT]Jorg: Grüße aus Köln")
        await until_seen(line, "[VRT]Jorg: Gru?e aus Koln", mark)    # (shown to them in ASCII)
        door.writer.close()
        await friend.close()
    finally:
        await app.stop()


async def test_a_dumb_terminal_logs_in_to_words_not_title_art(tmp_path):
    """The title art in ASCII is rows of # and ?: a screen reader would read
    twenty lines of it. Plain text shows the name, the welcome and the
    prompts, each once."""
    app = await start_app(tmp_path / "g.db")
    try:
        caller = await Caller.connect(app.port, term="dumb")
        await caller.login("Plain")
        seen = decode_cp437(bytes(caller.received))
        before = seen[:seen.index("Welcome to Gatehouse")]
        assert "##" not in before and before.strip("-\r\n ").strip() == "GATEHOUSE", before
        assert "charset" not in seen and seen.count("Handle (new callers: pick one):") == 1, seen
        await caller.close()
    finally:
        await app.stop()


async def test_a_terminal_with_no_arrows_sets_the_options_with_tab_and_space(tmp_path):
    """A teletype has no arrow keys: TAB goes to the next option line and
    SPACE changes it (the line shown between < and >)."""
    app = await start_app(tmp_path / "g.db")
    try:
        line, mark = await plain_options(app, "Stratego")
        assert "TAB: a line" in decode_cp437(bytes(line.received))
        line.send("\t")
        mark = await until_seen(line, "< Seed: not X-Y, Y-X, X-Y again >", mark)
        line.send(" ")
        await until_seen(line, "Two-square rule", mark)
        assert "< Seed: not X-Y" not in decode_cp437(bytes(line.received[mark:]))   # changed
        no_escape(bytes(line.received))
        await line.close()
    finally:
        await app.stop()


async def test_a_dumb_terminal_saves_and_loads_a_stratego_setup_by_typed_commands(tmp_path):
    """`save NAME` keeps the 40 pieces as they stand, `load N` brings saved
    setup N back: the named setups a full-screen caller has with W and L."""
    app = await start_app(tmp_path / "g.db")
    try:
        line, mark = await plain_options(app, "Stratego")
        line.send(ENTER)
        mark = await until_seen(line, "place your 40 pieces", mark)
        line.send("random" + ENTER)
        mark = await until_seen(line, "You: 40/40", mark)
        line.send("save mine" + ENTER)
        mark = await until_seen(line, "Setup saved as mine", mark)
        game_id = active_game(app, "Plain")[0]
        saved = [(piece.rank if piece else None) for piece in game_state(app, game_id).board[:40]]
        line.send("remove a4" + ENTER)
        mark = await until_seen(line, "You: 39/40", mark)
        line.send("load 1" + ENTER)
        mark = await until_seen(line, "You: 40/40", mark)
        await wait_until(lambda: [(p.rank if p else None) for p in game_state(app, game_id).board[:40]] == saved,
                         what="the saved setup back on the board")
        line.send("help" + ENTER)
        await until_seen(line, "save NAME", mark)
        no_escape(bytes(line.received))
        await line.close()
    finally:
        await app.stop()
