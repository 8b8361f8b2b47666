"""The computer players' thinking: a bounded pool of worker processes.

A computer seat never thinks on the server's event loop nor in one of its
threads (the GIL would make every caller wait on it). The match asks
``ComputerPlayers.choose(make_bot, level, seed, observation, player)``; a
worker process builds ``make_bot(level, seed)`` and answers
``choose(observation, player)``. A worker that dies mid-think is replaced
and the same question is asked again, so the game waits and goes on.

Workers run at a lower priority (``nice``) than the server, so a game
against the computer does not take the CPU from callers' keys. Workers
live as long as the server: what a bot loads once per process
(a door's prepared table) is loaded once per worker, not per move.

Many games at once take turns (``FairQueue``): a question goes to a worker
only when one is free, and the games waiting are served one question each,
in turn, so a game that asks several at once (or again at once) does not
hold up the others. When questions wait, each one is given less time: its
think budget is the door's own (a bot's ``time_cap``, or all its search
budget for a door that takes ``time_scale``) times
``workers / (questions being thought out or waiting)``, and times
``1 - waited / WAIT_SECONDS`` for a question that waited in the queue
(one that waited long is answered quickly, so the queue drains), never
less than ``MIN_SCALE`` of it; with no queue it is the door's own. A door
whose bot splits its think (``DoorInfo.bot_parts``) has a question spread
over all the workers when it is the only one: the move comes sooner, at its
full budget; a question asked meanwhile waits for it as for any other.
"""
from __future__ import annotations

import asyncio
import collections
import importlib
import itertools
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any

from doors._ai.worker import WorkerSeat

__all__ = ["ComputerPlayers", "FairQueue", "factory_path"]


def factory_path(make_bot: Callable[..., Any]) -> str:
    """``"module:name"`` by which a worker process finds ``make_bot``.

    Raises ValueError for a factory a worker could not import (a lambda, a
    local function): a door's ``make_bot`` must be a module-level name."""
    module, name = getattr(make_bot, "__module__", None), getattr(make_bot, "__qualname__", "")
    found = getattr(importlib.import_module(module), name, None) if module else None
    if found is not make_bot:
        raise ValueError(f"a computer player's factory must be a module-level name, not {make_bot!r}")
    return f"{module}:{name}"


class FairQueue:
    """Turns at ``slots`` workers for many games: a game's questions wait in
    its own line, and the games with one waiting are served in turn (the
    game served longest ago first). ``behind`` keeps, per question served,
    how many other questions were started while it waited, and
    ``behind_one`` the most of them that came from any one other game (the
    fairness: a game asking in a burst holds up the others by one question)."""

    SERVED_KEPT = 1000    # the questions started lately whose games are kept (for ``behind_one``)

    def __init__(self, slots: int):
        self.slots = max(1, slots)
        self.running = 0
        self.started = 0
        self._lines: collections.OrderedDict[Hashable, collections.deque[
            tuple[asyncio.Future[None], int]]] = collections.OrderedDict()
        self.behind: collections.deque[int] = collections.deque(maxlen=10000)
        self.behind_one: collections.deque[int] = collections.deque(maxlen=10000)
        # the games of the questions started lately, the newest last
        self._served: collections.deque[Hashable] = collections.deque(maxlen=self.SERVED_KEPT)

    @property
    def waiting(self) -> int:
        return sum(len(line) for line in self._lines.values())

    def load(self) -> int:
        """Questions being thought out or waiting."""
        return self.running + self.waiting

    async def acquire(self, game: Hashable) -> None:
        """Wait for ``game``'s turn at a worker (then call ``release``)."""
        if self.running < self.slots and not self._lines:
            self._start(game, 0)
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._lines.setdefault(game, collections.deque()).append((future, self.started))
        try:
            await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():
                self.release()            # the turn came as the asker gave up: pass it on
            else:
                self._forget(game, future)
            raise

    def take_idle(self, game: Hashable, n: int) -> int:
        """All ``n`` slots at once for one question of ``game`` when no
        other question is being thought out or waits (then ``release``
        each); 0, taking none, otherwise."""
        if self.running or self._lines or n > self.slots:
            return 0
        self._start(game, 0)
        self.running += n - 1
        return n

    def release(self) -> None:
        self.running -= 1
        while self.running < self.slots and self._lines:
            game, line = next(iter(self._lines.items()))
            future, since = line.popleft()
            if line:
                self._lines.move_to_end(game)      # its next question waits for the others
            else:
                del self._lines[game]
            if not future.done():
                self._start(game, self.started - since)
                future.set_result(None)

    def _start(self, game: Hashable, behind: int) -> None:
        self.running += 1
        self.started += 1
        self.behind.append(behind)
        ahead = collections.Counter(g for g in itertools.islice(
            reversed(self._served), min(behind, len(self._served))) if g != game)
        self.behind_one.append(max(ahead.values(), default=0))
        self._served.append(game)

    def _forget(self, game: Hashable, future: asyncio.Future[None]) -> None:
        line = self._lines.get(game)
        if line is not None:
            for item in [item for item in line if item[0] is future]:
                line.remove(item)
            if not line:
                del self._lines[game]


