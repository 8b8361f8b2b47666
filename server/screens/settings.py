"""Settings: the character set, remembered per user, and plain text
(line by line, no colour or cursor movement: for screen readers and
terminals without ANSI) for this call."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ansi import keys as K
from ansi.canvas import BLUE, BRIGHT_GREEN, CYAN, DARK_GREY, GREY, WHITE, YELLOW, Canvas
from server.screens.session import Pop, Screen, Transition
from server.services.nodes import Origin

if TYPE_CHECKING:
    from server.screens.session import Session

__all__ = ["SettingsScreen"]

SAMPLE = "┌─┬─┐ ╔═╦═╗ ░▒▓█ ▀▄▌▐ ♠♥♦♣ ☺☻ ← → ↑ ↓ • ·"
CHARSETS = (("cp437", "CP437 (SyncTERM, NetRunner, other BBS terminals)"),
            ("utf8", "UTF-8 (xterm, PuTTY, Linux console, most others)"))


class SettingsScreen(Screen):
    location = "settings"

    def __init__(self, session: Session):
        super().__init__(session)
        self.message = ""

    async def on_key(self, key: str) -> Transition:
        if key in ("1", "2") and self.session.charset_locked:
            self.message = (f"{self.session.charset} for this call: "
                            + ("a browser always shows UTF-8." if self.session.origin == Origin.WEB
                               else "your BBS sets it (see its terminal settings)."))
        elif key in ("1", "2"):
            charset = CHARSETS[int(key) - 1][0]
            self.session.set_charset(charset)
            if self.session.user is not None:
                await self.session.services.store.set_charset(self.session.user.id, charset)
            self.message = f"Character set: {charset}. Saved for your next calls."
        elif key == "3":
            plain = not self.session.terminal.plain
            self.session.terminal.set_plain(plain)
            self.message = ("Plain text for this call: press s then 3 again for the full screen."
                            if plain else "Full screen (ANSI) for this call.")
        elif key in (K.ESC, K.ENTER, "q", "Q"):
            return Pop(None)
        return None

    def draw(self, canvas: Canvas, now: float) -> tuple[int, int] | None:
        canvas.fill(0, 0, 80, 1, " ", WHITE, BLUE)
        canvas.text(1, 0, "GATEHOUSE · Settings", YELLOW, BLUE)
        canvas.text(3, 3, "Character set: which one shows the line below as boxes and suits?", WHITE)
        canvas.text(5, 5, SAMPLE, CYAN)
        for i, (key, label) in enumerate(CHARSETS):
            mark = "»" if self.session.charset == key else " "
            canvas.text(3, 8 + i * 2, f"{mark} {i + 1}. {label}",
                        BRIGHT_GREEN if mark != " " else GREY)
        plain = self.session.terminal.plain
        canvas.text(3, 12, f"{'»' if plain else ' '} 3. Plain text, line by line (screen readers, "
                           "no ANSI): for this call", BRIGHT_GREEN if plain else GREY)
        canvas.text(3, 14, self.message, YELLOW)
        if self.session.charset_locked:
            canvas.text(3, 13, "Set by your browser for this call." if self.session.origin == Origin.WEB
                        else "Set by your BBS for this call.", GREY)
        canvas.text(1, 23, "1 or 2 to choose, 3 plain text on/off, ESC back to the lobby", DARK_GREY)
        return None
