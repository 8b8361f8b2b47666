"""A real telnet client (Debian's `telnet`) in tmux: the caller's path as a
person takes it. .ci/run installs telnet and tmux."""
import asyncio
import shutil
import uuid

from .harness import charset_of, db_rows, door_digit


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
