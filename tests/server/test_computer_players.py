"""Computer players think in worker processes owned by one service: a game
against the computer survives its worker being killed mid-think (the match
waits and asks again), a worker loads Awari's endgame table once, not for
every move, and workers think at a lower priority than the server."""
from __future__ import annotations

import asyncio
import dataclasses
import logging
import os
import signal
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from doors import registry
from doors.awari import endgame
from server.config import Config, TimingSettings
from server.services.ids import GameId
from server.services.match import Match
from server.services.nodes import NodeRegistry
from server.services.seats import Seat, SeatKind
from server.services.thinkers import ComputerPlayers, factory_path

from . import computer_bots
from .fakes import FakeSeat, seat
from .test_match import GatedStore, updates


async def until(condition: Callable[[], bool], what: str, limit: float = 300.0) -> None:
    """Wait for ``condition`` (bounded only so a broken build cannot hang)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + limit
    while not condition():
        assert loop.time() < deadline, f"gave up waiting for {what}"
        await asyncio.sleep(0.02)


def test_a_door_factory_is_named_by_module_and_name():
    info = registry()["awari"]
    assert factory_path(info.make_bot) == "doors.awari.ai:make_bot"
    with pytest.raises(ValueError):
        factory_path(lambda level, seed: None)


async def test_a_killed_worker_mid_think_the_game_goes_on(tmp_path: Path, monkeypatch, caplog):
    mark = tmp_path / "thinking.pid"
    monkeypatch.setenv("GATEHOUSE_TEST_STALL_MARK", str(mark))
    info = dataclasses.replace(registry()["towers"], make_bot=computer_bots.stalling)
    state = info.state_class.from_options(info.resolve_options({"first": 0}))
    nodes: NodeRegistry[FakeSeat] = NodeRegistry(10, 10)
    alice = seat(nodes, "Alice")
    computer = ComputerPlayers(workers=1)
    store = GatedStore()
    seats = [Seat(0, SeatKind.HUMAN, "Alice", session=alice),
             Seat(1, SeatKind.BOT, "Computer (3)", level=3)]
    match = Match(store, Config(timing=TimingSettings(bot_min_delay=0)), lambda m: None, GameId(1), info, state,  # type: ignore[arg-type]
                  seats, computer)
    try:
        with caplog.at_level(logging.ERROR, logger="gatehouse.match"):
            if 0 in match.state.to_move():
                assert await match.submit(0, match.state.legal_actions(0)[0]) is None
            else:
                match.go()
            before = len(match.state.history)
            await until(mark.exists, "the computer to start thinking")
            assert 1 in match.state.to_move() and len(match.state.history) == before
            os.kill(int(mark.read_text()), signal.SIGKILL)
            await until(lambda: len(match.state.history) > before, "the computer's move")
        assert match.state.history[before][0] == 1           # the computer moved, once asked again
        assert computer.restarts >= 1
        assert not [r for r in caplog.records if "failed" in r.getMessage()]   # not a fallback move
        assert len(store.moves) == len(match.state.history)                  # stored
        assert updates(alice)                                                # and shown
    finally:
        match.stop()
        await computer.close()


async def test_a_worker_loads_the_endgame_table_once_and_thinks_at_low_priority(tmp_path: Path):
    # the table where the server's state directory keeps it; the worker is
    # told of it with each question (the door's bot_options), as the server does
    await asyncio.to_thread(endgame.build, 4, tmp_path / "endgame.bin", 1)
    unbound = registry()["awari"]
    assert unbound.state_folder is not None
    info = unbound.state_folder(tmp_path, {"endgame_stones": 4})
    state = info.state_class.from_options(info.resolve_options({}))
    computer = ComputerPlayers(workers=1)
    answers = []
    try:
        for ply in range(3):
            player = state.to_move()[0]
            pid, loads, has_table, niceness, action = await computer.choose(
                computer_bots.table_probe, 5, ply, state.observation(player), player,
                options=info.bot_options)
            assert state.why_illegal(player, action) is None
            state.apply(player, action)
            answers.append((pid, loads, has_table))
            assert niceness >= min(19, os.nice(0) + ComputerPlayers.NICE)
    finally:
        await computer.close()
    assert len({pid for pid, _, _ in answers}) == 1 and pid != os.getpid()   # one worker, not us
    assert all(has_table for _, _, has_table in answers)
    assert [loads for _, loads, _ in answers] == [1, 1, 1]


async def test_an_idle_pool_spreads_a_split_move_over_every_worker(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("GATEHOUSE_TEST_SPLIT_DIR", str(tmp_path))
    computer = ComputerPlayers(workers=2)
    try:
        kind, parts = await computer.choose(computer_bots.split_probe, 5, 1, None, 0, game="a", parts=2)
        assert kind == "merged"
        assert [how for how, _ in parts] == ["together", "together"]      # side by side
        pids = {pid for _, pid in parts}
        assert len(pids) == 2 and pids <= set(computer.worker_pids()) and os.getpid() not in pids
        assert computer.queue.load() == 0, "both workers given back"
        await computer.queue.acquire("b")         # another game's question is being thought out
        try:
            kind, pid = await computer.choose(computer_bots.split_probe, 5, 1, None, 0, game="a", parts=2)
        finally:
            computer.queue.release()
        assert kind == "whole" and pid in pids
    finally:
        await computer.close()


CHILD = """
import asyncio, os, signal, sys
from doors import registry
from server.services.thinkers import ComputerPlayers

async def main():
    info = registry()["towers"]
    state = info.state_class.from_options(info.resolve_options({}))
    computer = ComputerPlayers(workers=1)
    player = state.to_move()[0]
    await computer.choose(info.make_bot, 1, 1, state.observation(player), player)
    print(*computer.worker_pids(), flush=True)
    os.kill(os.getpid(), signal.SIGKILL)          # the server dies without a word

asyncio.run(main())
"""


async def test_no_worker_outlives_a_killed_server():
    root = Path(__file__).resolve().parents[2]
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-c", CHILD, cwd=root, stdout=asyncio.subprocess.PIPE)
    line = await asyncio.wait_for(proc.stdout.readline(), 300)
    pids = [int(p) for p in line.split()]
    assert pids

    def gone(pid: int) -> bool:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            return True
        return state == "Z"                       # ended, not yet reaped

    await until(lambda: all(gone(p) for p in pids), "the orphaned workers to end")
    await asyncio.wait_for(proc.communicate(), 300)     # its pipe read to the end and closed with it
