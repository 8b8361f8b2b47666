"""My games by turns: the caller's correspondence games, with whose turn it
is and the time left; ENTER opens one to move (ESC leaves it waiting),
``t`` reads its whole chat thread."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ansi import keys as K
from ansi.canvas import BLUE, BRIGHT_CYAN, BRIGHT_GREEN, CYAN, DARK_GREY, GREY, WHITE, YELLOW, Canvas, shorten
from server.screens.match_screen import MatchScreen
from server.screens.pager import PagerScreen
from server.screens.session import Pop, Push, Screen, Transition
from server.services.match import Match

if TYPE_CHECKING:
    from server.screens.session import Session

__all__ = ["TurnsScreen", "turns_line"]

VISIBLE = 16


def turns_line(count: int) -> str:
    """What each call shows at login and in the lobby."""
    if count == 0:
        return ""
    return f"Your turn in {count} game{'s' if count != 1 else ''}"


class TurnsScreen(Screen):
    location = "by turns"          # the who list's; not the lobby: a challenge waits for the caller's return

    def __init__(self, session: Session):
        super().__init__(session)
        self.index = 0
        self.message = ""

    def _games(self) -> list[Match]:
        return self.session.services.matches.by_turns_of(self.session.handle)

    def _status(self, match: Match) -> tuple[str, int]:
        me = match.player_of(self.session.handle)
        movers = match.state.to_move()
        if me is not None and me in movers:
            return f"YOUR TURN, {match.time_left_text(me)}", BRIGHT_GREEN
        if len(movers) == 1:            # the opponent's: named in the column before
            return f"their turn, {match.time_left_text(movers[0])}", GREY
        return "", GREY

    async def on_key(self, key: str) -> Transition:
        self.message = ""
        games = self._games()
        if key in (K.ESC, "q", "Q"):
            return Pop(None)
        if not games:
            return None
        self.index = min(self.index, len(games) - 1)
        if key in (K.UP, K.DOWN):
            self.index = (self.index + (1 if key == K.DOWN else -1)) % len(games)
        elif key == K.ENTER:
            match = games[self.index]
            player = match.player_of(self.session.handle)
            if player is None or match.seats[player].session is not None:
                self.message = "That game is open on another screen."
                return None
            match.attach(player, self.session)
            self.session.notice = None      # "your turn in N games": being answered, not over the door's title
            return Push(MatchScreen(self.session, match, player))
        elif key in ("t", "T"):
            match = games[self.index]
            thread = await self.session.services.store.chat_thread(match.id)    # all of it, kept with the game
            lines = "\n".join(f"{who}: {text}" for who, text in thread) or "No messages yet."
            return Push(PagerScreen(self.session, f"GAME {match.id}: MESSAGES\n\n{lines}",
                                    f"Game {match.id} thread"))
        return None

    async def on_result(self, result: object) -> Transition:
        if isinstance(result, str):
            self.message = result
        return None

    def draw(self, canvas: Canvas, now: float) -> tuple[int, int] | None:
        canvas.fill(0, 0, 80, 1, " ", WHITE, BLUE)
        canvas.text(1, 0, "GATEHOUSE · My games by turns", YELLOW, BLUE)
        paused = " · clocks paused by the sysop" if self.session.services.matches.clock.paused else ""
        canvas.text(79 - len(paused), 0, paused, BRIGHT_CYAN, BLUE)
        games = self._games()
        canvas.box(0, 1, 80, 20, CYAN, title=turns_line(
            self.session.services.matches.turns_waiting(self.session.handle)) or "None waits for your move")
        canvas.text(2, 2, " Game Door         Opponent              Moves  Turn", DARK_GREY)
        if not games:
            canvas.text(3, 4, "You have no game by turns. In the lobby press p, choose a door, then", GREY)
            canvas.text(3, 5, "\"By turns with a caller (type a handle)\".", GREY)
        self.index = min(self.index, max(0, len(games) - 1))
        top = max(0, self.index - VISIBLE + 1)
        for row, match in enumerate(games[top:top + VISIBLE]):
            me = match.player_of(self.session.handle)
            other = match.names()[1 - me] if me is not None else "?"
            status, colour = self._status(match)
            line = (f" {match.id:>4} {shorten(match.info.title, 12):<12} {shorten(other, 20):<20} "
                    f"{match.info.state_class.count_moves(match.state.record())[0]:>6}  {status}")
            sel = top + row == self.index
            canvas.text(2, 3 + row, f"{shorten(line, 76):<76}", BLUE if sel else colour, CYAN if sel else 0)
        canvas.text(1, 22, self.message[:78], YELLOW)
        back = "ESC console" if self.session.is_sysop else "ESC lobby"
        keys = f"UP/DOWN choose  ENTER open  t messages  {back}" if games else back
        canvas.text(1, 23, keys, DARK_GREY)
        return None
