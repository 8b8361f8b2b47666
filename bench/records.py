"""Ratings and records figures: the time to rate a finished game, to open a
door's hall of fame, a caller's My games list and to build the bulletin, on
a database with many games.

    python bench/records.py [--games N] [--callers N] [--quick]

Prints ``name: value unit`` lines. The database is built in a temporary
folder (callers play random results against each other and the computer).
"""
from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from doors._core.game import Outcome, Termination  # noqa: E402
from server.screens.bulletin import build_bulletin, encode_bulletin  # noqa: E402
from server.services.ratings import RatingBook  # noqa: E402
from server.services.records import hall_of_fame, history  # noqa: E402
from server.services.store import Store  # noqa: E402

DOORS = ("stratego", "awari", "towers")


async def run(games: int, callers: int) -> None:
    rng = random.Random(7)
    names = [f"Caller{i:03d}" for i in range(callers)]
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store(Path(tmp) / "bench.db").open()
        book = RatingBook(store)
        await book.load()
        rate_times = []
        for _ in range(games):
            a = rng.choice(names)
            b = f"computer:{rng.randint(1, 5)}" if rng.random() < 0.3 else rng.choice(names)
            if a == b:
                continue
            gid = await store.create_game(rng.choice(DOORS), {}, (a, b))
            await store.finish_game(gid, Outcome(rng.choice((0, 1, None)), Termination.RULES,
                                                 "bench").to_json())
            start = time.perf_counter()
            await book.record(gid)
            rate_times.append(time.perf_counter() - start)
        rate_times.sort()
        print(f"rate_game_median: {1000 * rate_times[len(rate_times) // 2]:.2f} ms")
        print(f"rate_game_p95: {1000 * rate_times[int(len(rate_times) * 0.95)]:.2f} ms")
        for label, work in (
                ("hall_of_fame_open", lambda: hall_of_fame(store, "stratego", names[0])),
                ("my_games_open", lambda: history(store, handle=names[0], limit=500)),
                ("bulletin_build", lambda: build_bulletin(store))):
            start = time.perf_counter()
            await work()
            elapsed = time.perf_counter() - start
            print(f"{label}: {1000 * elapsed:.1f} ms")
        canvas = await build_bulletin(store)
        print(f"bulletin_ans_size: {len(encode_bulletin(canvas, 'ans'))} bytes")
        print(f"games_in_database: {games} games")
        await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--callers", type=int, default=200)
    parser.add_argument("--quick", action="store_true", help="2000 games")
    args = parser.parse_args()
    asyncio.run(run(2000 if args.quick else args.games, args.callers))


if __name__ == "__main__":
    main()
