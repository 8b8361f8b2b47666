"""Door jobs: the tables doors need prepared before their strongest levels
(``DoorInfo.tables``), built in the background in a child process of its own
session, whose priority ``doors._core.table_build`` lowers in-process (no
``nice`` is executed: a service's system call filter may refuse setpriority,
which then costs a note, not the build). The only code that starts or
watches a build; anyone may read ``status()`` ("missing", "building 40%",
"ready", "failed (why)") for the sysop console. A failure is logged with its
reason (the build's last stderr line, or the signal that killed it); when
the server stops, the build and its workers are killed.
"""
from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import enum
import logging
import os
import signal
import sys
from collections.abc import Iterable, Mapping

from doors._core.door import DoorInfo, PreparedTable

__all__ = ["JobState", "TableStatus", "DoorJobs", "build_command"]

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
    reason: str = ""                 # why it failed

    def describe(self) -> str:
        if self.state == JobState.BUILDING:
            return f"{self.title}: building {int(self.progress * 100)}%"
        if self.state == JobState.FAILED and self.reason:
            return f"{self.title}: failed ({self.reason})"
        return f"{self.title}: {self.state}"


class DoorJobs:
    def __init__(self, doors: Iterable[DoorInfo], settings: Mapping[str, Mapping[str, object]]):
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

    def _set(self, door: str, table: PreparedTable, state: JobState, progress: float = 0.0,
             reason: str = "") -> None:
        self._status[(door, table.title)] = TableStatus(door, table.title, state, progress, reason)

    async def _prepare(self, door: str, table: PreparedTable) -> None:
        if await asyncio.to_thread(table.is_ready):
            self._set(door, table, JobState.READY)
            return
        self._set(door, table, JobState.MISSING)
        log.info("building the %s in the background", table.title)
        proc = await asyncio.create_subprocess_exec(
            *build_command(table),
            stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE, start_new_session=True)
        self._set(door, table, JobState.BUILDING)
        last = ""
        try:
            assert proc.stderr is not None
            async for raw in proc.stderr:
                line = raw.decode(errors="replace").strip()
                last = line or last
                done = table.progress(line)
                if done is not None:
                    self._set(door, table, JobState.BUILDING, max(0.0, min(1.0, done)))
            await proc.wait()
        except asyncio.CancelledError:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)      # the build and its workers
            await proc.wait()
            raise
        if proc.returncode == 0 and await asyncio.to_thread(table.is_ready):
            self._set(door, table, JobState.READY)
            log.info("%s built", table.title)
            return
        how = _how_it_ended(proc.returncode or 0)
        reason = last or "no message"
        self._set(door, table, JobState.FAILED, reason=reason)
        log.error("%s not built, %s: %s", table.title, how, reason)


NICENESS = 15      # how much a build's priority is lowered


def build_command(table: PreparedTable) -> list[str]:
    """What is run for a table: Python itself, which lowers its own
    priority, then runs the door's build module."""
    return [sys.executable, "-m", "doors._core.table_build", str(NICENESS), *table.command()]


def _how_it_ended(code: int) -> str:
    if code >= 0:
        return f"exit status {code}"
    name = signal.Signals(-code).name if -code in signal.valid_signals() else str(-code)
    if name == "SIGSYS":
        return f"killed by {name} (a system call refused by the service's SystemCallFilter)"
    return f"killed by {name}"
