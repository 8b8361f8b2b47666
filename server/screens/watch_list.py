"""Games in progress between two callers, to watch (w in the lobby). A
watcher takes a watcher's seat in the match (``Match.watch``) and sees the
door's spectator view: what both players may see, everything at the end."""
from __future__ import annotations

from ansi import keys as K
from ansi.canvas import BLUE, BRIGHT_CYAN, BRIGHT_GREEN, DARK_GREY, GREY, WHITE, YELLOW, Canvas, shorten
from server.screens.match_screen import MatchScreen
from server.screens.session import Pop, Replace, Screen, Transition
from server.services.match import Match
from server.services.seats import SeatKind

__all__ = ["WatchListScreen", "watchable"]

ROWS = 9


def watchable(matches: list[Match], handle: str) -> list[Match]:
    """Live games between two callers that ``handle`` does not play in."""
    return [m for m in matches
            if m.turns is None and not m.ended and all(s.kind == SeatKind.HUMAN for s in m.seats)
            and m.player_of(handle) is None]


class WatchListScreen(Screen):
    location = "lobby"
    refresh_every = 5.0           # games start and end elsewhere

    def _games(self) -> list[Match]:
        return watchable(self.session.services.matches.playing(), self.session.handle)[:ROWS]

    async def on_key(self, key: str) -> Transition:
        if key in (K.ESC, "q", "Q"):
            return Pop()
        if key.isdecimal():
            games = self._games()
            number = int(key) - 1
            if 0 <= number < len(games):
                match = games[number]
                match.watch(self.session)
                return Replace(MatchScreen(self.session, match, None))
        return None

    def draw(self, canvas: Canvas, now: float) -> tuple[int, int] | None:
        canvas.fill(0, 0, 80, 1, " ", WHITE, BLUE)
        canvas.text(1, 0, "GATEHOUSE", YELLOW, BLUE)
        canvas.text(11, 0, "· Watch a game", WHITE, BLUE)
        games = self._games()
        canvas.text(2, 2, "Games in progress between two callers:", BRIGHT_CYAN)
        for i, match in enumerate(games):
            a, b = match.names()
            moves = len(match.state.history)
            watching = len(match.watching())
            extra = f" · {watching} watching" if watching else ""
            canvas.text(4, 4 + i * 2, f"{i + 1}", BRIGHT_GREEN)
            canvas.text(7, 4 + i * 2, shorten(f"{match.info.title}: {a} vs {b}", 47), WHITE)
            canvas.text(56, 4 + i * 2, shorten(f"{moves} actions{extra}", 23), GREY)
        if not games:
            canvas.text(4, 4, "Nobody is playing another caller right now.", GREY)
        canvas.text(2, 22, "Hidden information stays hidden: you see what both players may see,", DARK_GREY)
        canvas.text(2, 23, shorten("and everything once the game is over.  1-9 watch  ESC back", 77), DARK_GREY)
        return None
