"""The match without sockets or a database: a move is stored before it
becomes the state and is announced; a second submit waits for the first;
a store failure loses nothing and the game goes on."""
from __future__ import annotations

import asyncio
from typing import Any

import pytest

from doors import registry
from server.config import Config, TimingSettings
from server.services.ids import GameId
from server.services.match import Match, MatchEvent, News
from server.services.nodes import NodeRegistry
from server.services.seats import Seat, SeatKind
from server.services.store import StoreError
from server.services.thinkers import ComputerPlayers

from .fakes import FakeSeat, seat


class GatedStore:
    """add_move waits at a gate (a database held by another program) and
    can be made to fail."""

    def __init__(self) -> None:
        self.moves: list[tuple[int, int, str]] = []
        self.gate = asyncio.Event()
        self.gate.set()
        self.writing = asyncio.Event()
        self.fail: Exception | None = None
        self.finished: dict[str, Any] | None = None

    async def add_move(self, game_id: int, ply: int, player: int, action: str, on_retry: Any = None) -> None:
        self.writing.set()
        await self.gate.wait()
        if self.fail is not None:
            raise self.fail
        self.moves.append((ply, player, action))

    async def finish_game(self, game_id: int, outcome: dict[str, Any], on_retry: Any = None,
                          final: tuple[int, int, str] | None = None, rating: Any = None) -> None:
        """The end, with the move that ended the game (one transaction)."""
        self.writing.set()
        await self.gate.wait()
        if self.fail is not None:
            raise self.fail
        if final is not None:
            self.moves.append(final)
        self.finished = outcome


def updates(s: FakeSeat) -> list[MatchEvent]:
    return [e for e in s.inbox if isinstance(e, MatchEvent) and e.kind == News.UPDATE]


def new_match() -> tuple[Match, GatedStore, FakeSeat, FakeSeat]:
    nodes: NodeRegistry[FakeSeat] = NodeRegistry(10, 10)
    alice, bob = seat(nodes, "Alice"), seat(nodes, "Bob")
    info = registry()["towers"]
    state = info.state_class.from_options(info.resolve_options({"first": 0}))
    store = GatedStore()
    seats = [Seat(0, SeatKind.HUMAN, "Alice", session=alice), Seat(1, SeatKind.HUMAN, "Bob", session=bob)]
    match = Match(store, Config(timing=TimingSettings(bot_min_delay=0)), lambda m: None, GameId(1), info, state,  # type: ignore[arg-type]
                  seats, ComputerPlayers(workers=1))
    return match, store, alice, bob


def mover(match: Match) -> int:
    return match.state.to_move()[0]


async def test_submit_stores_then_applies_then_announces():
    match, store, alice, bob = new_match()
    player = mover(match)
    action = match.state.legal_actions(player)[0]
    assert await match.submit(player, action) is None
    assert store.moves == [(1, player, match.state.action_to_str(action))]
    assert len(match.state.history) == 1
    assert len(updates(alice)) == 1 and len(updates(bob)) == 1


async def test_an_illegal_or_out_of_turn_action_is_refused_and_not_stored():
    match, store, alice, _bob = new_match()
    player = mover(match)
    action = match.state.legal_actions(player)[0]
    reason = await match.submit(1 - player, action)
    assert reason and store.moves == [] and not match.state.history and updates(alice) == []


async def test_a_second_submit_waits_while_the_first_is_being_stored():
    match, store, alice, _bob = new_match()
    player = mover(match)
    first = match.state.legal_actions(player)[0]
    store.gate.clear()                                  # the database is busy
    one = asyncio.create_task(match.submit(player, first))
    await store.writing.wait()
    two = asyncio.create_task(match.submit(player, first))   # the same key pressed twice
    await asyncio.sleep(0)
    # nothing is shown or applied while the move is not on disk
    assert not match.state.history and updates(alice) == [] and store.moves == []
    store.gate.set()
    assert await one is None
    second = await two
    # the second was checked against the state after the first: stored once,
    # or (if the rules let the same player move again) stored as the next ply
    plies = [ply for ply, _, _ in store.moves]
    assert plies == list(range(1, len(plies) + 1)) and len(match.state.history) == len(plies)
    assert (second is None) == (len(plies) == 2)


async def test_a_store_failure_loses_nothing_and_the_game_goes_on():
    match, store, alice, _bob = new_match()
    player = mover(match)
    action = match.state.legal_actions(player)[0]
    store.fail = StoreError("disk full")
    with pytest.raises(StoreError):
        await match.submit(player, action)
    assert not match.state.history and store.moves == [] and updates(alice) == []
    store.fail = None
    assert await match.submit(player, action) is None     # the lock was released
    assert len(match.state.history) == 1 and len(store.moves) == 1


async def test_the_opponent_is_told_why_a_caller_left():
    """A caller whose time on their BBS ran out: the game is suspended as
    after a dropped line, and the other player reads why."""
    match, _store, alice, bob = new_match()
    match.detach(bob, why="ran out of time on their BBS")
    told = [e.text for e in alice.inbox if isinstance(e, MatchEvent) and e.kind == News.SUSPENDED]
    assert told and told[-1].startswith("Bob ran out of time on their BBS: the game is suspended")
    assert match.suspended
