"""The composition root: builds the services, hands them to the fronts
(telnet, RLogin, the sysop socket) and to each session's screens, and
starts and stops them. Nothing below imports it.

    fronts (server.net)  --connection-->  App.handle_connection  -->  Session
    screens (server.screens)  --calls-->  services (server.services)
    services  --events through session inboxes-->  screens
"""
from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from doors import registry
from server.config import Config
from server.net.rlogin import RloginHandshake
from server.net.streams import StreamConnection, start_rlogin
from server.net.sysop_socket import start_sysop_listener, stop_sysop_listener
from server.net.telnet import start_telnet
from server.net.terminal import Connection
from server.screens.console import open_console
from server.screens.login import TitleScreen, enter_as
from server.screens.session import Screen, Services, Session
from server.services import events as E
from server.services.bbs_accounts import admit_bbs_caller
from server.services.board import ChallengeBoard
from server.services.ids import NodeId
from server.services.jobs import DoorJobs
from server.services.lobby import LobbyChat
from server.services.login_guard import LoginGuard
from server.services.matches import MatchManager
from server.services.nodes import NodeRegistry, Origin
from server.services.store import Store
from server.services.thinkers import ComputerPlayers
from server.startup import listening

__all__ = ["App"]

log = logging.getLogger("gatehouse")

FirstScreen = Callable[[Session], Awaitable[Screen]]


class App:
    def __init__(self, config: Config):
        self.config = config
        self.store = Store(config.database)
        self.nodes: NodeRegistry[Session] = NodeRegistry(config.max_sessions, config.max_per_ip)
        self.login_guard = LoginGuard(base=config.login_fail_delay)
        self.computer = ComputerPlayers(config.computer_workers)
        self.matches = MatchManager(self.store, config, self.computer)
        self.services = Services(
            config=config, store=self.store, nodes=self.nodes,
            board=ChallengeBoard(self.nodes), lobby=LobbyChat(self.nodes),
            matches=self.matches, login_guard=self.login_guard,
            jobs=DoorJobs(registry().values(), config.doors))
        self.started = time.time()
        self._servers: list[Any] = []
        self._rlogin: asyncio.base_events.Server | None = None
        self._sysop: asyncio.base_events.Server | None = None

    # ----- what tests and the command line read --------------------------------
    @property
    def sessions(self) -> dict[NodeId, Session]:
        return self.nodes.sessions

    def find_session(self, handle: str) -> Session | None:
        return self.nodes.find(handle)

    @property
    def port(self) -> int:
        """The telnet port actually bound (useful with port 0)."""
        server = self._servers[0]
        inner = getattr(server, "_server", server)
        return int(inner.sockets[0].getsockname()[1])

    @property
    def rlogin_port(self) -> int:
        return int(self._rlogin.sockets[0].getsockname()[1]) if self._rlogin else 0

    # ----- life ------------------------------------------------------------------
    async def start(self) -> None:
        """Open the store and listen; on any failure nothing is left open
        (no listener, no database thread) and the error is raised."""
        await self.store.open()
        try:
            await self._start()
        except BaseException:
            await self._abort()
            raise

    async def _start(self) -> None:
        cfg = self.config
        await self.matches.restore()
        async with listening("telnet", "server", cfg.host, cfg.port):
            server = await start_telnet(cfg.host, cfg.port, self._telnet_caller,
                                        cfg.telnet_timeout_minutes, cfg.connect_maxwait)
        self._servers.append(server)
        log.info("Gatehouse listening on %s port %s", cfg.host, self.port)
        self.services.jobs.start()
        if cfg.rlogin_enabled:
            async with listening("RLogin", "rlogin", cfg.rlogin_host, cfg.rlogin_port):
                self._rlogin = await start_rlogin(cfg.rlogin_host, cfg.rlogin_port, cfg.rlogin_allow,
                                                  self._admit_bbs_caller, self._bbs_caller)
            log.info("RLogin listening on %s port %s", cfg.rlogin_host, self.rlogin_port)
        try:
            self._sysop = await start_sysop_listener(cfg.sysop_socket, self._console)
            log.info("Sysop console socket at %s", cfg.sysop_socket)
        except OSError as exc:
            log.error("no sysop console: cannot listen on %s: %s", cfg.sysop_socket, exc)

    def _close_listeners(self) -> None:
        for server in self._servers + ([self._rlogin] if self._rlogin else []):
            server.close()

    async def _abort(self) -> None:
        self._close_listeners()
        await self.services.jobs.stop()
        try:
            await self.matches.stop()
            await self.computer.close()
        finally:
            await self.store.close()

    async def stop(self) -> None:
        self._close_listeners()
        if self._sysop is not None:
            stop_sysop_listener(self._sysop, self.config.sysop_socket)
        for session in list(self.nodes.sessions.values()):
            session.send(E.Kick("the server is shutting down"))
        await asyncio.sleep(0.1)
        await self.services.jobs.stop()
        await self.matches.stop()
        await self.computer.close()
        await self.store.close()

    # ----- the fronts hand over connections ------------------------------------
    async def _telnet_caller(self, conn: Connection) -> None:
        await self.handle_connection(conn)

    async def _admit_bbs_caller(self, address: str, handshake: RloginHandshake) -> str:
        return await admit_bbs_caller(self.store, self.config, address, handshake)

    async def _bbs_caller(self, conn: StreamConnection, handle: str) -> None:
        await self.handle_connection(conn, origin=Origin.RLOGIN, handle=handle)

    async def _console(self, conn: StreamConnection) -> None:
        await self.handle_connection(conn, origin=Origin.SYSOP, first_screen=open_console)

    async def handle_connection(self, conn: Connection, origin: Origin = Origin.TELNET,
                                handle: str | None = None,
                                first_screen: FirstScreen | None = None) -> None:
        """Run one caller's session from connect to goodbye. ``first_screen``
        (the sysop console) builds the first screen instead of the login."""
        # (a BBS hands over many callers from one address: RLogin is
        # limited by its allow-list instead)
        refusal = self.nodes.refusal(conn.peer, limit_per_ip=origin == Origin.TELNET)
        if refusal is not None:
            conn.write(f"\r\n{refusal}\r\n".encode())
            await conn.drain()
            return
        session = self.nodes.admit(conn.peer, lambda node: Session(self.services, conn, node, origin))
        try:
            if first_screen is not None:
                first = await first_screen(session)
            else:
                first = await enter_as(session, handle) if handle else TitleScreen(session)
            await session.run(first)
        finally:
            self.nodes.release(session, conn.peer)
            if session.handle:
                await self.services.board.leave(session.handle)
