"""Stratego's think time on the product's path, on the clock.

Positions: every ``--every``-th ply (from ply 20) of ``--games`` games of
level 3 against itself (seeded, no clock). For each, level 5's move is asked
of ``server.services.thinkers.ComputerPlayers`` as a match asks it (two
worker processes at the server's niceness, the door's ``bot_parts``, its
``TIME_CAP``), idle or with ``--beside`` other questions of other games
asked all the while. Prints ``name: value unit`` lines: the reply's mean,
median, p95 and worst, the replies over 1 s, and (idle only) the share of
the parts that the clock ended before the node budget did (each part
thought again in this process, one after the other).

    nice -n 0 python bench/stratego_think.py [--games 4] [--every 25] [--beside 0] [--quick]
"""
from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from doors.stratego import INFO  # noqa: E402
from doors.stratego.ai import LEVELS, make_bot  # noqa: E402
from doors.stratego.pieces import Phase  # noqa: E402
from doors.stratego.rules import StrategoState  # noqa: E402
from server.services.thinkers import ComputerPlayers  # noqa: E402


def positions(games: int, every: int, plies: int = 600) -> list[tuple[Any, int]]:
    """Observations of the side to move, from level 3 self-play."""
    out = []
    for g in range(games):
        state = StrategoState({})
        bots = {0: make_bot(3, 100 + g, time_cap=None), 1: make_bot(3, 200 + g, time_cap=None)}
        ply = 0
        while not state.is_terminal() and ply < plies:
            player = state.to_move()[0]
            obs = state.observation(player)
            if obs.phase != Phase.SETUP:
                if ply >= 20 and ply % every == 0:
                    out.append((obs, player))
                ply += 1
            state.apply(player, bots[player].choose(obs, player))
    return out


def clock_bound(found: list[tuple[Any, int]]) -> float:
    """Share of the parts the clock ended (fewer samples than the level's
    and fewer nodes than the part's share of its budget)."""
    cfg, parts, cut, total = LEVELS[5], INFO.bot_parts, 0, 0
    for k, (obs, player) in enumerate(found):
        for part in range(parts):
            got = make_bot(5, k).choose_part(obs, player, part, parts)
            if got.decided is None:
                total += 1
                mine = len(range(part, cfg.samples, parts))
                cut += got.done < mine and got.nodes < cfg.budget // parts
    return cut / max(1, total)


async def timed(found: list[tuple[Any, int]], beside: int) -> list[float]:
    computer = ComputerPlayers(workers=2)
    stop = asyncio.Event()

    async def other(game: int) -> None:
        k = 0
        while not stop.is_set():
            obs, player = found[(game * 7 + k) % len(found)]
            await computer.choose(make_bot, 5, k, obs, player, game=("beside", game), parts=INFO.bot_parts)
            k += 1

    try:
        await computer.choose(make_bot, 5, 0, *found[0], game="warm", parts=INFO.bot_parts)
        others = [asyncio.create_task(other(g)) for g in range(beside)]
        times = []
        for k, (obs, player) in enumerate(found):
            start = time.perf_counter()
            await computer.choose(make_bot, 5, k, obs, player, game="timed", parts=INFO.bot_parts)
            times.append(time.perf_counter() - start)
        stop.set()
        await asyncio.gather(*others)
        return times
    finally:
        await computer.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--every", type=int, default=25)
    ap.add_argument("--beside", type=int, default=0, help="other games asking all the while")
    ap.add_argument("--quick", action="store_true", help="one game, every 60th ply")
    args = ap.parse_args()
    if args.quick:
        args.games, args.every = 1, 60
    found = positions(args.games, args.every)
    times = asyncio.run(timed(found, args.beside))
    tag = f"stratego L5 think, {args.beside} beside"
    print(f"{tag} positions: {len(times)} moves")
    print(f"{tag} mean: {statistics.mean(times):.3f} s")
    print(f"{tag} median: {statistics.median(times):.3f} s")
    print(f"{tag} p95: {sorted(times)[int(0.95 * (len(times) - 1))]:.3f} s")
    print(f"{tag} worst: {max(times):.3f} s")
    print(f"{tag} over 1 s: {sum(t > 1.0 for t in times)} moves")
    if not args.beside:
        print(f"{tag} parts ended by the clock: {100 * clock_bound(found):.0f} %")


if __name__ == "__main__":
    main()
