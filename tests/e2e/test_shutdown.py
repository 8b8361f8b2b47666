"""A stop says goodbye: SIGTERM to a real server with a telnet caller in a
game, a door caller in the lobby, a browser caller and the sysop console.
Each reads the shutdown line (a telnet caller's ends with CR LF), the log
names who was on and that the server stopped cleanly, with no traceback,
and after a restart the game is offered again."""
from __future__ import annotations

import asyncio
import re
import signal
import sys
import types
from pathlib import Path

from .harness import DOWN, ENTER, RIGHT, Caller, door_digit, wait_until
from .test_door_mode import DoorCaller
from .web_harness import WebCaller

ROOT = Path(__file__).resolve().parents[2]
LINE = "Gatehouse is shutting down for maintenance: your game is saved and waits for you"


class Server:
    """``gatehouse serve`` as a subprocess; its output kept line by line."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc
        self.lines: list[str] = []
        self._pumps = [asyncio.create_task(self._pump(s)) for s in (proc.stdout, proc.stderr)]

    @classmethod
    async def start(cls, config: Path) -> Server:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "server.cli", "serve", "--config", str(config), cwd=ROOT,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        return cls(proc)

    async def _pump(self, stream) -> None:
        while line := await stream.readline():
            self.lines.append(line.decode("utf-8", "replace").rstrip())

    def log(self) -> str:
        return "\n".join(self.lines)

    async def port(self, pattern: str) -> int:
        found: list[int] = []

        def seen() -> bool:
            found[:] = [int(m.group(1)) for m in re.finditer(pattern, self.log())][:1]
            return bool(found)
        await wait_until(seen, what=f"the server to print {pattern}")
        return found[0]

    async def wait(self) -> int:
        code = await asyncio.wait_for(self.proc.wait(), 30)
        await asyncio.gather(*self._pumps)
        return code


def write_config(tmp: Path) -> Path:
    path = tmp / "gatehouse.toml"
    path.write_text(f"""\
[server]
port = 0
shutdown_grace_seconds = 1

[paths]
state_dir = "{tmp / 'state'}"

[rlogin]
enabled = true
port = 0

[web]
enabled = true
port = 0

[awari]
build_endgame = false
""", encoding="utf-8")
    return path


async def test_sigterm_tells_every_caller_and_the_console_then_the_game_resumes(tmp_path):
    from tests.server.sysop_harness import Console
    config = write_config(tmp_path)
    server = await Server.start(config)
    console = None
    try:
        port = await server.port(r"telnet://127\.0\.0\.1:(\d+)")
        web_port = await server.port(r"Browser seat: http://127\.0\.0\.1:(\d+)/")
        rlogin_port = await server.port(r"RLogin listening on 127\.0\.0\.1 port (\d+)")
        kim = await Caller.connect(port)
        await kim.login("Kim")
        kim.send("p")
        await kim.expect("Choose a door")
        kim.send(door_digit("Towers"))
        await kim.expect("choose your opponent")
        kim.send("1")                                  # the computer
        await kim.expect("options")
        kim.send(RIGHT + DOWN * 3 + ENTER)
        await kim.expect("Your turn")
        door = await DoorCaller(types.SimpleNamespace(rlogin_port=rlogin_port), "Doorman").start()
        await door.expect("Who's online")
        web = await WebCaller.connect_web(web_port)
        await web.login("Webby")
        console = Console(config)
        await console.expect("Sysop console")

        server.proc.send_signal(signal.SIGTERM)
        for caller in (kim, door, web):                # (wrapped on the bottom two lines)
            await wait_until(lambda c=caller: LINE in " ".join(c.text().split()),
                             what="the shutdown line")
        assert await console.wait_exit(30) == 0
        assert f"Sysop console closed: {LINE}" in console.received.decode("utf-8", "replace")
        await wait_until(lambda: kim.closed, what="the telnet call to end")
        assert kim.received.endswith(b"\r\n")          # the client's "Connection closed" on a line of its own
        assert await server.wait() == 0
        log = server.log()
        assert "Traceback" not in log and "CancelledError" not in log
        on = next(line for line in server.lines if "shutting down: 4 on" in line)
        assert all(name in on for name in ("Kim", "Doorman", "Webby", "Sysop"))
        assert "Gatehouse stopped cleanly" in log
        await kim.close()
        await web.close()
    finally:
        if console is not None:
            await console.close()
        if server.proc.returncode is None:
            server.proc.kill()
            await server.proc.wait()

    server = await Server.start(config)
    try:
        port = await server.port(r"telnet://127\.0\.0\.1:(\d+)")
        kim = await Caller.connect(port)
        await kim.expect("Handle")
        kim.send("Kim" + ENTER)
        await kim.expect("Password:")
        kim.send("secret1" + ENTER)
        await kim.expect("unfinished game")
        kim.send("y")
        await kim.expect("Your turn")
        await kim.close()
    finally:
        server.proc.send_signal(signal.SIGTERM)
        assert await server.wait() == 0
    assert "Traceback" not in server.log()


async def test_a_caller_flooding_as_the_line_closes_still_reads_its_goodbye(tmp_path):
    from .harness import start_app
    app = await start_app(tmp_path / "g.db")
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", app.port)
        received = bytearray()

        async def read() -> None:
            while data := await reader.read(65536):
                received.extend(data)

        reading = asyncio.create_task(read())
        junk = b"A" * 4096
        try:
            async with asyncio.timeout(30):
                while not reading.done():             # sending until the server hangs up
                    writer.write(junk)
                    await writer.drain()
        except (ConnectionError, OSError):
            pass
        await asyncio.wait_for(reading, 30)
        assert received.endswith(b"Too much input. Goodbye.\r\n")
        writer.close()
    finally:
        await app.stop()


async def test_the_sysop_stops_the_server_from_the_console_with_a_line_of_their_own(tmp_path):
    from tests.server.sysop_harness import Console
    config = write_config(tmp_path)
    server = await Server.start(config)
    console = None
    try:
        port = await server.port(r"telnet://127\.0\.0\.1:(\d+)")
        kim = await Caller.connect(port)
        await kim.login("Kim")
        console = Console(config)
        await console.expect("Sysop console")
        console.send("S")
        await console.expect("Shut down, line for callers:")
        console.send("Back at noon with a new door" + ENTER)
        await kim.expect("Back at noon with a new door")
        assert await console.wait_exit(30) == 0
        assert "Sysop console closed: Back at noon with a new door" in \
            console.received.decode("utf-8", "replace")
        assert await server.wait() == 0
        assert "Traceback" not in server.log() and "Gatehouse stopped cleanly" in server.log()
        await kim.close()
    finally:
        if console is not None:
            await console.close()
        if server.proc.returncode is None:
            server.proc.kill()
            await server.proc.wait()
