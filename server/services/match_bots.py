"""The computer's turns in a match: ``BotDriver`` asks ``ComputerPlayers``
(worker processes) for an action whenever a computer seat is to move, and
proposes it to the match like any seat; the match alone applies it.

It also plays the moves the rules make for a caller (an automatic pass) and,
once both sides agreed to auto finish, every seat.
"""
from __future__ import annotations

import asyncio
import logging
import random
from typing import Any, Protocol

from doors._core.door import AnyState, DoorInfo
from server.config import Config
from server.services.seats import Seat, SeatKind
from server.services.store import WriteFailed
from server.services.thinkers import ComputerPlayers

__all__ = ["BotDriver", "BotTable", "WRITE_RETRY"]

WRITE_RETRY = 5.0      # seconds before the computer tries a move the disk refused again

log = logging.getLogger("gatehouse.match")


class BotTable(Protocol):
    """What the driver reads of its match (``server.services.match.Match``)."""
    id: Any
    info: DoorInfo
    config: Config
    computer: ComputerPlayers
    seats: list[Seat]
    state: AnyState
    autoplay: bool

    @property
    def ended(self) -> bool: ...

    @property
    def suspended(self) -> bool: ...

    async def submit(self, player: int, action: Any) -> str | None: ...


class BotDriver:
    """One task per computer seat whose turn it is; cancelled when the game
    ends, waits (a caller left) or stops."""

    def __init__(self, match: BotTable):
        self._match = match
        self._tasks: dict[int, asyncio.Task[None]] = {}

    def __repr__(self) -> str:
        return f"BotDriver({self._tasks})"

    def level_for(self, player: int) -> int | None:
        """The level the computer plays ``player``'s seat at (None: a caller plays it)."""
        match = self._match
        seat = match.seats[player]
        if seat.kind == SeatKind.BOT:
            return seat.level
        return match.info.levels[1] if match.autoplay else None

    @staticmethod
    def _ours(task: asyncio.Task[None], proposer: asyncio.Future[Any] | None) -> bool:
        """Whether ``task`` is the one asking: the current task, or the
        ``proposer`` whose move the match is seeing through for it."""
        return task is asyncio.current_task() or task is proposer

    def _idle(self, player: int, proposer: asyncio.Future[Any] | None) -> bool:
        task = self._tasks.get(player)
        return task is None or task.done() or self._ours(task, proposer)

    def drive(self, proposer: asyncio.Future[Any] | None = None) -> None:
        """Start a turn for every seat the computer (or the rules) must move
        now; ``proposer``: the turn whose move was just applied (it ends as
        soon as it hears so, so the computer's next turn may start)."""
        match = self._match
        if match.ended or match.suspended:
            return
        for player in match.state.to_move():
            level = self.level_for(player)
            forced = match.state.forced_action(player)
            if forced is not None and level is None:
                if self._idle(player, proposer):
                    self._tasks[player] = asyncio.create_task(self._forced(player, forced))
            elif level is not None and self._idle(player, proposer):
                self._tasks[player] = asyncio.create_task(self._turn(player, level))

    def running(self, proposer: asyncio.Future[Any] | None = None) -> bool:
        """Whether the calling task, or ``proposer``, is one of this driver's turns."""
        return any(self._ours(task, proposer) for task in self._tasks.values())

    def cancel(self, proposer: asyncio.Future[Any] | None = None) -> None:
        """Stop every turn in progress (except the one calling this, or ``proposer``)."""
        for task in self._tasks.values():
            if not self._ours(task, proposer):
                task.cancel()

    async def _forced(self, player: int, action: Any) -> None:
        """Apply a move the rules make for a caller (an automatic pass)."""
        try:
            await asyncio.sleep(self._match.config.timing.bot_min_delay)
            while True:
                try:
                    await self._match.submit(player, action)
                    return
                except WriteFailed:     # not stored (the store logs it): try again in a while
                    await asyncio.sleep(WRITE_RETRY)
        except asyncio.CancelledError:
            pass

    async def _turn(self, player: int, level: int) -> None:
        """Think (the match's turn in the computer's queue), and play no
        sooner than ``bot_min_delay`` after the turn began: the delay that
        lets a caller see the move runs while the computer thinks."""
        match = self._match
        loop = asyncio.get_running_loop()
        try:
            began = loop.time()
            refused = 0
            while refused < 3:
                if match.ended or match.suspended or player not in match.state.to_move():
                    return
                obs = match.state.observation(player)
                seed = (match.seats[player].seed or 0) + len(match.state.history)
                try:
                    action = await match.computer.choose(match.info.make_bot, level, seed, obs, player,
                                                         game=match.id, options=match.info.bot_options or None,
                                                         parts=match.info.bot_parts)
                except Exception:
                    log.exception("bot for %s in game %s failed", match.info.key, match.id)
                    action = None
                await asyncio.sleep(max(0.0, began + match.config.timing.bot_min_delay - loop.time()))
                if match.ended or match.suspended or player not in match.state.to_move():
                    return
                if action is None or match.state.why_illegal(player, action) is not None:
                    legal = match.state.legal_actions(player)
                    if not legal:
                        return
                    action = random.choice(legal)
                try:
                    if await match.submit(player, action) is None:
                        return
                    refused += 1
                except WriteFailed:     # not stored (the store logs it): try again in a while
                    await asyncio.sleep(WRITE_RETRY)
        except asyncio.CancelledError:
            pass
