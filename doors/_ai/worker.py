"""Run any door's computer player in worker processes (not on the event loop).

A bot is named by plain, picklable arguments: the dotted path of its
factory (``"doors.stratego.ai:make_bot"``), a level, a seed and the door's
options. The worker builds ``make_bot(level, seed)`` (or
``make_bot(level, seed, options)`` when options are given) and answers
``bot.choose(observation, player)``; the observation travels pickled.

A worker that dies mid-think (killed, out of memory) breaks the pool: the
seat makes a new pool and asks again, up to ``retries`` times, so a computer
game waits and goes on instead of failing.

    seat = WorkerSeat(workers=2)
    action = seat.choose("doors.stratego.ai:make_bot", 5, seed, obs, player)
    action = await seat.choose_async(...)          # from an asyncio task
    action = await seat.choose_split_async(..., parts=2)   # a SplitBot over two workers
    seat.close()
"""
from __future__ import annotations

import asyncio
import importlib
import inspect
import multiprocessing
import multiprocessing.connection
import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import cast

from doors._core.door import Bot, SplitBot
from doors._core.game import Options, Player

__all__ = ["WorkerSeat", "think", "think_part", "think_merge"]


Prepare = tuple[tuple[str, tuple[object, ...]], ...]  # ("module:name", args) run in each worker
# A bot's factory found by name. The worker hands it only its own door's
# observations, which travel pickled: to the worker they are plain objects.
Factory = Callable[..., object]
# think's arguments: factory, level, seed, observation, player, options, time_scale
Question = tuple[str, int, "int | None", object, Player, "Options | None", "float | None"]


def _worker_start(nice: int, prepare: Prepare = ()) -> None:
    """In each worker as it starts: lower its priority by ``nice``, run the
    ``prepare`` calls (a door learning where its files are, as the server
    told it at start), and end the worker when the process that made the
    pool ends (even by SIGKILL), so no worker outlives its server."""
    if nice:
        os.nice(nice)
    for path, args in prepare:
        _factory(path)(*args)
    parent = multiprocessing.parent_process()
    if parent is not None:
        def orphaned() -> None:
            multiprocessing.connection.wait([parent.sentinel])
            os._exit(1)
        threading.Thread(target=orphaned, name="parent-watch", daemon=True).start()


def _factory(path: str) -> Factory:
    module, _, name = path.partition(":")
    found: Factory = getattr(importlib.import_module(module), name or "make_bot")
    return found


def _time_cap(make: Factory, time_scale: float | None) -> dict[str, float]:
    """What tells a factory to think shorter (a busy pool): ``time_scale=``
    itself if it takes that, else ``time_cap=`` as ``time_scale`` of its
    default; nothing for a factory that takes neither."""
    if time_scale is None:
        return {}
    try:
        params = inspect.signature(make).parameters
    except (TypeError, ValueError):
        return {}
    if "time_scale" in params:
        return {"time_scale": time_scale}
    param = params.get("time_cap")
    if param is None or not isinstance(param.default, (int, float)):
        return {}
    return {"time_cap": param.default * time_scale}


def think(factory: str, level: int, seed: int | None, observation: object, player: Player,
          options: Options | None = None, time_scale: float | None = None) -> object:
    """Build the bot and choose (runs in the worker; also callable in-process).
    ``time_scale``: the share of the bot's own time cap it may use."""
    make = _factory(factory)
    cap = _time_cap(make, time_scale)
    made = make(level, seed, **cap) if options is None else make(level, seed, dict(options), **cap)
    bot = cast(Bot[object, object], made)    # the door's own bot, given its own observation
    return bot.choose(observation, player)


def _split_bot(factory: str, level: int, seed: int | None, options: Options | None) -> SplitBot[object, object]:
    make = _factory(factory)
    made = make(level, seed) if options is None else make(level, seed, dict(options))
    return cast(SplitBot[object, object], made)    # a door with bot_parts above 1 makes these


def think_part(factory: str, level: int, seed: int | None, observation: object, player: Player,
               options: Options | None, part: int, parts: int) -> object:
    """Share ``part`` of ``parts`` of a split bot's think (runs in a worker)."""
    return _split_bot(factory, level, seed, options).choose_part(observation, player, part, parts)


