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
"""
from __future__ import annotations

import asyncio
import importlib
from collections.abc import Callable, Sequence
from typing import Any

from doors._ai.worker import WorkerSeat

__all__ = ["ComputerPlayers", "factory_path"]


def factory_path(make_bot: Callable[..., Any]) -> str:
    """``"module:name"`` by which a worker process finds ``make_bot``.

    Raises ValueError for a factory a worker could not import (a lambda, a
    local function): a door's ``make_bot`` must be a module-level name."""
    module, name = getattr(make_bot, "__module__", None), getattr(make_bot, "__qualname__", "")
    found = getattr(importlib.import_module(module), name, None) if module else None
    if found is not make_bot:
        raise ValueError(f"a computer player's factory must be a module-level name, not {make_bot!r}")
    return f"{module}:{name}"


class ComputerPlayers:
    """Owns the worker processes every computer seat thinks in."""

    NICE = 10       # workers think at a lower priority than the server's callers

    def __init__(self, workers: int = 2, retries: int = 5,
                 prepare: Sequence[tuple[Callable[..., Any], tuple[Any, ...]]] = ()):
        """``prepare``: calls each worker makes as it starts, before its first
        question (``(function, args)``; module-level functions and picklable
        arguments): the doors' ``state_folder`` with what the server gave them,
        so a worker's computer finds the door's files (a prepared table)."""
        self._seat = WorkerSeat(workers=max(1, workers), retries=retries, nice=self.NICE,
                                prepare=tuple((factory_path(fn), tuple(args)) for fn, args in prepare))

    @property
    def restarts(self) -> int:
        """How many times a dead worker pool was replaced."""
        return self._seat.restarts

    def worker_pids(self) -> list[int]:
        return self._seat.pids()

    async def choose(self, make_bot: Callable[..., Any], level: int, seed: int,
                     observation: Any, player: int) -> Any:
        """The action ``make_bot(level, seed)`` chooses, thought out in a worker."""
        return await self._seat.choose_async(factory_path(make_bot), level, seed,
                                             observation, player)

    async def close(self) -> None:
        """Stop the workers (waits for a move being thought out, off the loop)."""
        await asyncio.to_thread(self._seat.close)
