"""The one place Gatehouse reaches past telnetlib3's public API.

telnetlib3 has no synchronous way to take what a reader holds: its only
read is a coroutine. The telnet front needs one when a session starts
listening (``_PushReader.listen``): what the caller typed while the line
was negotiated must reach the session at once, in order, before anything
newer. That one access lives here, and ``tests/server/test_telnetlib3_seam.py``
checks it (with every public name the front relies on) against the
installed telnetlib3, so an upgrade that changes it fails that test by
name instead of losing keys.
"""
from __future__ import annotations

from telnetlib3.stream_reader import TelnetReader

__all__ = ["take_held"]


def take_held(reader: TelnetReader) -> bytes:
    """Remove and return what ``reader`` holds that no one has read yet."""
    buffer: bytearray = reader._buffer       # (no public synchronous read)
    data = bytes(buffer)
    buffer.clear()
    return data
