"""Real telnet clients (Debian's `telnet`, busybox `telnet`) in tmux: the
caller's path as a person takes it, and an evening played through with
both and the sysop console. .ci/run installs telnet, busybox and tmux."""
import asyncio
import re
import shutil
import uuid

from tests.server.sysop_harness import Console

from .clients import TmuxClient
from .harness import DOWN, ENTER, ESC, charset_of, db_rows, door_digit, start_app, wait_until, wait_while_moving


async def tmux(*args: str) -> str:
    proc = await asyncio.create_subprocess_exec("tmux", *args, stdout=asyncio.subprocess.PIPE,
                                                stderr=asyncio.subprocess.STDOUT)
    out, _ = await proc.communicate()
    return out.decode("utf-8", "replace")


async def screen_shows(sock: str, text: str, timeout: float = 10.0) -> str:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        shot = await tmux("-L", sock, "capture-pane", "-p", "-t", "gh")
        if text in shot:
            return shot
        if loop.time() > deadline:
            raise AssertionError(f"{text!r} never appeared in the telnet client:\n{shot}")
        await asyncio.sleep(0.1)


async def test_linux_telnet_registers_chats_and_opens_a_game(app):
    assert shutil.which("tmux") and shutil.which("telnet"), \
        "this test needs Debian's telnet and tmux: apt-get install telnet tmux (.ci/run does)"
    sock = f"gh-{uuid.uuid4().hex[:8]}"
    await tmux("-L", sock, "new-session", "-d", "-s", "gh", "-x", "80", "-y", "24",
               f"TERM=xterm telnet 127.0.0.1 {app.port}")
    try:
        await screen_shows(sock, "Handle")
        await tmux("-L", sock, "send-keys", "-t", "gh", "Tina", "Enter")
        await screen_shows(sock, "Register?")
        await tmux("-L", sock, "send-keys", "-t", "gh", "y")
        await screen_shows(sock, "Choose a password")
        await tmux("-L", sock, "send-keys", "-t", "gh", "pass1234", "Enter")
        await screen_shows(sock, "once more")
        await tmux("-L", sock, "send-keys", "-t", "gh", "pass1234", "Enter")
        shot = await screen_shows(sock, "Who's online")
        assert "Tina" in shot and "pass1234" not in shot
        await tmux("-L", sock, "send-keys", "-t", "gh", "c", "hi from telnet", "Enter")
        await screen_shows(sock, "Tina: hi from telnet")
        await tmux("-L", sock, "send-keys", "-t", "gh", "Escape")
        await screen_shows(sock, "p play  c chat")          # the chat line closed
        # challenge the computer to Towers, arrows and Enter as a person would
        await tmux("-L", sock, "send-keys", "-t", "gh", "p")
        await screen_shows(sock, "Choose a door")
        await tmux("-L", sock, "send-keys", "-t", "gh", door_digit("Towers"))
        await screen_shows(sock, "choose your opponent")
        await tmux("-L", sock, "send-keys", "-t", "gh", "Enter")
        await screen_shows(sock, "options")
        for _ in range(3):
            await tmux("-L", sock, "send-keys", "-t", "gh", "Down")
        await tmux("-L", sock, "send-keys", "-t", "gh", "Enter")
        await screen_shows(sock, "c chat  r redraw")
        assert db_rows(app, "SELECT door, player0, player1, status FROM games") == [
            ("towers", "Tina", "computer:3", "active")]
        assert charset_of(app, "Tina") == "utf8"
    finally:
        await tmux("-L", sock, "kill-server")


# ----- the evening played through with two real clients and the console -----

BY_NAME = "By turns with a caller (type a handle)"


async def register(client: TmuxClient, handle: str) -> None:
    await client.expect("Handle", timeout=30)
    await client.type(handle)
    await client.keys("Enter")
    await client.expect("Register?", timeout=30)
    await client.type("y")
    await client.expect("Choose a password", timeout=30)
    await client.type("secret1")
    await client.keys("Enter")
    await client.expect("once more", timeout=30)
    await client.type("secret1")
    await client.keys("Enter")
    await client.expect("Who's online", timeout=30)


async def to_lobby(client: TmuxClient) -> None:
    await client.keys("Escape")
    await client.expect("Who's online", timeout=30)


async def pick(client: TmuxClient, label: str) -> None:
    """Type the number a menu shows before ``label``."""
    found = re.search(rf"(\d+)\. {re.escape(label)}", client.text())
    assert found, f"no {label!r} in the menu:\n{client.text()}"
    await client.type(found.group(1))


async def live_challenge(challenger: TmuxClient, other: TmuxClient, other_name: str, door: str) -> None:
    """``challenger`` challenges ``other`` to ``door`` with its default options; ``other`` says y."""
    await challenger.type("p")
    await challenger.expect("Choose a door", timeout=30)
    await challenger.type(door_digit(door))
    await challenger.expect("choose your opponent", timeout=30)
    await pick(challenger, other_name)
    await challenger.expect("Send challenge", timeout=30)
    await challenger.keys(*["Down"] * 20, "Enter")     # (DOWN wraps: 20 lands on the last row, and any row sends)
    await other.expect(f"challenges you to {door}", timeout=30)
    await other.type("y")
    await challenger.expect("Q resign", timeout=30)
    await other.expect("Q resign", timeout=30)


def game_over_rows(client: TmuxClient) -> list[str]:
    """The header (the status line: the blue row from 17 down), the end's rows, the key line."""
    client.text()
    top = next(y for y in range(17, 21) if client.screen.buffer[y][1].bg == "blue")
    return [line.rstrip() for line in client.screen.display[top:24]]


