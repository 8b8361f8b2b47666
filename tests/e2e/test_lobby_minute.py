"""The lobby's clock turns with the minute on every caller's screen, and
what each caller then sees is exactly what a full repaint of their lobby
shows (the minute's change is sent as the few cells that changed)."""
import time

from .harness import Caller, start_app, wait_until


class Wall:
    """The server's wall clock: the real one's pace, set forward by hand."""

    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.time() + self.offset

    def turn_minute_in(self, seconds: float) -> float:
        """Set the clock so that its minute turns ``seconds`` from now; the new minute's start."""
        now = self()
        self.offset += (60 - seconds) - now % 60
        return self() + seconds


def seen(caller: Caller) -> list[list[tuple[object, ...]]]:
    """Every cell of the caller's screen, with its colours."""
    buffer = caller.screen.buffer
    return [[(c.data, c.fg, c.bg, c.bold, c.blink, c.reverse) for c in (buffer[y][x] for x in range(80))]
            for y in range(24)]


async def repainted(caller: Caller) -> list[list[tuple[object, ...]]]:
    """The screen after the caller asks for a full repaint (r)."""
    mark = len(caller.received)
    caller.send("r")
    await wait_until(lambda: b"\x1b[2J" in caller.received[mark:], what="a full repaint")
    await caller.settle()
    return seen(caller)


async def test_the_lobby_clock_turns_with_the_minute_as_a_repaint_would_show_it(tmp_path):
    wall = Wall()
    app = await start_app(tmp_path / "gatehouse.db", wall=wall)
    callers = []
    try:
        for handle in ("Early", "Later"):
            caller = await Caller.connect(app.port)
            await caller.login(handle)
            callers.append(caller)
        await callers[0].expect("Later")
        turn = wall.turn_minute_in(6.0)
        before = time.strftime("%H:%M", time.localtime(turn - 30))
        after = time.strftime("%H:%M", time.localtime(turn + 1))
        for caller in callers:
            caller.send("r")                   # drawn again: its next minute is the new one
            await caller.expect(f"· {before}")
        for caller in callers:
            await caller.expect(f"· {after}", timeout=30)       # no key pressed: the minute came by itself
            assert "Later" in caller.text() and "Early" in caller.text()
            await caller.settle()
            shown = seen(caller)
            assert await repainted(caller) == shown
    finally:
        for caller in callers:
            await caller.close()
        await app.stop()
