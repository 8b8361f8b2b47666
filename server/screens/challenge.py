"""Making a challenge: choose a door, an opponent and the options. Against
a caller the game is live (the callers in the lobby, now) or by turns
("By turns with a caller": type any caller's handle, on or not, and choose
a time per move; the challenge waits for their next call)."""
from __future__ import annotations

import dataclasses
import enum
from typing import TYPE_CHECKING

from ansi import keys as K
from ansi.canvas import BLUE, BRIGHT_CYAN, BRIGHT_GREEN, CYAN, DARK_GREY, GREY, WHITE, YELLOW, Canvas, shorten, wrap
from ansi.widgets import LineInput
from doors._core.door import DoorInfo, OptionSpec
from server.screens.editor_screen import ToolScreen
from server.screens.match_screen import start_match
from server.screens.session import Pop, Push, Replace, Screen, Transition
from server.services.nodes import CONSOLE, LOBBY
from server.services.seats import Seat, SeatKind, watch_names
from server.services.store import AccountKind
from server.services.turn_clock import DAY, MOVE_DAYS

if TYPE_CHECKING:
    from server.screens.session import Session

__all__ = ["ChallengeScreen", "ChallengeOffer", "COMPUTER", "WATCH", "SYSOP"]

COMPUTER = "The computer"
WATCH = "Watch the computer play itself"
SYSOP = "The sysop"             # when a sysop console is open and available
BY_NAME = "By turns with a caller (type a handle)"   # anybody with an account, on or not


@dataclasses.dataclass(frozen=True)
class ChallengeOffer:
    """What the wizard hands back to the screen below: the challenge to
    offer on the board."""
    target: str
    door: str
    options: dict[str, object]      # the door's option values, by key
    move_seconds: float = 0.0       # > 0: by turns, with this time per move



class Step(enum.Enum):
    """The new-game screen's steps."""
    DOOR = "door"
    OPPONENT = "opponent"
    NAME = "name"                  # the by-turns opponent's handle, typed
    OPTIONS = "options"

