"""Door jobs: the tables doors need prepared before their strongest levels
(``DoorInfo.tables``), built in the background in a low-priority child
process. The only code that starts or watches a build; anyone may read
``status()`` ("missing", "building 40%", "ready") for the sysop console.
"""
from __future__ import annotations

import asyncio
import dataclasses
import enum
import logging
import sys
from collections.abc import Iterable, Mapping
from typing import Any

from doors._core.door import DoorInfo, PreparedTable

__all__ = ["JobState", "TableStatus", "DoorJobs"]

log = logging.getLogger("gatehouse.jobs")


class JobState(enum.StrEnum):
    MISSING = "missing"
    BUILDING = "building"
    READY = "ready"
    FAILED = "failed"


@dataclasses.dataclass(frozen=True)
class TableStatus:
    door: str
    title: str
    state: JobState
    progress: float = 0.0            # 0..1 while building

    def describe(self) -> str:
        if self.state == JobState.BUILDING:
            return f"{self.title}: building {int(self.progress * 100)}%"
        return f"{self.title}: {self.state}"


class DoorJobs:
    def __init__(self, doors: Iterable[DoorInfo], settings: Mapping[str, Mapping[str, Any]]):
        self._wanted: list[tuple[str, PreparedTable]] = [
            (info.key, table) for info in doors for table in info.tables
            if table.enabled_by is None or settings.get(info.key, {}).get(table.enabled_by, True)]
        self._status: dict[tuple[str, str], TableStatus] = {}
        self._tasks: list[asyncio.Task[None]] = []

    def status(self) -> list[TableStatus]:
        return list(self._status.values())

    def start(self) -> None:
        """Check every wanted table, and build the missing ones (one at a time)."""
        if self._wanted and not self._tasks:
            self._tasks.append(asyncio.create_task(self._run()))

    async def _run(self) -> None:
        for door, table in self._wanted:
            await self._prepare(door, table)

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self._tasks.clear()

    def _set(self, door: str, table: PreparedTable, state: JobState, progress: float = 0.0) -> None:
        self._status[(door, table.title)] = TableStatus(door, table.title, state, progress)

    async def _prepare(self, door: str, table: PreparedTable) -> None:
        if await asyncio.to_thread(table.is_ready):
            self._set(door, table, JobState.READY)
            return
        self._set(door, table, JobState.MISSING)
        log.info("building the %s in the background", table.title)
        proc = await asyncio.create_subprocess_exec(
            "nice", "-n", "15", sys.executable, "-m", table.module, *table.args,
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)
        self._set(door, table, JobState.BUILDING)
        try:
            assert proc.stderr is not None
            async for raw in proc.stderr:
                done = table.progress(raw.decode(errors="replace"))
                if done is not None:
                    self._set(door, table, JobState.BUILDING, max(0.0, min(1.0, done)))
            await proc.wait()
        except asyncio.CancelledError:
            proc.kill()
            raise
        ready = proc.returncode == 0 and await asyncio.to_thread(table.is_ready)
        self._set(door, table, JobState.READY if ready else JobState.FAILED)
        log.info("%s build finished (exit %s)", table.title, proc.returncode)
