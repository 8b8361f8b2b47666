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
from pathlib import Path

from server.config import Config
from server.net.rlogin import RloginHandshake
from server.net.streams import StreamConnection, start_rlogin
from server.net.sysop_socket import start_sysop_listener, stop_sysop_listener
from server.net.telnet import TelnetListener, start_telnet
from server.net.terminal import Connection
from server.net.web import WebListener, start_web
from server.screens.console import open_console
from server.screens.login import TitleScreen, enter_as
from server.screens.session import Screen, Services, Session
from server.services import events as E
from server.services.accounts import Accounts
from server.services.bbs_accounts import admit_bbs_caller
from server.services.board import ChallengeBoard
from server.services.ids import NodeId
from server.services.jobs import DoorJobs
from server.services.limits import AbuseLimits
from server.services.lobby import LobbyChat
from server.services.login_guard import LoginGuard
from server.services.matches import MatchManager
from server.services.messages import CallerMessages
from server.services.nodes import NodeRegistry, Origin
from server.services.ratings import RatingBook
from server.services.store import Store
from server.services.thinkers import ComputerPlayers
from server.services.turn_clock import TurnClock
from server.startup import StartupError, listening

__all__ = ["App"]

log = logging.getLogger("gatehouse")

SHUTDOWN_MESSAGE = "Gatehouse is shutting down for maintenance: your game is saved and waits for you"

FirstScreen = Callable[[Session], Awaitable[Screen]]


