"""How well our belief (``doors/stratego/belief.py``) guessed the hidden
pieces of outside bots, over the referee's logs of
``bench/stratego_vs_peers.py`` runs.

    python scripts/stratego_belief_fit.py <folder> [<folder> ...] [--games N] [--set NAME=VALUE]

At every strike that shows a hidden piece of theirs (theirs striking, or
ours striking it), the belief is asked, from our side's view just before
it, the odds of each rank on that square (``--samples`` draws); the odds it
gave the rank the strike showed are scored by their log (nats: 0 is
certain, higher is better). Bombs and the flag are left out: the belief's
setup priors are not measured here. Kinds: every strike (``all``), those
on pieces that had moved (``moved``), and those on pieces the belief weighs
for a step they just made (``approach``: next to a hidden piece of ours;
``threat``: next to, or closing on, a revealed one).

``--set`` changes a constant of ``belief`` for the run (``--set
MOVED={}``), so two weightings are compared on the same strikes. Fit on one
run's logs and judge on another's. Prints ``name: value unit`` lines.
"""
from __future__ import annotations

import argparse
import ast
import glob
import math
import os
import random
import sys
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path[:0] = [HERE, ROOT, os.path.join(ROOT, "bench")]     # the replay's reader; the doors; the bench

from stratego_replay import read_log  # noqa: E402
from stratego_vs_peers import parse_move  # noqa: E402

from doors.stratego import belief  # noqa: E402

STRIKES = ("KILLS", "DIES", "BOTHDIE")


def game_files(folder: str, games: int | None) -> list[str]:
    files = sorted(glob.glob(os.path.join(folder, "game*.log")),
                   key=lambda p: int(os.path.basename(p)[4:-4]))
    return files[:games] if games is not None else files


def kinds(b: belief.Belief, sq: int, moved: bool) -> list[str]:
    out = ["all"] + (["moved"] if moved else [])
    weights = b.threat.get(sq)
    if weights is not None:
        out.append("approach" if weights == dict(belief.APPROACH) else "threat")
    return out


def score_game(path: str, samples: int, rng: random.Random,
               totals: dict[str, list[float]]) -> None:
    """Adds each strike's log-odds of the true rank to ``totals[kind]``."""
    adapter, moves = read_log(path)
    me = adapter.me
    floor = 0.5 / samples
    for _turn, side, text in moves:
        frm, to, _, rest = parse_move(text)
        if len(rest) >= 3 and rest[0] in STRIKES:
            sq, shown = (frm, rest[1]) if side != me else (to, rest[2])
            piece = adapter.board[sq]
            if piece is not None and piece[0] != me and not piece[3] and shown not in ("B", "F"):
                b = belief.Belief(adapter.observation(), me)
                rank = "S" if shown == "s" else shown
                hits = sum(1 for _ in range(samples) if b.sample(rng).get(sq) == rank)
                score = math.log(max(hits / samples, floor))
                for kind in kinds(b, sq, bool(piece[2])):
                    totals[kind].append(score)
        if not adapter.apply(side, text):
            break


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folders", nargs="+")
    ap.add_argument("--games", type=int, default=None, help="the first N games of each folder")
    ap.add_argument("--samples", type=int, default=150)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    args = ap.parse_args(argv)
    saved: dict[str, object] = {}
    for item in args.set:
        name, _, value = item.partition("=")
        if not name.isupper() or not hasattr(belief, name):
            ap.error(f"belief has no constant {name}")
        saved.setdefault(name, getattr(belief, name))
        setattr(belief, name, ast.literal_eval(value))
    rng = random.Random(args.seed)
    totals: dict[str, list[float]] = defaultdict(list)
    try:
        for folder in args.folders:
            for path in game_files(folder, args.games):
                score_game(path, args.samples, rng, totals)
    finally:
        for name, value in saved.items():
            setattr(belief, name, value)
    for kind in ("all", "moved", "approach", "threat"):
        scores = totals.get(kind, [])
        mean = sum(scores) / len(scores) if scores else 0.0
        print(f"belief strikes {kind}: {len(scores)} strikes")
        print(f"belief log-odds {kind}: {mean:.3f} nats")


if __name__ == "__main__":
    main()
