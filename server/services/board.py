"""The challenge board: the only code that makes, answers or ends a
challenge. Callers and the sysop use the same calls, so withdraw, accept,
decline and expire mean the same for everyone.

A challenge is a frozen value: each change replaces it, and the new value
goes to the seats concerned as ``events.ChallengeEvent``. Every call
decides and changes the board before its first ``await``, so two seats
racing (one accepts while the other withdraws) cannot both win: the first
call settles the challenge and the second is refused.

A by-turns challenge (``move_seconds`` > 0) may go to a caller who is not
on: it is kept in the store and waits for the target's next call (through
restarts); it does not expire, and it stays when either side hangs up.
"""
from __future__ import annotations

import asyncio
import dataclasses
import logging
import time
from collections.abc import Callable, Mapping
from typing import Generic

from doors import registry
from server.services.challenge import Challenge, ChallengeEvent, ChallengeState
from server.services.ids import ChallengeId, MonoTime
from server.services.limits import AbuseLimits
from server.services.nodes import TAKES_CHALLENGES, N, NodeRegistry
from server.services.store import AccountKind, Store, WaitingChallengeRow, WriteFailed

__all__ = ["ChallengeState", "Challenge", "ChallengeEvent", "ChallengeBoard", "CHALLENGE_TTL"]

log = logging.getLogger("gatehouse.board")

CHALLENGE_TTL = 600.0     # seconds an unanswered challenge stays open
MAX_WAITING = 20          # by-turns challenges one caller may have waiting


