"""A session's inbox: the events for it, in order, and one waiter (its own loop)."""
from __future__ import annotations

import asyncio
from typing import Generic, TypeVar

__all__ = ["Inbox"]

T = TypeVar("T")


class Inbox(Generic[T]):
    """The calls of ``asyncio.Queue`` a session makes, for one consumer:
    a list and, while the consumer waits, one future (a Queue keeps three
    deques, some 2 KiB, for each of ten thousand idle callers)."""

    __slots__ = ("_items", "_waiter")

    def __init__(self) -> None:
        self._items: list[T] = []
        self._waiter: asyncio.Future[None] | None = None

    def put_nowait(self, item: T) -> None:
        self._items.append(item)
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def get_nowait(self) -> T:
        if not self._items:
            raise asyncio.QueueEmpty
        return self._items.pop(0)

    async def get(self) -> T:
        """The next item, waiting for one; cancelled, it takes none."""
        while not self._items:
            self._waiter = asyncio.get_running_loop().create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        return self._items.pop(0)

    def empty(self) -> bool:
        return not self._items

    def qsize(self) -> int:
        return len(self._items)
