"""Many matches submit moves at once while some transactions fail (the
database locked past the retry time, the disk full, a constraint): every
move whose ``submit`` returned is on disk, in order, and no move whose
``submit`` failed is."""
from __future__ import annotations

import asyncio
import random
import sqlite3
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from doors import registry
from server.config import Config, TimingSettings
from server.services.ids import GameId
from server.services.match import Match
from server.services.nodes import NodeRegistry
from server.services.seats import Seat, SeatKind
from server.services.store import Store
from server.services.thinkers import ComputerPlayers

from .fakes import FakeSeat, seat

FAILURES = [sqlite3.OperationalError("database is locked"),
            sqlite3.OperationalError("database or disk is full"),
            sqlite3.IntegrityError("UNIQUE constraint failed: moves.game_id, moves.ply")]


class FailingStore(Store):
    """A store whose statements fail when the test says so (after a few
    awaits, so that other transactions run in between)."""
    RETRY_FOR = 0.0      # a locked database fails at once here

    def __init__(self, path: Any, plan: list[int], rng: random.Random):
        super().__init__(path)
        self.plan = plan           # per move statement: 0 goes through, n fails with FAILURES[n-1]
        self.rng = rng
        self.count = 0

    async def _execute(self, sql: str, args: Any = ()) -> Any:
        for _ in range(self.rng.randrange(3)):
            await asyncio.sleep(0)
        if sql.startswith("INSERT INTO moves"):
            kind = self.plan[self.count % len(self.plan)]
            self.count += 1
            if kind:
                await super()._execute(sql, args)      # the row is written, then it fails
                raise FAILURES[kind - 1]
        return await super()._execute(sql, args)


async def _play(store: Store, match: Match, moves: int, rng: random.Random) -> list[tuple[int, str]]:
    """Submit up to ``moves`` legal moves; the ones acknowledged, as (ply, action)."""
    done: list[tuple[int, str]] = []
    for _ in range(moves):
        if match.ended:
            break
        player = match.state.to_move()[0]
        action = rng.choice(match.state.legal_actions(player))
        text = match.state.action_to_str(action)
        try:
            refused = await match.submit(player, action)
        except sqlite3.Error:
            continue                       # not made: the caller is told and may press again
        assert refused is None
        done.append((len(match.state.history), text))
    return done


async def _run(tmp: Any, plan: list[int], seed: int, games: int = 6, moves: int = 8) -> None:
    rng = random.Random(seed)
    store = await FailingStore(tmp / f"g{seed}.db", plan, rng).open()
    info = registry()["towers"]
    nodes: NodeRegistry[FakeSeat] = NodeRegistry(100, 100)
    matches = []
    for n in range(games):
        a, b = seat(nodes, f"A{n}"), seat(nodes, f"B{n}")
        gid = await store.create_game("towers", {"first": 0}, (f"A{n}", f"B{n}"))
        state = info.state_class.from_options(info.resolve_options({"first": 0}))
        seats = [Seat(0, SeatKind.HUMAN, f"A{n}", session=a), Seat(1, SeatKind.HUMAN, f"B{n}", session=b)]
        matches.append(Match(store, Config(timing=TimingSettings(bot_min_delay=0)), lambda m: None, GameId(gid), info,
                             state, seats, ComputerPlayers(workers=1)))
    try:
        acked = await asyncio.gather(*(_play(store, m, moves, rng) for m in matches))
    finally:
        await store.close()
    con = sqlite3.connect(tmp / f"g{seed}.db")
    try:
        for match, mine in zip(matches, acked, strict=True):
            on_disk = con.execute("SELECT ply, action FROM moves WHERE game_id=? ORDER BY ply",
                                  (match.id,)).fetchall()
            assert on_disk == mine, f"game {match.id}: acknowledged {mine}, on disk {on_disk}"
    finally:
        con.close()


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(plan=st.lists(st.integers(0, 3), min_size=1, max_size=12), seed=st.integers(0, 10**6))
def test_acknowledged_moves_are_on_disk_and_failed_ones_are_not(tmp_path, plan, seed):
    asyncio.run(_run(tmp_path, plan, seed))


def test_many_matches_with_every_third_write_failing(tmp_path):
    asyncio.run(_run(tmp_path, [0, 0, 1, 0, 2, 0, 3], 7, games=10, moves=12))
