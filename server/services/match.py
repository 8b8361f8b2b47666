"""The match: the only place where actions are applied.

Seats are callers (sessions come and go) or the computer (a bot that thinks
in a worker process, through ``ComputerPlayers``, whose turns ``BotDriver``
plays). Every action is checked by the rules, applied to a copy, committed
to the store, and only then becomes the match's state and is announced,
so the next turn is never offered before the move is on disk.
"""
from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable, Coroutine, Mapping
from typing import Any, TypeVar

from doors._core.door import AnyState, DoorInfo
from doors._core.game import Outcome, Termination
from server.config import Config
from server.services import events as E
from server.services.chat import ChatLog, clean_chat
from server.services.events import MatchEvent, News
from server.services.ids import GameId
from server.services.limits import AbuseLimits
from server.services.match_bots import WRITE_RETRY, BotDriver
from server.services.move_clock import MoveClock, clock_text, lost_on_time
from server.services.nodes import Node
from server.services.ratings import GameFacts, GameRating, RatingBook
from server.services.saving import SavingNotice
from server.services.seats import WATCHING, Seat, SeatKind, seat_label
from server.services.store import RatingWrite, Store, WriteFailed
from server.services.thinkers import ComputerPlayers
from server.services.turn_clock import TurnTimes, span_text

__all__ = ["News", "MatchEvent", "Match"]

log = logging.getLogger("gatehouse.match")


Tell = Callable[[str, str, bool], None]     # (handle, text, keep): on their screen, or kept if asked
DRAW, AUTO_FINISH = "draw", "auto finish"   # the offers a side makes, as the store keeps them
T = TypeVar("T")


async def unbroken(work: Coroutine[Any, Any, T], what: str) -> T:
    """Run ``work`` to its end even if the caller is cancelled (a caller
    who drops, a computer's turn stopped, a forfeit timer called off): a
    write that has begun is always followed by the change of state it
    records, so the record and the game never part. A failure nobody is
    left to hear is logged."""
    task = asyncio.ensure_future(work)
    try:
        return await asyncio.shield(task)
    except asyncio.CancelledError:
        task.add_done_callback(lambda t: _unheard(t, what))
        raise


def _unheard(task: asyncio.Future[Any], what: str) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("%s failed after its caller left: %s", what, task.exception())


