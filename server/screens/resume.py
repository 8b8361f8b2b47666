"""After login: offer to resume the caller's unfinished games."""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ansi.canvas import BLUE, BRIGHT_GREEN, DARK_GREY, WHITE, YELLOW, Canvas
from ansi.keys import ESC
from server.screens.match_screen import MatchScreen
from server.screens.session import Pop, Push, Replace, Screen, Transition
from server.screens.turns import turns_line
from server.services.match import Match
from server.services.nodes import LOBBY
from server.services.seats import SeatKind

if TYPE_CHECKING:
    from server.screens.session import Session

__all__ = ["ResumeScreen"]


class ResumeScreen(Screen):
    location = LOBBY

    def __init__(self, session: Session, pending: list[Match],
                 then: Callable[[], Screen] | None = None, names: set[str] | None = None):
        super().__init__(session)
        self.pending = pending
        self.then = then      # the screen to open when done; None: back to the one below
        # the seat names that are this session's (a console attached as
        # "Sysop#2" while the dropped "Sysop" was still going takes its seat)
        self.names = {n.casefold() for n in (names or {session.handle})}

    def _done(self) -> Transition:
        return Pop(None) if self.then is None else Replace(self.then())

    def _current(self) -> Match | None:
        while self.pending and (self.pending[0].ended or self.pending[0].seat_of(self.session) is not None):
            self.pending.pop(0)
        return self.pending[0] if self.pending else None

    def _open_seat(self, match: Match) -> int | None:
        """The empty seat of ``match`` that is this session's, if the game still waits."""
        if match.ended:
            return None
        return next((s.player for s in match.seats if s.kind == SeatKind.HUMAN and s.session is None
                     and s.name.casefold() in self.names), None)

    async def on_key(self, key: str) -> Transition:
        # the game on screen (the head as last drawn: not skipped past unseen)
        match = self.pending[0] if self.pending else None
        if match is None:
            return self._done()
        if key in ("y", "Y"):
            self.pending.pop(0)
            player = self._open_seat(match)
            if player is None:       # it ended, or somebody took the seat since it was drawn
                self.session.show_notice(f"That game of {match.info.title} is no longer waiting "
                                         "for you.")
                return self._done()
            match.attach(player, self.session)
            return Push(MatchScreen(self.session, match, player))
        if key in ("n", "N", ESC):
            self.pending.pop(0)
            if self._current() is None:
                return self._done()
        return None

    async def on_result(self, result: object) -> Transition:
        if self._current() is None:
            return self._done()
        return None

    def draw(self, canvas: Canvas, now: float) -> tuple[int, int] | None:
        canvas.fill(0, 0, 80, 1, " ", WHITE, BLUE)
        canvas.text(1, 0, "GATEHOUSE · Welcome back", YELLOW, BLUE)
        match = self._current()
        if match is None:
            return None
        other = next((s.name for s in match.seats if s.name.casefold() not in self.names), "?")
        canvas.text(3, 4, f"You have an unfinished game of {match.info.title} against {other}",
                    WHITE)
        moves = match.state.moves_played()           # game moves, not setup placements
        canvas.text(3, 5, f"({moves} move{'' if moves == 1 else 's'} so far).", WHITE)
        canvas.text(3, 8, "Resume it now? (y/n)", BRIGHT_GREEN)
        if len(self.pending) > 1:
            canvas.text(3, 10, f"{len(self.pending) - 1} more unfinished game(s) after this one:",
                        DARK_GREY)
            for i, later in enumerate(self.pending[1:9]):
                who = next((s.name for s in later.seats if s.name.casefold() not in self.names), "?")
                played = later.state.moves_played()
                canvas.text(5, 12 + i, f"{later.info.title} against {who} "
                                       f"({played} move{'' if played == 1 else 's'})", DARK_GREY)
        waiting = turns_line(self.session.services.matches.turns_waiting(self.session.handle))
        if waiting:
            canvas.text(3, 21, f"{waiting} by turns: press t in the lobby.", BRIGHT_GREEN)
        canvas.text(1, 23, "y resume  n not now (the game keeps waiting)", DARK_GREY)
        return (24, 8)
