"""The browser seat: the only module that imports websockets.

One HTTP port serves the page (xterm.js, vendored under ``web_page/vendor``)
and, at ``/ws``, a WebSocket that carries the caller's terminal:

* browser -> server: a binary message is keys (UTF-8, as xterm.js types
  them); a text message is a size report ``{"cols": C, "rows": R}``, the
  first one sent on open and another after every window resize.
* server -> browser: binary messages of the session's output.

Each browser becomes a ``server.terminal.Connection`` of TERM
``xterm-256color`` (so the session sends UTF-8: CP437 art arrives mapped to
Unicode) and is handed to the app exactly as a telnet caller is. Messages
are bounded (``MAX_MESSAGE``; the page splits a large paste), keys go
through the session's key decoder like telnet bytes, and behind a
trusted reverse proxy the caller's address comes from X-Forwarded-For, so
the per-address cap counts callers, not the proxy.
"""
from __future__ import annotations

import asyncio
import contextlib
import gzip
import hashlib
import ipaddress
import json
import logging
import mimetypes
import socket
from collections.abc import Awaitable, Callable, Sequence
from importlib import resources

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response
from websockets.protocol import State

from .flood import FLOOD_GOODBYE, InputRate
from .rlogin import is_allowed
from .terminal import clamp_size

__all__ = ["WebConnection", "WebListener", "start_web", "MAX_MESSAGE", "WS_PATH"]

log = logging.getLogger("gatehouse.web")
_protocol_log = logging.getLogger("gatehouse.web.protocol")   # websockets' own: each request
_protocol_log.setLevel(logging.WARNING)                        # is not news for the sysop

WS_PATH = "/ws"
MAX_MESSAGE = 64 * 1024    # bytes in one browser message; the page sends at most 4 KiB
READ_CHUNK = 4096          # bytes handed to the session per read, as telnet does
HELLO_WAIT = 5.0           # seconds to wait for the first size report
TERM = "xterm-256color"

_HEADERS = {
    "Content-Security-Policy": ("default-src 'self'; style-src 'self' 'unsafe-inline'; "
                                "connect-src 'self' ws: wss:; img-src 'self' data:; "
                                "frame-ancestors 'none'; base-uri 'none'; form-action 'none'"),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-cache",
}


class WebConnection:
    """A caller in a browser, as ``server.terminal.Connection``."""

    term = TERM

    def __init__(self, ws: ServerConnection, peer: str):
        self._ws = ws
        self.peer = peer
        self.cols = 0
        self.rows = 0
        self.on_resize: Callable[[], None] | None = None
        self._keys = b""                      # received, not yet handed to the session
        self._out = bytearray()               # written, not yet sent
        self._wake = asyncio.Event()
        self._flushed = asyncio.Event()
        self._flushed.set()
        self._closed = False
        self._rate = InputRate()
        self._flooded = False                 # sent more than anyone types: told, and ended
        self._sender = asyncio.create_task(self._send_loop())

    # ----- input --------------------------------------------------------------
    async def hello(self, timeout: float = HELLO_WAIT) -> None:
        """Wait for the page's first size report (keys typed meanwhile are kept)."""
        with contextlib.suppress(TimeoutError, ConnectionClosed):
            async with asyncio.timeout(timeout):
                while not self.cols and not self._keys and not self._flooded:
                    self._take(await self._ws.recv())

    def _take(self, message: str | bytes) -> None:
        if self._flooded:
            return
        if not self._rate.allow(len(message)):
            log.info("ending a browser call that floods the server (%s)", self.peer)
            self._flooded, self._keys = True, b""
            self.write(FLOOD_GOODBYE)
        elif isinstance(message, bytes):
            self._keys += message
        else:
            self._size_report(message)

    def _size_report(self, text: str) -> None:
        """Apply ``{"cols": C, "rows": R}``; anything else is ignored."""
        if len(text) > 200:
            return
        try:
            report = json.loads(text)
            cols, rows = report["cols"], report["rows"]
        except (ValueError, TypeError, KeyError):
            return
        if not all(type(n) is int and n >= 1 for n in (cols, rows)):
            return
        cols, rows = clamp_size(cols, rows)
        if (cols, rows) != (self.cols, self.rows):
            self.cols, self.rows = cols, rows
            if self.on_resize is not None:
                self.on_resize()

    async def read(self) -> bytes:
        while not self._keys:
            if self._flooded:
                return b""
            try:
                self._take(await self._ws.recv())
            except ConnectionClosed:
                return b""
        data, self._keys = self._keys[:READ_CHUNK], self._keys[READ_CHUNK:]
        return data

    # ----- output -------------------------------------------------------------
    def write(self, data: bytes) -> None:
        if not self.is_closing() and data:
            self._out += data
            self._flushed.clear()
            self._wake.set()

    async def _send_loop(self) -> None:
        try:
            while True:
                await self._wake.wait()
                self._wake.clear()
                while self._out:
                    data = bytes(self._out)
                    self._out.clear()
                    await self._ws.send(data)
                self._flushed.set()
        except ConnectionClosed:
            self._closed = True
        finally:
            self._flushed.set()

    def backlog(self) -> int:
        return len(self._out) or (0 if self._flushed.is_set() else 1)

    async def drain(self) -> None:
        await self._flushed.wait()

    def is_closing(self) -> bool:
        return self._closed or self._ws.state is not State.OPEN

    def close(self) -> None:
        self.on_resize = None
        self._closed = True
        self._sender.cancel()

    async def finish(self, timeout: float = 2.0) -> None:
        """Send what is still queued (the goodbye), then stop."""
        if not self._closed:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(timeout):
                    await self.drain()
        self.close()


