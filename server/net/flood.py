"""The flood rules: what every network front allows a caller to send
(``InputRate``, bytes) and how many keys a session takes (``TypingRate``).

Nobody types or pastes faster than ``InputRate`` allows; a connection that
does is flooding the server (every byte is parsed in Python) and is told
``FLOOD_GOODBYE`` and closed, so it cannot keep the other callers waiting.
"""
from __future__ import annotations

import time

__all__ = ["InputRate", "TypingRate", "ResizeRate", "FLOOD_GOODBYE"]

FLOOD_GOODBYE = b"\r\nToo much input. Goodbye.\r\n"


class InputRate:
    """Bytes one connection may send: a burst of ``BURST``, refilled at
    ``RATE`` a second. A caller types a few bytes a second and pastes a
    chat line of a few hundred; the rule is counted on the bytes the server
    has read, so it must be low enough that a flood is caught even while
    the server is busy and reads each connection slowly (40 junk
    connections kept a caller's key waiting 165 ms at 64 KiB and 32 KiB/s,
    23 ms at these figures: ``bench/isolation.py``)."""

    __slots__ = ("tokens", "stamp")
    RATE = 4 * 1024.0
    BURST = 16 * 1024.0

    def __init__(self) -> None:
        self.tokens, self.stamp = self.BURST, time.monotonic()

    def allow(self, size: int, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        self.tokens = min(self.BURST, self.tokens + (now - self.stamp) * self.RATE)
        self.stamp = now
        self.tokens -= size
        return self.tokens >= 0


class TypingRate:
    """How many keys a caller may queue: a burst of ``BURST`` (a pasted
    line fits), refilled at ``RATE`` a second. Keys beyond it are a flood,
    not typing, and are dropped as they are read, before they cost anything."""

    __slots__ = ("tokens", "stamp")
    RATE = 500.0
    BURST = 512.0

    def __init__(self) -> None:
        self.tokens, self.stamp = self.BURST, time.monotonic()

    def take(self, wanted: int, now: float | None = None) -> int:
        """How many of ``wanted`` keys may go (0..wanted)."""
        now = time.monotonic() if now is None else now
        self.tokens = min(self.BURST, self.tokens + (now - self.stamp) * self.RATE)
        self.stamp = now
        granted = min(wanted, int(self.tokens))
        self.tokens -= granted
        return granted


class ResizeRate:
    """Window-size changes one connection may have redrawn at once: a burst
    of ``BURST``, refilled at ``RATE`` a second. Dragging a window's corner
    sends one change per cell, a hundred or more; past the burst the screen
    is redrawn once when a change is allowed again (``wait``), at the size
    the window came to, so no connection costs more than a few redraws a
    second and nobody is cut off for resizing."""

    __slots__ = ("tokens", "stamp")
    RATE = 4.0
    BURST = 40.0

    def __init__(self) -> None:
        self.tokens, self.stamp = self.BURST, time.monotonic()

    def allow(self, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        self.tokens = min(self.BURST, self.tokens + (now - self.stamp) * self.RATE)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def wait(self) -> float:
        """Seconds until a change is allowed again."""
        return max(0.0, (1 - self.tokens) / self.RATE)
