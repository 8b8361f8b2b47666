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

from ansi.cp437 import decode_cp437, wire_char

__all__ = ["TmuxClient", "server_screen", "wait_same_screen"]


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

    async def expect(self, pattern: str, timeout: float = 10.0) -> str:
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


def server_screen(session, charset: str) -> list[str]:
    """The screen the server last meant this session to see, as its lines
    (characters as sent for ``charset``; the never-printed last cell blank)."""
    latest = session.terminal.composed()
    assert latest is not None
    canvas = latest[0]
    lines = ["".join(wire_char(canvas.get(x, y).char, charset) for x in range(canvas.width))
             for y in range(canvas.height)]
    lines[-1] = lines[-1][:-1] + " "
    return lines


async def wait_same_screen(client, session, charset: str, timeout: float = 10.0) -> list[str]:
    """Wait until the client's screen (``client.text()``) shows exactly what the
    server drew, cell for cell: every row in its place, every column."""
    deadline = time.monotonic() + timeout
    while True:
        want = server_screen(session, charset)
        seen = client.text().split("\n")
        if seen == want:
            return seen
        if time.monotonic() > deadline:
            pairs = enumerate(zip(want, seen, strict=False))
            diff = "\n".join(f"{y:2} want {w!r}\n   seen {s!r}" for y, (w, s) in pairs if w != s)
            raise AssertionError(f"the client's screen differs from the server's:\n{diff}")
        await asyncio.sleep(0.05)
