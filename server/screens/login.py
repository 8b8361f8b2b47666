"""Title screen, login and registration.

Passwords are stored only as salted scrypt hashes (``store.hash_password``);
hashing runs in a thread. Failed attempts are slowed (1 s, 2 s, 4 s) and the
third failure hangs up; ``server.login_guard`` keeps the back-off across
connections, per account and per address, and logs every failure.
"""
from __future__ import annotations

import asyncio
import enum
import logging
import math
import time
from typing import TYPE_CHECKING

from ansi import keys as K
from ansi.canvas import BRIGHT_CYAN, BRIGHT_RED, DARK_GREY, WHITE, YELLOW, Canvas, shorten
from ansi.widgets import LineInput
from server.screens.arrival import after_login
from server.screens.board_look import footer_line, title_art
from server.screens.session import Quit, Replace, Screen, SessionEvent, Transition
from server.services.accounts import MAX_PASSWORD
from server.services.handles import valid_handle
from server.services.nodes import Origin
from server.services.store import AccountKind, Store, UserRow, WriteFailed, check_password, hash_password

if TYPE_CHECKING:
    from server.screens.session import Session

__all__ = ["TitleScreen", "valid_handle", "enter_as", "account_for", "telnet_refusal"]

log = logging.getLogger("gatehouse")
MAX_FAILURES = 3
WELCOME = "Welcome to Gatehouse: two-player door games {how}."   # unless the sysop's footer says
CHARSET_TEST_LINE = "┌──┐ ░▒▓█ ♥ ♦ ♣ ♠ └──┘"
CHARSET_NAMES = {"utf8": "UTF-8", "cp437": "CP437"}


class Stage(enum.StrEnum):
    """What the login screen asks now."""
    CHARSET = "charset"            # does the line above show lines and shades?
    HANDLE = "handle"
    PASSWORD = "password"
    REGISTER = "register"          # no such caller: register? (y/n)
    NEW_PASSWORD = "new_password"
    CONFIRM = "confirm"            # the new password once more


WARN_SECONDS = 15.0                # the login's time limit is told this long before it ends
                                   # (half the limit, if that is shorter)


