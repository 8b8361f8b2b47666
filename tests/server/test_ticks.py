"""The lobby's minute comes by ``ticks``: screens due at the same moment
share one timer, and each is told once, however often it asked."""
from __future__ import annotations

import asyncio

from server.screens import ticks


class Screen:
    def __init__(self, done: asyncio.Event, expect: int, told: list[Screen]):
        self.done, self.expect, self.told = done, expect, told
        self.ticks = 0

    def tick(self) -> None:
        self.ticks += 1
        self.told.append(self)
        if len(self.told) >= self.expect:
            self.done.set()


async def test_screens_due_at_once_share_one_timer_and_each_is_told_once():
    loop = asyncio.get_running_loop()
    done, told = asyncio.Event(), []
    screens = [Screen(done, 4, told) for _ in range(4)]
    when = loop.time() + 0.05
    timers = len(loop._scheduled)          # noqa: SLF001 (the loop's timer heap: counted, not timed)
    for screen in screens:
        ticks.at(when, screen)
    ticks.at(when, screens[0])             # asked again for the same moment (redrawn meanwhile)
    assert len(loop._scheduled) == timers + 1         # noqa: SLF001
    await asyncio.wait_for(done.wait(), 30)
    for _ in range(3):
        await asyncio.sleep(0)
    assert [s.ticks for s in screens] == [1, 1, 1, 1]


async def test_screens_due_at_different_moments_are_told_in_order():
    loop = asyncio.get_running_loop()
    done, told = asyncio.Event(), []
    early, late = Screen(done, 2, told), Screen(done, 2, told)
    now = loop.time()
    ticks.at(now + 0.2, late)
    ticks.at(now + 0.02, early)
    await asyncio.wait_for(done.wait(), 30)
    assert told == [early, late]


async def test_screens_due_at_once_are_told_between_the_loops_other_work(monkeypatch):
    """Ten thousand lobbies whose minute turns at once are told a few at a
    time: what came meanwhile (a key typed) runs between them, not after
    them all."""
    monkeypatch.setattr(ticks, "BUDGET", 0.0)          # one screen a turn of the loop
    loop = asyncio.get_running_loop()
    done, told = asyncio.Event(), []
    screens = [Screen(done, 6, told) for _ in range(5)]    # five, and the key
    first = screens[0]
    first.tick = lambda: (Screen.tick(first), loop.call_soon(told.append, "key"))   # type: ignore[method-assign]
    when = loop.time() + 0.02
    for screen in screens:
        ticks.at(when, screen)
    await asyncio.wait_for(done.wait(), 30)
    assert told[0] is first and told[1] == "key"
    assert [s for s in told if s != "key"] == screens
