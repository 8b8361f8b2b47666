"""The running server: configuration, the store, the nodes (sessions), the
lobby chat, challenges and matches. Passed explicitly to every session; the
only shared state, reached through its methods, and sessions hear from each
other only through their inboxes."""
from __future__ import annotations

import asyncio
import collections
import logging
import sys
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from doors import registry

from . import events as E
from .chat import ChatLog, RateLimit, clean_chat
from .config import Config
from .store import Store

if TYPE_CHECKING:
    from .screens import Screen
    from .session import Session
    from .terminal import Connection

__all__ = ["App"]

log = logging.getLogger("gatehouse")


class App:
    def __init__(self, config: Config):
        self.config = config
        self.store = Store(config.database)
        self.sessions: dict[int, Session] = {}
        self.lobby_chat = ChatLog()
        self.challenges: dict[int, Any] = {}
        self.sysop_available = False
        self.pages: list[E.Page] = []
        self._next_challenge = 1
        self._per_ip: collections.Counter[str] = collections.Counter()
        self._servers: list[Any] = []
        self._rlogin: Any = None
        self._nodes_timer: asyncio.TimerHandle | None = None
        self._online: list[Session] | None = None
        self._background: list[asyncio.Task[None]] = []
        self._sysop: Any = None
        from .match import MatchManager
        self.matches = MatchManager(self)
        from .ratings import RatingBook
        self.ratings = RatingBook(self.store)
        from .login_guard import LoginGuard
        self.login_guard = LoginGuard(base=config.login_fail_delay)
        self.started = time.time()

    # ----- life -------------------------------------------------------------
    async def start(self) -> None:
        """Open the store and listen; on any failure nothing is left open
        (no listener, no database thread) and the error is raised."""
        await self.store.open()
        try:
            await self._start()
        except BaseException:
            await self._abort()
            raise

    async def _abort(self) -> None:
        for server in self._servers + ([self._rlogin] if self._rlogin else []):
            server.close()
        for task in self._background:
            task.cancel()
        try:
            await self.matches.stop()
        finally:
            await self.store.close()

    async def _start(self) -> None:
        from .startup import listening
        from .telnet import start_telnet
        await self.matches.restore()
        await self.ratings.load()
        async with listening("telnet", "server", self.config.host, self.config.port):
            server = await start_telnet(self.config.host, self.config.port, self.handle_connection,
                                        self.config.telnet_timeout_minutes,
                                        self.config.connect_maxwait)
        self._servers.append(server)
        log.info("Gatehouse listening on %s port %s", self.config.host, self.port)
        if self.config.awari_build_endgame and "awari" in registry():
            self._background.append(asyncio.create_task(self._build_awari_table()))
        if self.config.rlogin_enabled:
            from .streams import start_rlogin
            async with listening("RLogin", "rlogin", self.config.rlogin_host,
                                 self.config.rlogin_port):
                self._rlogin = await start_rlogin(self)
            log.info("RLogin listening on %s port %s", self.config.rlogin_host, self.rlogin_port)
        from .sysop import start_sysop_listener
        try:
            self._sysop = await start_sysop_listener(self)
            log.info("Sysop console socket at %s", self.config.sysop_socket)
        except OSError as exc:
            log.error("no sysop console: cannot listen on %s: %s", self.config.sysop_socket, exc)

    async def _build_awari_table(self) -> None:
        """Build Awari's endgame table when it is missing or out of date, in a
        low-priority child process (about two minutes on two cores)."""
        from doors.awari import endgame
        if await asyncio.to_thread(endgame.is_current):
            return
        log.info("building the Awari endgame table in the background")
        proc = await asyncio.create_subprocess_exec(
            "nice", "-n", "15", sys.executable, "-m", "doors.awari.endgame", "build",
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL)
        try:
            await proc.wait()
        except asyncio.CancelledError:
            proc.kill()
            raise
        log.info("Awari endgame table build finished (exit %s)", proc.returncode)

    @property
    def rlogin_port(self) -> int:
        return int(self._rlogin.sockets[0].getsockname()[1]) if self._rlogin else 0

    @property
    def port(self) -> int:
        """The telnet port actually bound (useful with port 0)."""
        server = self._servers[0]
        inner = getattr(server, "_server", server)
        return int(inner.sockets[0].getsockname()[1])

    async def stop(self) -> None:
        for server in self._servers + ([self._rlogin] if self._rlogin else []):
            server.close()
        if self._sysop is not None:
            from .sysop import stop_sysop_listener
            stop_sysop_listener(self, self._sysop)
        for session in list(self.sessions.values()):
            session.send(E.Kick("the server is shutting down"))
        await asyncio.sleep(0.1)
        for task in self._background:
            task.cancel()
        await self.matches.stop()
        await self.store.close()

    # ----- nodes ------------------------------------------------------------
    async def handle_connection(self, conn: Connection, origin: str = "telnet",
                                handle: str | None = None,
                                first_screen: Callable[[Session], Awaitable[Screen]] | None = None,
                                ) -> None:
        """Run one caller's session from connect to goodbye. ``first_screen``
        (the sysop console) builds the first screen instead of the login."""
        from .login import TitleScreen, enter_as
        from .session import Session
        if len(self.sessions) >= self.config.max_sessions:
            conn.write(b"\r\nGatehouse is full right now. Please call again later.\r\n")
            await conn.drain()
            return
        if origin == "telnet" and self._per_ip[conn.peer] >= self.config.max_per_ip:
            # (a BBS hands over many callers from one address: RLogin is
            # limited by its allow-list instead)
            conn.write(b"\r\nToo many connections from your address.\r\n")
            await conn.drain()
            return
        node = next(n for n in range(1, len(self.sessions) + 2) if n not in self.sessions)
        session = Session(self, conn, node, origin)
        self.sessions[node] = session
        self._per_ip[conn.peer] += 1
        try:
            if first_screen is not None:
                first = await first_screen(session)
            else:
                first = await enter_as(session, handle) if handle else TitleScreen(session)
            await session.run(first)
        finally:
            self.sessions.pop(node, None)
            self._per_ip[conn.peer] -= 1
            if self._per_ip[conn.peer] <= 0:
                del self._per_ip[conn.peer]
            self.withdraw_challenges(session)
            self.nodes_changed()

    def online(self) -> list[Session]:
        """Logged-in sessions by node (sorted once per change of the node
        list, not on every lobby draw)."""
        if self._online is None:
            self._online = sorted((s for s in self.sessions.values() if s.handle),
                                  key=lambda s: s.node)
        return [s for s in self._online if not s.closed]

    def find_session(self, handle: str) -> Session | None:
        key = handle.casefold()
        return next((s for s in self.online() if s.handle.casefold() == key), None)

    NODES_DEBOUNCE = 0.25   # seconds: many joins at once make one broadcast

    def nodes_changed(self) -> None:
        """Tell every session that the node list changed (at most one
        broadcast per NODES_DEBOUNCE, so a rush of callers costs little)."""
        self._online = None
        if self._nodes_timer is None:
            self._nodes_timer = asyncio.get_running_loop().call_later(
                self.NODES_DEBOUNCE, self._broadcast_nodes)

    def _broadcast_nodes(self) -> None:
        self._nodes_timer = None
        for session in self.online():
            session.send(E.NodesChanged())

    # ----- lobby chat -------------------------------------------------------
    def post_lobby(self, session: Session, text: str, limit: RateLimit) -> str | None:
        """Send a lobby chat line; returns a reason if refused."""
        text = clean_chat(text)
        if not text:
            return None
        if not limit.allow():
            return "Slow down: at most 5 chat lines in 10 seconds."
        self.lobby_chat.add(session.handle, text)
        for other in self.online():
            other.send(E.Chat("lobby", session.handle, text))
        return None

    # ----- the sysop ---------------------------------------------------------
    def sysop_sessions(self) -> list[Session]:
        return [s for s in self.online() if s.is_sysop]

    def page_sysop(self, session: Session, reason: str) -> str:
        """A caller pages the sysop; returns what to tell the caller."""
        reason = clean_chat(reason)[:60]
        page = E.Page(session.handle, reason, time.time())
        self.pages = (self.pages + [page])[-20:]
        consoles = self.sysop_sessions()
        for console in consoles:
            console.send(page)
        log.info("page from %s: %s", session.handle, reason)
        if not consoles:
            return "The sysop is not at the console; your page is kept for later."
        return "The sysop has been paged."

    # ----- challenges -------------------------------------------------------
    def new_challenge_id(self) -> int:
        self._next_challenge += 1
        return self._next_challenge - 1

    def withdraw_challenges(self, session: Session) -> None:
        for ch in list(self.challenges.values()):
            if session.handle and session.handle in (ch.challenger, ch.target):
                ch.state = "withdrawn"
                self.challenges.pop(ch.id, None)
                for other in (self.find_session(ch.challenger), self.find_session(ch.target)):
                    if other is not None and other is not session:
                        other.send(E.ChallengeEvent(ch))
