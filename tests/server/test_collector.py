"""The collector policy of a long-running server: what survives a full
collection is frozen (later full collections skip it) until the next thaw,
which lets cycles left meanwhile be freed; nothing is kept for good."""
import asyncio
import gc
import weakref

from server.collector import Collector


class Node:
    """A session-like object in a cycle with itself: only the collector frees it."""
    def __init__(self) -> None:
        self.me = self


async def settle() -> None:
    for _ in range(3):
        await asyncio.sleep(0)


async def test_survivors_of_a_full_collection_are_frozen_until_the_thaw():
    collector = Collector(thaw_seconds=3600)
    try:
        collector.start()
        node = Node()
        gone = weakref.ref(node)
        gc.collect()                   # a full collection: the node survives it
        await settle()
        assert collector.frozen >= 1 and gc.get_freeze_count() > 0
        del node                       # now garbage, in a cycle, and frozen
        gc.collect()
        assert gone() is not None      # a full collection does not walk it
        collector.thaw()
        gc.collect()
        assert gone() is None          # after the thaw it is freed
    finally:
        collector.stop()
    assert gc.get_freeze_count() == 0 and collector._collected not in gc.callbacks


async def test_the_thaw_comes_by_itself():
    collector = Collector(thaw_seconds=0.01)
    try:
        collector.start()
        for _ in range(500):
            if collector.thawed >= 2:
                break
            await asyncio.sleep(0.01)
        assert collector.thawed >= 2
    finally:
        collector.stop()


def test_a_full_collection_after_the_loop_has_closed_is_harmless():
    collector = Collector()

    async def run() -> None:
        collector.start()
    loop = asyncio.new_event_loop()
    try:
        loop.run_until_complete(run())
    finally:
        loop.close()
    try:
        gc.collect()                   # the loop is closed: the freeze is not asked for
        assert collector.frozen == 0
    finally:
        collector.stop()
