"""Real telnet clients in tmux, read back through pyte.

The client runs under ``script`` inside a tmux pane, so every byte it
writes to its terminal (after the pane's line discipline: ONLCR turns LF
into CR LF) is also written to a file; that file is fed to pyte, and tests
assert on pyte's screen. Keys go in through ``tmux send-keys``, as a person
types them. .ci/run installs tmux, telnet, busybox and putty-tools."""
from __future__ import annotations

import asyncio
import codecs
import shlex
import shutil
import tempfile
import time
import uuid
from pathlib import Path

import pyte

from ansi.cp437 import decode_cp437

__all__ = ["TmuxClient", "WireRecorder", "wait_same_screen"]


async def _run(*args: str) -> str:
    proc = await asyncio.create_subprocess_exec(*args, stdout=asyncio.subprocess.PIPE,
                                                stderr=asyncio.subprocess.STDOUT)
    out, _ = await proc.communicate()
    return out.decode("utf-8", "replace")


class TmuxClient:
    """``command`` running in an 80x24 tmux pane; ``charset`` is what the
    pane's terminal decodes."""

    def __init__(self, command: str, term: str = "xterm", charset: str = "utf8"):
        for tool in ("tmux", "script", shlex.split(command)[0]):
            assert shutil.which(tool), f"{tool} is missing: .ci/run installs it (apt-get)"
        self.command = command
        self.term = term
        self.charset = charset
        self.sock = f"gh-{uuid.uuid4().hex[:8]}"
        self._dir = tempfile.TemporaryDirectory(prefix="gh-client-")
        self.log = Path(self._dir.name) / "typescript"
        self.screen = pyte.Screen(80, 24)
        self.stream = pyte.Stream(self.screen)
        self._utf8 = codecs.getincrementaldecoder("utf-8")("replace")
        self._offset = 0

    async def tmux(self, *args: str) -> str:
        return await _run("tmux", "-L", self.sock, *args)

    async def start(self) -> TmuxClient:
        inner = f"env TERM={shlex.quote(self.term)} {self.command}"
        await self.tmux("new-session", "-d", "-s", "gh", "-x", "80", "-y", "24",
                        f"script -qfec {shlex.quote(inner)} {shlex.quote(str(self.log))}")
        return self

    async def close(self) -> None:
        await self.tmux("kill-server")
        self._dir.cleanup()

    # ----- reading --------------------------------------------------------------
    def _pump(self) -> None:
        if not self.log.exists():
            return
        with self.log.open("rb") as f:
            f.seek(self._offset)
            data = f.read()
        self._offset += len(data)
        if data:
            text = self._utf8.decode(data) if self.charset == "utf8" else decode_cp437(data)
            self.stream.feed(text)

    def text(self) -> str:
        self._pump()
        return "\n".join(self.screen.display)

    async def pane(self) -> str:
        """What tmux itself shows (for failure messages)."""
        return await self.tmux("capture-pane", "-p", "-t", "gh")

    async def expect(self, pattern: str, timeout: float = 30.0) -> str:
        deadline = time.monotonic() + timeout
        while True:
            text = self.text()
            if pattern in text:
                return text
            if time.monotonic() > deadline:
                raise AssertionError(f"{pattern!r} never appeared through {self.command!r}; pyte shows:\n"
                                     f"{text}\ntmux shows:\n{await self.pane()}")
            await asyncio.sleep(0.05)

    # ----- typing ---------------------------------------------------------------
    async def type(self, text: str) -> None:
        await self.tmux("send-keys", "-t", "gh", "-l", text)

    async def keys(self, *names: str) -> None:
        """tmux key names: Enter, Up, Down, Left, Right, Escape..."""
        if names:
            await self.tmux("send-keys", "-t", "gh", *names)


class WireRecorder:
    """A loopback TCP relay between a client and the server that keeps
    every byte the server sends: a reference terminal (pyte) fed with them
    shows what the server's output means, to compare with what a real
    client shows. Start it, point the client at ``port``."""

    def __init__(self, server_port: int):
        self.server_port = server_port
        self.sent = bytearray()          # server -> client, telnet commands and all
        self.port = 0
        self._listener: asyncio.Server | None = None
        self._tasks: list[asyncio.Task[None]] = []

    async def start(self) -> WireRecorder:
        self._listener = await asyncio.start_server(self._relay, "127.0.0.1", 0)
        self.port = self._listener.sockets[0].getsockname()[1]
        return self

    async def _relay(self, client_r: asyncio.StreamReader, client_w: asyncio.StreamWriter) -> None:
        server_r, server_w = await asyncio.open_connection("127.0.0.1", self.server_port)

        async def pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, keep: bool) -> None:
            try:
                while data := await reader.read(65536):
                    if keep:
                        self.sent += data
                    writer.write(data)
                    await writer.drain()
            except (ConnectionError, asyncio.CancelledError):
                pass
            finally:
                writer.close()

        self._tasks += [asyncio.create_task(pipe(client_r, server_w, False)),
                        asyncio.create_task(pipe(server_r, client_w, True))]

    def screen(self, charset: str, rows: int = 24) -> list[str]:
        """The lines of an ``80 x rows`` terminal that decodes ``charset``,
        fed everything the server sent (telnet commands taken out)."""
        screen = pyte.Screen(80, rows)
        stream = pyte.Stream(screen)
        data = _without_telnet(bytes(self.sent))
        stream.feed(data.decode("utf-8", "replace") if charset == "utf8" else decode_cp437(data))
        return list(screen.display)

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        if self._listener is not None:
            self._listener.close()


_IAC, _SB, _SE = 255, 250, 240


def _without_telnet(data: bytes) -> bytes:
    """The data bytes of a telnet stream (IAC IAC is a 0xFF byte)."""
    out = bytearray()
    i = 0
    while i < len(data):
        byte = data[i]
        if byte != _IAC:
            out.append(byte)
            i += 1
            continue
        command = data[i + 1] if i + 1 < len(data) else None
        if command == _IAC:
            out.append(_IAC)
            i += 2
        elif command == _SB:
            end = data.find(bytes((_IAC, _SE)), i + 2)
            i = len(data) if end < 0 else end + 2
        elif command is not None and 251 <= command <= 254:      # WILL WONT DO DONT + option
            i += 3
        else:
            i += 2
    return bytes(out)


async def wait_same_screen(client, recorder: WireRecorder, charset: str, rows: int = 24,
                           timeout: float = 30.0) -> list[str]:
    """Wait until the client's screen (``client.text()``) is, cell for cell,
    what a reference terminal shows from the bytes the server sent: every
    row in its place, every column."""
    deadline = time.monotonic() + timeout
    while True:
        want = recorder.screen(charset, rows)
        seen = client.text().split("\n")
        if seen == want:
            return seen
        if time.monotonic() > deadline:
            pairs = enumerate(zip(want, seen, strict=False))
            diff = "\n".join(f"{y:2} want {w!r}\n   seen {s!r}" for y, (w, s) in pairs if w != s)
            raise AssertionError(f"the client's screen differs from the reference terminal's:\n{diff}")
        await asyncio.sleep(0.05)
