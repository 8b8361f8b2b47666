"""The telnet front: the only module that imports telnetlib3.

``encoding=False``: the streams carry bytes and each caller's charset is
ours (CP437 for BBS terminals, UTF-8 for the rest). telnetlib3's own idle
timeout is off: it is reset only by input, would kill a caller who is just
watching, and says a bare "Timeout."; the session's idle logoff ("Are you
there?") and its cap on a call's length (``CallClock``) say goodbye. A NAWS change mid-session reaches the
session through ``Connection.on_resize``.

Nothing outlives its caller: telnetlib3's ``Server`` keeps every negotiated
connection in a queue (up to 1000) for ``wait_for_client``, so a task takes
each one off as it comes (``TelnetListener``); a closed connection is pruned
from ``Server.clients`` when it closes, not at the next connect; and the
resize hook is unhooked when the session ends. Only telnetlib3's public API
is used here; the one thing it has no public way to do is in
``server.net.telnetlib3_seam``.
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from collections.abc import Awaitable, Callable
from typing import Any

import telnetlib3
from telnetlib3.server import Server as TelnetlibServer
from telnetlib3.server import TelnetServer
from telnetlib3.stream_reader import TelnetReader
from telnetlib3.stream_writer import TelnetWriter
from telnetlib3.telopt import NAWS

from server.net.flood import FLOOD_GOODBYE, InputRate
from server.net.telnet_complaints import BAD_COMMANDS_GOODBYE, ComplaintLog, LogBudget
from server.net.telnetlib3_seam import bound_subnegotiation, stop_listening, take_held
from server.net.terminal import clamp_size, clean_term

__all__ = ["LISTEN_BACKLOG", "TelnetConnection", "TelnetInputFilter", "TelnetListener", "start_telnet"]

log = logging.getLogger("gatehouse.telnet")

LISTEN_BACKLOG = 1024    # connections the kernel holds before they are accepted


SUBNEGOTIATION_MAX = 1024   # bytes of one IAC SB ... IAC SE kept (a terminal type, a size or
                            # NEW-ENVIRON's few names fit; telnetlib3 keeps up to 1 MiB, a
                            # deque of one-byte objects: tens of MB a connection)


def _bound_subnegotiation() -> None:
    """Hold telnetlib3's sub-negotiation buffer to
    ``SUBNEGOTIATION_MAX``: a longer one is discarded whole, as telnetlib3
    does past its own bound. Every value a caller sends in one (terminal
    type, NEW-ENVIRON values) is bounded by it."""
    bound_subnegotiation(SUBNEGOTIATION_MAX)


LINGER_SECONDS = 2.0   # after the goodbye: how long a caller still sending is read (and ignored)


READ_SIZE = 256   # bytes read from one caller per turn of the event loop (1024: a key beside
                  # 40 junk connections waited 61 ms at p95, 23 ms at 256)


class _PushReader(TelnetReader):
    """telnetlib3's reader that, once ``listen`` is called, hands each piece
    of the caller's input straight to the session as it is parsed: no task
    waits on ``read``, so a key reaches the screen one turn of the event loop
    sooner. (Before ``listen``, and for ``read``, it is the ordinary reader.)"""

    _on_data: Callable[[bytes], None] | None = None
    _on_end: Callable[[], None] | None = None

    def listen(self, on_data: Callable[[bytes], None], on_end: Callable[[], None]) -> None:
        self._on_data, self._on_end = on_data, on_end
        data = take_held(self)               # what came before (typed ahead, or answers)
        if data:
            self._deliver(data)
        if self.at_eof() or self.exception() is not None:
            self._end()

    def unlisten(self) -> None:
        self._on_data = self._on_end = None

    def feed_data(self, data: bytes) -> None:
        if self._on_data is None:
            super().feed_data(data)
        elif data:
            self._deliver(bytes(data))

    def feed_eof(self) -> None:
        super().feed_eof()
        self._end()

    def set_exception(self, exc: Exception) -> None:
        super().set_exception(exc)          # (the connection was lost: reset by the caller)
        self._end()

    def _deliver(self, data: bytes) -> None:
        on_data = self._on_data
        if on_data is not None:
            try:
                on_data(data)
            except Exception:                # (never into telnetlib3's protocol)
                log.exception("handing a caller's input to its session failed")

    def _end(self) -> None:
        on_end = self._on_end
        self.unlisten()
        if on_end is not None:
            on_end()


class _ComplainingWriter(TelnetWriter):
    """telnetlib3's writer whose complaints about the caller's telnet
    commands go through a ``ComplaintLog``. A command telnetlib3 fails to
    parse (a NAWS body of one byte: ``struct.error``) is one complaint, one
    line at most: telnetlib3 would format and log its traceback, ten lines,
    for every such command. (A ``ValueError`` is telnetlib3's refusal of a
    command, which it logs only at debug level: it goes on to telnetlib3.)"""

    def __init__(self, *args: Any, **kwargs: Any) -> None:    # (telnetlib3's own, passed on as they are)
        super().__init__(*args, **kwargs)
        peer = self.get_extra_info("peername") or ("?", 0)
        self.complaints = ComplaintLog(logging.getLogger("telnetlib3.stream_writer"), str(peer[0]))
        self.log = self.complaints          # type: ignore[assignment]  # (a Logger in all it is asked)

    def feed_byte(self, byte: bytes) -> bool:
        try:
            return super().feed_byte(byte)
        except ValueError:
            raise
        except Exception as exc:
            kind = type(exc)
            self.complaints.warning("bad telnet command ignored (%s.%s: %s)", kind.__module__, kind.__qualname__, exc)
            return False


class _Protocol(TelnetServer):
    """telnetlib3's server protocol with a hook for window-size changes and
    the reader that hands input over (``_PushReader``).
    Each read takes at most ``READ_SIZE`` bytes: telnetlib3 parses bytes
    one by one, so a connection flooding the server (IAC storms, endless
    lines) gets a small slice per turn of the loop and never holds up the
    other callers for long. A connection that sends ``ComplaintLog.TOO_MANY``
    bad telnet commands is told ``BAD_COMMANDS_GOODBYE`` and closed."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:    # (telnetlib3's own, passed on as they are)
        kwargs.setdefault("reader_factory", _PushReader)
        kwargs.setdefault("writer_factory", _ComplainingWriter)
        super().__init__(*args, **kwargs)

    discarding = False      # the call is ending: input is read and ignored

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        if hasattr(transport, "max_size"):
            transport.max_size = READ_SIZE      # (asyncio's socket transport reads this much per recv)
        self._flood = InputRate()
        self._line = transport
        self.gone = asyncio.Event()
        super().connection_made(transport)

    def data_received(self, data: bytes) -> None:
        if self.discarding:
            return
        if not self._flood.allow(len(data)):
            log.info("closing a telnet connection that floods the server")
            self._goodbye(FLOOD_GOODBYE)
            return
        super().data_received(data)
        complaints = getattr(self.writer, "complaints", None)
        if isinstance(complaints, ComplaintLog) and complaints.too_many:
            log.info("closing a telnet connection that sends bad telnet commands")
            self._goodbye(BAD_COMMANDS_GOODBYE)

    def _goodbye(self, line: bytes) -> None:
        transport = self._line
        if isinstance(transport, asyncio.WriteTransport) and not transport.is_closing():
            transport.write(line)
            if self.end_gently():
                asyncio.get_running_loop().call_later(LINGER_SECONDS, transport.close)
            else:
                transport.close()

    def end_gently(self) -> bool:
        """Send what is queued, then FIN, and read and ignore whatever the
        caller still sends: closing a socket with unread input resets it,
        and the reset drops a goodbye not yet sent. False if it can't."""
        transport = self._line
        if not isinstance(transport, asyncio.Transport) or transport.is_closing() \
                or not transport.can_write_eof():
            return False
        self.discarding = True
        try:
            transport.write_eof()
            transport.resume_reading()
        except (OSError, RuntimeError):
            return False
        return True

    def connection_lost(self, exc: Exception | None) -> None:
        gone = getattr(self, "gone", None)
        if gone is not None:
            gone.set()
        super().connection_lost(exc)
        complaints = getattr(self.writer, "complaints", None)
        if isinstance(complaints, ComplaintLog):
            complaints.summarise()

    def on_naws(self, rows: int, cols: int) -> None:
        super().on_naws(rows, cols)
        hook = getattr(self, "resize_hook", None)
        if hook is not None:
            hook()