class TitleScreen(Screen):
    location = "logging in"

    def __init__(self, session: Session, message: str = "", ask_charset: bool = True):
        """``message``: shown under the handle prompt (back from the
        takeover question); ``ask_charset``: ask about the charset first
        if the terminal did not answer the probe."""
        super().__init__(session)
        self.stage = Stage.HANDLE
        self.input = LineInput(20)
        self.secret = False
        self.handle = ""
        self.password = ""
        self.message = message
        self.ask_charset = ask_charset
        self.failures = 0
        self.user: UserRow | None = None
        # time to log in or register before the line is freed, from the last key
        self.deadline = time.monotonic() + session.services.config.limits.title_seconds
        self.warned = False

    @property
    def _warn_before(self) -> float:
        return min(WARN_SECONDS, self.session.services.config.limits.title_seconds / 2)

    def frame_due(self, now: float) -> float | None:
        return self.deadline if self.warned else self.deadline - self._warn_before

    async def on_start(self) -> Transition:
        if self.session.charset_unsure and self.ask_charset:   # the terminal did not answer the probe
            self._ask(Stage.CHARSET)
        return None

    async def on_event(self, event: SessionEvent) -> Transition:
        now = time.monotonic()
        if now >= self.deadline:   # an idle title screen holds a node
            return Quit("You took too long to log in. Goodbye.")
        if now >= self.deadline - self._warn_before and not self.warned:
            self.warned = True
            self.message = f"Still there? The line is freed in {self._warn_before:.0f} s unless you type."
            self.session.terminal.bell()
        return None

    def _prompt(self) -> str:
        return {Stage.CHARSET: "Does the line above show lines, shades and card suits? (y/n) ",
                Stage.HANDLE: "Handle (new callers: pick one): ",
                Stage.PASSWORD: "Password: ",
                Stage.REGISTER: f"No caller named {self.handle}. Register? (y/n) ",
                Stage.NEW_PASSWORD: "Choose a password (6 or more characters): ",
                Stage.CONFIRM: "Type it once more: "}[self.stage]

    def _ask(self, stage: Stage, message: str = "") -> None:
        self.stage = stage
        self.message = message
        secret = stage in (Stage.PASSWORD, Stage.NEW_PASSWORD, Stage.CONFIRM)
        self.secret = secret
        self.input = LineInput(MAX_PASSWORD if secret else 20)

    async def on_key(self, key: str) -> Transition:
        self.deadline = time.monotonic() + self.session.services.config.limits.title_seconds
        if self.warned:
            self.warned = False
            self.message = ""
        if self.stage == Stage.CHARSET:        # one key: keep this charset, or switch and look again
            if key in ("y", "Y", K.ENTER):
                self._ask(Stage.HANDLE)
            elif key in ("n", "N"):
                self.session.set_charset("cp437" if self.session.charset == "utf8" else "utf8")
            return None
        if self.stage == Stage.REGISTER:
            if key in ("y", "Y"):
                self._ask(Stage.NEW_PASSWORD)
            elif key in ("n", "N", K.ESC):
                self._ask(Stage.HANDLE)
            return None
        result = self.input.handle(key)
        if result is None:
            if self.input.cancelled:
                self._ask(Stage.HANDLE)
            return None
        return await self._submit(result.strip() if self.stage == Stage.HANDLE else result)

    async def _submit(self, text: str) -> Transition:
        store = self.session.services.store
        if self.stage == Stage.HANDLE:
            handle = " ".join(text.split())
            reason = valid_handle(handle, self.session.services.config.sysop.name)
            if reason:
                self._ask(Stage.HANDLE, reason)
                return None
            self.handle = handle
            banned = await self.session.services.accounts.refusal(handle, self.session.conn.peer)
            if banned is not None:
                return Quit(banned)
            self.user = await store.get_user(handle)
            reason = await telnet_refusal(store, handle, self.user)
            if reason:
                self.user = None
                self._ask(Stage.HANDLE, reason)
                return None
            if self.user is None and not self.session.services.limits.may_register(self.session.conn.peer):
                self._ask(Stage.HANDLE, "No more new accounts from your address this hour: log in "
                          "with your handle, or call again later.")
                return None
            self._ask(Stage.PASSWORD if self.user else Stage.REGISTER)
            if self.user:
                self.handle = self.user.handle
        elif self.stage == Stage.PASSWORD:
            assert self.user is not None
            guard, peer = self.session.services.login_guard, self.session.conn.peer
            wait = guard.wait_for(peer, self.user.handle)
            if wait > 0:     # the password is not even checked
                self._ask(Stage.HANDLE, f"Too many failed logins: try again in {math.ceil(wait)} s.")
                return None
            ok = await asyncio.to_thread(check_password, text, self.user.pw_salt, self.user.pw_hash)
            if ok:
                return await self._logged_in()
            guard.failed(peer, self.user.handle)
            self.failures += 1
            if self.failures >= MAX_FAILURES:
                return Quit("Too many failed attempts. Goodbye.")
            await asyncio.sleep(self.session.services.config.timing.login_fail_delay * 2 ** (self.failures - 1))
            self._ask(Stage.HANDLE, "Wrong password.")
        elif self.stage == Stage.NEW_PASSWORD:
            if len(text) < 6:
                self._ask(Stage.NEW_PASSWORD, "Too short: at least 6 characters.")
                return None
            self.password = text
            self._ask(Stage.CONFIRM)
        elif self.stage == Stage.CONFIRM:
            if text != self.password:
                self._ask(Stage.NEW_PASSWORD, "The two did not match. Try again.")
                return None
            if (await store.get_user(self.handle) is not None
                    or await store.lookalike(self.handle) is not None):
                self._ask(Stage.HANDLE, "Somebody just took that handle.")
                return None
            salt, digest = await asyncio.to_thread(hash_password, text)
            if not self.session.services.limits.may_register(self.session.conn.peer):
                self._ask(Stage.HANDLE, "No more new accounts from your address this hour.")
                return None
            try:
                self.user = await store.create_user(self.handle, salt, digest, self.session.charset)
            except WriteFailed as exc:
                self._ask(Stage.HANDLE, f"Your account could not be created: {exc.why}. "
                                    "Please try again later.")
                return None
            self.session.services.limits.registered(self.session.conn.peer)
            return await self._logged_in()
        return None

    async def _logged_in(self) -> Transition:
        """The password was right, or the account was just made: the guard
        clears the account's count and knows this address (``LoginGuard``)."""
        assert self.user is not None
        await self.session.services.login_guard.logged_in(self.session.conn.peer, self.user.handle)
        return await after_login(self.session, self.user, self._back)

    def _back(self, message: str) -> Transition:
        """Back to the handle prompt (the caller would not end their other session)."""
        return Replace(TitleScreen(self.session, message, ask_charset=False))

    def draw(self, canvas: Canvas, now: float) -> tuple[int, int] | None:
        state = self.session.services.config.paths.state_dir
        plain = self.session.terminal.plain
        if plain:                              # art in ASCII is rows of # and ?: a name is enough
            canvas.text(2, 19, "GATEHOUSE", WHITE)
        else:
            canvas.blit(title_art(state))      # the sysop's title.ans, cut to 80x20, or ours
        canvas.fill(0, 20, 80, 4)
        how = "in your browser" if self.session.origin == Origin.WEB else "by telnet"
        canvas.text(2, 20, footer_line(state) or WELCOME.format(how=how), BRIGHT_CYAN)
        if self.message:
            canvas.text(2, 21, shorten(self.message, 76), BRIGHT_RED)
        prompt = self._prompt()
        canvas.text(2, 22, prompt, YELLOW)
        if self.stage == Stage.CHARSET:
            canvas.text(2, 21, CHARSET_TEST_LINE, WHITE)
            canvas.text(2, 23, f"n switches to the other character set (now {CHARSET_NAMES[self.session.charset]})",
                        DARK_GREY)
            return (2 + len(prompt), 22)
        if self.stage == Stage.REGISTER:
            return (2 + len(prompt), 22)
        x = 2 + len(prompt)
        if not plain:                          # (plain text is ASCII whatever the charset)
            canvas.text(2, 23, f"Node {self.session.node}  charset {self.session.charset}", DARK_GREY)
        if self.secret:    # a password never leaves the server, not even its letters
            canvas.text(x, 22, "*" * len(self.input.text), WHITE)
            return (x + self.input.pos, 22)
        return self.input.draw(canvas, x, 22, 78 - x, WHITE, 0)


