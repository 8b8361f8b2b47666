"""The match without sockets or a database: a move is stored before it
becomes the state and is announced; a second submit waits for the first;
a store failure loses nothing and the game goes on."""
from __future__ import annotations

import asyncio
from typing import Any

import pytest

from doors import registry
from doors._core.game import Outcome, Termination
from server.config import Config, ServerSettings, TimingSettings
from server.services.ids import GameId
from server.services.match import Match, MatchEvent, News
from server.services.nodes import NodeRegistry
from server.services.seats import Seat, SeatKind
from server.services.store import StoreError, WriteFailed
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
        self.offers: dict[str, int] = {}

    async def add_move(self, game_id: int, ply: int, player: int, action: str, on_retry: Any = None,
                       answers_offers: bool = False) -> None:
        self.writing.set()
        await self.gate.wait()
        if self.fail is not None:
            raise self.fail
        self.moves.append((ply, player, action))

    async def set_offer(self, game_id: int, kind: str, player: int) -> None:
        if self.fail is not None:
            raise self.fail
        self.offers[kind] = player

    async def finish_game(self, game_id: int, outcome: dict[str, Any], on_retry: Any = None,
                          final: tuple[int, int, str] | None = None, rating: Any = None,
                          answers_offers: bool = False) -> None:
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


def new_match_with(config: Config) -> tuple[Match, GatedStore, FakeSeat, FakeSeat]:
    match, store, alice, bob = new_match()
    match.config = config
    return match, store, alice, bob


async def until(check: Any) -> None:
    """Let the loop run until ``check()`` holds (the timeout only turns a
    hang into a failure)."""
    async with asyncio.timeout(60):
        while not check():
            await asyncio.sleep(0.001)


async def held_move(match: Match, store: GatedStore) -> tuple[int, Any, asyncio.Task[str | None]]:
    """The mover's first legal move submitted while the database is held:
    (player, action, the submitting task), once its write has begun."""
    player = mover(match)
    action = match.state.legal_actions(player)[0]
    store.gate.clear()
    task = asyncio.create_task(match.submit(player, action))
    await store.writing.wait()
    return player, action, task


async def test_a_move_being_stored_when_its_proposer_is_cancelled_is_still_applied():
    """The computer's move is being written when the caller drops (the
    computer's turn is cancelled): the move is stored, so it is applied too,
    and the next move is the next ply, not a clash with the stored one."""
    match, store, alice, bob = new_match()
    player, action, proposer = await held_move(match, store)
    proposer.cancel()
    store.gate.set()
    with pytest.raises(asyncio.CancelledError):
        await proposer
    await until(lambda: len(match.state.history) == 1)
    assert store.moves == [(1, player, match.state.action_to_str(action))]
    assert updates(alice) and updates(bob)           # and both were shown it
    nxt = mover(match)
    assert await match.submit(nxt, match.state.legal_actions(nxt)[0]) is None
    assert [ply for ply, _, _ in store.moves] == [1, 2]


async def test_a_resignation_while_a_move_is_stored_ends_the_game_after_that_move():
    match, store, alice, bob = new_match()
    player, _action, moving = await held_move(match, store)
    resigning = asyncio.create_task(match.resign(1 - player))
    await asyncio.sleep(0)
    assert store.finished is None                    # the end waits for the move
    store.gate.set()
    assert await moving is None
    await resigning
    assert len(store.moves) == 1 and store.finished is not None
    assert match.ended and len(match.state.history) == 1
    assert match.outcome is not None and match.outcome.winner == player


