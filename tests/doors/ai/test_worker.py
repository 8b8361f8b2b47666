"""The worker seat: a bot chosen in another process, surviving a killed worker."""
from __future__ import annotations

import asyncio
import os
import pickle
import signal
import threading
import time

from doors._ai.worker import WorkerSeat, think
from doors.stratego.rules import StrategoState
from tests.doors.stratego.helpers import started


def _wait_for(predicate, what: str, limit: float = 120.0) -> None:
    deadline = time.monotonic() + limit
    while not predicate():
        assert time.monotonic() < deadline, f"gave up waiting for {what}"
        time.sleep(0.02)


def test_observation_pickles_and_bot_is_built_from_plain_arguments():
    state = started(3)
    obs = state.observation(0)
    again = pickle.loads(pickle.dumps(obs))
    assert again == obs
    action = think("doors.stratego.ai:make_bot", 5, 7, again, 0)
    assert state.why_illegal(0, action) is None


def test_choice_in_a_worker_is_legal():
    state = started(5)
    seat = WorkerSeat(workers=1)
    try:
        action = seat.choose("doors.stratego.ai:make_bot", 3, 1, state.observation(0), 0)
    finally:
        seat.close()
    assert state.why_illegal(0, action) is None


def test_killed_worker_mid_think_still_gives_a_legal_action(tmp_path):
    state = started(9)
    mark = str(tmp_path / "thinking.pid")
    seat = WorkerSeat(workers=1)
    result: dict[str, object] = {}

    def ask() -> None:
        result["action"] = seat.choose("tests.doors.ai.stalling_bot:make_bot", 5, 2,
                                       state.observation(0), 0, {"mark": mark})

    asker = threading.Thread(target=ask)
    asker.start()
    try:
        _wait_for(lambda: os.path.exists(mark), "the worker to start thinking")
        os.kill(int(open(mark).read()), signal.SIGKILL)
        asker.join(timeout=300)
        assert not asker.is_alive()
    finally:
        seat.close()
    assert seat.restarts >= 1
    assert state.why_illegal(0, result["action"]) is None


def test_killed_worker_async(tmp_path):
    state: StrategoState = started(4)
    mark = str(tmp_path / "thinking.pid")
    seat = WorkerSeat(workers=1)

    async def main():
        task = asyncio.create_task(seat.choose_async(
            "tests.doors.ai.stalling_bot:make_bot", 4, 3, state.observation(0), 0, {"mark": mark}))
        deadline = time.monotonic() + 120
        while not os.path.exists(mark):
            assert time.monotonic() < deadline, "the worker never started thinking"
            await asyncio.sleep(0.02)
        os.kill(int(open(mark).read()), signal.SIGKILL)
        return await asyncio.wait_for(task, 300)

    try:
        action = asyncio.run(main())
    finally:
        seat.close()
    assert seat.restarts >= 1
    assert state.why_illegal(0, action) is None
