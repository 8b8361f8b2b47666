"""Connections over plain asyncio streams: RLogin callers handed over by a
BBS, and the sysop console's local socket. Both become ordinary sessions."""
from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Sequence

from server.net.rlogin import (
    HANDSHAKE_ACK,
    REFUSAL,
    RloginError,
    RloginHandshake,
    RloginInputFilter,
    is_allowed,
    read_handshake,
    request_window_size,
)
from server.net.telnet import LISTEN_BACKLOG
from server.net.terminal import clamp_size, clean_term

__all__ = ["StreamConnection", "start_rlogin"]

log = logging.getLogger("gatehouse.rlogin")


class StreamConnection:
    """A caller over an asyncio stream pair, as ``server.net.terminal.Connection``."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                 term: str, cols: int = 80, rows: int = 24, peer: str | None = None,
                 input_filter: RloginInputFilter | None = None):
        self._reader = reader
        self._writer = writer
        self.term = clean_term(term)
        self.cols, self.rows = clamp_size(cols, rows)
        info = writer.get_extra_info("peername")
        self.peer = peer or (str(info[0]) if isinstance(info, tuple) else "local")
        self.on_resize: Callable[[], None] | None = None
        self._filter = input_filter
        self.minutes_left: int | None = None     # the caller's time on their BBS (door mode)

    async def read(self) -> bytes:
        while True:
            try:
                data = await self._reader.read(4096)
            except ConnectionError:
                return b""
            if not data or self._filter is None:
                return data
            clean, size = self._filter.feed(data)
            if size is not None and size.cols and size.rows:
                self.cols, self.rows = clamp_size(size.cols, size.rows)
                if self.on_resize is not None:
                    self.on_resize()
            if clean:
                return clean

    def write(self, data: bytes) -> None:
        if not self.is_closing():
            self._writer.write(data)

    def backlog(self) -> int:
        return int(self._writer.transport.get_write_buffer_size())

    async def drain(self) -> None:
        try:
            await self._writer.drain()
        except ConnectionError:
            pass

    def is_closing(self) -> bool:
        return self._writer.is_closing()

    async def linger(self, seconds: float = 2.0) -> None:
        """Before ``close``, when the server ends the call: FIN after what is
        queued, and the caller's input ignored until they hang up or
        ``seconds`` pass (closing with unread input resets the socket, and
        the reset drops a goodbye not yet sent)."""
        if self._writer.is_closing() or not self._writer.can_write_eof():
            return
        with contextlib.suppress(OSError, RuntimeError, TimeoutError):
            self._writer.write_eof()
            async with asyncio.timeout(seconds):
                while await self._reader.read(4096):
                    pass

    def close(self) -> None:
        self._writer.close()


async def start_rlogin(host: str, port: int, allow: Sequence[str],
                       admit: Callable[[str, RloginHandshake], Awaitable[str]],
                       on_caller: Callable[[StreamConnection, str], Awaitable[None]],
                       ) -> asyncio.base_events.Server:
    """The RLogin listener (RFC 1282): only ``allow``-listed BBS addresses.
    ``admit(address, handshake)`` names the caller (or raises RloginError
    with the reason); ``on_caller(conn, handle)`` runs their session."""

    async def client(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        peer = writer.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, tuple) else ""
        try:
            if not is_allowed(address, allow):
                log.warning("rlogin from %s refused: not in rlogin.allow", address)
                writer.write(HANDSHAKE_ACK + REFUSAL + b"this address may not use RLogin.\r\n")
                await writer.drain()
                return
            try:
                hs = await read_handshake(reader)
                handle = await admit(address, hs)
            except RloginError as exc:
                log.warning("rlogin from %s refused: %s", address, exc)
                writer.write(HANDSHAKE_ACK + REFUSAL + f"{exc}\r\n".encode("ascii", "replace"))
                await writer.drain()
                return
            except Exception:              # the BBS's caller still hears why the call ends
                log.exception("rlogin from %s: admitting the caller failed", address)
                writer.write(HANDSHAKE_ACK + REFUSAL + b"this call could not be taken; "
                             b"please try again later.\r\n")
                await writer.drain()
                return
            writer.write(HANDSHAKE_ACK)
            await writer.drain()
            if writer.transport.get_write_buffer_size() == 0:      # (else the request overtakes it)
                request_window_size(writer)       # a client that knows RFC 1282 answers in band
            term = hs.terminal_type or "ansi-bbs"
            conn = StreamConnection(reader, writer, term, peer=address,
                                    input_filter=RloginInputFilter())
            conn.minutes_left = hs.minutes_left
            log.info("rlogin caller %s from %s", handle, address)
            await on_caller(conn, handle)
        except Exception:
            log.exception("rlogin session from %s failed", address)
        finally:
            writer.close()

    return await asyncio.start_server(client, host, port, backlog=LISTEN_BACKLOG)