def caller_address(ws: ServerConnection, trusted_proxies: Sequence[str]) -> str:
    """The caller's address: the peer, or, when the peer is a trusted proxy,
    the last address the proxy added to X-Forwarded-For."""
    info = ws.remote_address
    peer = str(info[0]) if isinstance(info, tuple) else "?"
    forwarded = ws.request.headers.get("X-Forwarded-For") if ws.request else None
    if forwarded and is_allowed(peer, trusted_proxies):
        last = forwarded.split(",")[-1].strip()
        try:
            return str(ipaddress.ip_address(last))
        except ValueError:
            log.warning("web caller via %s: unreadable X-Forwarded-For %r", peer, forwarded[:80])
    return peer


class _Page:
    """The page and its assets, read once: path -> (type, body, gzipped body,
    entity tag); a browser that has the file already gets 304."""

    def __init__(self) -> None:
        root = resources.files(__package__ or "server") / "web_page"
        self.files: dict[str, tuple[str, bytes, bytes, str]] = {}
        for path in ("index.html", "seat.js", "seat.css", "vendor/xterm.js", "vendor/xterm.css",
                     "vendor/addon-fit.js", "vendor/LICENSE-xterm", "vendor/LICENSE-addon-fit",
                     "vendor/VERSIONS"):
            body = (root / path).read_bytes()
            kind = mimetypes.guess_type(path)[0] or "text/plain"
            if kind.startswith("text/") or kind.endswith("javascript"):
                kind += "; charset=utf-8"
            tag = '"' + hashlib.sha256(body).hexdigest()[:20] + '"'
            self.files["/" + path] = (kind, body, gzip.compress(body, 9, mtime=0), tag)
        self.files["/"] = self.files.pop("/index.html")

    def respond(self, request: Request) -> Response:
        path = request.path.split("?", 1)[0]
        found = self.files.get(path)
        if found is None:
            return _response(404, "text/plain; charset=utf-8", b"Not found.\n")
        kind, body, packed, tag = found
        if request.headers.get("If-None-Match") == tag:
            response = _response(304, kind, b"")
        elif "gzip" in request.headers.get("Accept-Encoding", "") and len(packed) < len(body):
            response = _response(200, kind, packed)
            response.headers["Content-Encoding"] = "gzip"
        else:
            response = _response(200, kind, body)
        response.headers["ETag"] = tag
        response.headers["Vary"] = "Accept-Encoding"
        return response


def _response(status: int, kind: str, body: bytes) -> Response:
    headers = Headers(_HEADERS)
    headers["Content-Type"] = kind
    if status != 304:
        headers["Content-Length"] = str(len(body))
    reason = {200: "OK", 304: "Not Modified", 403: "Forbidden", 404: "Not Found"}.get(status, "")
    return Response(status, reason, headers, body)


class WebListener:
    """The listening socket, closed as the telnet one is: no new callers,
    while the callers already in are told goodbye by their sessions."""

    def __init__(self, server: Server):
        self._server = server

    @property
    def sockets(self) -> tuple[socket.socket, ...]:
        return self._server.sockets

    def close(self) -> None:
        self._server.close(close_connections=False)


def origin_allowed(origin: str | None, host: str | None, origins: Sequence[str]) -> bool:
    """Whether a page from ``origin`` may open a seat: one of ``origins``
    when the sysop listed any, else only the seat's own page (its origin's
    host and port are the request's ``Host``). No Origin at all is no
    browser (a browser always sends one), so no other site's page."""
    if origin is None:
        return True
    origin = origin.strip().lower().rstrip("/")
    if origins:
        return origin in {o.strip().lower().rstrip("/") for o in origins}
    scheme, _, netloc = origin.partition("://")
    return scheme in ("http", "https") and bool(host) and netloc == (host or "").strip().lower()


async def start_web(host: str, port: int,
                    on_connect: Callable[[WebConnection], Awaitable[None]],
                    trusted_proxies: Sequence[str], origins: Sequence[str] = ()) -> WebListener:
    """Listen for browsers: the page over HTTP, each seat over a WebSocket
    (only from the pages ``origin_allowed`` lets in)."""
    page = _Page()

    def route(ws: ServerConnection, request: Request) -> Response | None:
        if request.path.split("?", 1)[0] == WS_PATH and "websocket" in \
                request.headers.get("Upgrade", "").lower():
            origin = request.headers.get("Origin")
            if not origin_allowed(origin, request.headers.get("Host"), origins):
                log.warning("browser seat: refused a WebSocket opened by a page from %r",
                            (origin or "")[:100])
                return _response(403, "text/plain; charset=utf-8",
                                 b"This page may not open a Gatehouse seat.\n")
            return None                       # go on with the WebSocket handshake
        return page.respond(request)

    async def seat(ws: ServerConnection) -> None:
        conn = WebConnection(ws, caller_address(ws, trusted_proxies))
        try:
            await conn.hello()
            await on_connect(conn)
        except Exception:
            log.exception("browser session from %s failed", conn.peer)
        finally:
            await conn.finish()

    server = await serve(seat, host, port, process_request=route, max_size=MAX_MESSAGE,
                         max_queue=4, compression=None, server_header="Gatehouse",
                         ping_interval=30, ping_timeout=60, logger=_protocol_log)
    return WebListener(server)
