"""The browser seat in a real browser: Debian's chromium, headless, driven by
Playwright. A caller opens the page, registers, plays Towers against the
computer to the end by keyboard, and the screen is read from xterm.js's own
buffer and compared with what the bytes the server sent mean on a reference
terminal (pyte). .ci/run installs chromium (apt) and Playwright (pyproject)."""
from __future__ import annotations

import asyncio
import json
import os
import re
import time

import pyte
import pytest
from playwright.async_api import Browser, Page, async_playwright

from .harness import (
    DOWN,
    ENTER,
    ESC,
    LEFT,
    RIGHT,
    UP,
    active_game,
    arrows_between,
    charset_of,
    db_rows,
    door_digit,
    game_state,
    game_status,
    moves_of,
    start_app,
    wait_until,
)

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
# every byte the page's WebSocket receives, kept in window.__wire (one char a byte)
RECORD_WIRE = """(() => {
    const Real = window.WebSocket;
    window.__wire = "";
    window.WebSocket = class extends Real {
        constructor(...args) {
            super(...args);
            this.addEventListener("message", (event) => {
                if (!(event.data instanceof ArrayBuffer)) return;
                const bytes = new Uint8Array(event.data);
                let text = "";
                for (let i = 0; i < bytes.length; i++) text += String.fromCharCode(bytes[i]);
                window.__wire += text;
            });
        }
    };
})();"""


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

    async def wire_screen(self) -> str:
        """What an 80x24 reference terminal shows from every byte the page
        received (UTF-8), lines right-trimmed as xterm's are."""
        data = str(await self.page.evaluate("window.__wire")).encode("latin-1")
        screen = pyte.Screen(80, 24)
        pyte.Stream(screen).feed(data.decode("utf-8", "replace"))
        return "\n".join(line.rstrip() for line in screen.display)

    async def quiet(self, timeout: float = 30.0) -> None:
        """Wait until nothing more has arrived for a while (0.3 s)."""
        deadline, size = time.monotonic() + timeout, -1
        while (now := len(str(await self.page.evaluate("window.__wire")))) != size:
            assert time.monotonic() < deadline, "the page never went quiet"
            size = now
            await asyncio.sleep(0.3)

    async def close(self) -> None:
        self._typist.cancel()


async def open_seat(browser: Browser, app, width: int = 1024, height: int = 700) -> BrowserCaller:
    page = await browser.new_page(viewport={"width": width, "height": height})
    await page.add_init_script(RECORD_WIRE)
    await page.goto(f"http://127.0.0.1:{app.web_port}/")
    return BrowserCaller(page)


async def shows_the_wire_screen(caller: BrowserCaller) -> str:
    """Wait until the browser shows, line for line, what the server's bytes
    mean on a reference terminal; returns that screen."""
    deadline = time.monotonic() + 30
    while True:
        want = await caller.wire_screen()
        got = "\n".join(line.rstrip() for line in (await caller.text()).splitlines())
        if got == want or time.monotonic() > deadline:
            break
        await asyncio.sleep(0.05)
    assert got == want
    return got


async def towers_move_in_browser(caller: BrowserCaller, app, game_id: int) -> None:
    """The first legal Towers move of the game the database holds, typed
    with arrows and Enter from where the screen says the cursor is."""
    from doors.towers.rules import Move, Place, parse_square
    state = game_state(app, game_id)
    action = state.legal_actions(state.to_move()[0])[0]
    before = len(state.history)
    if state.history:                                  # the screen has caught up with the record
        await caller.expect(f"Last: {state.action_to_str(state.history[-1][1])} ")
    text = await caller.expect("Your turn:")
    found = re.search(r"Cursor: ([a-h][1-8])", text)
    assert found is not None, text
    cursor = parse_square(found.group(1))
    if isinstance(action, Place):
        caller.send(arrows_between(cursor, action.square, 8) + ENTER)
    else:
        assert isinstance(action, Move)
        caller.send(arrows_between(cursor, action.origin, 8) + ENTER)
        caller.send(arrows_between(action.origin, action.target, 8) + ENTER)
    await wait_until(lambda: len(moves_of(app, game_id)) > before, what=f"{action} applied")


async def test_a_browser_caller_registers_and_plays_towers_to_the_end(app, browser):
    caller = await open_seat(browser, app)
    text = await caller.expect("Handle")
    # the title art, drawn from CP437 art, is exactly what the server's bytes draw, in UTF-8
    text = await shows_the_wire_screen(caller)
    assert sum("█" in line for line in text.splitlines()) >= 3
    assert "charset utf8" in text.splitlines()[23]          # the last of 24 rows, as the server drew it
    # the page sized its terminal to 80x24 in the window and told the server
    size = await caller.page.evaluate("[window.gatehouse.term.cols, window.gatehouse.term.rows]")
    assert size == [80, 24]
    assert "needs at least" not in text
    caller.send("Brox\bw" + ENTER)                    # Backspace works as a person expects
    await caller.expect("Register?")
    caller.send("y")
    await caller.expect("Choose a password")
    caller.send("secret1" + ENTER)
    await caller.expect("once more")
    caller.send("secret1" + ENTER)
    await caller.expect("Who's online")
    await shows_the_wire_screen(caller)
    assert charset_of(app, "Brow") == "utf8"
    caller.send("p")
    await caller.expect("Choose a door")
    caller.send(door_digit("Towers"))
    await caller.expect("choose your opponent")
    caller.send("1")
    await caller.expect("Who places first")
    caller.send(RIGHT + DOWN * 3 + ENTER)            # the challenger places first
    await caller.expect("Your turn")
    game = active_game(app, "Brow")
    assert game is not None
    game_id = game[0]
    me = 0 if db_rows(app, "SELECT player0 FROM games WHERE id = ?", game_id)[0][0] == "Brow" else 1
    while game_status(app, game_id) == "active":
        await wait_until(lambda: game_status(app, game_id) != "active"
                         or me in game_state(app, game_id).to_move(), what="my turn")
        if game_status(app, game_id) == "active":
            await towers_move_in_browser(caller, app, game_id)
    text = await caller.expect("GAME OVER")
    outcome = json.loads(db_rows(app, "SELECT outcome FROM games WHERE id = ?", game_id)[0][0])
    score = outcome["score"]
    assert f"{score[0]}-{score[1]}" in text
    assert len(moves_of(app, game_id)) >= 16
    await shows_the_wire_screen(caller)
    await caller.close()


async def test_pause_and_window_resize_in_the_browser(app, browser):
    caller = await open_seat(browser, app)
    await caller.expect("Handle")
    caller.send("\x13")                              # CTRL-S holds the screen
    await caller.typed()
    caller.send("Pau")                               # typed, but not shown while held
    await caller.typed()
    await caller.quiet()
    assert "Pau" not in await caller.text()
    caller.send("\x11")                              # CTRL-Q lets it go: the screen as it is now
    await caller.expect("Pau")
    await caller.page.set_viewport_size({"width": 320, "height": 200})
    text = await caller.expect("Gatehouse needs at least 80x24")
    found = re.search(r"Your window is (\d+)x(\d+)", text)
    assert found is not None and 0 < int(found.group(1)) < 80, text
    await caller.page.set_viewport_size({"width": 1200, "height": 800})
    await caller.expect("Handle")
    text = await shows_the_wire_screen(caller)
    assert "charset utf8" in text.splitlines()[23]          # drawn for 80x24 again
    await caller.close()