class ChallengeBoard(Generic[N]):
    def __init__(self, nodes: NodeRegistry[N], ttl: float = CHALLENGE_TTL,
                 clock: Callable[[], float] = time.monotonic, store: Store | None = None,
                 limits: AbuseLimits | None = None, news: Callable[[str, str, bool], None] | None = None):
        self._nodes = nodes
        self._news = news           # (handle, text, keep): the server's news to a caller, kept if away
        self._store = store
        self._limits = limits if limits is not None else AbuseLimits(clock=clock)
        self.ttl = ttl
        self._clock = clock
        self._open: dict[ChallengeId, Challenge] = {}
        self._next = 1
        self._timer: asyncio.TimerHandle | None = None

    # ----- what screens read ------------------------------------------------
    def get(self, challenge_id: ChallengeId) -> Challenge | None:
        return self._open.get(challenge_id)

    def incoming(self, handle: str) -> list[Challenge]:
        """Open challenges sent to ``handle``, oldest first."""
        key = handle.casefold()
        return [c for c in self._open.values() if c.target.casefold() == key]

    def outgoing(self, handle: str) -> list[Challenge]:
        key = handle.casefold()
        return [c for c in self._open.values() if c.challenger.casefold() == key]

    async def restore(self) -> None:
        """After a restart: the by-turns challenges waiting in the store."""
        if self._store is None:
            return
        unknown: list[str] = []
        for row in await self._store.waiting_challenges():
            if row.door in registry():
                self._open[ChallengeId(row.id)] = Challenge(
                    ChallengeId(row.id), row.challenger, row.target, row.door, row.options,
                    MonoTime(self._clock()), move_seconds=row.move_seconds)
            else:
                unknown.append(f"{row.id} ({row.door})")
            self._next = max(self._next, row.id + 1)
        if unknown:         # kept for a release that has the door again, and said once
            log.warning("by-turns challenges kept but not shown, for doors this release does not have: %s",
                        ", ".join(unknown))

    # ----- changes ----------------------------------------------------------
    async def offer(self, challenger: str, target: str, door: str,
                    options: Mapping[str, object], move_seconds: float = 0.0) -> tuple[Challenge | None, str]:
        """Put up a challenge and tell its target: (the challenge or None,
        what to tell the challenger)."""
        if move_seconds > 0:
            return await self._offer_by_turns(challenger, target, door, options, move_seconds)
        seat = self._nodes.find(target)
        # the sysop hears of a challenge in a game too, and answers it on the console
        if seat is None or (seat.location not in TAKES_CHALLENGES and not seat.is_sysop):
            return None, f"{target} is not in the lobby any more."
        if target.casefold() == challenger.casefold():
            return None, "You cannot challenge yourself."
        if door not in registry():
            return None, "There is no such door."
        key = seat.handle.casefold()
        if any(c.target.casefold() == key and not c.by_turns for c in self.outgoing(challenger)):
            return None, f"You already have a challenge waiting for {seat.handle}."
        refused = self._limits.challenge(challenger)
        if refused is not None:
            return None, refused
        challenge = Challenge(ChallengeId(self._next), challenger, seat.handle, door,
                              dict(options), MonoTime(self._clock()))
        self._next += 1
        self._open[challenge.id] = challenge
        self._arm_expiry()
        seat.send(ChallengeEvent(challenge))
        return challenge, f"Challenge sent to {seat.handle}. Waiting for an answer (x withdraws)."

    async def _offer_by_turns(self, challenger: str, target: str, door: str,
                              options: Mapping[str, object], move_seconds: float) -> tuple[Challenge | None, str]:
        user = await self._store.get_user(target) if self._store is not None else None
        if user is None or user.kind not in (AccountKind.TELNET, AccountKind.BBS):
            return None, f"There is no caller called {target}."
        if user.handle.casefold() == challenger.casefold():
            return None, "You cannot challenge yourself."
        if door not in registry():
            return None, "There is no such door."
        mine = self.outgoing(challenger)
        if any(c.by_turns and c.target.casefold() == user.handle.casefold() for c in mine):
            return None, f"Your challenge to {user.handle} is still waiting for an answer."
        if sum(c.by_turns for c in mine) >= MAX_WAITING:
            return None, f"You have {MAX_WAITING} challenges waiting: withdraw one first (x)."
        refused = self._limits.challenge(challenger)
        if refused is not None:
            return None, refused
        challenge = Challenge(ChallengeId(self._next), challenger, user.handle, door, dict(options),
                              MonoTime(self._clock()), move_seconds=move_seconds)
        self._next += 1
        self._open[challenge.id] = challenge
        assert self._store is not None
        try:
            await self._store.save_waiting_challenge(WaitingChallengeRow(
                challenge.id, challenger, user.handle, door, dict(options), move_seconds, time.time()))
        except WriteFailed:       # not stored: it is not on the board either
            self._open.pop(challenge.id, None)
            raise
        seat = self._nodes.find(user.handle)
        if seat is not None:
            seat.send(ChallengeEvent(challenge))
        return challenge, (f"Challenge sent to {user.handle}: it waits for their next call"
                           " (x withdraws).")

    async def withdraw(self, challenge_id: ChallengeId, by: str) -> str:
        """The challenger takes an open challenge back: nobody can accept it
        any more, and the target is told."""
        challenge = self._open.get(challenge_id)
        if challenge is None:
            return "That challenge is no longer open."
        if challenge.challenger.casefold() != by.casefold():
            return "Only the challenger can withdraw a challenge."
        await self._settle(challenge, ChallengeState.WITHDRAWN, tell=(challenge.target,))
        return "Challenge withdrawn."

    async def decline(self, challenge_id: ChallengeId, by: str) -> str:
        challenge = self._open.get(challenge_id)
        if challenge is None:
            return "That challenge is no longer open."
        if challenge.target.casefold() != by.casefold():
            return "Only the one challenged can decline."
        await self._settle(challenge, ChallengeState.DECLINED, tell=(challenge.challenger,))
        if challenge.by_turns and self._news is not None and self._nodes.find(challenge.challenger) is None:
            title = registry()[challenge.door].title if challenge.door in registry() else challenge.door
            self._news(challenge.challenger, f"{challenge.target} declined your {title} challenge.", True)
        return f"You declined {challenge.challenger}'s challenge."

    async def accept(self, challenge_id: ChallengeId, by: str) -> tuple[Challenge | None, str]:
        """The target accepts: (the accepted challenge, "") when the match
        may start, else (None, why not). The caller then starts the match."""
        challenge = self._open.get(challenge_id)
        if challenge is None:
            return None, "That challenge is no longer open."
        if challenge.target.casefold() != by.casefold():
            return None, "Only the one challenged can accept."
        if challenge.by_turns:        # the challenger need not be on; ``started`` or ``reopen`` follows
            return self._close(challenge, ChallengeState.ACCEPTED, tell=()), ""
        challenger = self._nodes.find(challenge.challenger)
        if challenger is None or challenger.location not in TAKES_CHALLENGES:
            self._close(challenge, ChallengeState.WITHDRAWN, tell=())
            return None, f"{challenge.challenger} is no longer in the lobby."
        return self._close(challenge, ChallengeState.ACCEPTED, tell=()), ""

    def started(self, accepted: Challenge) -> None:
        """The game of an accepted by-turns challenge is stored (and the
        challenge out of the store with it): the challenger is told."""
        self._tell(accepted, (accepted.challenger,))

    def reopen(self, accepted: Challenge) -> None:
        """The game of an accepted by-turns challenge could not be stored:
        the challenge waits again, as it still does in the store."""
        self._open[accepted.id] = dataclasses.replace(accepted, state=ChallengeState.OPEN)

    async def leave(self, handle: str) -> None:
        """``handle`` has gone: every challenge made by or to them ends, and
        the other side is told."""
        for challenge in [c for c in self._open.values() if c.involves(handle) and not c.by_turns]:
            other = challenge.target if challenge.challenger.casefold() == handle.casefold() \
                else challenge.challenger
            self._close(challenge, ChallengeState.WITHDRAWN, tell=(other,))

    async def expire(self) -> list[Challenge]:
        """End every challenge left unanswered for ``ttl`` seconds; both
        sides are told. Returns the expired challenges."""
        return self._expire()

    def _expire(self) -> list[Challenge]:
        self._timer = None
        now = self._clock()
        old = [c for c in self._open.values() if now - c.made_at >= self.ttl and not c.by_turns]
        expired = [self._close(c, ChallengeState.EXPIRED, tell=(c.challenger, c.target)) for c in old]
        self._arm_expiry()
        return expired

    # ----- inside -----------------------------------------------------------
    async def _settle(self, challenge: Challenge, state: ChallengeState, tell: tuple[str, ...]) -> None:
        """Close ``challenge`` (withdrawn, declined); a by-turns one leaves
        the store too, and if the store refuses, it stays open and nobody
        is told."""
        if not challenge.by_turns:
            self._close(challenge, state, tell)
            return
        closed = self._close(challenge, state, tell=())
        try:
            if self._store is not None:
                await self._store.drop_waiting_challenge(challenge.id)
        except WriteFailed:          # (a cancelled caller's write is seen through by the store)
            self.reopen(closed)
            raise
        self._tell(closed, tell)

    def _close(self, challenge: Challenge, state: ChallengeState, tell: tuple[str, ...]) -> Challenge:
        del self._open[challenge.id]
        closed = dataclasses.replace(challenge, state=state)
        self._tell(closed, tell)
        return closed

    def _tell(self, challenge: Challenge, handles: tuple[str, ...]) -> None:
        for handle in handles:
            seat = self._nodes.find(handle)
            if seat is not None:
                seat.send(ChallengeEvent(challenge))

    def _arm_expiry(self) -> None:
        """Wake at the oldest open challenge's expiry (when a loop runs)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if not any(not c.by_turns for c in self._open.values()):
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        due = min(c.made_at for c in self._open.values() if not c.by_turns) + self.ttl - self._clock()
        self._timer = loop.call_later(max(0.0, due), self._expire)
