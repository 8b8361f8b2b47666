"""What reaches a sysop who is away from the console screen (in a game, in
help, in a chat): pages, challenges sent to them and callers coming and
going become a notice line on whatever screen they have open. The console
hooks this into its session (``Session.hooks``), so the screens underneath
need not know about it."""
from __future__ import annotations

from collections.abc import Callable

from doors import registry
from server.screens.session import Session, SessionEvent
from server.services import events as E
from server.services.board import ChallengeEvent, ChallengeState

__all__ = ["SysopNews", "CONSOLE_HELP"]

CONSOLE_HELP = """\
  h holds every by-turns clock (holidays): while held nobody loses on
  time and the held time is never charged; callers are told, and it
  survives a restart. m stays on the caller's screen until read, and goes
  into their chat log. S asks for the line callers read as the server
  stops (ENTER alone: "Gatehouse is shutting down for maintenance...").
  A's account tools (reset a password, ban with or without the address,
  unban, rename) are also on the command line: gatehouse user ...
  e erases the kept lobby lines and every open lobby's pane (logged).

IN A GAME
  The door's keys, plus the game keys (c chat, ? help, Q resign, = draw).
  q         step out to the console: the game waits for you (your opponent
            is told) and u on the console brings you back. Stay away longer
            than the forfeit time and you lose, as a caller would.
  ESC       (a game by turns) leave it: it waits for your next move (t).
  PGUP/PGDN page back and forth through the chat and messages.

  Pages, challenges sent to you and callers logging on or off show on the
  top line of any screen, within a second."""


class SysopNews:
    """Turns a console session's events into notice lines while the console
    screen is not on top (``at_console`` says whether it is)."""

    def __init__(self, session: Session, at_console: Callable[[], bool]):
        self.session = session
        self.at_console = at_console
        self.known = self._online()

    def _online(self) -> dict[str, int]:
        return {s.handle: int(s.node) for s in self.session.services.nodes.online()
                if s is not self.session and s.handle}

    def __call__(self, item: SessionEvent) -> None:
        if isinstance(item, E.NodesChanged):
            now = self._online()
            came = [h for h in now if h not in self.known]
            went = [h for h in self.known if h not in now]
            self.known = now
            if self.at_console() or not (came or went):
                return
            parts = [f"{h} logged on (node {now[h]})" for h in came] + [f"{h} logged off" for h in went]
            self.session.show_notice("; ".join(parts) + ".")
            return
        if self.at_console():
            return
        if isinstance(item, E.Page):
            self.session.terminal.bell()
            self.session.show_notice(f"Page from {item.handle}: {item.reason}")
        elif isinstance(item, ChallengeEvent):
            ch = item.challenge
            if ch.target == self.session.handle and ch.state == ChallengeState.OPEN:
                self.session.terminal.bell()
                title = registry()[ch.door].title
                self.session.show_notice(f"{ch.challenger} challenges you to {title}: "
                                         "answer it on the console.")      # (the key line says how)