def think_merge(factory: str, level: int, seed: int | None, observation: object, player: Player,
                options: Options | None, parts: Sequence[object]) -> object:
    """The action from a split bot's parts (runs in a worker)."""
    return _split_bot(factory, level, seed, options).merge(observation, player, parts)


class WorkerSeat:
    """A pool of bot worker processes that survives a dead worker."""

    def __init__(self, workers: int = 1, retries: int = 3, start_method: str = "spawn",
                 nice: int = 0, prepare: Prepare = ()):
        self.workers = workers
        self.retries = retries
        self.nice = nice                   # workers' niceness: above 0 yields the CPU to the server
        self.prepare = prepare
        self._context = multiprocessing.get_context(start_method)
        self._lock = threading.Lock()
        self._pool: ProcessPoolExecutor | None = None
        self.restarts = 0

    def _current(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._pool is None:
                self._pool = ProcessPoolExecutor(self.workers, mp_context=self._context,
                                                 initializer=_worker_start,
                                                 initargs=(self.nice, self.prepare))
            return self._pool

    def _renew(self, broken: ProcessPoolExecutor) -> None:
        with self._lock:
            if self._pool is broken:       # only the first caller to notice renews it
                self._pool = None
                self.restarts += 1
        broken.shutdown(wait=False, cancel_futures=True)

    def submit(self, args: Question) -> tuple[ProcessPoolExecutor, Future[object]]:
        return self._submit(think, args)

    def _submit(self, fn: Callable[..., object],
                args: tuple[object, ...]) -> tuple[ProcessPoolExecutor, Future[object]]:
        pool = self._current()
        try:
            return pool, pool.submit(fn, *args)
        except (BrokenProcessPool, RuntimeError):    # broken, or shut down by another caller
            self._renew(pool)
            pool = self._current()
            return pool, pool.submit(fn, *args)

    async def _run(self, fn: Callable[..., object], args: tuple[object, ...]) -> object:
        """``fn(*args)`` in a worker, asked again in a new pool if a worker
        dies meanwhile (up to ``retries`` times)."""
        for attempt in range(self.retries + 1):
            pool, future = self._submit(fn, args)
            try:
                return await asyncio.wrap_future(future)
            except BrokenProcessPool:
                self._renew(pool)
                if attempt == self.retries:
                    raise
        raise AssertionError("unreachable")

    async def choose_split_async(self, factory: str, level: int, seed: int | None, observation: object,
                                 player: Player, options: Options | None, parts: int) -> object:
        """A split bot's action: its ``parts`` thought out in workers side
        by side, then merged in one. A part lost with a dead worker is
        asked again, so the move waits and comes."""
        found = await asyncio.gather(*(
            self._run(think_part, (factory, level, seed, observation, player, options, part, parts))
            for part in range(parts)))
        return await self._run(think_merge, (factory, level, seed, observation, player, options, found))

    def choose(self, factory: str, level: int, seed: int | None, observation: object,
               player: Player, options: Options | None = None) -> object:
        """The bot's action (blocks the calling thread)."""
        args: Question = (factory, level, seed, observation, player, options, None)
        for attempt in range(self.retries + 1):
            pool, future = self.submit(args)
            try:
                return future.result()
            except BrokenProcessPool:
                self._renew(pool)
                if attempt == self.retries:
                    raise
        raise AssertionError("unreachable")

    async def choose_async(self, factory: str, level: int, seed: int | None, observation: object,
                           player: Player, options: Options | None = None,
                           time_scale: float | None = None) -> object:
        """The bot's action, awaited without blocking the event loop."""
        args: Question = (factory, level, seed, observation, player, options, time_scale)
        return await self._run(think, args)

    def pids(self) -> list[int]:
        """Process ids of the live workers (for monitoring and tests)."""
        pool = self._pool
        procs = getattr(pool, "_processes", None) or {}
        return [p.pid for p in procs.values() if p.pid is not None]

    def close(self) -> None:
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
