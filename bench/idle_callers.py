"""Idle callers held in a process of their own, for ``bench/session_load.py``.

The callers' reading (each lobby's minute redraw reaches every one of them at
once) must not run on the loop of the probe that times keys: ten thousand
callers sit on ten thousand machines, not in the prober's process. The
parent starts this script, which opens the connections and then answers
one command a line on stdin with one JSON line on stdout:

    ready SECONDS   how many saw the marker (the lobby), waiting up to SECONDS
    stats           bytes received so far, connections still open
    close           close them all and exit

    python bench/idle_callers.py --port P --count N [--rlogin] [--marker TEXT]
"""
from __future__ import annotations

import argparse
import asyncio
import collections
import json
import os
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from server.net.rlogin import build_handshake  # noqa: E402

HOST = "127.0.0.1"
CONNECT_CONCURRENCY = 50      # connections being set up at once (listen backlog is 100)


def handle(i: int) -> str:
    return f"load{i:05d}"


class Idle(asyncio.Protocol):
    """One idle caller: sends its greeting (an RLogin handshake or nothing),
    then reads and discards, noting when ``marker`` went by."""

    def __init__(self, greeting: bytes, marker: bytes | None):
        loop = asyncio.get_running_loop()
        self.greeting = greeting
        self.marker = marker
        self.first = loop.create_future()     # the first byte (the RLogin ack)
        self.ready = loop.create_future()     # the marker (the lobby screen)
        self.head = b""                       # the first bytes, for a refusal message
        self.received = 0
        self.transport: asyncio.Transport | None = None
        self._tail = b""
        if marker is None:
            self.ready.set_result(True)

    def connection_made(self, transport) -> None:
        self.transport = transport
        if self.greeting:
            transport.write(self.greeting)

    def data_received(self, data: bytes) -> None:
        self.received += len(data)
        if len(self.head) < 200:
            self.head += data[:200]
        if not self.first.done():
            self.first.set_result(data[:1])
        if not self.ready.done() and self.marker is not None:
            buf = self._tail + data
            if self.marker in buf:
                self.ready.set_result(True)
                self._tail = b""
            else:
                self._tail = buf[-len(self.marker):]

    def connection_lost(self, exc) -> None:
        for fut in (self.first, self.ready):
            if not fut.done():
                fut.set_result(False if fut is self.ready else b"")


async def open_idle(n: int, port: int, greeting, marker: bytes | None,
                    wait_first: bool, timeout: float) -> tuple[list[Idle], collections.Counter]:
    """Open ``n`` idle connections, ``CONNECT_CONCURRENCY`` at a time."""
    loop = asyncio.get_running_loop()
    sem = asyncio.Semaphore(CONNECT_CONCURRENCY)
    conns: list[Idle] = []
    errors: collections.Counter[str] = collections.Counter()
    deadline = time.monotonic() + timeout

    async def one(i: int) -> None:
        async with sem:
            if time.monotonic() > deadline:
                errors["not tried: out of time"] += 1
                return
            try:
                _t, proto = await asyncio.wait_for(
                    loop.create_connection(lambda: Idle(greeting(i), marker), HOST, port), 15)
            except (TimeoutError, OSError) as exc:
                errors[f"connect: {type(exc).__name__} {getattr(exc, 'errno', '') or ''}"] += 1
                return
            conns.append(proto)
            if wait_first:
                try:
                    first = await asyncio.wait_for(asyncio.shield(proto.first), 15)
                except TimeoutError:
                    errors["no RLogin ack in 15 s"] += 1
                    return
                if first != b"\0":
                    errors[f"no RLogin ack: {proto.head[:60]!r}"] += 1

    await asyncio.gather(*(one(i) for i in range(n)))
    return conns, errors


async def wait_ready(conns: list[Idle], timeout: float) -> int:
    pending = [c.ready for c in conns if not c.ready.done()]
    if pending:
        await asyncio.wait(pending, timeout=timeout)
    return sum(1 for c in conns if c.ready.done() and c.ready.result() is True)


def say(**what: object) -> None:
    print(json.dumps(what), flush=True)


async def serve(args: argparse.Namespace) -> None:
    # behind the probe for the machine's cores: the callers' reading stands
    # for other machines' work, and must not delay the probe's wake-up
    os.nice(19)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    marker = args.marker.encode() if args.marker else None
    if args.rlogin:
        def greeting(i: int) -> bytes:
            return build_handshake("bench", handle(i), "ansi-bbs/38400")
    else:
        def greeting(i: int) -> bytes:
            return b""
    conns, errors = await open_idle(args.count, args.port, greeting, marker,
                                    wait_first=args.rlogin, timeout=args.timeout)
    say(connected=len(conns), errors=dict(errors))
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while True:
        line = (await reader.readline()).decode().split()
        if not line or line[0] == "close":
            for c in conns:
                if c.transport is not None:
                    c.transport.close()
            await asyncio.sleep(0.3)
            say(closed=len(conns))
            return
        if line[0] == "ready":
            ready = await wait_ready(conns, float(line[1]))
            missing = [c for c in conns if not (c.ready.done() and c.ready.result() is True)]
            heads = collections.Counter(repr(c.head[:60]) for c in missing)
            say(ready=ready, missing_heads=dict(heads.most_common(3)))
        elif line[0] == "stats":
            say(received=sum(c.received for c in conns),
                open=sum(1 for c in conns if c.transport and not c.transport.is_closing()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--rlogin", action="store_true", help="greet with an RLogin handshake, wait for its ack")
    parser.add_argument("--marker", default="", help="text that shows the caller arrived (the lobby)")
    parser.add_argument("--timeout", type=float, default=300.0, help="stop opening connections after this long")
    asyncio.run(serve(parser.parse_args()))


if __name__ == "__main__":
    main()