class TelnetConnection:
    """A caller over telnet, as ``server.net.terminal.Connection``."""

    def __init__(self, reader: TelnetReader, writer: TelnetWriter):     # (bytes: encoding=False)
        self._reader = reader
        self._writer = writer
        peer = writer.get_extra_info("peername") or ("?", 0)
        self.peer = str(peer[0])
        self.on_resize: Callable[[], None] | None = None
        self._size = (self.cols, self.rows)
        protocol = getattr(writer, "protocol", None)
        if protocol is not None:
            protocol.resize_hook = self._resized

    def _resized(self) -> None:
        size = (self.cols, self.rows)
        if size != self._size and self.on_resize is not None:   # (within the bounds: a change)
            self._size = size
            self.on_resize()

    @property
    def term(self) -> str:
        return clean_term(str(self._writer.get_extra_info("TERM") or self._writer.get_extra_info("term") or ""))

    @property
    def cols(self) -> int:
        return clamp_size(int(self._writer.get_extra_info("cols") or 0), 0)[0]

    @property
    def rows(self) -> int:
        return clamp_size(0, int(self._writer.get_extra_info("rows") or 0))[1]

    async def read(self) -> bytes:
        try:
            data = await self._reader.read(4096)
        except (ConnectionError, asyncio.IncompleteReadError):
            return b""
        return bytes(data or b"")

    def listen(self, on_data: Callable[[bytes], None], on_end: Callable[[], None]) -> bool:
        """Hand the input to ``on_data`` as it arrives, and the end to
        ``on_end``, instead of ``read`` (see ``terminal.Pushes``)."""
        if not isinstance(self._reader, _PushReader):
            return False
        self._reader.listen(on_data, on_end)
        return True

    def _socket(self) -> asyncio.Transport | None:
        transport = self._writer.transport
        return transport if isinstance(transport, asyncio.Transport) else None

    def pause_reading(self) -> None:
        transport = self._socket()
        if transport is not None and not transport.is_closing():
            transport.pause_reading()

    def resume_reading(self) -> None:
        transport = self._socket()
        if transport is not None and not transport.is_closing():
            transport.resume_reading()

    def write(self, data: bytes) -> None:
        if not self.is_closing():
            self._writer.write(data)

    def backlog(self) -> int:
        transport = self._socket()
        return 0 if transport is None else int(transport.get_write_buffer_size())

    async def drain(self) -> None:
        try:
            await self._writer.drain()
        except ConnectionError:
            pass

    def is_closing(self) -> bool:
        transport = self._socket()
        return transport is None or bool(transport.is_closing())

    async def linger(self, seconds: float = LINGER_SECONDS) -> None:
        """Before ``close``, when the server ends the call: the goodbye and
        FIN go out, and the caller's input is ignored until they hang up or
        ``seconds`` pass (see ``_Protocol.end_gently``)."""
        protocol = getattr(self._writer, "protocol", None)
        if isinstance(protocol, _Protocol) and protocol.end_gently():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(protocol.gone.wait(), seconds)

    def close(self) -> None:
        self.on_resize = None
        if isinstance(self._reader, _PushReader):
            self._reader.unlisten()
        protocol = getattr(self._writer, "protocol", None)
        if protocol is not None:
            protocol.resize_hook = None
        try:
            self._writer.close()
        except Exception:  # pragma: no cover - already gone
            pass


