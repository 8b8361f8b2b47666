"""The match manager: live and suspended matches by game id; creates them,
and after a restart rebuilds every unfinished one from its record."""
from __future__ import annotations

import logging
from typing import Any

from doors import registry
from doors._core.door import DoorInfo
from doors._core.game import Outcome, Termination, replay
from server.config import Config
from server.services.ids import GameId
from server.services.match import Match, News
from server.services.seats import Seat, SeatKind, parse_seat_label, seat_label
from server.services.store import Store
from server.services.thinkers import ComputerPlayers

__all__ = ["MatchManager"]

log = logging.getLogger("gatehouse.match")


class MatchManager:
    """Live and suspended matches, by game id."""

    def __init__(self, store: Store, config: Config, computer: ComputerPlayers):
        self.store = store
        self.config = config
        self.computer = computer
        self.live: dict[GameId, Match] = {}

    async def create(self, info: DoorInfo, options: dict[str, Any],
                     seats: list[Seat]) -> Match:
        state = info.state_class.from_options(options)
        labels = (seat_label(seats[0].kind, seats[0].name, seats[0].level),
                  seat_label(seats[1].kind, seats[1].name, seats[1].level))
        game_id = GameId(await self.store.create_game(info.key, state.options, labels))
        match = Match(self.store, self.config, self.finished, game_id, info, state, seats, self.computer)
        self.live[game_id] = match
        return match

    def start(self, match: Match) -> None:
        match.notify(News.START)
        match.go()

    def finished(self, match: Match) -> None:
        self.live.pop(match.id, None)

    def pending_for(self, handle: str) -> list[Match]:
        """Unfinished games in which ``handle`` holds an empty seat."""
        key = handle.casefold()
        return [m for m in self.live.values()
                if not m.ended and any(s.kind == SeatKind.HUMAN and s.session is None
                                       and s.name.casefold() == key for s in m.seats)]

    def playing(self) -> list[Match]:
        return [m for m in self.live.values() if not m.ended]

    async def restore(self) -> None:
        """After a restart: rebuild every unfinished game from its record."""
        doors = registry()
        for row in await self.store.list_games("active", limit=10_000):
            info = doors.get(row.door)
            if info is None:
                continue
            try:
                state = replay(info.state_class, row.options, await self.store.moves(row.id))
            except Exception as exc:
                log.warning("game %s cannot be replayed: %s", row.id, exc)
                await self.store.finish_game(row.id, Outcome(
                    None, Termination.ABORTED, f"record could not be replayed: {exc}").to_json())
                continue
            seats = []
            for player, label in enumerate(row.players):
                kind, name, level = parse_seat_label(label)
                seats.append(Seat(player, kind, name, level))
            match = Match(self.store, self.config, self.finished, GameId(row.id), info, state, seats, self.computer)
            if match.ended and match.outcome is not None:
                await self.store.finish_game(row.id, match.outcome.to_json())
                continue
            self.live[GameId(row.id)] = match

    async def stop(self) -> None:
        for match in self.live.values():
            match.stop()
