"""The node registry: who is on, on which node, and where they are.

It is the only code that adds or removes a node. Sessions hear that the
node list changed through their inboxes (``events.NodesChanged``), and every
broadcast (lobby chat, notices), in coalesced deliveries: at most one per
``interval()``, which is ``debounce`` seconds or, with many sessions on, as
long as it takes to redraw ``redraw_rate`` screens a second (so a rush of
logins costs the same per login at any size). Node news goes to the
screens that show the who-list only when what such a list shows changed:
the first ``shown`` callers (node, handle, where) or the sysop's
availability; or how many are on, at most once per ``count_interval()``
(with so many on that this is ``refresh_every`` or more, never: a who-list
shows the count as it redraws its clock each minute). The sysops' screens
hear of every change.
"""
from __future__ import annotations

import asyncio
import bisect
import collections
import enum
import heapq
import itertools
import time
from collections.abc import Callable
from typing import Generic, Protocol, TypeVar

from server.services import events as E
from server.services.addresses import address_key
from server.services.ids import NodeId

__all__ = ["Node", "N", "NodeRegistry", "Origin", "LOBBY", "CONSOLE", "TAKES_CHALLENGES"]

LOBBY = "lobby"                      # locations the who-list shows
CONSOLE = "sysop console"
TAKES_CHALLENGES = frozenset({LOBBY, CONSOLE})   # where a seat can be challenged and answer


class Origin(enum.StrEnum):
    """How a session came in."""
    TELNET = "telnet"
    RLOGIN = "rlogin"        # handed over by a BBS
    SYSOP = "sysop"          # the sysop console's local socket
    WEB = "web"              # the browser seat


class Node(Protocol):
    """What the services need of a session: who, where, and its inbox."""

    @property
    def node(self) -> NodeId: ...
    @property
    def handle(self) -> str: ...
    @property
    def location(self) -> str: ...
    @property
    def closed(self) -> bool: ...
    @property
    def is_sysop(self) -> bool: ...

    def send(self, event: E.Event) -> None: ...

    def flash(self, text: str) -> None: ...


N = TypeVar("N", bound=Node)


