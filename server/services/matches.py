"""The match manager: live, suspended and by-turns matches by game id;
creates them, after a restart rebuilds every unfinished one from its record,
and ends by-turns games whose time per move ran out (checked at start and
on a timer)."""
from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping

from doors import registry
from doors._core.door import DoorInfo
from doors._core.game import Outcome, Termination, replay
from server.config import Config
from server.services.ids import GameId
from server.services.limits import AbuseLimits
from server.services.match import Match, News, Tell
from server.services.nodes import Node
from server.services.ratings import RatingBook
from server.services.seats import Seat, SeatKind, parse_seat_label, seat_label, seat_names
from server.services.store import Store, WriteFailed
from server.services.thinkers import ComputerPlayers
from server.services.turn_clock import TurnClock, TurnTimes

__all__ = ["MatchManager"]

log = logging.getLogger("gatehouse.match")


class MatchManager:
    """Live and suspended matches, by game id."""

    def __init__(self, store: Store, config: Config, ratings: RatingBook | None = None,
                 limits: AbuseLimits | None = None, clock: TurnClock | None = None,
                 tell: Tell | None = None, computer: ComputerPlayers | None = None,
                 doors: Mapping[str, DoorInfo] | None = None):
        self.store = store
        # the doors as this server runs them (bound to their folders); by key
        self.doors: Mapping[str, DoorInfo] = doors if doors is not None else registry()
        self.config = config
        self.ratings = ratings
        self.limits = limits if limits is not None else AbuseLimits.from_config(config)
        self.clock = clock or TurnClock(store)
        self._tell = tell
        self.computer = computer or ComputerPlayers(workers=1)   # (a pool starts at its first question)
        self.live: dict[GameId, Match] = {}
        self._watch: asyncio.Task[None] | None = None

    async def create(self, info: DoorInfo, options: Mapping[str, object],
                     seats: list[Seat], move_seconds: float = 0.0, settles: int | None = None) -> Match:
        """A new match; ``move_seconds`` > 0 makes it a by-turns game with
        that time per move (its clock starts now for the sides to move);
        ``settles``: the waiting challenge it answers leaves the store with
        the game's creation."""
        info = self.doors.get(info.key, info)
        state = info.build_state(options)
        labels = (seat_label(seats[0].kind, seats[0].name, seats[0].level),
                  seat_label(seats[1].kind, seats[1].name, seats[1].level))
        turns = None
        if move_seconds > 0:
            turns = TurnTimes(self.clock, move_seconds, [None, None])
            turns.started = list(turns.after((), state.to_move()))
        game_id = GameId(await self.store.create_game(
            info.key, state.options, labels,
            by_turns=(move_seconds, (turns.started[0], turns.started[1])) if turns else None,
            settles=settles))
        match = Match(self.store, self.config, self.finished, game_id, info, state, seats, self.computer,
                      self.ratings, self.limits, turns, self._tell)
        self.live[game_id] = match
        return match

    def start(self, match: Match) -> None:
        match.notify(News.START)
        match.go()

    def finished(self, match: Match) -> None:
        self.live.pop(match.id, None)

    def leave(self, session: Node, why: str = "") -> None:
        """``session`` has ended: out of every seat it still holds (one
        whose game started as it hung up, before its screen opened)."""
        for match in list(self.live.values()):
            if match.seat_of(session) is not None:
                match.detach(session, why=why)

    def pending_for(self, handle: str) -> list[Match]:
        """Unfinished live games in which ``handle`` holds an empty seat."""
        key = handle.casefold()
        return [m for m in self.live.values()
                if not m.ended and m.turns is None and any(s.kind == SeatKind.HUMAN and s.session is None
                                       and s.name.casefold() == key for s in m.seats)]

    def playing(self) -> list[Match]:
        return [m for m in self.live.values() if not m.ended]

    def by_turns_of(self, handle: str) -> list[Match]:
        """``handle``'s unfinished by-turns games, oldest first."""
        return sorted((m for m in self.live.values()
                       if m.turns is not None and not m.ended and m.player_of(handle) is not None),
                      key=lambda m: m.id)

    def turns_waiting(self, handle: str) -> int:
        """In how many by-turns games it is ``handle``'s turn."""
        return sum(1 for m in self.by_turns_of(handle) if m.your_turn(handle))

    async def check_clocks(self) -> list[Match]:
        """End every by-turns game whose side to move let its time run out."""
        return [m for m in list(self.live.values()) if await m.lose_on_time()]

    def watch_clocks(self, every: float) -> None:
        """Check the clocks every ``every`` seconds until ``stop``."""
        async def loop() -> None:
            while True:
                await asyncio.sleep(every)
                try:
                    await self.clock.beat()
                    await self.check_clocks()
                except WriteFailed:
                    pass        # the store logs it once a minute; the next check tries again
                except Exception:
                    log.exception("checking the by-turns clocks")
        self._watch = asyncio.create_task(loop())

    async def restore(self) -> None:
        """After a restart: rebuild every unfinished game from its record."""
        doors = self.doors
        by_turns = await self.store.by_turns()
        offers = await self.store.offers()
        unknown: list[str] = []
        for row in await self.store.list_games("active", limit=10_000):
            info = doors.get(row.door)
            if info is None:
                unknown.append(f"{row.id} ({row.door})")
                continue
            try:
                if row.damaged == "options":
                    raise ValueError("its options in the database cannot be read")
                state = replay(info.state_class, row.options, await self.store.moves(row.id))
            except Exception as exc:
                log.warning("game %s cannot be replayed: %s", row.id, exc)
                await self.store.finish_game(row.id, Outcome(
                    None, Termination.ABORTED, f"record could not be replayed: {exc}").to_json())
                continue
            seats = []
            names = seat_names(row.players)
            for player, label in enumerate(row.players):
                kind, _name, level = parse_seat_label(label)
                seats.append(Seat(player, kind, names[player], level))
            turns = None
            if row.id in by_turns:
                seconds, (turn0, turn1) = by_turns[row.id]
                turns = TurnTimes(self.clock, seconds, [turn0, turn1])
            match = Match(self.store, self.config, self.finished, GameId(row.id), info, state, seats, self.computer,
                          self.ratings, self.limits, turns, self._tell, offers.get(row.id))
            if turns is not None:
                match.chat.lines.extend(await self.store.chat_thread(row.id))
            if match.ended:          # its last move stored, not its end (an older release)
                await match.settle()
                continue
            if match.computers_only:  # its watcher is gone with the restart: nobody watches
                await self.store.finish_game(row.id, Outcome(
                    None, Termination.ABORTED, "nobody was watching").to_json())
                continue
            self.live[GameId(row.id)] = match
            if turns is not None:
                match.go()         # a pass the rules make is applied at once
        if unknown:          # kept for a release that has the door again, and said once
            log.warning("unfinished games kept but not played, for doors this release does not have: %s",
                        ", ".join(unknown))

    async def stop(self) -> None:
        if self._watch is not None:
            self._watch.cancel()
        for match in self.live.values():
            match.stop()