async def test_a_caller_back_while_their_forfeit_is_stored_finds_the_game_over():
    """The forfeit was being written when the caller came back: it is
    stored, so the game is over for everyone (never stored as over while
    the players go on), and nobody is told that the game goes on."""
    config = Config(timing=TimingSettings(bot_min_delay=0), server=ServerSettings(forfeit_minutes=0.0001))
    match, store, alice, bob = new_match_with(config)
    player = mover(match)
    assert await match.submit(player, match.state.legal_actions(player)[0]) is None
    store.writing.clear()
    store.gate.clear()
    match.detach(bob)
    await store.writing.wait()                       # the forfeit is being stored
    match.attach(1, bob)                             # Bob is back a moment late
    store.gate.set()
    await until(lambda: match.ended)
    assert store.finished is not None and store.finished["termination"] == "forfeit"
    assert match.outcome is not None and match.outcome.winner == 0
    assert await match.submit(mover(match), match.state.legal_actions(mover(match))[0]) == "The game is over."
    told = [e.text for e in alice.inbox + bob.inbox if isinstance(e, MatchEvent) and e.kind == News.RESUMED]
    assert told == []


async def test_auto_finish_against_the_computer_is_told_and_recorded_as_the_computers_game():
    """Against the computer, auto finish has the computer play the caller's
    side: the caller is told the game will not be rated, and the facts the
    rating book reads say so."""
    match, _store, alice, _bob = new_match()
    match.seats[1] = Seat(1, SeatKind.BOT, "Computer", 1)
    said = await match.request_auto_finish(0)
    match.stop()
    assert said == "The computer finishes the game (not rated: it plays your side)."
    outcome = Outcome(0, Termination.RULES, "won")
    assert match.facts(outcome, match.state).computer_finished
    human, _, _, _ = new_match()
    human.auto_offer = 1
    assert await human.request_auto_finish(0) == "The computer finishes the game."
    human.stop()
    assert not human.facts(outcome, human.state).computer_finished


class FakeMonotonic:
    """The match's monotonic clock, moved by hand (asyncio keeps its own)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now


def suspensions(s: FakeSeat) -> list[str]:
    return [e.text for e in s.inbox if isinstance(e, MatchEvent) and e.kind == News.SUSPENDED]


async def test_leaving_again_without_moving_does_not_start_the_forfeit_time_over(monkeypatch):
    """A losing caller who drops, returns just before the forfeit and drops
    again has only what is left of the forfeit time; a move earns it back."""
    clock = FakeMonotonic()
    monkeypatch.setattr("server.services.match.time", clock)
    config = Config(timing=TimingSettings(bot_min_delay=0), server=ServerSettings(forfeit_minutes=10))
    match, _store, alice, bob = new_match_with(config)
    assert await match.submit(0, match.state.legal_actions(0)[0]) is None     # Bob to move
    match.detach(bob)
    assert suspensions(alice)[-1].endswith("(forfeit in 10:00).")
    assert match.forfeit_deadline() == 1600.0
    clock.now += 590
    match.attach(1, bob)
    clock.now += 1
    match.detach(bob)
    assert suspensions(alice)[-1].endswith("(forfeit in 0:10).")
    assert match.forfeit_deadline() == 1601.0
    clock.now += 5
    match.attach(1, bob)
    assert await match.submit(1, match.state.legal_actions(1)[0]) is None
    match.detach(bob)
    assert suspensions(alice)[-1].endswith("(forfeit in 10:00).")
    assert match.forfeit_deadline() == clock.now + 600
    match.stop()


async def test_one_who_left_while_the_other_was_away_is_told_of_the_return_and_gets_the_full_time(monkeypatch):
    """Bob drops; Alice, told the game waits, goes to the lobby; Bob comes
    back 9 minutes later. Alice hears of it in the lobby, with the whole
    forfeit time from then, and of the game's end while she is away."""
    clock = FakeMonotonic()
    monkeypatch.setattr("server.services.match.time", clock)
    nodes: NodeRegistry[FakeSeat] = NodeRegistry(10, 10)
    alice, bob = seat(nodes, "Alice"), seat(nodes, "Bob")
    info = registry()["towers"]
    told: list[tuple[str, str]] = []
    config = Config(timing=TimingSettings(bot_min_delay=0), server=ServerSettings(forfeit_minutes=10))
    match = Match(GatedStore(), config, lambda m: None, GameId(1), info,  # type: ignore[arg-type]
                  info.state_class.from_options(info.resolve_options({"first": 0})),
                  [Seat(0, SeatKind.HUMAN, "Alice", session=alice), Seat(1, SeatKind.HUMAN, "Bob", session=bob)],
                  ComputerPlayers(workers=1), tell=lambda handle, text, keep: told.append((handle, text)))
    match.detach(bob)
    clock.now += 60
    match.detach(alice)                                  # to the lobby, waiting
    clock.now += 540
    match.attach(1, bob)
    assert told == [("Alice", "Bob is back in game 1 (Towers): press u in the lobby to resume it "
                              "(forfeit in 10:00).")]
    assert match.forfeit_deadline() == clock.now + 600
    await match.resign(1)                                # and the end reaches her too
    assert told[-1] == ("Alice", "Game 1 (Towers) is over: Bob resigned.")
    match.stop()


