"""Door jobs: a table a door declares (PreparedTable) is built in the
background with its progress read from the build's output, and its state
is there for the sysop console: missing, building N%, ready or failed."""
from __future__ import annotations

import asyncio
import dataclasses
import re

from doors import registry
from doors._core.door import PreparedTable
from server.services.jobs import DoorJobs, JobState, TableStatus

STEP = re.compile(r"step (\d) of 4")


def door_with(table: PreparedTable, key: str = "towers"):
    return dataclasses.replace(registry()[key], tables=(table,))


def fake_table(path, *extra: str) -> PreparedTable:
    return PreparedTable(
        title="Test table", is_ready=path.exists,
        module="tests.server.table_build", args=(str(path), *extra),
        progress=lambda line: int(m.group(1)) / 4 if (m := STEP.search(line)) else None)


async def settled(jobs: DoorJobs) -> list[TableStatus]:
    for _ in range(1000):
        status = jobs.status()
        if status and all(s.state in (JobState.READY, JobState.FAILED) for s in status):
            return status
        await asyncio.sleep(0.01)
    raise AssertionError(f"the build never finished: {jobs.status()}")


async def test_a_missing_table_is_built_and_reported_ready(tmp_path):
    path = tmp_path / "table.bin"
    seen: list[TableStatus] = []
    table = fake_table(path)
    progress = table.progress

    def spy(line: str) -> float | None:
        seen.extend(jobs.status())
        return progress(line)

    jobs = DoorJobs([door_with(dataclasses.replace(table, progress=spy))], {})
    jobs.start()
    status = await settled(jobs)
    await jobs.stop()
    assert path.read_text() == "table"
    assert [s.describe() for s in status] == ["Test table: ready"]
    assert any(s.state == JobState.BUILDING for s in seen)
    assert TableStatus("towers", "Test table", JobState.BUILDING, 0.5).describe() == "Test table: building 50%"


async def test_a_failed_build_is_reported_and_a_ready_table_is_not_rebuilt(tmp_path):
    jobs = DoorJobs([door_with(fake_table(tmp_path / "never.bin", "fail"))], {})
    jobs.start()
    assert [s.state for s in await settled(jobs)] == [JobState.FAILED]
    await jobs.stop()
    ready = tmp_path / "ready.bin"
    ready.write_text("old")
    jobs = DoorJobs([door_with(fake_table(ready))], {})
    jobs.start()
    assert [s.state for s in await settled(jobs)] == [JobState.READY]
    await jobs.stop()
    assert ready.read_text() == "old"


async def test_the_sysop_can_turn_a_build_off_with_the_doors_setting(tmp_path):
    table = dataclasses.replace(fake_table(tmp_path / "t.bin"), enabled_by="build_table")
    jobs = DoorJobs([door_with(table)], {"towers": {"build_table": False}})
    jobs.start()
    assert jobs.status() == []
    await jobs.stop()
    assert not (tmp_path / "t.bin").exists()


def _alive(pid: int) -> bool:
    import os
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:                                   # a zombie no one reaped yet counts as gone
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


async def test_stopping_kills_the_build_and_its_workers(tmp_path):
    pids = tmp_path / "pids"
    table = PreparedTable(title="Slow table", is_ready=lambda: False,
                          module="tests.server.slow_table_build", args=(str(pids),),
                          progress=lambda line: 0.25 if "step 1" in line else None)
    jobs = DoorJobs([door_with(table)], {})
    jobs.start()
    for _ in range(3000):
        if pids.exists() and [s.progress for s in jobs.status()] == [0.25]:
            break
        await asyncio.sleep(0.01)
    assert [s.describe() for s in jobs.status()] == ["Slow table: building 25%"]
    build, worker = (int(p) for p in pids.read_text().split())
    assert _alive(build) and _alive(worker)
    await jobs.stop()
    for _ in range(3000):
        if not _alive(build) and not _alive(worker):
            break
        await asyncio.sleep(0.01)
    assert not _alive(build) and not _alive(worker)
