"""The hall of fame: one page per door with the top rated callers, the most
games and the longest win streaks, and the caller's own record there (won,
lost, drawn, and against each opponent). 80x24, every handle in full."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ansi import keys as K
from ansi.canvas import (
    BLUE,
    BRIGHT_CYAN,
    BRIGHT_GREEN,
    CYAN,
    DARK_GREY,
    GREY,
    WHITE,
    YELLOW,
    Canvas,
    shorten,
)
from doors import registry
from server.screens.history_screen import MyGamesScreen
from server.screens.session import Pop, Push, Screen, Transition
from server.services.records import MIN_RATED_GAMES, Hall, LeagueRow, Tally, bbs_league, hall_of_fame

if TYPE_CHECKING:
    from server.screens.session import Session

__all__ = ["HallOfFameScreen", "draw_leaders", "LEADER_ROWS", "LEADERS_RULE"]

LEADER_ROWS = 10
LEADERS_RULE = f"Leaders: rated games only, callers with {MIN_RATED_GAMES} or more of them."
NOBODY_YET = f"Nobody has {MIN_RATED_GAMES} rated games here yet: be the first!"
OPPONENT_ROWS = 4          # per column; two columns


def draw_leaders(canvas: Canvas, y: int, hall: Hall, me: str = "") -> int:
    """The three tables side by side from row ``y`` (columns 0-78); returns
    the row below them (no tables yet: a line that says so, no empty columns)."""
    if not (hall.top_rated or hall.most_games or hall.longest_streaks):
        canvas.text(4, y + 2, NOBODY_YET, DARK_GREY)
        return y + 1 + LEADER_ROWS
    canvas.text(0, y, f"   {'Top rated':<20} {'Rtg':>4}", BRIGHT_CYAN)
    canvas.text(29, y, f"{'Most games':<20} {'Gms':>4}", BRIGHT_CYAN)
    canvas.text(55, y, f"{'Longest win streak':<20} {'Won':>3}", BRIGHT_CYAN)
    key = me.casefold()
    for i in range(LEADER_ROWS):
        row = y + 1 + i
        canvas.text(28, row, "│", DARK_GREY)
        canvas.text(54, row, "│", DARK_GREY)
        if i < len(hall.top_rated):
            handle, rating, _dev = hall.top_rated[i]
            colour = YELLOW if handle.casefold() == key else GREY
            canvas.text(0, row, f"{i + 1:>2} {handle:<20} {rating:>4.0f}", colour)
        if i < len(hall.most_games):
            handle, games = hall.most_games[i]
            colour = YELLOW if handle.casefold() == key else GREY
            canvas.text(29, row, f"{handle:<20} {games:>4}", colour)
        if i < len(hall.longest_streaks):
            handle, wins = hall.longest_streaks[i]
            colour = YELLOW if handle.casefold() == key else GREY
            canvas.text(55, row, f"{handle:<20} {wins:>3}", colour)
    if not (hall.top_rated or hall.most_games):
        canvas.text(4, y + 2, NOBODY_YET, DARK_GREY)
    return y + 1 + LEADER_ROWS


def _tally(t: Tally) -> str:
    return f"{t.wins:>3} {t.losses:>3} {t.draws:>3}"


class HallOfFameScreen(Screen):
    location = "hall of fame"

    def __init__(self, session: Session, door_index: int = 0):
        super().__init__(session)
        self.doors = list(registry().values())
        self.index = min(max(0, door_index), len(self.doors) - 1)
        self.hall: Hall | None = None
        self.league: list[LeagueRow] = []
        self.pages = len(self.doors) + 1         # and BBS against BBS

    async def on_start(self) -> Transition:
        await self._load()
        return None

    async def _load(self) -> None:
        if self.index == len(self.doors):
            self.league = await bbs_league(self.session.services.store, [d.key for d in self.doors])
            return
        door = self.doors[self.index].key
        self.hall = await hall_of_fame(self.session.services.store, door, self.session.handle,
                                       LEADER_ROWS)

    async def on_key(self, key: str) -> Transition:
        before = self.index
        if key in (K.RIGHT, K.TAB, " "):
            self.index = (self.index + 1) % self.pages
        elif key == K.LEFT:
            self.index = (self.index - 1) % self.pages
        elif key in ("b", "B"):
            self.index = len(self.doors)
        elif key.isdecimal() and 1 <= int(key) <= len(self.doors):
            self.index = int(key) - 1
        elif key in ("m", "M"):
            return Push(MyGamesScreen(self.session))
        elif key in (K.ESC, "q", "Q", K.ENTER):
            return Pop(None)
        if self.index != before:
            await self._load()
        return None

    def draw(self, canvas: Canvas, now: float) -> tuple[int, int] | None:
        league = self.index == len(self.doors)
        title = "BBS against BBS" if league else self.doors[self.index].title
        canvas.fill(0, 0, 80, 1, " ", WHITE, BLUE)
        canvas.text(1, 0, "GATEHOUSE", YELLOW, BLUE)
        canvas.text(11, 0, f"· Hall of Fame · {title}", WHITE, BLUE)
        x = 1
        labels = [f" {i + 1} {door.title} " for i, door in enumerate(self.doors)] + [" b BBSes "]
        for i, label in enumerate(labels):
            if i == self.index:
                canvas.text(x, 1, label, WHITE, BLUE)
            else:
                canvas.text(x, 1, label, CYAN)
            x += len(label) + 1
        if league:
            self._draw_league(canvas)
            return None
        info = self.doors[self.index]
        if self.hall is None:
            return None
        canvas.text(1, 2, LEADERS_RULE, DARK_GREY)
        self._draw_mine(canvas, draw_leaders(canvas, 3, self.hall, self.session.handle) + 1,
                        info.title)
        canvas.text(1, 23, f"1-{len(self.doors)} or LEFT/RIGHT another door   b BBS against BBS   "
                           "m my games   ESC back", DARK_GREY)
        return None

    def _draw_league(self, canvas: Canvas) -> None:
        """Games between callers of different BBSes, won by each BBS."""
        canvas.text(2, 3, "Games between callers of different BBSes (every door)", BRIGHT_GREEN)
        canvas.text(2, 5, f"   {'BBS':<12} {'Games':>5} {'Won':>5} {'Lost':>5} {'Drawn':>5}", BRIGHT_CYAN)
        for i, row in enumerate(self.league[:LEADER_ROWS + 5]):
            canvas.text(2, 6 + i, f"{i + 1:>2} {row.tag:<12} {row.games:>5} {row.won:>5} "
                                  f"{row.lost:>5} {row.drawn:>5}", GREY)
        if not self.league:
            canvas.text(2, 7, "No games between callers of two BBSes yet.", DARK_GREY)
        canvas.text(1, 23, f"1-{len(self.doors)} or LEFT/RIGHT a door   m my games   ESC back", DARK_GREY)

    def _draw_mine(self, canvas: Canvas, y: int, title: str) -> None:
        hall = self.hall
        assert hall is not None
        canvas.box(0, y, 80, 23 - y, CYAN, title=shorten(f"Your record in {title}", 60))
        mine = hall.mine or Tally()
        rating = self.session.services.ratings.get(self.session.handle, hall.door)
        rated = f"rating {rating.rating:.0f} (±{rating.deviation:.0f})" if rating else "not rated yet"
        canvas.text(2, y + 1, f"Won {mine.wins}  lost {mine.losses}  drawn {mine.draws}   "
                              f"{rated}   longest win streak {hall.my_streak}", BRIGHT_GREEN)
        if not hall.my_opponents:
            canvas.text(2, y + 3, "You have no finished games here yet.", DARK_GREY)
            return
        for col in (0, 1):
            canvas.text(2 + col * 39, y + 2, f"{'Against':<20}  Won Lst Drw", DARK_GREY)
        shown = hall.my_opponents[:2 * OPPONENT_ROWS]
        for i, (name, tally) in enumerate(shown):
            col, row = divmod(i, OPPONENT_ROWS)
            canvas.text(2 + col * 39, y + 3 + row, f"{name:<20} {_tally(tally)}", GREY)
        more = len(hall.my_opponents) - len(shown)
        if more > 0:
            canvas.text(50, 22, f" and {more} more opponents ", DARK_GREY)
