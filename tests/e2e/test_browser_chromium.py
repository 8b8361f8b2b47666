"""The browser seat in a real browser: Debian's chromium, headless, driven by
Playwright. A caller opens the page, registers, plays Towers against the
computer to the end by keyboard, and the screen is read from xterm.js's own
buffer. .ci/run installs chromium (apt) and Playwright (pyproject)."""
from __future__ import annotations

import asyncio
import os
import time

import pytest
from playwright.async_api import Browser, Page, async_playwright

from .harness import DOWN, ENTER, ESC, LEFT, RIGHT, UP, door_digit, play_towers_move, session_of, start_app, wait_until

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
KEYS = {UP: "ArrowUp", DOWN: "ArrowDown", RIGHT: "ArrowRight", LEFT: "ArrowLeft",
        ENTER: "Enter", ESC: "Escape", "\x13": "Control+s", "\x11": "Control+q", "\b": "Backspace"}
SCREEN = """() => {
    const term = window.gatehouse.term, buffer = term.buffer.active, rows = [];
    for (let y = 0; y < term.rows; y++) {
        const line = buffer.getLine(buffer.viewportY + y);
        rows.push(line ? line.translateToString(true) : "");
    }
    return rows.join("\\n");
}"""


@pytest.fixture
async def app(tmp_path):
    app = await start_app(tmp_path / "gatehouse.db", web={"enabled": True, "port": 0})
    yield app
    await app.stop()


@pytest.fixture
async def browser():
    assert os.access(CHROMIUM, os.X_OK), \
        "this test needs Debian's chromium: apt-get install chromium (.ci/run does)"
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        await browser.close()


class BrowserCaller:
    """A person at the page: types with the keyboard, reads xterm's screen."""

    def __init__(self, page: Page):
        self.page = page
        self._keys: asyncio.Queue[str] = asyncio.Queue()
        self._typist = asyncio.create_task(self._type_all())

    async def _type_all(self) -> None:
        while True:
            keys = await self._keys.get()
            i = 0
            while i < len(keys):
                special = next((k for k in KEYS if keys.startswith(k, i) and len(k) > 1), None)
                key = special or keys[i]
                if key in KEYS:
                    await self.page.keyboard.press(KEYS[key])
                else:
                    await self.page.keyboard.type(key)
                i += len(key)
            self._keys.task_done()

    def send(self, keys: str) -> None:
        """Type ``keys`` (arrows, Enter, ESC as the harness writes them), in order."""
        self._keys.put_nowait(keys)

    async def typed(self) -> None:
        await self._keys.join()

    async def text(self) -> str:
        return str(await self.page.evaluate(SCREEN))

    async def expect(self, text: str, timeout: float = 15.0) -> str:
        try:
            await self.page.wait_for_function(f"(text) => ({SCREEN})().includes(text)", arg=text,
                                              timeout=timeout * 1000, polling=50)
        except Exception as exc:
            raise AssertionError(f"{text!r} never appeared in the browser:\n{await self.text()}") from exc
        return await self.text()

    async def close(self) -> None:
        self._typist.cancel()


async def open_seat(browser: Browser, app, width: int = 1024, height: int = 700) -> BrowserCaller:
    page = await browser.new_page(viewport={"width": width, "height": height})
    await page.goto(f"http://127.0.0.1:{app.web_port}/")
    return BrowserCaller(page)


async def shows_the_servers_screen(caller: BrowserCaller, session) -> None:
    """Wait until the browser shows, line for line, the screen the server drew."""
    deadline = time.monotonic() + 15
    while True:
        want = "\n".join(line.rstrip() for line in session.terminal.composed()[0].lines())
        got = "\n".join(line.rstrip() for line in (await caller.text()).splitlines())
        if got == want or time.monotonic() > deadline:
            break
        await asyncio.sleep(0.05)
    assert got == want


async def test_a_browser_caller_registers_and_plays_towers_to_the_end(app, browser):
    caller = await open_seat(browser, app)
    text = await caller.expect("Handle")
    # the title art, drawn from CP437 art, is exactly what the server drew
    await wait_until(lambda: len(app.sessions) == 1, what="the browser's session")
    session = next(iter(app.sessions.values()))
    assert session.origin == "web" and session.charset == "utf8"
    canvas, _ = session.terminal.composed()
    assert [line.rstrip() for line in text.splitlines()[:20]] == \
        [line.rstrip() for line in canvas.lines()[:20]]
    assert sum("█" in line for line in text.splitlines()) >= 3
    # the page sized its terminal to 80x24 in the window and told the server
    size = await caller.page.evaluate("[window.gatehouse.term.cols, window.gatehouse.term.rows]")
    assert size == [80, 24]
    await wait_until(lambda: (session.conn.cols, session.conn.rows) == (80, 24), what="size")
    caller.send("Brox\bw" + ENTER)                    # Backspace works as a person expects
    await caller.expect("Register?")
    caller.send("y")
    await caller.expect("Choose a password")
    caller.send("secret1" + ENTER)
    await caller.expect("once more")
    caller.send("secret1" + ENTER)
    await caller.expect("Who's online")
    await shows_the_servers_screen(caller, session_of(app, "Brow"))
    caller.send("p")
    await caller.expect("Choose a door")
    caller.send(door_digit("Towers"))
    await caller.expect("choose your opponent")
    caller.send("1")
    await caller.expect("Who places first")
    caller.send(RIGHT + DOWN * 3 + ENTER)            # the challenger places first
    await caller.expect("Your turn")
    session = session_of(app, "Brow")
    match = session.screens[-1].match
    while not match.ended:
        await wait_until(lambda: match.ended or 0 in match.state.to_move(), what="my turn")
        if not match.ended:
            await play_towers_move(caller, session, match, 0)
    text = await caller.expect("GAME OVER")
    assert f"{match.outcome.score[0]}-{match.outcome.score[1]}" in text
    assert len(match.state.history) >= 16
    await caller.close()


async def test_pause_and_window_resize_in_the_browser(app, browser):
    caller = await open_seat(browser, app)
    await caller.expect("Handle")
    await wait_until(lambda: len(app.sessions) == 1, what="the browser's session")
    session = next(iter(app.sessions.values()))
    caller.send("\x13")                              # CTRL-S holds the screen
    await wait_until(lambda: session.terminal.paused, what="pause")
    caller.send("\x11")                              # CTRL-Q lets it go
    await wait_until(lambda: not session.terminal.paused, what="resume")
    await caller.page.set_viewport_size({"width": 320, "height": 200})
    await caller.expect("Gatehouse needs at least 80x24")
    assert 0 < session.conn.cols < 80
    await caller.page.set_viewport_size({"width": 1200, "height": 800})
    await caller.expect("Handle")
    assert (session.conn.cols, session.conn.rows) == (80, 24)
    await shows_the_servers_screen(caller, session)
    await caller.close()