async def select_node(console: Console, handle: str) -> None:
    """DOWN on the console until the detail row names ``handle``."""
    for _ in range(12):
        if f" {handle}: " in console.line(13):
            return
        before = console.line(13)
        console.send(DOWN)
        await wait_until(lambda seen=before: console.line(13) != seen, what="the console's selection moved")
    raise AssertionError(f"{handle} cannot be selected:\n{console.text()}")


async def test_an_evening_with_debian_telnet_busybox_telnet_and_the_console(tmp_path, capsys):
    """Alice on Debian telnet, Bob on busybox telnet, the sysop on the
    console: Stone Towers to a resignation (the sysop watching and
    messaging), Awari to its end by agreed auto finish, an Awari move by
    turns, and a kick. The game-over rows are read off the real client's
    screen: each side's result, the reason once, ESC on the key line."""
    app = await start_app(tmp_path / "gatehouse.db", sysop={"socket": str(tmp_path / "run" / "s.sock")})
    config = tmp_path / "gatehouse.toml"
    config.write_text(f'[sysop]\nsocket = "{app.config.sysop.socket}"\n')
    alice = await TmuxClient(f"telnet 127.0.0.1 {app.port}").start()
    bob = await TmuxClient(f"busybox telnet 127.0.0.1 {app.port}").start()
    console = Console(config)
    try:
        await console.expect("Sysop console")
        await register(alice, "Alice")
        await register(bob, "Bob")
        await alice.expect("Bob", timeout=30)
        await console.expect("Bob")

        # Stone Towers: the sysop watches and writes; Bob resigns
        await live_challenge(alice, bob, "Bob", "Stone Towers")
        await select_node(console, "Alice")
        console.send("w")
        await console.expect("ESC console")
        await alice.expect("Sysop is watching", timeout=30)
        await bob.expect("Sysop is watching", timeout=30)
        console.send(ESC)
        await console.expect("Sysop console")
        console.send("m")
        await console.expect("Message:")
        console.send("good game to you both" + ENTER)
        await alice.expect("Sysop: good game to you both", timeout=30)
        await bob.type("Q")
        await bob.expect("Resign this game? (y/n)", timeout=30)
        await bob.type("y")
        await alice.expect("GAME OVER", timeout=30)
        await bob.expect("GAME OVER", timeout=30)
        towers = game_over_rows(bob)
        assert towers[0].strip() == "GAME OVER: you lost", towers
        assert "Bob resigned" in " ".join(towers[1:-1]), towers
        assert towers[-1].strip().startswith("ESC lobby") and "Q resign" not in towers[-1], towers
        assert "GAME OVER: you won" in game_over_rows(alice)[0]
        await to_lobby(alice)
        await to_lobby(bob)

        # Awari to its end: Alice asks for auto finish, Bob agrees
        await live_challenge(alice, bob, "Bob", "Awari")
        await alice.type("a")
        await bob.expect("Alice asks for auto finish: press a to agree.", timeout=30)
        await bob.type("a")
        (game_id,), = db_rows(app, "SELECT id FROM games WHERE door = 'awari'")
        for client in (bob, alice):      # the computer plays it out: bound each move, not the game
            await wait_while_moving(app, game_id, lambda c=client: "GAME OVER" in c.text(),
                                    what=f"the end through {client.command!r}")
        awari = game_over_rows(bob)
        assert awari[0].strip().startswith("GAME OVER: "), awari
        assert awari[-1].strip().startswith("ESC lobby") and "v review" in awari[-1], awari
        assert "asks for auto finish" not in alice.text()
        assert db_rows(app, "SELECT door, status FROM games ORDER BY id") == [
            ("stone_towers", "finished"), ("awari", "finished")]
        with capsys.disabled():          # the rows the report quotes
            print("\nbusybox telnet, Stone Towers game over:\n" + "\n".join(towers))
            print("busybox telnet, Awari game over:\n" + "\n".join(awari))
        await to_lobby(alice)
        await to_lobby(bob)

        # by turns: Alice challenges Bob by name; one move
        await alice.type("p")
        await alice.expect("Choose a door", timeout=30)
        await alice.type(door_digit("Awari"))
        await alice.expect("choose your opponent", timeout=30)
        await pick(alice, BY_NAME)
        await alice.expect("Handle:", timeout=30)
        await alice.type("Bob")
        await alice.keys("Enter")
        await alice.expect("Awari against Bob by turns: options", timeout=30)
        await alice.keys(*["Down"] * 20, "Enter")
        await alice.expect("it waits for their next call", timeout=30)
        await bob.expect("challenges you to Awari by turns", timeout=30)
        await bob.type("y")
        await bob.expect("ESC leave", timeout=30)
        game = db_rows(app, "SELECT id FROM games WHERE door = 'awari' AND status = 'active'")[0][0]
        if "Your move (" not in bob.text():             # Alice begins: she opens the game from t
            await alice.type("t")
            await alice.expect("YOUR TURN", timeout=60)
            await alice.keys("Enter")
            mover = alice
        else:
            mover = bob
        await mover.expect("Your move (", timeout=30)
        await mover.type("1")
        await mover.expect("Waiting for", timeout=30)
        assert len(db_rows(app, "SELECT ply FROM moves WHERE game_id = ?", game)) == 1

        # the sysop kicks Bob
        await select_node(console, "Bob")
        console.send("k")
        await console.expect("Kick, reason:")
        console.send("closing time" + ENTER)
        await bob.expect("Disconnected by the sysop: closing time", timeout=30)
        text = await bob.expect("Connection closed by foreign host", timeout=30)    # busybox's own line
        kicked = next(line for line in text.splitlines() if "closing time" in line)
        assert "Connection closed" not in kicked, text          # the server's line ends with CR LF
        await console.expect("Bob disconnected.")
    finally:
        await console.close()
        await alice.close()
        await bob.close()
        await app.stop()
