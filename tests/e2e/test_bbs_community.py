"""What makes Gatehouse part of a BBS's community (issue 58), as callers and
the sysop see it: the lobby chat's memory, the sysop's account tools,
messages between callers, watching a game, the board's own title art and
footer. Only screens, the database and the log are read."""
from __future__ import annotations

import asyncio
import logging
import sqlite3

import pytest

from tests.server.sysop_harness import Console

from .harness import DOWN, ENTER, Caller, door_digit, start_app, wait_until


@pytest.fixture
async def board(tmp_path):
    """(app, the sysop console's settings file)."""
    app = await start_app(tmp_path / "gatehouse.db", limits={"chat_lines_per_10s": 1000})
    config = tmp_path / "gatehouse.toml"
    config.write_text(f'[sysop]\nsocket = "{tmp_path / "sysop.sock"}"\n')
    yield app, config
    await app.stop()


async def test_a_caller_who_arrives_sees_the_last_lobby_lines_until_the_sysop_clears_them(board, caplog):
    app, config = board
    caplog.set_level(logging.INFO, logger="gatehouse")
    alice = await Caller.connect(app.port)
    await alice.login("Alice")
    alice.send("c")
    await alice.expect("Say:")
    for n in range(1, 26):                     # more than the 20 kept
        alice.send(f"line {n:02d}" + ENTER)
        await alice.expect(f"Alice: line {n:02d}")
    bob = await Caller.connect(app.port)
    await bob.login("Bob")
    text = await bob.expect("Alice: line 25")
    assert "Alice: line 19" in text             # the pane's last lines
    console = Console(config)
    try:
        await console.expect("Sysop console")
        console.send("e")
        await console.expect("Lobby chat cleared")
        await bob.expect_gone("Alice: line 25")      # an open lobby's pane is cleared too
        carol = await Caller.connect(app.port)
        await carol.login("Carol")
        alice.send("after the clear" + ENTER)
        text = await carol.expect("Alice: after the clear")
        assert "line 25" not in text
        assert any("lobby chat cleared by Sysop" in r.getMessage() for r in caplog.records)
        await carol.close()
    finally:
        await console.close()
    await alice.close()
    await bob.close()


async def gatehouse(*argv: str) -> int:
    """``gatehouse ARGS`` run as the sysop would (in a thread: the server's loop goes on)."""
    from server.cli import main
    return await asyncio.to_thread(main, list(argv))


async def call(app, handle: str, password: str = "secret1", new: bool = False) -> Caller:
    caller = await Caller.connect(app.port)
    await caller.login(handle, password, new=new)
    return caller


async def test_the_sysop_resets_a_password_bans_and_unbans_from_the_command_line(board, tmp_path, caplog):
    app, _config = board
    caplog.set_level(logging.INFO, logger="gatehouse")
    db = str(tmp_path / "gatehouse.db")
    alice = await call(app, "Alice", new=True)
    await alice.close()
    assert await gatehouse("user", "reset-password", "Alice", "--password", "fresh-one", "--db", db) == 0
    alice = await call(app, "Alice", "fresh-one")         # the new password lets her in
    await alice.close()
    assert await gatehouse("user", "ban", "Alice", "--reason", "flooding the lobby", "--db", db) == 0
    alice = await Caller.connect(app.port)
    await alice.expect("Handle")
    alice.send("Alice" + ENTER)
    text = await alice.expect("You are banned from this board (flooding the lobby).")
    assert "Password" not in text
    await wait_until(lambda: alice.closed, what="the line closed")
    assert await gatehouse("user", "unban", "Alice", "--db", db) == 0
    alice = await call(app, "Alice", "fresh-one")
    await alice.close()
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT COUNT(*) FROM bans").fetchone()[0] == 0
    said = [r.getMessage() for r in caplog.records]
    for line in ("password of Alice reset by", "Alice banned by", "banned caller refused: Alice",
                 "Alice unbanned by"):
        assert any(line in m for m in said), line


async def test_a_ban_with_the_address_refuses_another_handle_from_there(board, tmp_path):
    app, _config = board
    db = str(tmp_path / "gatehouse.db")
    bob = await call(app, "Bob", new=True)
    await bob.close()
    assert await gatehouse("user", "ban", "Bob", "--address", "127.0.0.1", "--db", db) == 0
    other = await Caller.connect(app.port)
    await other.expect("Handle")
    other.send("Robert" + ENTER)
    await other.expect("You are banned from this board (no reason given).")
    await other.close()