class NodeRegistry(Generic[N]):
    COUNT_EVERY = 5.0       # seconds between two deliveries of a new count alone, at least
    COUNT_RATE = 100.0      # lobbies a second told of a new count alone, at most

    def __init__(self, max_sessions: int, max_per_ip: int, debounce: float = 0.25,
                 shown: int = 8, redraw_rate: float = 2000.0, refresh_every: float = 60.0,
                 clock: Callable[[], float] = time.monotonic):
        self.max_sessions = max_sessions
        self.max_per_ip = max_per_ip
        self.debounce = debounce        # the shortest time between two deliveries
        self.shown = shown              # callers a who-list shows by name (the rest: a count)
        self.redraw_rate = redraw_rate  # screens redrawn a second for news, at most (many on)
        self.refresh_every = refresh_every   # a who-list redraws by itself (its clock) this often
        self._clock = clock
        self.sessions: dict[NodeId, N] = {}
        self.sysop_available = False
        self._per_ip: collections.Counter[str] = collections.Counter()
        self._listed: list[N] = []     # sessions signed in (or made with a handle), by node
        self._timer: asyncio.TimerHandle | None = None
        self._claims: dict[str, N] = {}        # casefolded handle -> the session signed in as it
        self._gone: dict[N, asyncio.Event] = {}  # sessions being taken over -> set when released
        self._free: list[int] = []             # released nodes (a heap), all below _next
        self._next = 1                         # the lowest node never given
        self.generation = 0        # counts changes: a who-list drawn at the same one is the same
        self._pending: list[tuple[E.Event, N | None]] = []   # broadcasts not yet delivered
        self._nodes_dirty = False
        self._head_as: tuple[object, ...] | None = None     # what the who-lists were last told:
        self._count_as = 0                                  # their named part, the count, and when
        self._count_at = -float("inf")
        self._count_timer: asyncio.TimerHandle | None = None
        # the count has been other than the one told since it was told: a
        # lobby that drew meanwhile (its clock, a key) shows that other one,
        # so the count is told even if it is back to the told one
        self._count_moved = False
        self._delivered_at = -float("inf")

    # ----- coming and going -------------------------------------------------
    def refusal(self, peer: str, limit_per_ip: bool) -> str | None:
        """Why a new connection from ``peer`` may not have a node, or None."""
        if len(self.sessions) >= self.max_sessions:
            return "Gatehouse is full right now. Please call again later."
        if limit_per_ip and self._per_ip[address_key(peer)] >= self.max_per_ip:
            return "Too many connections from your address."
        return None

    def admit(self, peer: str, make: Callable[[NodeId], N]) -> N:
        """Give the lowest free node to the session ``make(node)`` builds."""
        while self._free and self._free[0] in self.sessions:
            heapq.heappop(self._free)
        if self._free:
            node = NodeId(heapq.heappop(self._free))
        else:
            node, self._next = NodeId(self._next), self._next + 1
        session = make(node)
        self.sessions[node] = session
        self._per_ip[address_key(peer)] += 1
        if session.handle:
            self._list(session)
        self.generation += 1
        return session

    def _list(self, session: N) -> None:
        """Into the who-list's order (kept sorted as sessions sign in and
        go: no sort of everyone per change; most come after everyone on)."""
        listed = self._listed
        if not listed or listed[-1].node < session.node:
            listed.append(session)
            return
        at = bisect.bisect_left(listed, session.node, key=lambda s: s.node)
        if at == len(self._listed) or self._listed[at] is not session:
            self._listed.insert(at, session)

    def _unlist(self, session: N) -> None:
        at = bisect.bisect_left(self._listed, session.node, key=lambda s: s.node)
        if at < len(self._listed) and self._listed[at] is session:
            del self._listed[at]

    def release(self, session: N, peer: str) -> None:
        if self.sessions.get(session.node) is session:
            del self.sessions[session.node]
            heapq.heappush(self._free, session.node)
            self._unlist(session)
        for handle in [k for k, s in self._claims.items() if s is session]:
            del self._claims[handle]
        gone = self._gone.pop(session, None)
        if gone is not None:
            gone.set()
        key = address_key(peer)       # an IPv6 caller's /64: ``addresses``
        self._per_ip[key] -= 1
        if self._per_ip[key] <= 0:
            del self._per_ip[key]
        self.changed()

    # ----- one session per handle -------------------------------------------
    def claim(self, handle: str, session: N) -> N | None:
        """Make ``handle`` ``session``'s unless another session holds it;
        returns that one (nothing changes), or None. Check and claim happen
        with no await between them: of callers racing for one handle, one
        gets it. The claim lasts until the session is released."""
        key = handle.casefold()
        holder = self._claims.get(key)
        if holder is not None and holder is not session:
            return holder
        self._claims[key] = session
        if self.sessions.get(session.node) is session:
            self._list(session)            # its handle is set with no await between
        return None

    async def take_over(self, holder: N, by: N, timeout: float = 10.0) -> bool:
        """End ``holder``'s session because its caller logged in again on
        ``by``'s node: it hears so (``events.TakenOver``), closes as on a
        dropped line (a game it plays is suspended) and is released. True
        once it is; False if it was not within ``timeout`` seconds."""
        if self.sessions.get(holder.node) is not holder:
            return True
        holder.send(E.TakenOver(by.node))
        return await self.released(holder, timeout)

    async def released(self, holder: N, timeout: float = 10.0) -> bool:
        """Wait until ``holder`` is released (its handle free to claim):
        True once it is, False if it was not within ``timeout`` seconds."""
        if self.sessions.get(holder.node) is not holder:
            return True
        gone = self._gone.setdefault(holder, asyncio.Event())
        try:
            await asyncio.wait_for(gone.wait(), timeout)
        except TimeoutError:
            return False
        return True

    # ----- who is on --------------------------------------------------------
    def _by_node(self) -> list[N]:
        """Logged-in sessions by node, some perhaps just closing (a session
        is listed as it signs in: its handle is set with no await between)."""
        return self._listed

    def online(self) -> list[N]:
        """Logged-in sessions by node."""
        return [s for s in self._by_node() if not s.closed]

    def first_online(self, count: int) -> tuple[list[N], int]:
        """The first ``count`` logged-in sessions by node, and how many are
        logged in (a who-list's head, without a pass over everyone; a
        session that is closing counts until it is released)."""
        everyone = self._by_node()
        return list(itertools.islice((s for s in everyone if not s.closed), count)), len(everyone)

    def find(self, handle: str) -> N | None:
        key = handle.casefold()
        return next((s for s in self.online() if s.handle.casefold() == key), None)

    def sysops(self) -> list[N]:
        return [s for s in self.online() if s.is_sysop]

    def set_sysop_available(self, available: bool) -> None:
        self.sysop_available = available
        self.changed()                       # lobbies redraw "Sysop: ..."

    def kick(self, session: N, reason: str) -> None:
        """Disconnect ``session`` (the sysop's k), telling it why."""
        session.send(E.Kick(reason))

    def broadcast(self, event: E.Event, but: N | None = None) -> None:
        """``event`` to every logged-in session but ``but``, with the next
        coalesced delivery (a session handles what one delivery brings
        before it draws again)."""
        self._pending.append((event, but))
        self._schedule()

    def changed(self) -> None:
        """Somebody came, went or moved: the who-lists hear of it with the
        next delivery, if what they show changed."""
        self.generation += 1
        self._nodes_dirty = True
        if len(self._listed) != self._count_as:
            self._count_moved = True
        self._schedule()

    def interval(self) -> float:
        """The shortest time between two deliveries: ``debounce``, or with
        many sessions on, the time to redraw them all at ``redraw_rate``."""
        return max(self.debounce, len(self.sessions) / self.redraw_rate)

    def count_interval(self) -> float:
        """The shortest time between two deliveries of a new count alone
        ("and 5812 more": a rush of logins changes nothing else):
        ``COUNT_EVERY``, or the time to redraw every lobby at ``COUNT_RATE``."""
        return max(self.COUNT_EVERY, len(self.sessions) / self.COUNT_RATE)

    def _schedule(self) -> None:
        if self._timer is None:
            delay = max(0.0, self._delivered_at + self.interval() - self._clock())
            self._timer = asyncio.get_running_loop().call_later(delay, self.deliver)

    def _shown_now(self) -> tuple[tuple[object, ...], int]:
        head, count = self.first_online(self.shown)
        return tuple((s.node, s.handle, s.location) for s in head) + (self.sysop_available,), count

    def _count_due(self) -> None:
        self._count_timer = None
        self._nodes_dirty = True
        self.deliver()

    def _lists_told(self) -> bool:
        """Whether the who-lists are to hear node news now (their named part
        changed, or their count and its interval has passed; a count that
        must wait is delivered when it has)."""
        now = self._clock()
        head, count = self._shown_now()
        if head == self._head_as and count == self._count_as and not self._count_moved:
            return False
        if head == self._head_as and self.count_interval() >= self.refresh_every:
            return False          # their own refresh comes sooner and shows the count
        if head == self._head_as and now < self._count_at + self.count_interval():
            if self._count_timer is None:
                self._count_timer = asyncio.get_running_loop().call_later(
                    self._count_at + self.count_interval() - now, self._count_due)
            return False
        self._head_as, self._count_as, self._count_at = head, count, now
        self._count_moved = False
        return True

    def deliver(self) -> None:
        """One coalesced delivery: the broadcasts since the last one, and
        node news (to who-lists only if what they show changed; to sysops,
        whose console lists every node, on any change)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        events, self._pending = self._pending, []
        to_lists = to_sysops = False
        if self._nodes_dirty:
            self._nodes_dirty = False
            to_sysops = True
            to_lists = self._lists_told()
        if not (events or to_sysops):
            return
        self._delivered_at = self._clock()
        news = E.NodesChanged()
        for session in self.online():
            for event, but in events:
                if session is not but:
                    session.send(event)
            if to_lists or (to_sysops and session.is_sysop):
                session.send(news)