async def test_a_turn_goes_on_after_a_suspension_with_the_time_it_had_left(monkeypatch):
    """Five minutes a move: Bob drops 200 s into his turn and comes back
    5 min later; he has 100 s left, not a fresh turn."""
    clock = FakeMonotonic()
    monkeypatch.setattr("server.services.match.time", clock)
    match, _store, alice, bob = new_match()
    assert match.clock.seconds == 300
    match.go()
    assert await match.submit(0, match.state.legal_actions(0)[0]) is None
    assert match.move_time_left(1) == 300
    clock.now += 200
    match.detach(bob)
    assert match.move_time_left(1) is None               # no clock runs while suspended
    clock.now += 300
    match.attach(1, bob)
    assert match.move_time_left(1) == 100
    assert match.move_time_left(0) is None
    assert await match.submit(1, match.state.legal_actions(1)[0]) is None
    assert match.move_time_left(0) == 300                 # Alice's turn: fresh
    match.stop()


async def test_the_time_per_move_stands_still_while_the_sysop_chats_with_the_player(monkeypatch):
    """Bob's turn, 100 s used; the sysop chats with him for 1000 s over his
    board: his turn goes on with 200 s left, not lost on time."""
    clock = FakeMonotonic()
    monkeypatch.setattr("server.services.match.time", clock)
    match, _store, _alice, _bob = new_match()
    match.go()
    assert await match.submit(0, match.state.legal_actions(0)[0]) is None
    clock.now += 100
    match.hold(1, True)
    assert match.move_time_left(1) is None
    clock.now += 1000
    match.hold(1, False)
    assert match.move_time_left(1) == 200
    match.stop()


async def test_an_offer_the_disk_refuses_is_not_made_and_one_stored_stands():
    """An offer stands only once stored (a restart keeps it); a refused
    write says so, and the other side's agreement then finds no offer."""
    match, store, alice, bob = new_match()
    store.fail = WriteFailed("disk full", "database or disk is full")
    assert await match.offer_draw(0) == "Your offer was NOT made: the server's disk is full. Try again later."
    assert match.draw_offer is None and store.offers == {}
    store.fail = None
    assert await match.offer_draw(0) == "Draw offered."
    assert match.draw_offer == 0 and store.offers == {"draw": 0}
    assert await match.offer_draw(1) == "Draw agreed."
    assert match.outcome is not None and match.outcome.termination == Termination.AGREED_DRAW
    match.stop()


async def test_an_auto_finish_request_is_answered_by_the_next_move_and_waits_for_a_drop():
    """A request for auto finish is gone with the next move (as a draw
    offer is): the other side cannot agree to it many moves later; and
    nobody can agree while the asker is away."""
    match, _store, alice, bob = new_match()
    assert await match.request_auto_finish(0) == "Auto finish asked; waiting for your opponent to agree."
    assert await match.submit(0, match.state.legal_actions(0)[0]) is None
    assert match.auto_offer is None
    assert await match.request_auto_finish(1) == "Auto finish asked; waiting for your opponent to agree."
    assert not match.autoplay
    match.detach(bob)
    assert await match.request_auto_finish(0) == "The game is suspended until Bob returns."
    assert not match.autoplay
    match.stop()
