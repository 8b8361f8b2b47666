"""A browser caller without a browser: a WebSocket client speaking the
browser seat's protocol (keys as binary messages, sizes as JSON text), its
screen read through pyte like every other caller's."""
from __future__ import annotations

import asyncio
import codecs
import json

from websockets.asyncio.client import ClientConnection, connect

from .harness import Caller

__all__ = ["WebCaller"]


class WebCaller(Caller):
    """A caller of the browser seat with an 80x24 pyte screen."""

    def __init__(self, ws: ClientConnection, cols: int = 80, rows: int = 24):
        self.ws = ws
        self._outbox: asyncio.Queue[str | bytes] = asyncio.Queue()
        self._sender = asyncio.create_task(self._send_all())
        self.close_code: int | None = None
        super().__init__(None, None, "utf8")
        self.resize(cols, rows)

    @classmethod
    async def connect_web(cls, port: int, cols: int = 80, rows: int = 24,
                          headers: dict[str, str] | None = None) -> WebCaller:
        ws = await connect(f"ws://127.0.0.1:{port}/ws", additional_headers=headers,
                           max_size=None)
        return cls(ws, cols, rows)

    async def _read(self) -> None:
        utf8 = codecs.getincrementaldecoder("utf-8")("strict")   # anything else is a failure
        try:
            async for message in self.ws:
                assert isinstance(message, bytes), f"text message from the server: {message!r}"
                self.received += message
                self.stream.feed(utf8.decode(message))
        finally:
            self.close_code = self.ws.close_code
            self.closed = True

    async def _send_all(self) -> None:
        while True:
            message = await self._outbox.get()
            await self.ws.send(message)

    def send(self, keys: str | bytes) -> None:
        """Type ``keys``, in 4 KiB messages as the page sends them."""
        data = keys.encode("utf-8") if isinstance(keys, str) else keys
        for i in range(0, len(data), 4096):
            self._outbox.put_nowait(data[i:i + 4096])

    def send_raw(self, message: str | bytes) -> None:
        """One message exactly as given (what a hostile client might send)."""
        self._outbox.put_nowait(message)

    def resize(self, cols: int, rows: int) -> None:
        self.screen.resize(rows, cols)
        self._outbox.put_nowait(json.dumps({"cols": cols, "rows": rows}))

    async def close(self) -> None:
        self._sender.cancel()
        await self.ws.close()
        self._pump.cancel()
        for task in (self._sender, self._pump):
            try:
                await task
            except (asyncio.CancelledError, Exception):
                pass