class TelnetListener:
    """The listening telnet server: its sockets, and ``close``. A task takes
    each negotiated connection off telnetlib3's ``wait_for_client`` queue,
    which would otherwise keep the last thousand (Gatehouse's sessions start
    from the shell, not from that queue)."""

    def __init__(self, server: TelnetlibServer) -> None:
        self._telnet = server
        self._forget = asyncio.create_task(self._forget_clients())

    async def _forget_clients(self) -> None:
        while True:
            await self._telnet.wait_for_client()

    @property
    def sockets(self) -> tuple[socket.socket, ...]:
        return tuple(self._telnet.sockets or ())

    def close(self) -> None:
        self._forget.cancel()
        self._telnet.close()

    def stop_listening(self) -> None:
        """Take no new callers; those on stay connected."""
        stop_listening(self._telnet)


async def start_telnet(host: str, port: int,
                       on_connect: Callable[[TelnetConnection], Awaitable[None]],
                       connect_maxwait: float) -> TelnetListener:
    """Listen for telnet callers; ``on_connect`` runs one session."""

    LogBudget.install()
    _bound_subnegotiation()

    server: TelnetlibServer | None = None

    async def shell(reader: TelnetReader, writer: TelnetWriter) -> None:
        conn = TelnetConnection(reader, writer)
        try:
            await on_connect(conn)
        except Exception:
            log.exception("session from %s failed", conn.peer)
        finally:
            conn.close()

    class Protocol(_Protocol):
        def connection_lost(self, exc: Exception | None) -> None:
            super().connection_lost(exc)
            self.resize_hook = None
            if server is not None:
                _ = server.clients   # (reading it prunes the closed; else only the next connect does)

    server = await telnetlib3.create_server(
        host=host, port=port, shell=shell, protocol_factory=Protocol,
        encoding=False, connect_maxwait=connect_maxwait,
        timeout=0, term="unknown", cols=0, rows=0)
    # telnetlib3 listens with asyncio's default backlog of 100: in a rush of
    # connections the kernel then drops SYNs and a caller waits a second or
    # more (the client's retry) before the first byte. Listen again deeper.
    # (asyncio shows only a wrapper of the socket: listen on a duplicate of
    # its descriptor, which is the same socket)
    listener = TelnetListener(server)
    for sock in listener.sockets:
        with socket.fromfd(sock.fileno(), sock.family, sock.type) as same:
            same.listen(LISTEN_BACKLOG)
    return listener


