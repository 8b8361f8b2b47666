"""The node registry and the lobby chat without sockets."""
from __future__ import annotations

import asyncio

from server.services import events as E
from server.services.limits import AbuseLimits
from server.services.lobby import LobbyChat
from server.services.nodes import NodeRegistry

from .fakes import FakeSeat, seat


async def test_nodes_are_the_lowest_free_numbers_and_limits_are_kept():
    nodes: NodeRegistry[FakeSeat] = NodeRegistry(max_sessions=3, max_per_ip=2)
    a, b = seat(nodes, "Alice"), seat(nodes, "Bob")
    assert (a.node, b.node) == (1, 2)
    assert nodes.refusal("127.0.0.1", limit_per_ip=True) == "Too many connections from your address."
    assert nodes.refusal("127.0.0.1", limit_per_ip=False) is None     # a BBS hands many over
    nodes.release(a, "127.0.0.1")
    assert seat(nodes, "Carol").node == 1
    seat(nodes, "Dave")
    assert nodes.refusal("10.0.0.9", limit_per_ip=True) == "Gatehouse is full right now. Please call again later."


async def test_who_is_on_by_node_found_by_any_case_and_told_of_changes():
    nodes: NodeRegistry[FakeSeat] = NodeRegistry(10, 10, debounce=0.0)
    a, b = seat(nodes, "Alice"), seat(nodes, "Bob", is_sysop=True)
    seat(nodes, "")                                     # still at the login: not listed
    assert nodes.online() == [a, b] and nodes.find("aLiCe") is a and nodes.sysops() == [b]
    b.closed = True
    assert nodes.online() == [a] and nodes.find("Bob") is None
    nodes.set_sysop_available(True)
    assert nodes.sysop_available
    for _ in range(100):
        if any(isinstance(e, E.NodesChanged) for e in a.inbox):
            break
        await asyncio.sleep(0.01)
    assert any(isinstance(e, E.NodesChanged) for e in a.inbox)


async def test_a_closing_session_holds_its_handle_until_it_is_released():
    nodes: NodeRegistry[FakeSeat] = NodeRegistry(10, 10)
    old, new = seat(nodes, ""), seat(nodes, "")
    assert nodes.claim("Zed", old) is None
    old.closed = True                      # its line dropped: it is ending, not yet released
    assert nodes.claim("zed", new) is old
    waiting = asyncio.create_task(nodes.released(old))
    await asyncio.sleep(0.01)
    assert not waiting.done()
    nodes.release(old, "127.0.0.1")
    assert await waiting is True
    assert nodes.claim("Zed", new) is None and await nodes.released(old) is True
    assert await nodes.released(new, timeout=0.01) is False     # never released: the bound


async def test_lobby_chat_is_cleaned_rate_limited_and_reaches_everybody():
    nodes: NodeRegistry[FakeSeat] = NodeRegistry(10, 10)
    a, b = seat(nodes, "Alice"), seat(nodes, "Bob")
    chat = LobbyChat(nodes, limits=AbuseLimits(chat_lines=2, chat_seconds=60))
    assert chat.post("Alice", "hi \x1b[2Jthere\x07", "10.0.0.1") is None
    nodes.deliver()                           # with the next coalesced delivery
    said = [e for e in b.inbox if isinstance(e, E.Chat)]
    assert len(said) == 1 and "\x1b" not in said[0].text and "\x07" not in said[0].text
    assert "there" in said[0].text and [e for e in a.inbox if isinstance(e, E.Chat)] == said
    assert chat.post("Alice", "   ", "10.0.0.1") is None and len(chat.log.lines) == 1     # nothing to say
    chat.post("Alice", "two", "10.0.0.2")
    assert chat.post("Alice", "three", "10.0.0.3") == "Slow down: at most 2 chat lines in 60 seconds."
    assert [text for _, text in chat.log.lines][-1] == "two"


async def test_pages_reach_the_consoles_or_wait_for_one():
    nodes: NodeRegistry[FakeSeat] = NodeRegistry(10, 10)
    seat(nodes, "Alice")
    chat = LobbyChat(nodes, clock=lambda: 1234.0)
    assert chat.page_sysop("Alice", "help\x1b[31m") == "The sysop is not at the console; your page is kept for later."
    sysop = seat(nodes, "Sysop", is_sysop=True)
    assert chat.page_sysop("Alice", "again") == "The sysop has been paged."
    assert [p.reason.startswith("help") and "\x1b" not in p.reason for p in chat.pages] == [True, False]
    assert chat.pages[1].reason == "again" and chat.pages[0].at == 1234.0
    assert [e.reason for e in sysop.inbox if isinstance(e, E.Page)] == ["again"]


async def test_one_caller_cannot_ring_the_console_without_end():
    """A few pages each: the fourth in five minutes is refused, rings no
    bell, and pushes nobody else's page out; another caller still pages."""
    nodes: NodeRegistry[FakeSeat] = NodeRegistry(10, 10)
    sysop = seat(nodes, "Sysop", is_sysop=True)
    chat = LobbyChat(nodes, clock=lambda: 1234.0)
    assert chat.page_sysop("Bob", "my game froze", "10.0.0.2") == "The sysop has been paged."
    for n in range(3):
        assert chat.page_sysop("Mallory", f"hey {n}", "10.0.0.9") == "The sysop has been paged."
    for address in ("10.0.0.9", "10.0.0.10"):                  # nor from another address
        refused = chat.page_sysop("Mallory", "hey again", address)
        assert refused.startswith("You paged the sysop 3 times in 5 minutes"), refused
    assert [p.handle for p in chat.pages] == ["Bob", "Mallory", "Mallory", "Mallory"]
    assert len([e for e in sysop.inbox if isinstance(e, E.Page)]) == 4
    assert chat.page_sysop("Carol", "hello", "10.0.0.3") == "The sysop has been paged."
