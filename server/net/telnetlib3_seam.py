"""The one place Gatehouse reaches past telnetlib3's public API, for three
things it has no public way to do:

* take what a reader holds, synchronously (its only read is a coroutine):
  when a session starts listening (``_PushReader.listen``), what the caller
  typed while the line was negotiated must reach it at once, in order;
* bound the sub-negotiation buffer (telnetlib3 keeps up to 1 MiB of one-byte
  objects per connection);
* close the listening socket alone at shutdown (``Server.close`` also closes
  every caller, before they are told goodbye).

``tests/server/test_telnetlib3_seam.py`` checks each (with every public
name the front relies on) against the installed telnetlib3, so an upgrade
that changes one fails that test by name.
"""
from __future__ import annotations

import telnetlib3.stream_writer
from telnetlib3.server import Server
from telnetlib3.stream_reader import TelnetReader

__all__ = ["take_held", "bound_subnegotiation", "stop_listening"]


def take_held(reader: TelnetReader) -> bytes:
    """Remove and return what ``reader`` holds that no one has read yet."""
    buffer: bytearray = reader._buffer       # (no public synchronous read)
    data = bytes(buffer)
    buffer.clear()
    return data


def bound_subnegotiation(limit: int) -> None:
    """Keep at most ``limit`` bytes of one IAC SB ... IAC SE (telnetlib3
    discards a longer one whole)."""
    telnetlib3.stream_writer._MAX_SUBNEGOTIATION = limit


def stop_listening(server: Server) -> None:
    """Close ``server``'s listening socket, leaving its callers connected."""
    listening = server._server
    if listening is not None:
        listening.close()
