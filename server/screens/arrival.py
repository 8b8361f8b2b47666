"""After the caller is known (a password, a BBS's word): sign in, then the
lobby (or the unfinished games first).

One session per account: ``Session.sign_in`` claims the handle from the
node registry with no await between check and claim, so of callers racing
to log in as one account exactly one comes in.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from server.screens.lobby import LobbyScreen
from server.screens.resume import ResumeScreen
from server.screens.session import Replace, Transition
from server.screens.turns import turns_line

if TYPE_CHECKING:
    from server.screens.session import Session
    from server.services.store import UserRow

__all__ = ["after_login", "Back"]

# where a caller goes who does not come in, with the reason to show there
Back = Callable[[str], Transition]


async def after_login(session: Session, user: UserRow, back: Back) -> Transition:
    """Sign ``user`` in and go to the lobby (or resume); if the account is
    logged in on another node, go ``back``."""
    if session.sign_in(user) is not None:
        return back(f"{user.handle} is already logged in on another node.")
    await session.services.store.touch_login(user.id)
    waiting = turns_line(session.services.matches.turns_waiting(user.handle))
    if waiting:
        session.show_notice(f"{waiting}: press t in the lobby.")
    pending = session.services.matches.pending_for(user.handle)
    if pending:
        return Replace(ResumeScreen(session, pending, then=lambda: LobbyScreen(session)))
    return Replace(LobbyScreen(session))