class App:
    def __init__(self, config: Config, wall: Callable[[], float] = time.time):
        """``wall``: the wall clock of by-turns games and the lobby's clock (tests pass a fake one)."""
        self.config = config
        self.store = Store(config.store.database, busy_seconds=config.timing.store_busy_seconds)
        self.nodes: NodeRegistry[Session] = NodeRegistry(config.server.max_sessions, config.server.max_per_ip)
        self.login_guard = LoginGuard(base=config.timing.login_fail_delay, store=self.store)
        self.limits = AbuseLimits.from_config(config)
        self.ratings = RatingBook(self.store)
        self.clock = TurnClock(self.store, wall)
        self.doors = config.bound_doors()     # each door with its own folder: two Apps never share one
        self.computer = ComputerPlayers(config.server.computer_workers)
        self.messages = CallerMessages(self.store, self.nodes, self.limits)
        self.matches = MatchManager(self.store, config, self.ratings, self.limits, doors=self.doors,
                                    clock=self.clock, tell=self.messages.news, computer=self.computer)
        self.board = ChallengeBoard(self.nodes, store=self.store, limits=self.limits, news=self.messages.news)
        self.services = Services(
            config=config, store=self.store, nodes=self.nodes,
            board=self.board, lobby=LobbyChat(self.nodes, limits=self.limits),
            matches=self.matches, ratings=self.ratings, login_guard=self.login_guard,
            jobs=DoorJobs(self.doors.values(), config.doors), limits=self.limits,
            accounts=Accounts(self.store, self.nodes, self.ratings, config.sysop.name, self.login_guard),
            messages=self.messages,
            shutdown=self.request_stop)
        self.started = time.time()
        self._servers: list[TelnetListener] = []
        self._rlogin: asyncio.base_events.Server | None = None
        self._sysop: asyncio.base_events.Server | None = None
        self._web: WebListener | None = None
        self._calls: set[asyncio.Task[object]] = set()     # every caller's connection task
        self.stopping: asyncio.Event = asyncio.Event()  # set by the console's shutdown (or a signal)
        self.stop_message = ""                          # the sysop's own shutdown line, if any

    # ----- what tests and the command line read --------------------------------
    @property
    def sessions(self) -> dict[NodeId, Session]:
        return self.nodes.sessions

    def find_session(self, handle: str) -> Session | None:
        return self.nodes.find(handle)

    @property
    def port(self) -> int:
        """The telnet port actually bound (useful with port 0)."""
        return int(self._servers[0].sockets[0].getsockname()[1])

    @property
    def web_port(self) -> int:
        """The browser seat's port actually bound (0: not listening)."""
        return int(self._web.sockets[0].getsockname()[1]) if self._web else 0

    @property
    def rlogin_port(self) -> int:
        return int(self._rlogin.sockets[0].getsockname()[1]) if self._rlogin else 0

    # ----- life ------------------------------------------------------------------
    async def start(self) -> None:
        """Open the store and listen; on any failure nothing is left open
        (no listener, no database thread) and the error is raised."""
        self._configure_doors()
        await self.store.open()
        try:
            await self._start()
        except BaseException:
            await self._abort()
            raise

    def _configure_doors(self) -> None:
        """Make the state directory (each door got its folder there, and its
        settings, when the App bound it: ``Config.bound_doors``)."""
        state = Path(self.config.paths.state_dir)
        try:
            state.mkdir(mode=0o750, parents=True, exist_ok=True)
        except OSError as exc:
            raise StartupError(f"cannot make the state directory {state} ({exc.strerror or exc}): "
                               "set [paths] state_dir to a folder the server may write") from None

    async def _start(self) -> None:
        cfg = self.config
        await self.clock.load()
        await self.login_guard.load()
        await self.board.restore()
        await self.ratings.load()            # (and rate games finished before ratings) before
        await self.matches.restore()         # a restored game that is over is rated from them
        await self.matches.check_clocks()          # time that ran out while we were down
        self.matches.watch_clocks(cfg.timing.clock_check_seconds)
        async with listening("telnet", "server", cfg.server.host, cfg.server.port):
            server = await start_telnet(cfg.server.host, cfg.server.port, self._telnet_caller,
                                        cfg.server.connect_maxwait)
        self._servers.append(server)
        log.info("Gatehouse listening on %s port %s", cfg.server.host, self.port)
        self.services.jobs.start()
        if cfg.rlogin.enabled:
            async with listening("RLogin", "rlogin", cfg.rlogin.host, cfg.rlogin.port):
                self._rlogin = await start_rlogin(cfg.rlogin.host, cfg.rlogin.port, cfg.rlogin.allow,
                                                  self._admit_bbs_caller, self._bbs_caller)
            log.info("RLogin listening on %s port %s", cfg.rlogin.host, self.rlogin_port)
        if cfg.web.enabled:
            async with listening("browsers", "web", cfg.web.host, cfg.web.port):
                self._web = await start_web(cfg.web.host, cfg.web.port, self._browser_caller,
                                            cfg.web.trusted_proxies, cfg.web.origins)
            log.info("Browser seat on http://%s:%s/", cfg.web.host, self.web_port)
        try:
            self._sysop = await start_sysop_listener(cfg.sysop.socket, self._console)
            log.info("Sysop console socket at %s", cfg.sysop.socket)
        except OSError as exc:
            log.error("no sysop console: cannot listen on %s: %s", cfg.sysop.socket, exc)

    def _close_listeners(self) -> None:
        for server in self._servers + [s for s in (self._rlogin, self._web) if s is not None]:
            server.close()

    async def _abort(self) -> None:
        self._close_listeners()
        await self.services.jobs.stop()
        try:
            await self.matches.stop()
            await self.computer.close()
        finally:
            await self.store.close()

    def request_stop(self, message: str = "") -> None:
        """Stop the server (the sysop console's shutdown; ``message`` for the callers)."""
        self.stop_message = message
        self.stopping.set()

    async def stop(self, message: str = "") -> None:
        """Stop listening; tell every caller (and console) ``message`` or
        ``SHUTDOWN_MESSAGE``; give them ``shutdown_grace_seconds`` to read it
        while their sessions end as on a dropped line (live games suspended);
        then close the store."""
        text = message or self.stop_message or SHUTDOWN_MESSAGE
        grace = self.config.server.shutdown_grace_seconds
        for server in self._servers:                  # the listening socket only: the
            server.stop_listening()                   # callers hear the goodbye first
        for listener in (self._rlogin, self._web):
            if listener is not None:
                listener.close()
        if self._sysop is not None:
            stop_sysop_listener(self._sysop, self.config.sysop.socket)
        sessions = list(self.nodes.sessions.values())
        log.info("shutting down: %d on%s", len(sessions), ": " + ", ".join(
            f"{s.handle or '(logging in)'} from {s.conn.peer} ({s.origin.value})" for s in sessions)
            if sessions else "")
        for session in sessions:
            session.send(E.Shutdown(text, grace))
        await self._calls_end(grace + 5.0)
        self._close_listeners()
        await self.services.jobs.stop()
        await self.matches.stop()
        await self.computer.close()
        try:
            await self.clock.beat()           # down from now on: nobody's time
        except Exception as exc:
            log.warning("could not record the time of the stop: %s", exc)
        await self.store.close()
        log.info("Gatehouse stopped cleanly")

    async def _calls_end(self, timeout: float) -> None:
        """Wait for every call to end; one still on after ``timeout`` is cut."""
        calls = {t for t in self._calls if not t.done()}
        if calls:
            _done, late = await asyncio.wait(calls, timeout=timeout)
            for task in late:
                task.cancel()
            if late:
                log.warning("shutting down: %d calls did not end in time and were cut", len(late))
                await asyncio.gather(*late, return_exceptions=True)

    # ----- the fronts hand over connections ------------------------------------
    async def _telnet_caller(self, conn: Connection) -> None:
        await self.handle_connection(conn)

    async def _browser_caller(self, conn: Connection) -> None:
        await self.handle_connection(conn, origin=Origin.WEB)

    async def _admit_bbs_caller(self, address: str, handshake: RloginHandshake) -> str:
        return await admit_bbs_caller(self.store, self.config, address, handshake)

    async def _bbs_caller(self, conn: StreamConnection, handle: str) -> None:
        await self.handle_connection(conn, origin=Origin.RLOGIN, handle=handle,
                                     time_left=conn.minutes_left)

    async def _console(self, conn: StreamConnection) -> None:
        await self.handle_connection(conn, origin=Origin.SYSOP, first_screen=open_console)

    async def handle_connection(self, conn: Connection, origin: Origin = Origin.TELNET,
                                handle: str | None = None,
                                first_screen: FirstScreen | None = None,
                                time_left: float | None = None) -> None:
        """Run one caller's session from connect to goodbye. ``first_screen``
        (the sysop console) builds the first screen instead of the login;
        ``time_left``: minutes the caller has left on their BBS (door mode)."""
        # (a BBS hands over many callers from one address: RLogin is
        # limited by its allow-list instead; the sysop's console, on a socket
        # only the sysop may open, is never turned away, however full or flooded)
        refusal = None if origin == Origin.SYSOP else self.nodes.refusal(
            conn.peer, limit_per_ip=origin in (Origin.TELNET, Origin.WEB))
        if refusal is not None:
            conn.write(f"\r\n{refusal}\r\n".encode())
            await conn.drain()
            return
        session = self.nodes.admit(conn.peer, lambda node: Session(self.services, conn, node, origin))
        if time_left is not None:
            session.clock.limit_bbs(session.connected_at, time_left)
        call = asyncio.current_task()
        if call is not None:
            self._calls.add(call)
            call.add_done_callback(self._calls.discard)
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
        linger = getattr(conn, "linger", None)      # telnet, RLogin: see TelnetConnection.linger
        if linger is not None and not self.stopping.is_set():   # (stopping: the grace was given)
            await linger()
