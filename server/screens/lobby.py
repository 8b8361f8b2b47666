"""The lobby: who is online, the doors, challenges and the lobby chat."""
from __future__ import annotations

import random
import time
from typing import Any

from ansi import keys as K
from ansi.canvas import (
    BLUE,
    BOX_DOUBLE,
    BRIGHT_BLUE,
    BRIGHT_CYAN,
    BRIGHT_GREEN,
    BRIGHT_RED,
    CYAN,
    DARK_GREY,
    GREY,
    WHITE,
    YELLOW,
    Canvas,
)
from ansi.widgets import ChatPane, LineInput
from doors import registry
from server.screens.challenge import ChallengeOffer, ChallengeScreen
from server.screens.match_screen import MatchScreen, start_match
from server.screens.pager import PagerScreen
from server.screens.resume import ResumeScreen
from server.screens.session import Push, Quit, Screen, Session, Transition
from server.screens.settings import SettingsScreen
from server.services import events as E
from server.services.board import Challenge, ChallengeEvent, ChallengeState
from server.services.chat import RateLimit
from server.services.match import MatchEvent, News
from server.services.nodes import LOBBY
from server.services.seats import Seat, SeatKind

__all__ = ["LobbyScreen", "idle_text", "idle_minutes", "offer_challenge", "answer_challenge", "challenge_news"]

LOBBY_HELP = """\
THE LOBBY

  p   play: choose a door, an opponent (a caller or the computer) and the
      options, and send the challenge
  y/n accept or decline a challenge sent to you
  x   withdraw the challenge you sent
  u   resume an unfinished game (also offered when you log in)
  c   chat with everybody in the lobby (ENTER sends, ESC closes)
  !   page the sysop, with a short reason
  s   settings: character set (CP437 for BBS terminals, UTF-8 otherwise)
  ?   this help          g   goodbye (log off)

In every game:
  c chat   r or CTRL-L redraw   ? help   Q resign   = offer or accept a draw
  CTRL-S pauses the screen, CTRL-Q sends it again as it is now.
If your connection drops during a game, log in again to resume it."""


