"""After the caller is known (a password, a BBS's word): sign in, or offer
to end the session that already holds the account, then the lobby (or the
unfinished games first).

One session per account: ``Session.sign_in`` claims the handle from the
node registry with no await between check and claim. A caller whose line
dropped without closing still holds it; after the password they may end
that session here (the registry's ``take_over``: its game is suspended as
on a dropped line, so nothing is lost) and come in. A session already
closing (its line gone, its game being suspended) is not asked about: the
new one waits until it is released.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ansi.canvas import BLUE, BRIGHT_GREEN, DARK_GREY, WHITE, YELLOW, Canvas
from ansi.keys import ESC
from server.screens.lobby import LobbyScreen
from server.screens.resume import ResumeScreen
from server.screens.session import Quit, Replace, Screen, Transition
from server.screens.turns import turns_line
from server.services.addresses import address_key
from server.services.store import AccountKind, WriteFailed

if TYPE_CHECKING:
    from server.screens.session import Session
    from server.services.store import UserRow

__all__ = ["after_login", "TakeoverScreen", "Back"]

# where a caller goes who does not come in, with the reason to show there
Back = Callable[[str], Transition]


async def after_login(session: Session, user: UserRow, back: Back) -> Transition:
    """Sign ``user`` in and go to the lobby (or resume); if the account is
    logged in on another node, ask first (``TakeoverScreen``). A banned
    caller is told so in one line and goes."""
    banned = await session.services.accounts.refusal(user.handle, session.conn.peer)
    if banned is not None:
        return Quit(banned)
    holder = session.sign_in(user)
    if holder is not None and holder.closed:
        # its line is gone and it is ending (a game it plays being
        # suspended): a caller who calls straight back is not asked about it
        await session.services.nodes.released(holder)
        holder = session.sign_in(user)
    if holder is not None:
        return Replace(TakeoverScreen(session, user, holder, back))
    # a password caller's address counts for the rating rules (a BBS's is the BBS's own)
    address = address_key(session.conn.peer) if user.kind == AccountKind.TELNET else None
    try:
        await session.services.store.touch_login(user.id, address)
    except WriteFailed:
        pass          # (logged by the store, shown on the console) the caller still comes in
    await session.services.messages.deliver_kept(session)
    pending = session.services.matches.pending_for(user.handle)
    if pending:             # the offer says it too, rather than a notice over the game resumed
        return Replace(ResumeScreen(session, pending, then=lambda: LobbyScreen(session)))
    waiting = turns_line(session.services.matches.turns_waiting(user.handle))
    if waiting:
        session.show_notice(f"{waiting}: press t in the lobby.")
    return Replace(LobbyScreen(session))


class TakeoverScreen(Screen):
    """"X is already logged in on node N. Disconnect that session and log
    in here? (y/n)": y ends the other session and logs this one in, n goes
    ``back``."""
    location = "logging in"

    def __init__(self, session: Session, user: UserRow, holder: Session, back: Back):
        super().__init__(session)
        self.user = user
        self.holder = holder
        self.node = holder.node
        self.back = back
        self.waiting = False

    async def on_key(self, key: str) -> Transition:
        if self.waiting:
            return None
        if key in ("y", "Y"):
            self.waiting = True
            self.session.flash(f"Disconnecting node {self.node}...")
            nodes = self.session.services.nodes
            if not await nodes.take_over(self.holder, self.session):
                return self.back(f"Node {self.node} did not let go of {self.user.handle}: "
                                 "try again in a moment.")
            return await after_login(self.session, self.user, self.back)
        if key in ("n", "N", ESC):
            return self.back(f"{self.user.handle} stays logged in on node {self.node}.")
        return None

    def draw(self, canvas: Canvas, now: float) -> tuple[int, int] | None:
        canvas.fill(0, 0, 80, 1, " ", WHITE, BLUE)
        canvas.text(1, 0, "GATEHOUSE · Log in", YELLOW, BLUE)
        canvas.text(3, 4, f"{self.user.handle} is already logged in on node {self.node}.", WHITE)
        question = "Disconnect that session and log in here? (y/n)"
        canvas.text(3, 6, question, BRIGHT_GREEN)
        canvas.text(3, 8, "If it is in a game, the game waits for you, as after a dropped line.", DARK_GREY)
        canvas.text(1, 23, "y disconnect it and log in here  n not now", DARK_GREY)
        return (4 + len(question), 6)
