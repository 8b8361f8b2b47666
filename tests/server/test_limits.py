"""Abuse limits without sockets: kept per account and per address, across
sessions, with a fake clock."""
from __future__ import annotations

from server.services.addresses import address_key
from server.services.board import ChallengeBoard
from server.services.limits import AbuseLimits, KeyedRate
from server.services.nodes import NodeRegistry

from .fakes import FakeSeat, seat


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_sliding_window_per_key():
    clock = Clock()
    rate = KeyedRate(2, 10.0, clock)
    assert rate.take("a")
    clock.now += 5
    assert rate.take("a") and not rate.take("a")
    assert rate.take("b")                                  # another key has its own window
    clock.now += 4.9
    assert not rate.allows("a")
    clock.now += 0.2                                       # the first event has left the window
    assert rate.allows("a") and rate.take("a") and not rate.take("a")


def test_all_keys_or_nothing_is_recorded():
    rate = KeyedRate(1, 10.0, Clock())
    assert rate.take("x")
    assert not rate.take("y", "x")                         # x is full: y is not charged either
    assert rate.take("y")


def test_memory_stays_bounded_however_many_keys():
    clock = Clock()
    rate = KeyedRate(1, 10.0, clock)
    rate.MAX_KEYS = 100
    for i in range(1000):
        rate.take(f"10.0.{i // 256}.{i % 256}")
        clock.now += 0.001
    assert len(rate._times) <= 100


def test_chat_is_limited_per_account_whatever_the_address_and_per_address_whatever_the_account():
    clock = Clock()
    limits = AbuseLimits(chat_lines=2, chat_seconds=10, address_chat_lines=3, clock=clock)
    assert limits.chat("Alice", "10.0.0.1") is None
    assert limits.chat("alice", "10.0.0.2") is None        # a second session of the same account
    assert limits.chat("ALICE", "10.0.0.3") == "Slow down: at most 2 chat lines in 10 seconds."
    # free accounts don't multiply it: one address, many accounts
    assert limits.chat("Bob", "10.0.0.9") is None
    assert limits.chat("Carol", "10.0.0.9") is None
    assert limits.chat("Dave", "10.0.0.9") is None
    assert limits.chat("Erin", "10.0.0.9") == "Slow down: too much chat from your address."
    clock.now += 10
    assert limits.chat("Erin", "10.0.0.9") is None and limits.chat("Alice", "10.0.0.1") is None


def test_new_accounts_per_address_per_hour():
    clock = Clock()
    limits = AbuseLimits(new_accounts=2, clock=clock)
    for _ in range(2):
        assert limits.may_register("10.0.0.1")
        limits.registered("10.0.0.1")
    assert not limits.may_register("10.0.0.1") and limits.may_register("10.0.0.2")
    clock.now += 3600
    assert limits.may_register("10.0.0.1")


async def test_an_ipv6_caller_is_one_address_per_64_for_every_limit():
    """One home or phone gets a whole /64: picking a new address in it is
    not a fresh start (connections, new accounts, chat)."""
    assert address_key("2001:db8:1:2:3:4:5:6") == address_key("2001:db8:1:2::9") == "2001:db8:1:2::/64"
    assert address_key("2001:db8:1:3::9") != address_key("2001:db8:1:2::9")
    assert address_key("::ffff:192.0.2.7") == "192.0.2.7"            # a dual-stack socket's IPv4 caller
    assert address_key("fe80::1%eth0") == "fe80::/64"
    assert address_key("192.0.2.7") == "192.0.2.7" and address_key("local") == "local"
    nodes: NodeRegistry[FakeSeat] = NodeRegistry(20, 2)
    first = nodes.admit("2001:db8:1:2::1", lambda node: FakeSeat(node, "A"))   # type: ignore[arg-type]
    nodes.admit("2001:db8:1:2::2", lambda node: FakeSeat(node, "B"))           # type: ignore[arg-type]
    assert nodes.refusal("2001:db8:1:2::3", True) == "Too many connections from your address."
    assert nodes.refusal("2001:db8:1:3::1", True) is None
    nodes.release(first, "2001:db8:1:2::1")
    assert nodes.refusal("2001:db8:1:2::3", True) is None
    clock = Clock()
    limits = AbuseLimits(new_accounts=1, chat_lines=5, address_chat_lines=2, clock=clock)
    limits.registered("2001:db8:1:2::1")
    assert not limits.may_register("2001:db8:1:2:ffff::1") and limits.may_register("2001:db8:9::1")
    assert limits.chat("Ann", "2001:db8:1:2::1") is None and limits.chat("Ben", "2001:db8:1:2::2") is None
    assert limits.chat("Cid", "2001:db8:1:2::3") == "Slow down: too much chat from your address."


async def test_challenges_are_limited_per_caller_and_one_at_a_time_per_opponent():
    clock = Clock()
    nodes: NodeRegistry[FakeSeat] = NodeRegistry(20, 20)
    seat(nodes, "Mallory")
    targets = [seat(nodes, name) for name in ("Ann", "Ben", "Cid", "Dot", "Eve", "Fay")]
    board = ChallengeBoard(nodes, clock=clock, limits=AbuseLimits(challenges=3, challenge_seconds=60, clock=clock))
    first, _ = await board.offer("Mallory", "Ann", "towers", {})
    assert first is not None
    again, why = await board.offer("Mallory", "Ann", "towers", {})
    assert again is None and why == "You already have a challenge waiting for Ann."
    for target in targets[1:3]:
        made, _ = await board.offer("Mallory", target.handle, "towers", {})
        assert made is not None
    refused, why = await board.offer("Mallory", "Dot", "towers", {})
    assert refused is None and why.startswith("Slow down: at most 3 challenges in 60 seconds")
    assert not any(board.incoming("Dot"))                   # Dot was never bothered
    assert len(board.outgoing("Mallory")) == 3
    clock.now += 60
    made, _ = await board.offer("Mallory", "Dot", "towers", {})
    assert made is not None
