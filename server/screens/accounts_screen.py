"""The sysop's accounts (A on the console): every account with its kind,
last call and ban; reset a password, ban (with or without the address),
unban, rename. Every action goes through ``services.accounts`` (as
``gatehouse user`` does), which logs it."""
from __future__ import annotations

import time
from collections.abc import Awaitable

from ansi import keys as K
from ansi.canvas import BLUE, BRIGHT_CYAN, BRIGHT_RED, DARK_GREY, GREY, RED, WHITE, YELLOW, Canvas, shorten
from ansi.widgets import LineInput
from server.screens.session import Pop, Screen, Session, Transition
from server.services.accounts import MAX_PASSWORD, AccountError
from server.services.store_accounts import AccountRow
from server.services.store_users import AccountKind

__all__ = ["AccountsScreen"]

ROWS = 17
HINTS = "UP/DOWN select  r password  b ban  B ban+address  u unban  n rename  ESC back"
PROMPTS = {"password": "New password: ", "ban": "Ban, reason: ",
           "address": "Ban with address (ENTER: their address now): ", "rename": "New handle: "}


class AccountsScreen(Screen):
    location = "sysop console"

    def __init__(self, session: Session):
        super().__init__(session)
        self.rows: list[AccountRow] = []
        self.index = 0
        self.input: LineInput | None = None
        self.mode = ""
        self.message = ""

    async def on_start(self) -> Transition:
        await self._reload()
        return None

    async def _reload(self) -> None:
        self.rows = await self.session.services.accounts.list()
        self.index = max(0, min(self.index, len(self.rows) - 1))

    def _selected(self) -> AccountRow | None:
        return self.rows[self.index] if self.rows else None

    async def on_key(self, key: str) -> Transition:
        if self.input is not None:
            return await self._typed(key)
        self.message = ""
        if key in (K.ESC, "q"):
            return Pop()
        step = {K.UP: -1, K.DOWN: 1, K.PGUP: -ROWS, K.PGDN: ROWS}.get(key)
        if step is not None and self.rows:
            self.index = max(0, min(len(self.rows) - 1, self.index + step))
            return None
        row = self._selected()
        if row is None:
            return None
        if key == "u":
            await self._act(self.session.services.accounts.unban(row.handle, self.session.handle))
        elif key in ("r", "b", "B", "n"):
            self.mode = {"r": "password", "b": "ban", "B": "address", "n": "rename"}[key]
            self.input = LineInput(MAX_PASSWORD if key == "r" else 40)
        return None

    async def _typed(self, key: str) -> Transition:
        assert self.input is not None
        text = self.input.handle(key)
        if text is None:
            if self.input.cancelled:
                self.input = None
            return None
        self.input = None
        row = self._selected()
        if row is None:
            return None
        accounts, me = self.session.services.accounts, self.session.handle
        if self.mode == "password":
            await self._act(accounts.reset_password(row.handle, text, me))
        elif self.mode == "ban":
            await self._act(accounts.ban(row.handle, me, text))
        elif self.mode == "address":
            caller = self.session.services.nodes.find(row.handle)
            if not text.strip() and row.kind == AccountKind.BBS:
                # their address is their BBS's: banning it would ban every
                # caller of that BBS (and anyone else there)
                await self._act(accounts.ban(row.handle, me, ""))
                self.message += " Their BBS's address was not banned: type one to ban it."
                return None
            address = text.strip() or (caller.conn.peer if caller is not None else "")
            if not address:
                self.message = f"{row.handle} is not online: type the address to ban."
                return None
            await self._act(accounts.ban(row.handle, me, "", address))
        elif self.mode == "rename":
            await self._act(accounts.rename(row.handle, text, me))
        return None

    async def _act(self, action: Awaitable[str]) -> None:
        try:
            self.message = await action
        except AccountError as exc:
            self.message = str(exc)
        await self._reload()

    def draw(self, canvas: Canvas, now: float) -> tuple[int, int] | None:
        canvas.fill(0, 0, 80, 1, " ", WHITE, BLUE)
        canvas.text(1, 0, "GATEHOUSE", YELLOW, BLUE)
        canvas.text(11, 0, f"· Accounts ({len(self.rows)})", WHITE, BLUE)
        canvas.text(1, 2, f"{'Handle':<21}{'Kind':<10}{'Last call':<18}", DARK_GREY)
        top = max(0, min(self.index - ROWS // 2, len(self.rows) - ROWS))
        for i, row in enumerate(self.rows[top:top + ROWS]):
            last = time.strftime("%Y-%m-%d %H:%M", time.localtime(row.last_login)) if row.last_login else "never"
            line = f"{row.handle[:20]:<21}{row.kind:<10}{last:<18}"
            selected = top + i == self.index
            canvas.fill(0, 3 + i, 80, 1, " ", WHITE, BLUE if selected else 0)
            x = canvas.text(1, 3 + i, line, WHITE if selected else GREY, BLUE if selected else 0)
            if row.banned:
                canvas.text(x, 3 + i, "BANNED", BRIGHT_RED if not selected else YELLOW, RED if selected else 0)
        canvas.text(1, 21, shorten(self.message, 78), BRIGHT_CYAN)
        if self.input is not None:
            label = PROMPTS[self.mode]
            canvas.text(0, 23, label, YELLOW)
            if self.mode == "password":       # never shown, not even to the sysop's screen
                canvas.text(len(label), 23, "*" * len(self.input.text), WHITE)
                return (len(label) + self.input.pos, 23)
            return self.input.draw(canvas, len(label), 23, 79 - len(label), WHITE, 0)
        canvas.text(1, 23, shorten(HINTS, 78), DARK_GREY)
        return None
