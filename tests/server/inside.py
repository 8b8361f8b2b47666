"""Helpers for tests that drive the real server over telnet and also read
its objects (a session, its screens, a match). Unit and server tests may
do so; end-to-end tests (tests/e2e) may not: they see only the wire."""
from __future__ import annotations

from typing import Any

from server.app import App
from tests.e2e.harness import DOWN, ENTER, UP, Caller, arrows_between, wait_until

__all__ = ["session_of", "challenge_computer", "play_towers_move"]


def session_of(app: App, handle: str) -> Any:
    """The server's session of a caller (tests read it; they type through telnet)."""
    session = app.find_session(handle)
    assert session is not None, f"{handle} is not online"
    return session


async def challenge_computer(caller: Caller, app: App, handle: str, title: str,
                             option_keys: str = "") -> Any:
    """From the lobby: p, the door by its title, the computer, options typed
    as keys on the options screen, then start. Returns the match."""
    caller.send("p")
    await caller.expect("Choose a door")
    doors = [info.title for info in session_of(app, handle).screens[-1].doors]
    caller.send(str(doors.index(title) + 1))
    await caller.expect("choose your opponent")
    caller.send("1")
    await caller.expect("options")
    screen = session_of(app, handle).screens[-1]
    rows = len(screen._rows())
    # the options keys move the selection down/up and change values; then as
    # many DOWNs as take it to the last row ("start"), all in typing order
    index = (option_keys.count(DOWN) - option_keys.count(UP)) % rows
    caller.send(option_keys + DOWN * (rows - 1 - index) + ENTER)
    await wait_until(lambda: hasattr(session_of(app, handle).screens[-1], "match"), what="game screen")
    return session_of(app, handle).screens[-1].match


async def play_towers_move(driver: Any, session: Any, match: Any, me: int, pick: int = 0) -> None:
    """One legal Towers move for seat ``me`` (legal action number ``pick``),
    typed by ``driver`` with arrows and Enter as a person would."""
    from doors.towers.rules import Move, Place
    ui = session.screens[-1].ui
    action = match.state.legal_actions(me)[pick]
    before = len(match.state.history)
    if isinstance(action, Place):
        driver.send(arrows_between(ui.cursor_sq, action.square, 8) + ENTER)
    else:
        assert isinstance(action, Move)
        driver.send(arrows_between(ui.cursor_sq, action.origin, 8) + ENTER)
        await wait_until(lambda: ui.selected == action.origin, what="selection")
        driver.send(arrows_between(action.origin, action.target, 8) + ENTER)
    await wait_until(lambda: len(match.state.history) > before, what="move applied")