class ChallengeScreen(Screen):
    location = LOBBY

    def __init__(self, session: Session, door: str | None = None):
        super().__init__(session)
        self.doors: list[DoorInfo] = list(session.services.matches.doors.values())
        self.step = Step.DOOR
        self.index = 0
        self.info: DoorInfo | None = None
        self.opponents: list[str] = []
        self.opponent = ""
        self.values: dict[str, object] = {}
        self.level = 0
        self.level2 = 0                  # player 2's level when the computer plays itself
        self.by_turns = False           # the opponent was typed by name: by turns
        self.days = MOVE_DAYS[1]
        self.pace = False               # the opponent was chosen before: an options row says live or by turns
        self.live_ok = True             # (with ``pace``) the opponent is in the lobby: live is offered
        self.name_input = LineInput(20)
        self.message = ""
        if door is not None and door in session.services.matches.doors:
            self.info = session.services.matches.doors[door]
            self._to_opponent()

    def _to_opponent(self) -> None:
        app = self.session.services
        callers = [s.handle for s in app.nodes.online()
                   if s is not self.session and s.location == LOBBY]
        sysop = [SYSOP] if self._sysop() is not None else []
        self.opponents = [COMPUTER] + callers + sysop + [BY_NAME, WATCH]
        self.step, self.index = Step.OPPONENT, 0

    def _sysop(self) -> Session | None:
        """The sysop console to challenge, if the sysop is available."""
        app = self.session.services
        if not app.nodes.sysop_available:
            return None
        sysops = [s for s in app.nodes.sysops() if s is not self.session]
        # one at the console first; one in a game hears of it and answers on the console
        return next((s for s in sysops if s.location == CONSOLE), sysops[0] if sysops else None)

    def _rows(self) -> list[tuple[str, OptionSpec | str]]:
        """The option rows: (label, spec or "level" or "go")."""
        assert self.info is not None
        rows: list[tuple[str, OptionSpec | str]] = [(spec.label, spec) for spec in self.info.specs()]
        if self.opponent == COMPUTER:
            rows.append(("Computer level", "level"))
        elif self.opponent == WATCH:      # each side its own level
            rows += [("Player 1 level", "level"), ("Player 2 level", "level2")]
        elif self.pace:
            rows.append(("Play", "pace"))
        elif self.by_turns:
            rows.append(("Time per move", "days"))
        rows.append(("Start game" if self.opponent in (COMPUTER, WATCH) else "Send challenge", "go"))
        return rows

    def _cycle(self, row: OptionSpec | str, step: int) -> None:
        assert self.info is not None
        if row == "days":
            self.days = MOVE_DAYS[(MOVE_DAYS.index(self.days) + step) % len(MOVE_DAYS)]
        elif row == "pace":             # live (0, if the opponent is in the lobby), or days a move
            paces = ([0] if self.live_ok else []) + list(MOVE_DAYS)
            now = paces[(paces.index(self.days if self.by_turns else 0) + step) % len(paces)]
            self.by_turns = now > 0
            self.days = now or self.days
        elif row in ("level", "level2"):
            low, high = self.info.levels
            now = self.level if row == "level" else self.level2
            now = low + (now - low + step) % (high - low + 1)
            if row == "level":
                self.level = now
            else:
                self.level2 = now
        elif isinstance(row, OptionSpec):
            values = [v for v, _ in row.choices]
            current = self.values.get(row.key, row.default)
            self.values[row.key] = values[(values.index(current) + step) % len(values)]

    async def on_key(self, key: str) -> Transition:
        self.message = ""
        if self.step == Step.NAME:
            return await self._name_key(key)
        if key == K.ESC:
            if self.step == Step.DOOR:
                return Pop(None)
            back = self.step == Step.OPPONENT or self.pace      # a chosen opponent is not asked for again
            self.step, self.index = (Step.DOOR if back else Step.OPPONENT), 0
            return None
        count = {Step.DOOR: len(self.doors), Step.OPPONENT: len(self.opponents),
                 Step.OPTIONS: len(self._rows()) if self.info else 0}[self.step]
        if key in (K.UP, K.DOWN, K.TAB):     # (TAB: the next line, for a terminal with no arrows)
            self.index = (self.index + (-1 if key == K.UP else 1)) % max(1, count)
            return None
        if self.step == Step.OPTIONS and key in (K.LEFT, K.RIGHT, " "):
            self._cycle(self._rows()[self.index][1], -1 if key == K.LEFT else 1)
            return None
        editor = self.doors[self.index].editor if self.step == Step.DOOR else None
        if key == "e" and editor is not None:
            info = self.doors[self.index]
            author = None if self.session.is_sysop else self.session.handle    # the sysop's: any board
            return Push(ToolScreen(self.session, editor(author), f"{info.title} {info.editor_title}"))
        if key.isdecimal() and 1 <= int(key) <= count and self.step != Step.OPTIONS:
            self.index = int(key) - 1
            key = K.ENTER
        if key != K.ENTER:
            return None
        if self.step == Step.DOOR:
            self.info = self.doors[self.index]
            self._to_opponent()
        elif self.step == Step.OPPONENT:
            if self.opponents[self.index] == BY_NAME:
                self.step, self.name_input = Step.NAME, LineInput(20)
                return None
            self.by_turns = False
            self._to_options(self.opponents[self.index])
        else:
            return await self._go()         # ENTER starts from any line
        return None

    def _to_options(self, opponent: str) -> None:
        self.opponent = opponent
        assert self.info is not None
        self.values = {spec.key: spec.default for spec in self.info.specs()}
        self.level = self.level2 = self.info.default_level
        self.step, self.index = Step.OPTIONS, 0

    async def _name_key(self, key: str) -> Transition:
        """The by-turns opponent's handle being typed."""
        text = self.name_input.handle(key)
        if self.name_input.cancelled:
            self.step, self.name_input = Step.OPPONENT, LineInput(20)
            return None
        if text is None:
            return None
        name = " ".join(text.split())
        user = await self.session.services.store.get_user(name) if name else None
        if user is None or user.kind not in (AccountKind.TELNET, AccountKind.BBS):
            self.message = f"There is no caller called {name}." if name else ""
            self.name_input = LineInput(20)
            return None
        if user.handle.casefold() == self.session.handle.casefold():
            self.message = "You cannot challenge yourself."
            self.name_input = LineInput(20)
            return None
        self.by_turns = True
        self._to_options(user.handle)
        return None

    async def _go(self) -> Transition:
        assert self.info is not None
        me = self.session
        if self.by_turns:
            return Pop(ChallengeOffer(self.opponent, self.info.key, dict(self.values),
                                      move_seconds=self.days * DAY))
        if self.opponent == COMPUTER:
            seats = [Seat(0, SeatKind.HUMAN, me.handle, session=me),
                     Seat(1, SeatKind.BOT, f"Computer ({self.level})", self.level)]
            return Replace(await start_match(me, self.info, self.values, seats))
        if self.opponent == WATCH:
            names = watch_names(self.level, self.level2)
            seats = [Seat(0, SeatKind.BOT, names[0], self.level),
                     Seat(1, SeatKind.BOT, names[1], self.level2)]
            return Replace(await start_match(me, self.info, self.values, seats))
        app = me.services
        sysop = self._sysop() if self.opponent == SYSOP else None
        target = sysop.handle if sysop is not None else self.opponent
        if app.nodes.find(target) is None:
            self.message = f"{self.opponent} has left."
            return None
        return Pop(ChallengeOffer(target, self.info.key, dict(self.values)))

    async def on_result(self, result: object) -> Transition:
        self.message = result if isinstance(result, str) else ""      # back from a door's tool
        return None

    def draw(self, canvas: Canvas, now: float) -> tuple[int, int] | None:
        canvas.fill(0, 0, 80, 1, " ", WHITE, BLUE)
        canvas.text(1, 0, "GATEHOUSE · New game", YELLOW, BLUE)
        canvas.box(2, 2, 76, 18, CYAN)
        if self.step == Step.DOOR:
            canvas.text(5, 3, "Choose a door:", WHITE)
            for i, info in enumerate(self.doors):
                sel = i == self.index
                canvas.text(5, 5 + i * 2, f" {i + 1}. {info.title:<14}", BLUE if sel else BRIGHT_GREEN,
                            CYAN if sel else 0)
                blurb = wrap(info.blurb, 51)      # two rows per door: the box ends at column 77
                if len(blurb) > 2:
                    blurb = [blurb[0], shorten(" ".join(blurb[1:]), 51)]
                for j, line in enumerate(blurb):
                    canvas.text(25, 5 + i * 2 + j, line, GREY)
        elif self.step == Step.NAME:
            canvas.text(5, 3, "By turns: the challenge waits for the caller's next call.", WHITE)
            canvas.text(5, 5, "Handle: ", YELLOW)
            cursor = self.name_input.draw(canvas, 13, 5, 22, WHITE, 0)
            canvas.text(2, 21, shorten(self.message, 76), YELLOW)
            canvas.text(1, 23, "Type the caller's handle, ENTER to go on, ESC back", DARK_GREY)
            return cursor
        elif self.step == Step.OPPONENT:
            assert self.info is not None
            canvas.text(5, 3, f"{self.info.title}: choose your opponent", WHITE)
            for i, name in enumerate(self.opponents[:14]):
                sel = i == self.index
                canvas.text(5, 5 + i, f" {i + 1:>2}. {name:<32}", BLUE if sel else BRIGHT_CYAN,
                            CYAN if sel else 0)
        else:
            assert self.info is not None
            pace = " by turns" if self.by_turns else ""
            title = (f"{self.info.title}: the computer plays itself - options"
                     if self.opponent == WATCH
                     else f"{self.info.title} against {self.opponent}{pace}: options")
            canvas.text(5, 3, shorten(title, 71), WHITE)
            for i, (label, row) in enumerate(self._rows()):
                sel = i == self.index
                if isinstance(row, OptionSpec):
                    value = row.label_of(self.values.get(row.key, row.default))
                elif row in ("level", "level2"):
                    low, high = self.info.levels
                    level = self.level if row == "level" else self.level2
                    value = f"{level}  ({low} weakest, {high} strongest)"
                elif row == "days":
                    value = f"{self.days} day{'s' if self.days != 1 else ''} a move"
                elif row == "pace":
                    value = (f"by turns, {self.days} day{'s' if self.days != 1 else ''} a move"
                             if self.by_turns else "live, now")
                else:
                    value = ""
                canvas.text(5, 5 + i * 2, f" {label:<22}", BLUE if sel else YELLOW, CYAN if sel else 0)
                if value:              # two rows per option, inside the box (it ends at column 77)
                    lines = wrap(value, 43)
                    if len(lines) > 2:
                        lines = [lines[0], shorten(" ".join(lines[1:]), 43)]
                    for j, line in enumerate(lines):       # one "<" before the value, one ">" after it
                        left = "< " if sel and j == 0 else "  "
                        right = " >" if sel and j == len(lines) - 1 else ""
                        canvas.text(29, 5 + i * 2 + j, left + line + right, WHITE)
        editor = self.step == Step.DOOR and self.doors[self.index].editor is not None
        hint = {Step.DOOR: "UP/DOWN or a digit to choose, ENTER to pick, ESC back"
                        + ("  e: board editor" if editor else ""),
                Step.OPPONENT: "UP/DOWN or a digit, ENTER to pick, ESC back",
                Step.OPTIONS: "UP/DOWN/TAB: a line  LEFT/RIGHT/SPACE: change it  ENTER "
                           + ("starts the game" if self.opponent in (COMPUTER, WATCH)
                              else "sends the challenge")}
        canvas.text(2, 21, self.message, YELLOW)
        canvas.text(1, 23, hint[self.step], DARK_GREY)
        return None
