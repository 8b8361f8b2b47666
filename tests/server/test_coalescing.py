"""News to the lobbies comes in coalesced deliveries: a burst of logins or
chat lines redraws each lobby a bounded number of times, whatever its size,
and a lobby whose who-list looks the same is not woken at all."""
from __future__ import annotations

import asyncio
import dataclasses

import pytest

from server.services import events as E
from server.services.ids import NodeId
from server.services.lobby import LobbyChat
from server.services.nodes import LOBBY, NodeRegistry

HOUR = 3600.0     # a delivery interval no test outlasts: a second delivery comes only when asked


class Clock:
    """The registry's clock, moved by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@dataclasses.dataclass(eq=False)
class Lobby:
    """A session as the server runs one: an inbox item wakes it, it handles
    everything queued by then, and draws once (one redraw)."""
    node: NodeId
    handle: str
    location: str = LOBBY
    closed: bool = False
    is_sysop: bool = False
    redraws: int = 0
    news: int = 0
    chat: list[str] = dataclasses.field(default_factory=list)
    _woken: bool = False

    def send(self, event: object) -> None:
        if isinstance(event, E.NodesChanged):
            self.news += 1
        elif isinstance(event, E.Chat):
            self.chat.append(event.text)
        if not self._woken:
            self._woken = True
            asyncio.get_running_loop().call_soon(self._draw)

    def _draw(self) -> None:
        self._woken = False
        self.redraws += 1

    def flash(self, text: str) -> None:
        pass


def arrive(nodes: NodeRegistry[Lobby], handle: str, **kw: object) -> Lobby:
    lobby = nodes.admit("127.0.0.1", lambda node: Lobby(node, handle, **kw))  # type: ignore[arg-type]
    nodes.changed()
    return lobby


async def settle() -> None:
    """Let every woken lobby draw (each takes one turn of the loop)."""
    for _ in range(3):
        await asyncio.sleep(0)


async def burst(nodes: NodeRegistry[Lobby], k: int) -> list[Lobby]:
    """``k`` callers log in one after the other, each in its own turn of the loop."""
    came = []
    for i in range(k):
        came.append(arrive(nodes, f"caller{i}"))
        await asyncio.sleep(0)
    return came


@pytest.mark.parametrize("k", [10, 1000])
async def test_a_burst_of_logins_redraws_each_lobby_at_most_twice_whatever_its_size(k):
    clock = Clock()
    nodes: NodeRegistry[Lobby] = NodeRegistry(k + 100, k + 100, debounce=HOUR, refresh_every=2 * HOUR,
                                              clock=clock)
    lobbies = [arrive(nodes, f"old{i}") for i in range(20)]
    await settle()
    clock.now += HOUR
    nodes.deliver()                  # the interval passes: what was pending goes out
    await settle()
    before = [lobby.redraws for lobby in lobbies]
    await burst(nodes, k)
    clock.now += HOUR
    nodes.deliver()                  # the interval passes once
    await settle()
    # at most the delivery at the burst's start and the one after the interval
    assert all(lobby.redraws - was <= 2 for lobby, was in zip(lobbies, before, strict=True))
    assert all(lobby.redraws - was >= 1 for lobby, was in zip(lobbies, before, strict=True))
    assert len(nodes.online()) == k + 20


@pytest.mark.parametrize("k", [10, 1000])
async def test_a_burst_of_chat_lines_redraws_each_lobby_at_most_twice_and_none_is_lost(k):
    nodes: NodeRegistry[Lobby] = NodeRegistry(100, 100, debounce=HOUR)
    lobbies = [arrive(nodes, f"old{i}") for i in range(20)]
    chat = LobbyChat(nodes)
    nodes.deliver()
    await settle()
    before = [lobby.redraws for lobby in lobbies]
    for i in range(k):
        chat.post(f"old{i % 20}", f"line {i}", f"10.0.{i // 250}.{i % 250}")
        await asyncio.sleep(0)
    nodes.deliver()
    await settle()
    assert all(lobby.redraws - was <= 2 for lobby, was in zip(lobbies, before, strict=True))
    said = lobbies[0].chat                   # (the abuse limits stop most of a long burst)
    numbers = [int(text.split()[1]) for text in said]
    assert said and numbers == sorted(numbers) and said[-len(chat.log.lines):] == [
        text for _, text in chat.log.lines][-len(said):]
    assert all(lobby.chat == said for lobby in lobbies)


async def test_lobbies_hear_nothing_when_what_their_who_list_shows_did_not_change():
    nodes: NodeRegistry[Lobby] = NodeRegistry(100, 100, debounce=HOUR, shown=8, clock=Clock())
    lobbies = [arrive(nodes, f"old{i}") for i in range(12)]
    sysop = arrive(nodes, "Sysop", is_sysop=True)
    nodes.deliver()
    await settle()
    news = [lobby.news for lobby in lobbies]
    sysop_news = sysop.news
    lobbies[10].location = "Stratego"          # node 11 starts a game: below the shown eight
    nodes.changed()
    at_login = nodes.admit("127.0.0.1", lambda node: Lobby(node, ""))   # no handle yet: not listed
    nodes.changed()
    nodes.deliver()
    await settle()
    assert [lobby.news for lobby in lobbies] == news
    assert sysop.news == sysop_news + 1        # the console lists every node and where it is
    lobbies[2].location = "Stratego"           # node 3 starts a game: in the list
    nodes.changed()
    nodes.deliver()
    await settle()
    assert [lobby.news for lobby in lobbies] == [n + 1 for n in news]
    assert at_login.news == 0


async def test_with_many_on_the_intervals_grow_so_redraws_a_second_stay_bounded():
    nodes: NodeRegistry[Lobby] = NodeRegistry(20000, 20000, debounce=0.25, redraw_rate=4000)
    assert nodes.interval() == 0.25 and nodes.count_interval() == nodes.COUNT_EVERY
    for i in range(10000):
        nodes.admit("127.0.0.1", lambda node, i=i: Lobby(node, f"c{i}"))  # type: ignore[misc]
    assert nodes.interval() == 2.5          # 10,000 screens at 4,000 a second
    assert nodes.count_interval() == 10000 / nodes.COUNT_RATE


async def counted(callers: int) -> tuple[Clock, NodeRegistry[Lobby], list[Lobby], list[int]]:
    """A registry that shows eight callers by name, with ``callers`` on and
    told: its clock, the lobbies, and the news each has heard so far."""
    clock = Clock()
    nodes: NodeRegistry[Lobby] = NodeRegistry(1000, 1000, debounce=0.0, shown=8, clock=clock)
    nodes.COUNT_EVERY = HOUR                 # (no count timer comes due while the test runs)
    nodes.refresh_every = 2 * HOUR
    lobbies = [arrive(nodes, f"old{i}") for i in range(callers)]
    clock.now += HOUR
    nodes.deliver()
    await settle()
    return clock, nodes, lobbies, [lobby.news for lobby in lobbies]


async def test_a_new_count_alone_waits_for_its_interval_and_then_comes_once():
    clock, nodes, lobbies, news = await counted(10)
    for i in range(50):                      # below the eight shown: only the count changes
        arrive(nodes, f"new{i}")
        nodes.deliver()
        await settle()
    assert [lobby.news for lobby in lobbies] == news
    clock.now += nodes.count_interval()
    nodes.changed()
    nodes.deliver()
    await settle()
    assert [lobby.news for lobby in lobbies] == [n + 1 for n in news]


async def test_a_count_that_came_back_before_it_was_told_is_told_all_the_same():
    """A caller beyond the eight shown logs on and off within the count's
    interval. A lobby that drew meanwhile (its clock's minute) shows the
    count with them; so once the interval is over the lobbies hear the
    count again, though it is back to the one they were last told."""
    clock, nodes, lobbies, news = await counted(9)
    late = arrive(nodes, "late")
    nodes.deliver()
    await settle()
    assert nodes.first_online(8)[1] == 10    # what a lobby drawing now shows
    nodes.release(late, "127.0.0.1")
    nodes.deliver()
    await settle()
    assert [lobby.news for lobby in lobbies] == news       # within the interval: not yet
    clock.now += nodes.count_interval()
    nodes.changed()                          # as the count's timer does when it comes due
    nodes.deliver()
    await settle()
    assert [lobby.news for lobby in lobbies] == [n + 1 for n in news]


async def test_with_so_many_on_that_a_count_would_wait_a_minute_the_lobbies_own_refresh_shows_it():
    clock = Clock()
    nodes: NodeRegistry[Lobby] = NodeRegistry(10000, 10000, debounce=0.0, clock=clock)
    lobbies = [arrive(nodes, f"c{i}") for i in range(int(nodes.COUNT_RATE * 60))]
    nodes.deliver()
    await settle()
    assert nodes.count_interval() >= nodes.refresh_every
    news = lobbies[0].news
    arrive(nodes, "another")
    clock.now += HOUR
    nodes.deliver()
    await settle()
    assert lobbies[0].news == news
