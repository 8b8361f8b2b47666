"""The size of a door's pseudo-terminal: read with TIOCGWINSZ, watched with SIGWINCH.

A BBS that runs a door on a pseudo-terminal (ENiGMA½'s abracadabra) opens
it at the caller's size; the door passes that on to the server.
"""
from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import signal
import struct
import termios
from collections.abc import Callable

from server.net.rlogin import WindowSize

__all__ = ["PtyWindow", "terminal_size"]


def terminal_size(fd: int) -> WindowSize | None:
    """The terminal's size (rows, cols, pixels), or None if ``fd`` is no
    terminal or it reports no size (0x0)."""
    try:
        raw = fcntl.ioctl(fd, termios.TIOCGWINSZ, b"\0" * 8)
    except OSError:
        return None
    size = WindowSize(*struct.unpack("4H", raw))
    return size if size.rows and size.cols else None


class PtyWindow:
    """Calls back with the terminal's size now and after each SIGWINCH."""

    def __init__(self, fd: int, loop: asyncio.AbstractEventLoop):
        self._fd = fd
        self._loop = loop
        self._watching = False

    @classmethod
    def open(cls, fd: int, loop: asyncio.AbstractEventLoop) -> PtyWindow | None:
        """A watcher for ``fd`` if it is a terminal, else None (a pipe has no size)."""
        return cls(fd, loop) if os.isatty(fd) else None

    def size(self) -> WindowSize | None:
        return terminal_size(self._fd)

    def watch(self, send: Callable[[WindowSize], None]) -> None:
        """Send the current size, then each new one on SIGWINCH."""
        def changed() -> None:
            size = self.size()
            if size is not None:
                send(size)
        changed()
        with contextlib.suppress(ValueError, RuntimeError, NotImplementedError):
            self._loop.add_signal_handler(signal.SIGWINCH, changed)
            self._watching = True

    def close(self) -> None:
        if self._watching:
            self._loop.remove_signal_handler(signal.SIGWINCH)
            self._watching = False
