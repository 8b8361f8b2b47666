"""How our flag was lost, over the referee's logs of
``bench/stratego_vs_peers.py`` runs: for every game their piece took our
flag, the walk of the piece that took it and how our race
(``doors/stratego/race.py``) saw that walk at each of our last turns.

    python scripts/stratego_flag_race.py <folder> [<folder> ...] [--turns 8] [--samples 20]

Per game lost by flag, one line: the piece's rank as its strikes showed it
(or ``?``), whether it flew (a Scout), how many moves its walk took and how
many of our bombs it cleared; then, for each of our last ``--turns`` turns,
the race's least lag against it (0: a defender of ours in time, up to
``RACE_STEPS``), ``*`` if it was within ``IMMINENT`` steps of our flag, and
the share of the belief's samples in which it was a threat at all (a
hidden piece is one only where it is sampled a Miner or a rank that walks).
Ends with counts: losses by flag, walks by a Miner through our bombs, and
losses where some defender of ours was in time (lag 0) in the last turns.
Squares and ranks are the referee's (``x,y``; 1 Marshal ... 9 Scout).
"""
from __future__ import annotations

import argparse
import os
import random
import sys
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path[:0] = [HERE, ROOT, os.path.join(ROOT, "bench")]     # the replay's reader; the doors; the bench

from stratego_belief_fit import game_files  # noqa: E402
from stratego_replay import read_log  # noqa: E402
from stratego_vs_peers import parse_move  # noqa: E402

from doors.stratego.ai import seen_cells  # noqa: E402
from doors.stratego.belief import R_OF, Belief  # noqa: E402
from doors.stratego.race import Race  # noqa: E402

Move = tuple[int, int, str]     # (turn, side, the move's text)


def target(text: str) -> tuple[int, int]:
    """The move's squares (from, to) as ``y * 10 + x``."""
    frm, to, _, _ = parse_move(text)
    return frm, to


def walk(moves: list[Move], me: int) -> list[int]:
    """The indices in ``moves`` of the moves of the piece that made the
    last move, oldest first."""
    pos = target(moves[-1][2])[0]
    out = [len(moves) - 1]
    for i in range(len(moves) - 2, -1, -1):
        if moves[i][1] != me:
            frm, to = target(moves[i][2])
            if to == pos:
                out.append(i)
                pos = frm
    return out[::-1]


def race_view(adapter: Any, threat: int, samples: int, rng: random.Random) -> tuple[int, bool, float]:
    """Our race against the enemy piece on ``threat``: (least lag, within
    ``IMMINENT`` of our flag, share of samples in which it is a threat)."""
    obs = adapter.observation()
    me = adapter.me
    belief = Belief(obs, me)
    base, _known = seen_cells(obs)
    flag = base.index(me * 16 + R_OF["F"])
    lags: list[int] = []
    near = False
    for _ in range(samples):
        cells = list(base)
        for s, rank in belief.sample(rng).items():
            cells[s] = (1 - me) * 16 + R_OF[rank]
        race = Race(cells, me, flag, frozenset(belief.unmoved))
        k = race.at.get(threat) if race else None
        if k is not None:
            lags.append(race.least(k))
            near = near or race.near[k]
    if not lags:
        return -1, False, 0.0
    return min(lags), near, len(lags) / samples


def flag_loss(path: str, turns: int, samples: int, rng: random.Random) -> dict[str, Any] | None:
    """The walk and the race's view of one game lost by flag, else None."""
    adapter, moves = read_log(path)
    me = adapter.me
    if not moves or "VICTORY_FLAG" not in moves[-1][2] or moves[-1][1] == me:
        return None
    steps = walk(moves, me)
    parsed = [parse_move(moves[i][2]) for i in steps]
    shown = [rest[1] for _, _, _, rest in parsed if len(rest) >= 3]
    flew = any(mult > 1 for _, _, mult, _ in parsed)
    bombs = sum(1 for _, _, _, rest in parsed if rest[-1:] == ["B"] and "KILLS" in rest)
    last = moves[-1][0]
    at = target(moves[steps[0]][2])[0]      # where the walker stands: its start, then each step's end
    view: list[tuple[int, int, bool, float]] = []      # per turn: (turn, least lag, near, share)
    for i, (t, side, text) in enumerate(moves[:-1]):
        if side == me and last - turns <= t < last:
            view.append((t, *race_view(adapter, at, samples, rng)))
        if i in steps:
            at = target(text)[1]
        if not adapter.apply(side, text):
            break
    return {"game": os.path.basename(path), "turn": last, "rank": shown[0] if shown else "?",
            "flew": flew, "moves": len(steps), "bombs": bombs, "view": view}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folders", nargs="+")
    ap.add_argument("--turns", type=int, default=8, help="our last turns to show the race at")
    ap.add_argument("--samples", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    losses = miners = in_time = 0
    for folder in args.folders:
        for path in game_files(folder, None):
            loss = flag_loss(path, args.turns, args.samples, rng)
            if loss is None:
                continue
            losses += 1
            miners += loss["bombs"] > 0
            in_time += any(lag == 0 for _, lag, _, _ in loss["view"])
            view = (f"t{t} {'-' if lag < 0 else lag}{'*' if near else ''} {share:.2f}"
                    for t, lag, near, share in loss["view"])
            print(f"{folder} {loss['game']} turn {loss['turn']}: rank {loss['rank']}"
                  f"{' flew' if loss['flew'] else ''}, {loss['moves']} moves, {loss['bombs']} bombs cleared; "
                  + ", ".join(view))
    print(f"flag losses: {losses} games")
    print(f"flag losses by a Miner through our bombs: {miners} games")
    print(f"flag losses with a defender in time in the last turns: {in_time} games")


if __name__ == "__main__":
    main()