def idle_minutes(seconds: float) -> str:
    """Idle time in whole minutes ("0m", "12m", "1h05"), as the who-list shows it."""
    minutes = int(seconds // 60)
    return f"{minutes}m" if minutes < 60 else f"{minutes // 60}h{minutes % 60:02d}"


def idle_text(seconds: float) -> str:
    seconds = int(seconds)
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m"
    return f"{seconds // 3600}h{seconds % 3600 // 60:02d}"


async def answer_challenge(session: Session, ch: Challenge,
                           accept: bool) -> tuple[str, Screen | None]:
    """``session`` accepts or declines ``ch`` on the board: (what to tell
    it, its match screen if a match started). The lobby and the sysop
    console share this."""
    board = session.services.board
    if not accept:
        return await board.decline(ch.id, by=session.handle), None
    accepted, reason = await board.accept(ch.id, by=session.handle)
    challenger = session.services.nodes.find(accepted.challenger) if accepted is not None else None
    if accepted is None or challenger is None:
        return reason or f"{ch.challenger} is no longer in the lobby.", None
    seats = [Seat(0, SeatKind.HUMAN, challenger.handle), Seat(1, SeatKind.HUMAN, session.handle)]
    screen = await start_match(session, registry()[accepted.door], dict(accepted.options), seats,
                               {0: challenger, 1: session})
    return "", screen


async def offer_challenge(session: Session, offer: ChallengeOffer) -> str:
    """Put ``session``'s challenge on the board; returns what to tell it."""
    _challenge, message = await session.services.board.offer(
        session.handle, offer.target, offer.door, offer.options)
    return message


def challenge_news(session: Session, event: Any) -> tuple[str | None, Transition]:
    """What a screen that takes challenges (the lobby, the sysop console)
    does with challenge news and a match that starts: (message, transition)."""
    if isinstance(event, ChallengeEvent):
        ch = event.challenge
        mine = ch.challenger == session.handle
        if ch.target == session.handle and ch.state == ChallengeState.OPEN:
            session.terminal.bell()           # someone wants to play
        elif mine and ch.state == ChallengeState.DECLINED:
            return f"{ch.target} declined your challenge.", None
        elif ch.state == ChallengeState.WITHDRAWN and ch.target == session.handle:
            return f"{ch.challenger} withdrew the challenge.", None
        elif ch.state == ChallengeState.EXPIRED:
            return f"Your challenge {'to ' + ch.target if mine else 'from ' + ch.challenger} expired.", None
    elif isinstance(event, MatchEvent) and event.kind == News.START:
        player = event.match.seat_of(session)
        if player is not None:
            return None, Push(MatchScreen(session, event.match, player))
    return None, None


class LobbyScreen(Screen):
    """What changes by itself here is the clock and the who-list's idle
    times, both in minutes; idle times are shown as of the clock's minute,
    so an idle lobby changes once a minute. Each lobby redraws at its own
    moment in the first ``SPREAD`` seconds of the minute: two thousand of
    them do not redraw at once."""
    location = LOBBY
    shows_nodes = True
    SPREAD = 20.0
    WHO_ROWS = 8

    def __init__(self, session: Session):
        super().__init__(session)
        self._phase = random.uniform(0.0, self.SPREAD)
        self._refresh_at = 0.0
        self.chat = ChatPane(7)
        for who, text in session.services.lobby.log.lines:
            self.chat.add(who, text)
        self.chat_input: LineInput | None = None
        self.input_mode = "chat"          # or "page": what the input line is for
        self.limit = RateLimit()
        self.message = ""

    # ----- challenges addressed to or sent by me ----------------------------
    def _incoming(self) -> list[Challenge]:
        return self.session.services.board.incoming(self.session.handle)

    def _outgoing(self) -> list[Challenge]:
        return self.session.services.board.outgoing(self.session.handle)

    async def on_key(self, key: str) -> Transition:
        app = self.session.services
        if self.chat_input is not None:
            text = self.chat_input.handle(key)
            if text is not None and self.input_mode == "page":
                self.message = app.lobby.page_sysop(self.session.handle, text) if text.strip() else ""
                self.chat_input = None
            elif text is not None:
                self.message = app.lobby.post(self.session.handle, text, self.limit) or ""
                self.chat_input = LineInput(120)
            elif self.chat_input.cancelled:
                self.chat_input = None
            return None
        self.message = ""
        if key in ("c", "C", K.ENTER):
            self.chat_input, self.input_mode = LineInput(120), "chat"
        elif key == "!":
            self.chat_input, self.input_mode = LineInput(60), "page"
        elif key in ("p", "P"):
            return Push(ChallengeScreen(self.session))
        elif key in ("y", "Y", "n", "N"):
            incoming = self._incoming()
            if incoming:
                return await self._answer(incoming[0], key in ("y", "Y"))
        elif key in ("x", "X"):
            for ch in self._outgoing():
                self.message = await app.board.withdraw(ch.id, by=self.session.handle)
        elif key in ("u", "U"):
            pending = app.matches.pending_for(self.session.handle)
            if not pending:
                self.message = "You have no unfinished games."
                return None
            return Push(ResumeScreen(self.session, pending))
        elif key in ("s", "S"):
            return Push(SettingsScreen(self.session))
        elif key == "?":
            return Push(PagerScreen(self.session, LOBBY_HELP, "Help"))
        elif key in ("g", "G"):
            return Quit("Thanks for calling Gatehouse. Goodbye!")
        return None

    async def _answer(self, ch: Challenge, accept: bool) -> Transition:
        self.message, screen = await answer_challenge(self.session, ch, accept)
        return Push(screen) if screen is not None else None

    async def on_result(self, result: Any) -> Transition:
        """The challenge screen returned (or a game ended)."""
        if isinstance(result, ChallengeOffer):
            self.message = await offer_challenge(self.session, result)
        elif isinstance(result, str):
            self.message = result
        return None

    async def on_event(self, event: Any) -> Transition:
        if isinstance(event, E.Chat) and event.channel == "lobby":
            self.chat.add(event.who, event.text)
        else:
            message, transition = challenge_news(self.session, event)
            self.message = message or self.message
            return transition
        return None

    # ----- drawing ----------------------------------------------------------
    def frame_due(self, now: float) -> float | None:
        return self._refresh_at if self._refresh_at > 0 else None

    def draw(self, canvas: Canvas, now: float) -> tuple[int, int] | None:
        app = self.session.services
        canvas.fill(0, 0, 80, 1, " ", WHITE, BLUE)
        canvas.text(1, 0, "GATEHOUSE", YELLOW, BLUE)
        canvas.text(11, 0, "· Lobby", WHITE, BLUE)
        wall = time.time()
        into_minute = wall % 60
        right = f"{self.session.handle} · node {self.session.node} · {time.strftime('%H:%M', time.localtime(wall))}"
        canvas.text(79 - len(right), 0, right, BRIGHT_CYAN, BLUE)
        # who is online
        canvas.box(0, 1, 50, 11, CYAN, title="Who's online")
        canvas.text(2, 2, "Node Handle               Where            Idle", DARK_GREY)
        people, count = app.nodes.first_online(self.WHO_ROWS)
        for i, other in enumerate(people):
            colour = YELLOW if other is self.session else GREY
            idle = max(0.0, other.idle_seconds(now) - into_minute)      # as of the clock's minute
            canvas.text(2, 3 + i, f"{other.node:>4} {other.handle[:20]:<20} "
                                  f"{other.location[:16]:<16} {idle_minutes(idle):>4}",
                        colour)
        self._refresh_at = now + 60.0 - into_minute + self._phase      # the clock's next minute
        if count > self.WHO_ROWS:
            canvas.text(2, 11, f" and {count - self.WHO_ROWS} more ", DARK_GREY)
        # doors
        canvas.box(50, 1, 30, 11, CYAN, title="Doors")
        for i, info in enumerate(registry().values()):
            canvas.text(52, 3 + i, f"{info.title}", BRIGHT_GREEN)
        sysop = "available" if app.nodes.sysop_available else "not available"
        canvas.text(52, 10, f"Sysop: {sysop}", DARK_GREY)
        # challenges
        row = 12
        for ch in self._incoming()[:1]:
            text = f" {ch.challenger} challenges you to {ch.describe()}  y accept · n decline "
            canvas.text(0, row, text[:80], WHITE, BLUE)
            row += 1
        for ch in self._outgoing()[:1]:
            canvas.text(1, row, f"Waiting for {ch.target} to answer: {ch.describe()}  (x withdraws)"[:78],
                        BRIGHT_CYAN)
            row += 1
        # chat
        canvas.box(0, 14, 80, 9, BRIGHT_BLUE, style=BOX_DOUBLE, title="Lobby chat")
        self.chat.draw(canvas.region(2, 15, 76, 7))
        cursor = None
        if self.chat_input is not None:
            label = "Say: " if self.input_mode == "chat" else "Page the sysop, reason: "
            canvas.text(0, 23, label, YELLOW)
            cursor = self.chat_input.draw(canvas, len(label), 23, 79 - len(label), WHITE, 0)
        elif self.message:
            canvas.text(1, 23, self.message[:78], BRIGHT_RED)
        else:
            resume = "u resume  " if self.session.services.matches.pending_for(self.session.handle) else ""
            canvas.text(1, 23, f"p play  c chat  y/n answer  {resume}! page sysop  s settings  ? help"
                               "  g bye"[:78], DARK_GREY)
        return cursor
