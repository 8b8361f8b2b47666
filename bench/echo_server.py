"""A bare telnetlib3 echo server: the baseline ``bench/session_load.py``
measures Gatehouse against (same telnetlib3, same ``encoding=False``, no
sessions, screens or renderer: each read is written straight back).

    python bench/echo_server.py --serve [--port 0] [--max-seconds 900]
        prints ``port: N`` once listening; stops when its standard input
        closes (the bench that started it went away) or after max-seconds.
    python bench/echo_server.py [--quick]
        a self-check: one client, one echoed key, ``echo_roundtrip: ms``.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import threading
import time

import telnetlib3
from telnetlib3.stream_reader import TelnetReader, TelnetReaderUnicode
from telnetlib3.stream_writer import TelnetWriter, TelnetWriterUnicode


async def echo(reader, writer) -> None:
    try:
        while True:
            data = await reader.read(4096)
            if not data:
                break
            writer.write(data)
            await writer.drain()
    except (ConnectionError, asyncio.IncompleteReadError):
        pass
    finally:
        writer.close()


def byte_streams(pair: tuple[TelnetReader | TelnetReaderUnicode, TelnetWriter | TelnetWriterUnicode]
                 ) -> tuple[TelnetReader, TelnetWriter]:
    """The streams of a connection opened with ``encoding=False`` (bytes)."""
    reader, writer = pair
    assert not isinstance(reader, TelnetReaderUnicode) and not isinstance(writer, TelnetWriterUnicode)
    return reader, writer


async def start(host: str, port: int):
    server = await telnetlib3.create_server(host=host, port=port, shell=echo, encoding=False,
                                            connect_maxwait=0.5, timeout=3600)
    inner = getattr(server, "_server", server)
    sockets = inner.sockets
    assert sockets, "the server listens"
    return server, int(sockets[0].getsockname()[1])


async def serve(host: str, port: int, max_seconds: float) -> None:
    server, bound = await start(host, port)
    print(f"port: {bound}", flush=True)
    loop = asyncio.get_running_loop()
    gone = asyncio.Event()

    def watch_stdin() -> None:          # EOF when the bench that started us goes away
        try:
            while os.read(0, 4096):
                pass
        except OSError:
            pass
        loop.call_soon_threadsafe(gone.set)

    threading.Thread(target=watch_stdin, daemon=True).start()
    try:
        await asyncio.wait_for(gone.wait(), max_seconds)
    except TimeoutError:
        pass
    server.close()


async def self_check() -> None:
    server, port = await start("127.0.0.1", 0)
    reader, writer = byte_streams(await telnetlib3.open_connection(
        "127.0.0.1", port, encoding=False, term="xterm", cols=80, rows=24,
        connect_minwait=0.05, connect_maxwait=1.0))
    await asyncio.sleep(0.7)           # past the server's connect_maxwait: the shell runs
    started = time.perf_counter()
    writer.write(b"x")
    got = b""
    while b"x" not in got:
        got += await asyncio.wait_for(reader.read(4096), 5)
    print(f"echo_roundtrip: {(time.perf_counter() - started) * 1000:.2f} ms")
    writer.close()
    server.close()


def main() -> None:
    parser = argparse.ArgumentParser(description="a bare telnetlib3 echo server")
    parser.add_argument("--serve", action="store_true")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--max-seconds", type=float, default=900.0)
    parser.add_argument("--quick", action="store_true", help="(the self-check is always quick)")
    args = parser.parse_args()
    if args.serve:
        asyncio.run(serve(args.host, args.port, args.max_seconds))
    else:
        asyncio.run(self_check())


if __name__ == "__main__":
    main()