async def telnet_refusal(store: Store, handle: str, user: UserRow | None) -> str | None:
    """Why a telnet caller may not use ``handle`` (None: they may): not the
    account of a BBS caller, the sysop or the computer, not a new
    ``[TAG]Name``, not a look-alike of an existing handle."""
    if user is not None:
        if user.kind == AccountKind.BBS:
            return "That handle belongs to a caller from a BBS: they come in through their BBS."
        return None if user.kind == AccountKind.TELNET else "That handle is reserved."
    if handle.startswith("["):
        return "Handles starting with [ are kept for callers from BBSes."
    other = await store.lookalike(handle)
    if other is not None:
        return f"That handle looks too much like {other}: please pick another."
    return None


async def enter_as(session: Session, handle: str, kind: AccountKind = AccountKind.BBS) -> Screen:
    """A caller handed over by a trusted BBS (RLogin; checked by
    ``server.bbs_accounts`` first): no password asked, and the account is of
    that kind only. If it is logged in on another node, the caller is asked
    whether to end that session (no: goodbye). A banned caller is told
    so and the line closes."""
    user = await account_for(session, handle, kind)
    transition = await after_login(session, user, lambda message: Quit(f"{message} Goodbye."))
    if isinstance(transition, Quit):
        return Farewell(session, transition.message)
    assert isinstance(transition, Replace)
    return transition.screen


class Farewell(Screen):
    """A first screen that only says ``message`` and ends the call."""
    location = "logging in"

    def __init__(self, session: Session, message: str):
        super().__init__(session)
        self.message = message

    async def on_start(self) -> Transition:
        return Quit(self.message)


async def account_for(session: Session, handle: str, kind: AccountKind) -> UserRow:
    """The account of a caller whose BBS (or the console's socket) vouches
    for them, made if new; it must be of ``kind`` (the sysop's may be any)."""
    store = session.services.store
    user = await store.get_user(handle)
    if user is None:
        # nobody ever types a password for these: no password works
        user = await store.create_user(handle, b"", b"", session.charset, kind=kind)
    elif user.kind != kind and kind != AccountKind.SYSOP:
        raise PermissionError(f"{handle} is a {user.kind} account, not a {kind} account")
    return user

