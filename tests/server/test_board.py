"""The challenge board without sockets: offer, withdraw, decline, accept,
expire, a seat leaving, and two seats racing to settle one challenge."""
from __future__ import annotations

import asyncio

from server.services.board import ChallengeBoard, ChallengeEvent, ChallengeState
from server.services.nodes import CONSOLE, NodeRegistry

from .fakes import FakeSeat, seat


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def news(s: FakeSeat) -> list[tuple[int, ChallengeState]]:
    return [(e.challenge.id, e.challenge.state) for e in s.inbox if isinstance(e, ChallengeEvent)]


def setup(ttl: float = 600.0) -> tuple[ChallengeBoard, FakeSeat, FakeSeat, FakeSeat, Clock]:
    nodes: NodeRegistry[FakeSeat] = NodeRegistry(100, 10)
    clock = Clock()
    board = ChallengeBoard(nodes, ttl=ttl, clock=clock)
    alice, bob = seat(nodes, "Alice"), seat(nodes, "Bob")
    sysop = seat(nodes, "Sysop", location=CONSOLE, is_sysop=True)
    return board, alice, bob, sysop, clock


async def test_offer_tells_the_target_and_lists_it_on_both_sides():
    board, alice, bob, _sysop, _ = setup()
    ch, message = await board.offer("Alice", "bob", "towers", {"first": 0})
    assert ch is not None and ch.target == "Bob" and ch.state == ChallengeState.OPEN
    assert message.startswith("Challenge sent to Bob")
    assert news(bob) == [(ch.id, ChallengeState.OPEN)] and news(alice) == []
    assert board.incoming("Bob") == [ch] and board.outgoing("alice") == [ch]
    assert board.incoming("Alice") == []


async def test_offer_is_refused_to_someone_not_in_the_lobby_or_to_oneself():
    board, alice, bob, _sysop, _ = setup()
    bob.location = "Towers vs Carol"
    assert (await board.offer("Alice", "Bob", "towers", {}))[0] is None
    assert (await board.offer("Alice", "Nobody", "towers", {}))[0] is None
    assert (await board.offer("Alice", "Alice", "towers", {}))[0] is None
    assert (await board.offer("Alice", "Sysop", "no such door", {}))[0] is None
    assert board.outgoing("Alice") == [] and news(bob) == []


async def test_a_withdrawn_challenge_cannot_be_accepted_by_anyone():
    board, _alice, bob, sysop, _ = setup()
    ch, _ = await board.offer("Sysop", "Bob", "towers", {})
    assert ch is not None
    assert await board.withdraw(ch.id, by="Sysop") == "Challenge withdrawn."
    assert news(bob) == [(ch.id, ChallengeState.OPEN), (ch.id, ChallengeState.WITHDRAWN)]
    for who in ("Bob", "Sysop", "Alice"):
        accepted, reason = await board.accept(ch.id, by=who)
        assert accepted is None and reason == "That challenge is no longer open."
    assert board.incoming("Bob") == [] and board.outgoing("Sysop") == []
    assert await board.withdraw(ch.id, by="Sysop") == "That challenge is no longer open."


async def test_only_the_challenger_withdraws_and_only_the_target_answers():
    board, alice, bob, _sysop, _ = setup()
    ch, _ = await board.offer("Alice", "Bob", "towers", {})
    assert ch is not None
    assert await board.withdraw(ch.id, by="Bob") == "Only the challenger can withdraw a challenge."
    assert (await board.accept(ch.id, by="Alice"))[0] is None
    assert await board.decline(ch.id, by="Alice") == "Only the one challenged can decline."
    assert board.get(ch.id) == ch                     # still open after all that
    accepted, reason = await board.accept(ch.id, by="bob")
    assert accepted is not None and accepted.state == ChallengeState.ACCEPTED and reason == ""
    assert board.get(ch.id) is None
    assert await board.decline(ch.id, by="Bob") == "That challenge is no longer open."


async def test_decline_tells_the_challenger():
    board, alice, _bob, _sysop, _ = setup()
    ch, _ = await board.offer("Alice", "Bob", "awari", {})
    assert ch is not None
    assert await board.decline(ch.id, by="Bob") == "You declined Alice's challenge."
    assert news(alice) == [(ch.id, ChallengeState.DECLINED)]


async def test_accept_is_refused_when_the_challenger_has_left_the_lobby():
    board, alice, _bob, _sysop, _ = setup()
    ch, _ = await board.offer("Alice", "Bob", "towers", {})
    assert ch is not None
    alice.location = "Towers vs Computer (3)"
    accepted, reason = await board.accept(ch.id, by="Bob")
    assert accepted is None and reason == "Alice is no longer in the lobby."
    assert board.get(ch.id) is None


async def test_unanswered_challenges_expire_and_both_sides_hear_it():
    board, alice, bob, _sysop, clock = setup(ttl=60)
    old, _ = await board.offer("Alice", "Bob", "towers", {})
    clock.now += 30
    new, _ = await board.offer("Bob", "Alice", "towers", {})
    assert old is not None and new is not None
    clock.now += 30
    expired = await board.expire()
    assert [c.id for c in expired] == [old.id] and expired[0].state == ChallengeState.EXPIRED
    assert (old.id, ChallengeState.EXPIRED) in news(alice) and (old.id, ChallengeState.EXPIRED) in news(bob)
    assert (await board.accept(old.id, by="Bob"))[0] is None
    assert board.get(new.id) == new


async def test_the_board_expires_challenges_by_itself():
    board, _alice, bob, _sysop, _ = setup(ttl=0.05)
    board._clock = asyncio.get_running_loop().time     # a real clock for this one
    ch, _ = await board.offer("Alice", "Bob", "towers", {})
    assert ch is not None
    for _ in range(500):
        if board.get(ch.id) is None:
            break
        await asyncio.sleep(0.01)
    assert board.get(ch.id) is None and (ch.id, ChallengeState.EXPIRED) in news(bob)


async def test_a_seat_that_leaves_takes_its_challenges_with_it():
    board, alice, bob, sysop, _ = setup()
    mine, _ = await board.offer("Alice", "Bob", "towers", {})
    theirs, _ = await board.offer("Sysop", "Alice", "towers", {})
    other, _ = await board.offer("Bob", "Sysop", "towers", {})
    assert mine and theirs and other
    await board.leave("Alice")
    assert (mine.id, ChallengeState.WITHDRAWN) in news(bob)
    assert (theirs.id, ChallengeState.WITHDRAWN) in news(sysop)
    assert board.get(other.id) == other


async def test_accept_and_withdraw_racing_settle_the_challenge_once():
    for first in ("accept", "withdraw"):
        board, _alice, _bob, _sysop, _ = setup()
        ch, _ = await board.offer("Alice", "Bob", "towers", {})
        assert ch is not None
        accept = board.accept(ch.id, by="Bob")
        withdraw = board.withdraw(ch.id, by="Alice")
        order = [accept, withdraw] if first == "accept" else [withdraw, accept]
        results = await asyncio.gather(*order)
        (accepted, _reason), withdrawn = (results if first == "accept" else results[::-1])
        assert (accepted is not None) != (withdrawn == "Challenge withdrawn.")
        assert (accepted is not None) == (first == "accept")
        assert board.get(ch.id) is None


async def test_two_targets_racing_to_accept_start_one_game():
    board, _alice, _bob, _sysop, _ = setup()
    ch, _ = await board.offer("Alice", "Bob", "towers", {})
    assert ch is not None
    results = await asyncio.gather(*(board.accept(ch.id, by="Bob") for _ in range(5)))
    assert sum(accepted is not None for accepted, _ in results) == 1