async def test_the_console_bans_an_online_caller_renames_one_who_is_away_and_resets_a_password(board, tmp_path, caplog):
    app, config = board
    caplog.set_level(logging.INFO, logger="gatehouse")
    carol = await call(app, "Carol", new=True)
    await carol.close()
    bob = await call(app, "Bob", new=True)
    console = Console(config)
    try:
        await console.expect("Sysop console")
        console.send("A")
        await console.expect("Accounts (3)")      # Bob, Carol and the sysop
        console.send("n" + "Robert" + ENTER)      # Bob is first, and online
        await console.expect("Bob is online: rename them after they log off.")
        console.send("b" + "rude" + ENTER)
        await console.expect("Bob is banned.")
        await bob.expect("Disconnected by the sysop: banned: rude")
        console.send(DOWN + "n" + "Caroline" + ENTER)
        await console.expect("Carol is now Caroline.")
        console.send("r" + "brand-new1" + ENTER)          # Caroline stays selected
        await console.expect("New password set for Caroline.")
        assert "brand-new1" not in console.text()         # typed as stars
    finally:
        await console.close()
    with sqlite3.connect(tmp_path / "gatehouse.db") as con:
        handles = {row[0] for row in con.execute("SELECT handle FROM users")}
    assert {"Bob", "Caroline"} <= handles and "Carol" not in handles
    said = [r.getMessage() for r in caplog.records]
    assert any("Carol renamed Caroline by Sysop" in m for m in said)
    assert any("Bob banned by Sysop: rude" in m for m in said)
    caroline = await call(app, "Caroline", "brand-new1")
    await caroline.close()


async def send_message(sender: Caller, to: str, text: str) -> None:
    """From the lobby: l, the handle, the line."""
    sender.send("l")
    await sender.expect("Message to (handle):")
    sender.send(to + ENTER)
    await sender.expect(f"Message to {to}:")
    sender.send(text + ENTER)


async def test_a_line_to_a_caller_on_reaches_the_lobby_and_a_game_and_one_away_is_kept(board, tmp_path):
    app, _config = board
    dave = await call(app, "Dave", new=True)
    await dave.close()
    alice = await call(app, "Alice", new=True)
    bob = await call(app, "Bob", new=True)
    # online, in the lobby: on her screen, and the lobby stays whole
    await send_message(bob, "Alice", "game later?")
    await bob.expect("Message sent to Alice.")
    text = await alice.expect("Message from Bob: game later?")
    assert "Who's online" in text and "Lobby chat" in text and "Doors" in text
    # online, in a game: on his screen, and the board stays whole
    alice.send("p" + door_digit("Towers"))
    await alice.expect("choose your opponent")
    alice.send(DOWN + ENTER + DOWN * 2 + ENTER)
    await bob.expect("Alice challenges you")
    bob.send("y")
    await alice.expect("Phase: Placement")
    carol = await call(app, "Carol", new=True)
    await send_message(carol, "Bob", "\x1b[2Jhi \x07bob")
    await carol.expect("Message sent to Bob.")
    text = await bob.expect("Message from Carol: hi bob")
    assert " 8 │" in text and " 1 │" in text and "Phase: Placement" in text and "c chat  r redraw" in text
    # away: kept in the store, shown at the next login, then gone from the store
    await send_message(carol, "Dave", "welcome back")
    await carol.expect("Dave is not on: the message is kept for their next call.")
    with sqlite3.connect(tmp_path / "gatehouse.db") as con:
        assert con.execute("SELECT sender, text FROM messages").fetchall() == [("Carol", "welcome back")]
    dave = await call(app, "Dave")
    await dave.expect("Message from Carol")
    await dave.expect("welcome back")
    with sqlite3.connect(tmp_path / "gatehouse.db") as con:
        assert con.execute("SELECT COUNT(*) FROM messages").fetchone()[0] == 0
    for caller in (alice, bob, carol, dave):
        await caller.close()


RANKS = set("123456789SBF")
HIDDEN = "■"


def board_cells(caller: Caller) -> str:
    """What the Stratego board's cells show on the caller's screen."""
    return "".join(line[4:34] for line in caller.screen.display[2:12])