class _Discard:
    """A transport that drops what telnetlib3's interpreter would answer:
    the BBS negotiated the line already, the door only listens."""

    def write(self, data: bytes) -> None:
        pass

    def is_closing(self) -> bool:
        return False

    def get_extra_info(self, name: str, default: object = None) -> object:
        return default

    def close(self) -> None:
        pass


class TelnetInputFilter:
    """Telnet commands stripped from a caller's input by telnetlib3's own
    interpreter (``TelnetWriter.feed_byte``), for the door bridge, which
    holds a telnet socket inherited from a BBS: ``feed(data) -> (clean,
    (cols, rows) | None)``, the size when the caller reported one (NAWS).
    CR NUL becomes CR."""

    def __init__(self) -> None:
        _bound_subnegotiation()
        self._interpreter = TelnetWriter(_Discard(), None, server=True)  # type: ignore[arg-type]
        self._interpreter.set_ext_callback(NAWS, self._on_naws)
        self._size: tuple[int, int] | None = None
        self._after_cr = False

    def _on_naws(self, rows: int, cols: int) -> None:
        self._size = clamp_size(cols, rows)

    def feed(self, data: bytes) -> tuple[bytes, tuple[int, int] | None]:
        out = bytearray()
        self._size = None
        for byte in data:
            if self._after_cr:
                self._after_cr = False
                if byte == 0:
                    continue
            try:
                in_band = self._interpreter.feed_byte(bytes([byte]))
            except Exception:           # a command a server end refuses (WILL ECHO) or one
                continue                # telnetlib3 fails to parse (a one-byte NAWS): dropped
            if in_band:
                out.append(byte)
                self._after_cr = byte == 13
        return bytes(out), self._size