class ComputerPlayers:
    """Owns the worker processes every computer seat thinks in."""

    NICE = 10       # workers think at a lower priority than the server's callers
    MIN_SCALE = 0.25  # the least share of a bot's own time budget a busy pool gives a question
    WAIT_SECONDS = 1.0  # a question that waited this long in the queue gets ``MIN_SCALE``

    def __init__(self, workers: int = 2, retries: int = 5,
                 prepare: Sequence[tuple[Callable[..., Any], tuple[Any, ...]]] = ()):
        """``prepare``: calls each worker makes as it starts, before its first
        question (``(function, args)``; module-level functions and picklable
        arguments). A door's own files reach its computer player as its
        ``bot_options``, with each question, not through ``prepare``."""
        self._seat = WorkerSeat(workers=max(1, workers), retries=retries, nice=self.NICE,
                                prepare=tuple((factory_path(fn), tuple(args)) for fn, args in prepare))
        self.queue = FairQueue(max(1, workers))

    @property
    def restarts(self) -> int:
        """How many times a dead worker pool was replaced."""
        return self._seat.restarts

    def worker_pids(self) -> list[int]:
        return self._seat.pids()

    def time_scale(self, waited: float = 0.0) -> float:
        """The share of a bot's own time budget the next question gets,
        when it waited ``waited`` seconds for its turn."""
        share = min(1.0, self.queue.slots / max(1, self.queue.load())) * max(0.0, 1.0 - waited / self.WAIT_SECONDS)
        return max(self.MIN_SCALE, share)

    async def choose(self, make_bot: Callable[..., Any], level: int, seed: int,
                     observation: Any, player: int, game: Hashable = None,
                     options: Mapping[str, Any] | None = None, parts: int = 1) -> Any:
        """The action ``make_bot(level, seed)`` (``make_bot(level, seed,
        options)`` with ``options``: the door's ``bot_options``) chooses,
        thought out in a worker when ``game``'s turn in the queue comes.
        ``parts`` above 1 (a door whose bot splits its think): when no other
        question is being thought out or waits, the move is spread over
        that many workers (at most all of them) at its full budget."""
        path = factory_path(make_bot)
        parts = min(parts, self.queue.slots)
        if parts > 1 and self.queue.take_idle(game, parts):
            try:
                return await self._seat.choose_split_async(path, level, seed, observation, player, options, parts)
            finally:
                for _ in range(parts):
                    self.queue.release()
        loop = asyncio.get_running_loop()
        asked = loop.time()
        await self.queue.acquire(game)
        try:
            scale = self.time_scale(loop.time() - asked)
            return await self._seat.choose_async(path, level, seed, observation, player, options,
                                                 time_scale=scale if scale < 1.0 else None)
        finally:
            self.queue.release()

    async def close(self) -> None:
        """Stop the workers (waits for a move being thought out, off the loop)."""
        await asyncio.to_thread(self._seat.close)