async def test_a_third_caller_watches_stratego_and_never_sees_a_hidden_rank_before_the_end(tmp_path):
    from .test_stratego import BLUE, RED
    from .test_two_callers import two_in_lobby
    # no blinking reveal of a strike's two pieces: every rank on the board is then a leak
    app = await start_app(tmp_path / "g.db", stratego={"reveal_seconds": 0.0})
    try:
        red, blue = await two_in_lobby(app)
        red.send("p" + door_digit("Stratego"))
        await red.expect("choose your opponent")
        red.send(DOWN + ENTER)                        # Bob, the only other caller
        await red.expect("Scout strike")
        red.send(DOWN * 2 + ENTER)
        await blue.expect("Alice challenges you to Stratego")
        blue.send("y")
        await red.expect("Both players move now")
        carol = await Caller.connect(app.port)
        await carol.login("Carol")
        carol.send("w")
        await carol.expect("1  Stratego: Alice vs Bob")
        carol.send("1")
        await carol.expect("STRATEGO  Alice vs Bob")
        await red.expect("Carol is watching.")
        leaks: list[str] = []
        over = False

        async def look() -> None:          # the watcher's board, as often as it can be read
            while not over:
                cells = board_cells(carol)
                if "GAME OVER" not in carol.text() and RANKS & set(cells):
                    leaks.append(cells)
                await asyncio.sleep(0.01)
        looking = asyncio.create_task(look())
        for caller, keys in ((red, RED), (blue, BLUE)):
            caller.send("A")
            await caller.expect("A: after placing, cursor steps on")
            caller.send(keys)
            await caller.expect("You: 40/40")
            caller.send(ENTER)
            await caller.expect("Ready? y/n")
            caller.send("y")
        await red.expect("Your move")
        await wait_until(lambda: board_cells(carol).count(HIDDEN) == 80, what="both armies, hidden")
        # Red's scout on B4 runs to B7 and strikes Blue's scout: the watcher sees it as it happens
        red.send("h" + DOWN * 2 + "\x1b[D" * 3 + ENTER)
        await red.expect("Selected")
        red.send("\x1b[A" * 3 + ENTER)
        text = await carol.expect("B4xB7")
        assert "Red Scout (9) on Blue Scout (9)" in text        # what both players were shown
        await wait_until(lambda: board_cells(carol).count(HIDDEN) == 78, what="both scouts gone")
        assert "c chat" not in carol.text(), carol.text()      # no kibitzing: chat not offered
        red.send("=")                                 # an offer: the key to answer is Bob's alone
        await blue.expect("Alice offers a draw: press = to accept.")
        await carol.expect("Alice offers a draw.")
        assert "press = to accept" not in carol.text(), carol.text()
        red.send("Q")
        await red.expect("Resign this game? (y/n)")
        red.send("y")
        await carol.expect("GAME OVER: Bob won")
        await wait_until(lambda: HIDDEN not in board_cells(carol), what="both armies revealed")
        cells = board_cells(carol)
        assert cells.count("F") == 2 and cells.count("B") == 12 and cells.count("S") == 2
        over = True
        await looking
        assert leaks == []
        carol.send("c?")                               # "c" opens no chat line: "?" is not text
        text = await carol.expect("Stratego help")
        assert "Say:" not in text, text
        for caller in (red, blue, carol):
            await caller.close()
    finally:
        await app.stop()


def wide_title(cols: int = 132, rows: int = 30) -> bytes:
    """A sysop's title.ans: ``cols`` x ``rows`` (SAUCE says so), each row
    named, the part past column 80 marked CUT, the last row marked BOTTOM."""
    from ansi.art import Sauce
    lines = []
    for y in range(rows):
        name = "BOTTOM" if y == rows - 1 else f"ROW {y:02d} RUSTY ANCHOR"
        lines.append(b"\x1b[1;33m" + name.ljust(80, ".").encode() + b"\x1b[0;36m" + b"CUT" * ((cols - 80) // 3)
                     + b"\r\n")
    art = b"".join(lines)
    sauce = Sauce(title="Rusty Anchor", author="sysop", date="20261129", file_size=len(art),
                  tinfo1=cols, tinfo2=rows, tinfos="IBM VGA")
    return art + b"\x1a" + sauce.to_bytes()


async def test_the_sysops_own_title_is_cut_to_80_columns_and_their_footer_shown(tmp_path):
    (tmp_path / "title.ans").write_bytes(wide_title())
    (tmp_path / "footer.txt").write_text("The Rusty Anchor BBS \x1b[2J· door key G\nsecond line\n")
    app = await start_app(tmp_path / "gatehouse.db")
    try:
        caller = await Caller.connect(app.port)
        text = await caller.expect("Handle")
        await caller.settle()
        text = caller.text()
        for y in range(20):                      # each art row on its own screen row, in order
            assert caller.line(y).startswith(f"ROW {y:02d} RUSTY ANCHOR....")
        assert "CUT" not in text and "BOTTOM" not in text
        assert caller.line(20).strip() == "The Rusty Anchor BBS ?[2J· door key G"
        assert "second line" not in text and "Welcome to Gatehouse" not in text
        await caller.close()
        out = tmp_path / "bulletin.asc"
        config = tmp_path / "gatehouse.toml"
        config.write_text(f'[paths]\nstate_dir = "{tmp_path}"\n')
        assert await gatehouse("bulletin", "--format", "utf8", "--config", str(config),
                               "--output", str(out)) == 0
        assert out.read_text().rstrip().splitlines()[-1].strip() == "The Rusty Anchor BBS ?[2J· door key G"
    finally:
        await app.stop()


async def test_without_the_sysops_files_the_shipped_title_and_footer_are_shown(app):
    caller = await Caller.connect(app.port)
    text = await caller.expect("Welcome to Gatehouse")
    assert "ROW 00" not in text
    await caller.close()


async def test_a_banned_bbs_caller_is_told_in_one_line_when_their_bbs_hands_them_over(tmp_path):
    from .test_rlogin_trust import rlogin_lobby
    app = await start_app(tmp_path / "g.db", rlogin={"enabled": True, "port": 0, "tag": "VRT"})
    try:
        screen, writer = await rlogin_lobby(app, "Bobby")
        await screen.expect("Who's online")
        writer.close()
        assert await gatehouse("user", "ban", "[VRT]Bobby", "--reason", "cheating",
                               "--db", str(tmp_path / "g.db")) == 0
        screen, writer = await rlogin_lobby(app, "Bobby")
        text = await screen.expect("You are banned from this board (cheating).")
        assert "Who's online" not in text
        writer.close()
    finally:
        await app.stop()
