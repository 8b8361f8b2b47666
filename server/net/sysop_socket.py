"""The sysop console's local socket: ``gatehouse sysop`` (``net.sysop_client``)
sends one JSON line ``{"term": ..., "cols": N, "rows": N}``, then raw key
bytes, and resizes in-band with the RLogin window-size message. The server
side turns that into a connection like a caller's."""
from __future__ import annotations

import asyncio
import json
import logging
import os
import socket
import stat
from collections.abc import Awaitable, Callable
from pathlib import Path

from ansi.canvas import clean_text
from server.net.rlogin import RloginInputFilter
from server.net.streams import StreamConnection

__all__ = ["start_sysop_listener", "stop_sysop_listener"]

log = logging.getLogger("gatehouse.sysop")

HEADER_LIMIT = 1024


def _remove_stale(path: Path) -> None:
    """Remove a socket file left by a server that is gone; refuse to touch
    anything else, or a socket a live server still answers on."""
    try:
        mode = path.lstat().st_mode
    except FileNotFoundError:
        return
    if not stat.S_ISSOCK(mode):
        raise OSError(f"{path} exists and is not a socket")
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        probe.connect(str(path))
    except OSError:
        path.unlink(missing_ok=True)       # nobody listening: stale
        return
    finally:
        probe.close()
    raise OSError(f"{path}: another Gatehouse server is listening there")


async def start_sysop_listener(socket_path: str, on_console: Callable[[StreamConnection], Awaitable[None]],
                               ) -> asyncio.base_events.Server:
    """Listen on ``socket_path``, owner-only (0600 before anyone can
    connect: the socket is bound, chmod'ed, and only then listens);
    ``on_console(conn)`` runs each console's session."""
    path = Path(socket_path)
    path.parent.mkdir(parents=True, exist_ok=True)
    _remove_stale(path)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.bind(str(path))
        os.chmod(path, 0o600)
    except OSError:
        sock.close()
        raise

    async def client(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            try:
                line = await asyncio.wait_for(reader.readline(), 10)
                header = json.loads(line[:HEADER_LIMIT] or b"{}")
                if not isinstance(header, dict):
                    raise ValueError("not an object")
                term = clean_text(" ".join(str(header.get("term") or "xterm").split()))[:40] or "xterm"
                cols = max(0, min(1000, int(header.get("cols") or 80)))
                rows = max(0, min(1000, int(header.get("rows") or 24)))
            except (TimeoutError, ValueError, TypeError, OverflowError) as exc:     # (Infinity)
                writer.write(f"Gatehouse: bad console header ({exc}).\r\n".encode())
                await writer.drain()
                return
            conn = StreamConnection(reader, writer, term, cols, rows, peer="local",
                                    input_filter=RloginInputFilter())
            log.info("sysop console attached (%s %sx%s)", term, cols, rows)
            await on_console(conn)
        except Exception:
            log.exception("sysop console failed")
        finally:
            writer.close()

    try:
        return await asyncio.start_unix_server(client, sock=sock)
    except OSError:
        sock.close()
        raise


def stop_sysop_listener(server: asyncio.base_events.Server, socket_path: str) -> None:
    server.close()
    try:
        Path(socket_path).unlink()
    except OSError:
        pass
