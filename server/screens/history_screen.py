"""A caller's "My games": their finished games, newest first, with the
result and what each did to their rating; ENTER replays the chosen game
move by move (the same replay as ``gatehouse replay``)."""
from __future__ import annotations

import time
from typing import TYPE_CHECKING

from ansi import keys as K
from ansi.canvas import BLUE, BRIGHT_CYAN, BRIGHT_GREEN, BRIGHT_RED, DARK_GREY, GREY, WHITE, YELLOW, Canvas, shorten
from doors import registry
from server.screens.replay import replay_canvases
from server.screens.session import Pop, Push, Screen, Transition
from server.services.records import HistoryRow, history

if TYPE_CHECKING:
    from ansi.canvas import Canvas as CanvasT
    from server.screens.session import Session
    from server.services.store import GameRow

__all__ = ["MyGamesScreen", "ReplayScreen", "history_line"]

VISIBLE = 19           # list rows on screen (rows 3-21)
RESULT_COLOUR = {"won": BRIGHT_GREEN, "lost": BRIGHT_RED, "draw": YELLOW, "aborted": DARK_GREY}


def history_line(row: HistoryRow, seat: int) -> str:
    """One game as the caller in ``seat`` sees it (76 columns)."""
    info = registry().get(row.door)
    title = info.title if info is not None else row.door
    when = time.strftime("%Y-%m-%d", time.localtime(row.ended))
    return (f"{row.id:>5} {title[:12]:<12} {row.names[1 - seat][:20]:<20} "
            f"{row.result_for(seat):<7} {row.change(seat):<16} {when}")


class MyGamesScreen(Screen):
    location = "my games"

    def __init__(self, session: Session):
        super().__init__(session)
        self.rows: list[HistoryRow] = []
        self.selected = 0
        self.top = 0
        self.message = ""

    async def on_start(self) -> Transition:
        self.rows = await history(self.session.services.store, handle=self.session.handle, limit=500)
        return None

    async def on_key(self, key: str) -> Transition:
        n = len(self.rows)
        self.message = ""
        if key in (K.ESC, "q", "Q"):
            return Pop(None)
        if not n:
            return Pop(None) if key == K.ENTER else None
        moves = {K.UP: -1, K.DOWN: 1, K.PGUP: -VISIBLE, K.PGDN: VISIBLE, K.HOME: -n, K.END: n}
        if key in moves:
            self.selected = min(max(0, self.selected + moves[key]), n - 1)
            if self.selected < self.top:
                self.top = self.selected
            elif self.selected >= self.top + VISIBLE:
                self.top = self.selected - VISIBLE + 1
        elif key == K.ENTER:
            return await self._replay(self.rows[self.selected])
        return None

    async def _replay(self, row: HistoryRow) -> Transition:
        store = self.session.services.store
        game = await store.get_game(row.id)
        if game is None or game.door not in registry():
            self.message = f"Game {row.id} cannot be replayed here."
            return None
        try:
            screen = ReplayScreen(self.session, game, await store.moves(row.id),
                                  row.seat_of(self.session.handle))
        except Exception:
            self.message = f"The record of game {row.id} cannot be replayed."
            return None
        return Push(screen)

    def draw(self, canvas: Canvas, now: float) -> tuple[int, int] | None:
        canvas.fill(0, 0, 80, 1, " ", WHITE, BLUE)
        canvas.text(1, 0, "GATEHOUSE", YELLOW, BLUE)
        canvas.text(11, 0, f"· My games · {self.session.handle}", WHITE, BLUE)
        canvas.text(2, 2, f"{'Game':>5} {'Door':<12} {'Opponent':<20} {'Result':<7} "
                          f"{'Rating':<16} Ended", BRIGHT_CYAN)
        if not self.rows:
            canvas.text(2, 4, "You have no finished games yet. Press p in the lobby to play.", DARK_GREY)
        for i, row in enumerate(self.rows[self.top:self.top + VISIBLE]):
            index = self.top + i
            seat = row.seat_of(self.session.handle) or 0
            line = history_line(row, seat)
            if index == self.selected:
                canvas.fill(1, 3 + i, 78, 1, " ", WHITE, BLUE)
                canvas.text(2, 3 + i, line, WHITE, BLUE)
            else:
                canvas.text(2, 3 + i, line, GREY)
                canvas.text(42, 3 + i, row.result_for(seat), RESULT_COLOUR[row.result_for(seat)])
        if len(self.rows) > VISIBLE:
            canvas.text(60, 22, f"{self.selected + 1} of {len(self.rows)}", DARK_GREY)
        if self.message:
            canvas.text(1, 23, shorten(self.message, 78), BRIGHT_RED)
        else:
            canvas.text(1, 23, "UP/DOWN choose  ENTER replay  ESC back", DARK_GREY)
        return None


class ReplayScreen(Screen):
    """A recorded game, one position per key press."""
    location = "watching a replay"

    def __init__(self, session: Session, game: GameRow, moves: list[tuple[int, str]],
                 viewer: int | None = None):
        """``viewer``: the caller's seat in the game (they see their own army)."""
        super().__init__(session)
        self.frames: list[CanvasT] = list(replay_canvases(game, moves, viewer))
        self.index = 0

    async def on_key(self, key: str) -> Transition:
        last = len(self.frames) - 1
        if key in (K.RIGHT, " ", "n", K.ENTER, K.PGDN):
            self.index = min(last, self.index + 1)
        elif key in (K.LEFT, K.BACKSPACE, "p", K.PGUP):
            self.index = max(0, self.index - 1)
        elif key == K.HOME:
            self.index = 0
        elif key == K.END:
            self.index = last
        elif key in (K.ESC, "q", "Q"):
            return Pop(None)
        return None

    def draw(self, canvas: Canvas, now: float) -> tuple[int, int] | None:
        canvas.blit(self.frames[self.index])
        canvas.text(1, 21, "SPACE/RIGHT next  LEFT back  HOME/END first/last  ESC close", DARK_GREY)
        return None
