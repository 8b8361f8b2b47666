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
    """Every cell of the caller's screen as it looks: its character and
    colours (the terminal's default colours are grey on black; a blank
    shows only its background)."""
    buffer = caller.screen.buffer
    rows = []
    for y in range(24):
        row: list[tuple[object, ...]] = []
        for x in range(80):
            c = buffer[y][x]
            bg = "black" if c.bg == "default" else c.bg
            if c.data == " ":
                row.append((" ", bg, c.reverse))
            else:
                row.append((c.data, "white" if c.fg == "default" else c.fg, bg, c.bold, c.blink, c.reverse))
        rows.append(row)
    return rows


async def repainted(caller: Caller) -> list[list[tuple[object, ...]]]:
    """The screen after the caller asks for a full repaint (r)."""
    mark = len(caller.received)
    caller.send("r")
    await wait_until(lambda: b"\x1b[2J" in caller.received[mark:], what="a full repaint")
    await caller.settle()
    return seen(caller)


async def early_and_later(app) -> list[Caller]:
    """Two callers in the lobby, Early first, once Early's who list shows Later."""
    callers = []
    for handle in ("Early", "Later"):
        caller = await Caller.connect(app.port)
        await caller.login(handle)
        callers.append(caller)
    await callers[0].expect("Later")
    return callers


async def test_the_lobby_clock_turns_with_the_minute_as_a_repaint_would_show_it(tmp_path):
    wall = Wall()
    app = await start_app(tmp_path / "gatehouse.db", wall=wall)
    callers: list[Caller] = []
    try:
        callers = await early_and_later(app)
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


async def test_a_line_over_the_lobby_goes_once_read_and_the_lobby_shows_as_a_repaint_would(tmp_path):
    """A caller's line shows over the lobby's top row until read (a key some
    seconds later); then the lobby is back whole, though nothing else in it changed."""
    app = await start_app(tmp_path / "gatehouse.db")
    callers: list[Caller] = []
    try:
        callers = await early_and_later(app)
        early, later = callers
        early.send("l")
        await early.expect("Message to (handle)")
        early.send("Later\r")
        await early.expect("Message to Later:")
        early.send("hi there\r")
        await wait_until(lambda: "Early: hi there" in later.line(0), what="the line over Later's lobby")

        def read() -> bool:
            if "GATEHOUSE" in later.line(0):
                return True
            later.send("z")                     # no key of the lobby's: a key, nothing more
            return False
        await wait_until(read, what="the lobby's top row back")
        await later.settle()
        assert "Early: hi there" not in later.line(0) and "· Lobby" in later.line(0)
        shown = seen(later)
        assert await repainted(later) == shown
    finally:
        for caller in callers:
            await caller.close()
        await app.stop()
