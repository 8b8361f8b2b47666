"""A picture of the browser seat for the README: the real server, a headless
Debian chromium (Playwright) on the page, a caller who registers and plays a
few moves of Towers against the computer. Writes docs/screens/browser.png.
Needs chromium (apt-get install chromium); run by ``make screenshots``."""
from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.async_api import async_playwright  # noqa: E402

from tests.e2e.harness import DOWN, ENTER, RIGHT, door_digit, start_app, wait_until  # noqa: E402
from tests.e2e.test_browser_chromium import ARGS, CHROMIUM, BrowserCaller  # noqa: E402
from tests.server.inside import play_towers_move, session_of  # noqa: E402

OUT = ROOT / "docs" / "screens" / "browser.png"


async def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        app = await start_app(Path(tmp) / "gatehouse.db", web={"enabled": True, "port": 0})
        try:
            async with async_playwright() as playwright:
                browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                page = await browser.new_page(viewport={"width": 960, "height": 600})
                await page.goto(f"http://127.0.0.1:{app.web_port}/")
                caller: Any = BrowserCaller(page)    # types keys as the harness's callers do
                await caller.expect("Handle")
                caller.send("Browser" + ENTER)
                await caller.expect("Register?")
                caller.send("y")
                await caller.expect("Choose a password")
                caller.send("secret1" + ENTER)
                await caller.expect("once more")
                caller.send("secret1" + ENTER)
                await caller.expect("Who's online")
                caller.send("p")
                await caller.expect("Choose a door")
                caller.send(door_digit("Towers"))
                await caller.expect("choose your opponent")
                caller.send("1")
                await caller.expect("Who places first")
                caller.send(RIGHT + DOWN * 3 + ENTER)
                await caller.expect("Your turn")
                session = session_of(app, "Browser")
                match = session.screens[-1].match
                for turn in range(6):
                    await wait_until(lambda: 0 in match.state.to_move(), what="my turn")
                    legal = len(match.state.legal_actions(0))
                    await play_towers_move(caller, session, match, 0, pick=(turn * 23 + 9) % legal)
                await wait_until(lambda: 0 in match.state.to_move(), what="my turn")
                await caller.expect("Your turn")
                OUT.parent.mkdir(parents=True, exist_ok=True)
                await page.screenshot(path=str(OUT))
                await caller.close()
                await browser.close()
        finally:
            await app.stop()
    print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
