"""Run ``gatehouse sysop`` as a real program on a pseudo-terminal and read
what it shows through pyte, as the sysop would see it."""
from __future__ import annotations

import asyncio
import codecs
import fcntl
import os
import pty
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pyte

from ansi.cp437 import FILE_CONTROLS, decode_cp437
from server.net.terminal import charset_for_term

__all__ = ["Console"]

ROOT = Path(__file__).resolve().parents[2]


class _Screen(pyte.Screen):
    """A pyte screen that answers the cursor-position report (ESC [ 6 n), as
    every real terminal does: blessed asks at start and waits for it."""

    def __init__(self, cols: int, rows: int, answer):
        super().__init__(cols, rows)
        self._answer = answer

    def write_process_input(self, data: str) -> None:
        self._answer(data.encode())


class Console:
    """``python -m server.cli sysop --config F`` on an 80x24 pty; ``term``:
    the terminal type it says it is (``ansi``: the server sends CP437, and
    the screen decodes it so)."""

    def __init__(self, config: Path, cols: int = 80, rows: int = 24, term: str = "xterm"):
        self.screen = _Screen(cols, rows, self.send)
        self.stream = pyte.Stream(self.screen)
        self.received = bytearray()
        self.closed = False
        self._utf8 = codecs.getincrementaldecoder("utf-8")("replace")
        self.cp437 = charset_for_term(term) == "cp437"
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        env = dict(os.environ, TERM=term, PYTHONPATH=str(ROOT))
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "server.cli", "sysop", "--config", str(config)],
            stdin=slave, stdout=slave, stderr=slave, cwd=ROOT, env=env,
            start_new_session=True, close_fds=True,
            preexec_fn=lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0))   # so resizes send SIGWINCH
        os.close(slave)
        self.master = master
        os.set_blocking(master, False)
        asyncio.get_running_loop().add_reader(master, self._read)

    def _read(self) -> None:
        try:
            data = os.read(self.master, 65536)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            self.closed = True
            asyncio.get_running_loop().remove_reader(self.master)
            return
        self.received += data
        self.stream.feed(decode_cp437(data, FILE_CONTROLS) if self.cp437 else self._utf8.decode(data))

    def text(self) -> str:
        return "\n".join(self.screen.display)

    def line(self, y: int) -> str:
        return self.screen.display[y]

    async def expect(self, pattern: str, timeout: float = 30.0) -> str:
        deadline = time.monotonic() + timeout
        while pattern not in self.text():
            if time.monotonic() > deadline or (self.closed and pattern not in self.text()):
                raise AssertionError(f"{pattern!r} never appeared on the console:\n{self.text()}")
            await asyncio.sleep(0.02)
        return self.text()

    async def expect_gone(self, pattern: str, timeout: float = 30.0) -> str:
        deadline = time.monotonic() + timeout
        while pattern in self.text():
            if time.monotonic() > deadline:
                raise AssertionError(f"{pattern!r} stayed on the console:\n{self.text()}")
            await asyncio.sleep(0.02)
        return self.text()

    def send(self, keys: str | bytes) -> None:
        os.write(self.master, keys.encode() if isinstance(keys, str) else keys)

    def resize(self, cols: int, rows: int) -> None:
        fcntl.ioctl(self.master, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))

    async def wait_exit(self, timeout: float = 30.0) -> int:
        deadline = time.monotonic() + timeout
        while self.proc.poll() is None:
            if time.monotonic() > deadline:
                raise AssertionError("the console did not exit")
            await asyncio.sleep(0.02)
        return self.proc.returncode

    async def close(self) -> None:
        """Hang up: kill the program (as a dropped terminal would) and free the pty.
        Closing twice is harmless."""
        if self.master < 0:
            return
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(2)
        try:
            asyncio.get_running_loop().remove_reader(self.master)
        except Exception:
            pass
        os.close(self.master)
        self.master = -1