class Match:
    """A live match, or a by-turns one (``turns`` set): then a side may be
    away (nobody forfeits for leaving), each side has a time per move, the
    chat is a thread kept in the store, and a caller who is online but not
    at the board hears of the other's move through ``tell``."""

    def __init__(self, store: Store, config: Config, on_finished: Callable[[Match], None], game_id: GameId,
                 info: DoorInfo, state: AnyState, seats: list[Seat], computer: ComputerPlayers,
                 ratings: RatingBook | None = None, limits: AbuseLimits | None = None,
                 turns: TurnTimes | None = None, tell: Tell | None = None,
                 offers: Mapping[str, int] | None = None):
        self.store = store
        self.computer = computer
        self._ratings = ratings
        self.limits = limits if limits is not None else AbuseLimits.from_config(config)
        self.turns = turns
        self._tell = tell
        self.config = config
        self._on_finished = on_finished
        self.id = game_id
        self.info = info
        self.state = state
        self.seats = seats
        self.outcome: Outcome | None = state.outcome()
        self.watchers: list[Seat] = []      # SeatKind.WATCHER seats, in the order they came
        self.chat = ChatLog(30)
        offers = offers or {}                # (as the store kept them, over a restart)
        self.draw_offer: int | None = offers.get(DRAW)
        self.auto_offer: int | None = offers.get(AUTO_FINISH)
        self.autoplay = False
        self.rating: GameRating | None = None     # what the game did to the ratings, once over
        self._ending = False
        self._lock = asyncio.Lock()
        self._bots = BotDriver(self)
        self._forfeit_task: asyncio.Task[None] | None = None
        # a live game's time per move (a by-turns game has its own, ``turns``)
        self.clock = MoveClock(config.move_seconds(info.key) if turns is None else 0.0,
                               [s.player for s in seats if s.kind == SeatKind.HUMAN])
        self._clock_timer: asyncio.TimerHandle | None = None
        self._held: set[int] = set()        # players the sysop is chatting with: no clock runs
        self._unwatched: asyncio.Task[None] | None = None
        for seat in seats:
            if seat.kind == SeatKind.BOT:
                seat.seed = random.randrange(1 << 30)

    # ----- what screens read ------------------------------------------------
    @property
    def ended(self) -> bool:
        return self.outcome is not None

    @property
    def suspended(self) -> bool:
        if self.turns is not None:       # by turns: the game waits, it is not suspended
            return False
        return not self.ended and not all(s.present for s in self.seats)

    @property
    def _offered(self) -> bool:
        """Whether an offer stands (the store keeps it until a move or the end)."""
        return self.draw_offer is not None or self.auto_offer is not None

    def your_turn(self, handle: str) -> bool:
        """Whether ``handle`` holds a seat that may move now."""
        key = handle.casefold()
        return any(s.kind == SeatKind.HUMAN and s.name.casefold() == key and s.player in self.state.to_move()
                   for s in self.seats)

    def player_of(self, handle: str) -> int | None:
        key = handle.casefold()
        return next((s.player for s in self.seats
                     if s.kind == SeatKind.HUMAN and s.name.casefold() == key), None)

    def names(self) -> tuple[str, str]:
        return (self.seats[0].name, self.seats[1].name)

    def observation(self, player: int | None) -> Any:
        if self.outcome is not None:       # however it ended: the door may reveal all
            return self.state.final_observation(player, self.outcome)
        return self.state.observation(player)

    def last(self) -> tuple[int, Any] | None:
        return self.state.history[-1] if self.state.history else None

    def last_text(self, viewer: int | None) -> str:
        """The last action as ``viewer`` may see it."""
        last = self.state.last_action_text(viewer)
        if last is None or not last[1]:
            return ""
        return f"{self.seats[last[0]].name}: {last[1]}"

    def seat_of(self, session: Node) -> int | None:
        return next((s.player for s in self.seats if s.session is session), None)

    def opponent_name(self, player: int) -> str:
        return self.seats[1 - player].name

    def absent(self) -> list[Seat]:
        return [s for s in self.seats if not s.present]

    # ----- announcements ----------------------------------------------------
    def _audience(self) -> list[Node]:
        people = [s.session for s in self.seats if s.session is not None]
        return people + [w.session for w in self.watchers if w.session is not None and w.session not in people]

    def notify(self, kind: News, text: str = "") -> None:
        for session in self._audience():
            session.send(MatchEvent(self.id, kind, text))

    async def post_chat(self, player: int | None, who: str, text: str,
                        address: str | None = "") -> str | None:
        """A chat line from ``who`` (at ``address``); returns a reason if
        refused. By turns: stored in the game's thread first, and the other
        side hears of it if online elsewhere."""
        text = clean_chat(text)
        if not text:
            return None
        watcher = next((w for w in self.watchers if w.name == who), None) if player is None else None
        if watcher is not None and not self.hears_watcher(watcher.session is not None and watcher.session.is_sysop):
            return "Watchers do not chat in a game between two callers: they play in peace."
        refused = self.limits.chat(who, address)
        if refused is not None:
            return refused
        if self.turns is not None:
            await self.store.add_chat(self.id, who, text)
            self._tell_away(f"{who} wrote in game {self.id} ({self.info.title}): {text}", but=player)
        self.chat.add(who, text)
        for session in self._audience():
            session.send(E.Chat(f"match:{self.id}", who, text))
        return None

    def _tell_away(self, text: str, but: int | None = None, only: tuple[int, ...] = (0, 1),
                   keep: bool = False) -> None:
        """Tell the seats in ``only`` (but ``but``) who are not at the board,
        if they are online anywhere else (by turns, or a live game they left);
        ``keep``: else at their next call."""
        if self._tell is None:
            return
        for seat in self.seats:
            if seat.kind == SeatKind.HUMAN and seat.session is None and seat.player != but \
                    and seat.player in only:
                self._tell(seat.name, text, keep)

    def watch(self, session: Node) -> Seat:
        """``session`` takes a watcher's seat: it hears every announcement
        and sees ``observation(None)``, the door's spectator view (hidden
        information stays hidden until the end). The players are told."""
        seat = next((w for w in self.watchers if w.session is session), None)
        if seat is None:
            seat = Seat(WATCHING, SeatKind.WATCHER, session.handle, session=session)
            self.watchers.append(seat)
            if session.handle and any(s.kind == SeatKind.HUMAN for s in self.seats):
                self.notify(News.UPDATE, f"{session.handle} is watching.")
        return seat

    def hears_watcher(self, sysop: bool) -> bool:
        """Whether a watcher may chat into the game: the sysop always; a
        caller unless both players are callers (no kibitzing: they play in peace)."""
        return sysop or not all(s.kind == SeatKind.HUMAN for s in self.seats)

    def watching(self) -> list[str]:
        """The watchers' names."""
        return [w.name for w in self.watchers]

    def _saving(self) -> SavingNotice:
        return SavingNotice(self._audience)

    # ----- actions ----------------------------------------------------------
    async def submit(self, player: int, action: Any) -> str | None:
        """Check, store and apply an action; returns a reason if refused.
        Once asked, the match sees it through: a proposer cancelled meanwhile
        (a caller dropped while the computer's move was being stored) does
        not leave a stored move unapplied."""
        proposer = asyncio.current_task()
        return await unbroken(self._submit(player, action, proposer), f"a move in game {self.id}")

    async def _submit(self, player: int, action: Any, proposer: asyncio.Future[Any] | None) -> str | None:
        late = await self._ran_out()          # (before its timer or the clock check came round)
        if late is not None:
            return f"The game is over: {late.reason}."
        async with self._lock:
            if self.ended or self._ending:
                return "The game is over."
            if self.suspended:
                names = ", ".join(s.name for s in self.absent())
                return f"The game is suspended until {names} returns."
            reason = self.state.why_illegal(player, action)
            if reason is not None:
                return reason
            before = self.state.to_move()
            nxt = self.state.clone()
            nxt.apply(player, action)
            ply = len(nxt.history)
            text = nxt.action_to_str(action)
            outcome = nxt.outcome()
            if outcome is not None:       # the last move, the result and the ratings: one commit
                await self._record_end(outcome, nxt, final=(ply, player, text), proposer=proposer)
            else:
                saving = self._saving()
                if self.turns is None:
                    await self.store.add_move(self.id, ply, player, text, saving,
                                              answers_offers=self._offered)
                else:         # the turn starts go in the same commit as the move
                    marks = self.turns.after(before, nxt.to_move(), player)
                    await self.store.add_move(self.id, ply, player, text, saving, turns=marks,
                                              answers_offers=self._offered)
                    self.turns.started = list(marks)
                saving.done()
            self.state = nxt
            self.draw_offer = self.auto_offer = None      # a move answers both
            self.seats[player].away = 0.0        # (playing earns back the time to return)
            self._clock_turn(player)
        self.notify(News.UPDATE)
        if outcome is not None:
            self._announce_end(outcome)
        else:
            if self.turns is not None:
                now = tuple(p for p in nxt.to_move() if p not in before)
                self._tell_away(f"{self.seats[player].name} moved in game {self.id} ({self.info.title}): "
                                "your turn.", only=now)
            self._bots.drive(proposer)
        return None

    # ----- a live game's time per move ----------------------------------------
    def _clock_turn(self, mover: int | None = None) -> None:
        """The turn changed (or the game was suspended, or goes on): the
        clocks of the sides to move, and the timer for the first to run out."""
        if self.autoplay or self.ended or self._ending:
            self.clock.stop()
        elif self.suspended or self._held:
            self.clock.pause(time.monotonic())
        else:
            self.clock.turn(self.state.to_move(), time.monotonic(), mover)
        if self._clock_timer is not None:
            self._clock_timer.cancel()
            self._clock_timer = None
        due = self.clock.due()
        if due is not None:
            self._clock_timer = asyncio.get_running_loop().call_later(
                max(0.0, due - time.monotonic()), lambda: asyncio.ensure_future(self._out_of_time()))

    def hold(self, player: int, held: bool) -> None:
        """The sysop chats with ``player`` over their board (``held``), or
        no longer: a live game's time per move stands still meanwhile."""
        if held:
            self._held.add(player)
        else:
            self._held.discard(player)
        if self.turns is None and not self.ended:
            self._clock_turn()

    def move_time_left(self, player: int) -> float | None:
        """Seconds ``player`` has left for this move in a live game, or None."""
        return self.clock.left(player, time.monotonic())

    def _time_verdict(self) -> Outcome | None:
        """How the game ends on time now, if a side's time per move has run
        out (both at once, in a phase where both move: nobody wins)."""
        if self.turns is not None:
            return self.turns.verdict(self.names())
        return lost_on_time(self.clock.overdue(time.monotonic()), self.names(),
                            f"{self.clock.seconds / 60:g} min a move")

    async def _ran_out(self) -> Outcome | None:
        """End the game if a side's time per move has run out; the outcome
        if it ended now. A move being stored counts: its turn is over."""
        async with self._lock:
            outcome = self._time_verdict()
            if outcome is None or not await self._finish(outcome):
                return None
        self._announce_end(outcome)
        return outcome

    async def _out_of_time(self) -> None:
        """A live game's timer: the first side's time per move is up."""
        if await self._ran_out() is None and not self.ended and not self._ending:
            self._clock_turn()          # (woken early: wait again)

    async def lose_on_time(self) -> bool:
        """By turns: end the game if a side's time per move has run out. True
        if it ended."""
        if self.turns is None or self.ended or self._ending:
            return False
        return await unbroken(self._ran_out(), f"the end of game {self.id}") is not None

    def time_left_text(self, player: int) -> str:
        """By turns: "2d 5h left" for ``player``, or "" when it is not their turn."""
        left = self.turns.left(player) if self.turns is not None else None
        return "" if left is None else f"{span_text(left)} left"

    async def resign(self, player: int) -> None:
        await self._end(Outcome(1 - player, Termination.RESIGN,
                                f"{self.seats[player].name} resigned"))

    async def offer_draw(self, player: int) -> str:
        if self.ended:
            return "The game is over."
        if self.draw_offer == 1 - player:
            await self._end(Outcome(None, Termination.AGREED_DRAW, "draw agreed"))
            return "Draw agreed."
        if self.seats[1 - player].kind == SeatKind.BOT:
            return "The computer declines the draw."
        if self.draw_offer != player:
            refused = await self._keep_offer(DRAW, player)
            if refused:
                return refused
            if self.ended:                   # (while it was stored)
                return "The game is over."
            if self.draw_offer == 1 - player:
                await self._end(Outcome(None, Termination.AGREED_DRAW, "draw agreed"))
                return "Draw agreed."
        self.draw_offer = player
        self.notify(News.DRAW_OFFER, f"{self.seats[player].name} offers a draw.")
        if self.turns is not None:
            self._tell_away(f"{self.seats[player].name} offers a draw in game {self.id} ({self.info.title}).",
                            but=player)
        return "Draw offered."

    async def request_auto_finish(self, player: int) -> str:
        """Auto finish (a door capability): the computer plays both sides to
        the end, once the other human agrees."""
        if self.ended:
            return "The game is over."
        if self.suspended:
            return f"The game is suspended until {', '.join(s.name for s in self.absent())} returns."
        other = self.seats[1 - player]
        if other.kind == SeatKind.HUMAN and self.auto_offer != 1 - player:
            if self.auto_offer != player:
                refused = await self._keep_offer(AUTO_FINISH, player)
                if refused:
                    return refused
                if self.ended or self.autoplay:         # (while it was stored)
                    return "The game is over." if self.ended else "The computer finishes the game."
            if self.auto_offer != 1 - player:          # (the other side may have asked meanwhile)
                self.auto_offer = player
                self.notify(News.AUTO_FINISH_OFFER, f"{self.seats[player].name} asks for auto finish.")
                return "Auto finish asked; waiting for your opponent to agree."
        self.autoplay = True
        self._clock_turn()                # the computer plays both sides: no clock
        for seat in self.seats:
            if seat.seed is None:
                seat.seed = random.randrange(1 << 30)
        told = "The computer finishes the game."
        if other.kind == SeatKind.BOT:
            told = "The computer finishes the game (not rated: it plays your side)."
        self.notify(News.UPDATE, told)
        self._bots.drive()
        return told

    async def _keep_offer(self, kind: str, player: int) -> str:
        """Store ``player``'s offer before it stands; why not, if the disk refused."""
        try:
            await self.store.set_offer(self.id, kind, player)
        except WriteFailed as exc:
            return f"Your offer was NOT made: {exc.why}. Try again later."
        return ""

    async def _end(self, outcome: Outcome) -> None:
        """Record the result, then announce it (the record comes first).
        It waits for a move being stored (the game ends after it, with it
        counted) and, once begun, is seen through like a move."""
        await unbroken(self._end_now(outcome), f"the end of game {self.id}")

    async def _end_now(self, outcome: Outcome) -> None:
        async with self._lock:
            if not await self._finish(outcome):
                return
        self._announce_end(outcome)

    async def _finish(self, outcome: Outcome) -> bool:
        """Record the end on the state as it stands (the lock held); False
        if the game is over or ending already."""
        if self.ended or self._ending:
            return False
        await self._record_end(outcome, self.state)
        return True

    async def settle(self) -> None:
        """Record the end of a game whose record is over but not its result
        (a database from an older release, restored at start)."""
        if self.outcome is not None and not self._ending:
            await self._record_end(self.outcome, self.state)
            self._on_finished(self)

    def facts(self, outcome: Outcome, state: AnyState) -> GameFacts:
        """The game as the rating book needs it, from what this match knows."""
        labels = (seat_label(self.seats[0].kind, self.seats[0].name, self.seats[0].level),
                  seat_label(self.seats[1].kind, self.seats[1].name, self.seats[1].level))
        cls = type(state)
        moves = tuple(cls.count_moves([(p, t) for p, t in state.record() if p == side])[0]
                      for side in (0, 1))
        finished = self.autoplay and any(seat.kind == SeatKind.BOT for seat in self.seats)
        return GameFacts(self.id, self.info.key, labels, outcome.to_json(), (moves[0], moves[1]),
                         computer_finished=finished)

    async def _record_end(self, outcome: Outcome, state: AnyState,
                          final: tuple[int, int, str] | None = None,
                          proposer: asyncio.Future[Any] | None = None) -> None:
        """Store the end (the ``final`` move, the outcome, the ratings) in
        one transaction; on failure nothing is stored and the game goes on."""
        self._ending = True
        self._bots.cancel(proposer)
        self.clock.stop()
        if self._clock_timer is not None:
            self._clock_timer.cancel()
        saving = self._saving()
        try:
            if self._ratings is None:
                await self.store.finish_game(self.id, outcome.to_json(), saving, final,
                                             answers_offers=self._offered)
            else:
                async def write(change: RatingWrite) -> None:
                    await self.store.finish_game(self.id, outcome.to_json(), saving, final, change,
                                                 answers_offers=self._offered)
                self.rating = await self._ratings.finish(self.facts(outcome, state), write)
        except BaseException:
            self._ending = False
            if not self.ended:
                self._clock_turn()
            if not self.ended and not self._bots.running(proposer):    # (a computer's turn retries)
                self._bots.drive(proposer)
            raise
        saving.done()
        if self._forfeit_task is not None and self._forfeit_task is not asyncio.current_task():
            self._forfeit_task.cancel()

    def _announce_end(self, outcome: Outcome) -> None:
        self.outcome = outcome
        self._on_finished(self)
        news = outcome.reason
        if self.rating is not None and not self.rating.rated and self.rating.why:
            news = f"{news}. Not rated: {self.rating.why}"      # shown on the game-over screen
        self.notify(News.ENDED, news)
        self._tell_away(f"Game {self.id} ({self.info.title}) is over: {outcome.reason}.", keep=True)

    # ----- people coming and going ------------------------------------------
    def attach(self, player: int, session: Node) -> None:
        seat = self.seats[player]
        seat.session = session
        now, returned_from = time.monotonic(), seat.left_at
        if seat.left_at is not None:
            seat.away += now - seat.left_at
        seat.left_at = None
        if self.turns is not None:
            self._bots.drive()
            return
        if self.ended or self._ending:       # (a forfeit being stored: its news follows)
            return
        if self._forfeit_task is not None:
            self._forfeit_task.cancel()
            self._forfeit_task = None
        if not self.suspended:
            self._clock_turn()            # each turn goes on with the time it had left
            self.notify(News.RESUMED, f"{seat.name} is back: the game goes on.")
            self._bots.drive()
            return
        for other in self.absent():
            # one who left while this seat was away was waiting for it: their
            # time to come back starts now, and they hear of it wherever they are
            if other.left_at is not None and returned_from is not None and other.left_at > returned_from:
                other.left_at = now
            self._tell_away(f"{seat.name} is back in game {self.id} ({self.info.title}): press u in the "
                            f"lobby to resume it (forfeit in {clock_text(self._grace(other))}).",
                            only=(other.player,))
        self._arm_forfeit()

    @property
    def computers_only(self) -> bool:
        """The computer against itself: it goes on only while watched."""
        return self.turns is None and all(seat.kind == SeatKind.BOT for seat in self.seats)

    def detach(self, session: Node, stepped_out: bool = False, why: str = "") -> None:
        """``session`` leaves its seat (dropped, or the sysop ``stepped_out``
        to the console; ``why``: "ran out of time on their BBS"): the game
        waits for it until the forfeit time. The last watcher of the
        computer against itself leaving stops that game (aborted: no
        result, no worker thinking for nobody)."""
        self.watchers = [w for w in self.watchers if w.session is not session]
        if self.computers_only and not self.watchers and not self.ended and self._unwatched is None:
            self._bots.cancel()
            self._unwatched = asyncio.create_task(self._abort_unwatched())
            return
        player = self.seat_of(session)
        if player is None or self.ended:
            return
        seat = self.seats[player]
        seat.session = None
        if self.turns is not None:      # by turns: the game just waits for the next call
            return
        seat.left_at = time.monotonic()
        self._bots.cancel()
        self._clock_turn()                # no clock runs while the game is suspended
        why = "stepped out to the console" if stepped_out else why or "left"
        self.notify(News.SUSPENDED, f"{seat.name} {why}: the game is suspended until they return "
                                 f"(forfeit in {clock_text(self._grace(seat))}).")
        self._arm_forfeit()

    async def _abort_unwatched(self) -> None:
        try:
            await self._end(Outcome(None, Termination.ABORTED, "nobody was watching"))
        except Exception:
            log.exception("stopping game %s, which nobody watches", self.id)

    def _arm_forfeit(self) -> None:
        """Start the grace timer for the absent human while the other is here."""
        absent = self.absent()
        if len(absent) != 1 or self._forfeit_task is not None:
            return
        seat = absent[0]
        if seat.left_at is None:
            seat.left_at = time.monotonic()
        self._forfeit_task = asyncio.create_task(self._forfeit_after(seat))

    def _grace(self, seat: Seat) -> float:
        """Seconds ``seat`` may still stay away: the forfeit time less the
        time away since their last move (coming back and leaving again
        without moving does not start it over)."""
        return max(0.0, self.config.server.forfeit_seconds - seat.away)

    def forfeit_deadline(self) -> float | None:
        absent = self.absent()
        if len(absent) != 1 or absent[0].left_at is None or self._forfeit_task is None:
            return None
        return absent[0].left_at + self._grace(absent[0])

    async def _forfeit_after(self, seat: Seat) -> None:
        """The absent caller forfeits at the deadline; a forfeit the disk
        refused is tried again while they are still away."""
        try:
            deadline = (seat.left_at or time.monotonic()) + self._grace(seat)
            await asyncio.sleep(max(0.0, deadline - time.monotonic()))
            while not seat.present and not self.ended:
                minutes = self.config.server.forfeit_minutes
                since = " in all since their last move" if seat.away > 0 else ""
                try:
                    await self._end(Outcome(1 - seat.player, Termination.FORFEIT,
                                            f"{seat.name} left and did not return within {minutes:g} minutes{since}"))
                except WriteFailed:     # not stored (the store logs it)
                    await asyncio.sleep(WRITE_RETRY)
        except asyncio.CancelledError:
            pass

    def go(self) -> None:
        """The seats are told: the computer seats may move, the clocks start."""
        self._clock_turn()
        self._bots.drive()

    def stop(self) -> None:
        self._bots.cancel()
        if self._clock_timer is not None:
            self._clock_timer.cancel()
        if self._forfeit_task is not None:
            self._forfeit_task.cancel()
