"""Where the material goes: a script over the referee's logs of a pool run.

Reads the logs ``bench/stratego_pool.py`` keeps (one folder per opponent,
``gameN.log`` with our program ``oursN.sh``) and prints, over the games we
lost (or, with ``--all``, every game), the material each side lost, by
phase (plies 0-99, 100-399, 400 on) and by kind of strike:

- ``we struck and lost (bomb)``: our piece struck a bomb;
- ``we struck and lost (piece)``: our piece struck one that beat it (or
  both died);
- ``they struck and took``: their piece struck ours and won (or both died).

Each kind is split by what the side that lost the piece could know: ``known``
when the piece that beat it had shown its rank before (a strike, a Scout's
run) or, for ``they struck and took``, when our piece had (they took a piece
they knew), else ``hidden``.

For each flag lost, the rank that took it and how many of our bombs that
piece took on its way (a single walker through a bomb wall: a Miner with
one bomb or more).

Values are the search's base values (``doors/stratego/values.VALUE``), so
the sums compare with the search's own view of material. Usage::

    python bench/stratego_material.py /tmp/peers/logs [--all]
"""
from __future__ import annotations

import argparse
import glob
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from doors.stratego.belief import R_OF  # noqa: E402
from doors.stratego.values import VALUE  # noqa: E402

MOVE = re.compile(r"^(\d+) (RED|BLU): \d+ \d+ \w+(?: \d+)? (KILLS|DIES|BOTHDIE) (\S+) (\S+)")
STEP = re.compile(r"^\d+ (RED|BLU): (\d+) (\d+) (UP|DOWN|LEFT|RIGHT)(?: (\d+))? (\w+)(?: (\S+) (\S+))?")
ROW = re.compile(r"^[0-9sSBF.]+$")
DIRS = {"UP": (0, -1), "DOWN": (0, 1), "LEFT": (-1, 0), "RIGHT": (1, 0)}


def flag_taker(lines: list[str], side: str) -> tuple[str, int] | None:
    """Who took ``side``'s flag, and how many of ``side``'s bombs that one
    piece took on its way (a walker through a bomb wall takes one or more)."""
    steps = [m for m in map(STEP.match, lines) if m]
    last = next((m for m in reversed(steps) if m[7] is not None and m[8] == "F" and m[1] != side), None)
    if last is None:
        return None
    at = (int(last[2]), int(last[3]))
    bombs = 0
    for m in reversed(steps[:steps.index(last)]):
        if m[1] == side:
            continue
        dx, dy = DIRS[m[4]]
        n = int(m[5] or 1)
        if (int(m[2]) + dx * n, int(m[3]) + dy * n) == at and m[6] in ("OK", "KILLS"):
            at = (int(m[2]), int(m[3]))
            bombs += m[8] == "B"
    return last[7], bombs
PHASES = ((0, 100, "opening"), (100, 400, "middle"), (400, 10 ** 9, "late"))


class Board:
    """The pieces of a log as the referee moves them: square -> [side,
    rank, shown] (shown: its rank was seen by a strike or a Scout's run)."""

    def __init__(self, lines: list[str]):
        self.at: dict[tuple[int, int], list] = {}
        for i, ln in enumerate(lines):
            if ln.endswith("SETUP"):
                side = "RED" if ln.split()[1] == "RED" else "BLU"
                rows = lines[i + 1:i + 5]
                first = 0 if side == "RED" else 6
                for y, row in enumerate(rows):
                    if not ROW.match(row):
                        break
                    for x, token in enumerate(row):
                        if token != ".":
                            self.at[(x, first + y)] = [side, token, False]

    def step(self, m: re.Match) -> tuple[bool, bool]:
        """Play one step of the log; (attacker shown, defender shown) before it."""
        x, y = int(m[2]), int(m[3])
        dx, dy = DIRS[m[4]]
        n = int(m[5] or 1)
        to = (x + dx * n, y + dy * n)
        piece = self.at.pop((x, y), None)
        other = self.at.get(to)
        before = (bool(piece and piece[2]), bool(other and other[2]))
        if piece is None:
            return before
        if n > 1:
            piece[2] = True
        result = m[6]
        if result == "OK":
            self.at[to] = piece
        elif result == "KILLS":
            piece[2] = True
            self.at[to] = piece
        elif result == "DIES" and other is not None:
            other[2] = True
        elif result == "BOTHDIE":
            self.at.pop(to, None)
        return before


def value(token: str) -> float:
    rank = "S" if token in ("s", "S") else token
    return VALUE[R_OF[rank]] if rank in R_OF else 0.0


def game(path: str) -> tuple[str, str, dict[str, float]] | None:
    """(our colour, result for us, material table) of one log."""
    lines = open(path).read().splitlines()
    ours = next((ln.split()[1] for ln in lines if "ours" in ln and ln.endswith("SETUP")), None)
    last = lines[-1].split() if lines else []
    if ours is None or len(last) < 3:
        return None
    named_us = "ours" in last[0]
    outcome = last[2]
    if outcome.startswith("DRAW"):
        result = "draw"
    elif outcome in ("VICTORY", "DEFAULT"):
        result = "win" if named_us else "loss"
    else:
        result = "loss" if named_us else "win"
    me = "RED" if ours == "RED" else "BLU"
    out: dict[str, float] = {}
    board = Board(lines)
    for ln in lines:
        step = STEP.match(ln)
        shown = board.step(step) if step else (False, False)
        m = MOVE.match(ln)
        if not m:
            continue
        ply, side, outcome, a, d = int(m[1]), m[2], m[3], m[4], m[5]
        phase = next(name for lo, hi, name in PHASES if lo <= ply < hi)
        ours_attacks = side == me
        lost_att = outcome in ("DIES", "BOTHDIE")
        lost_def = outcome in ("KILLS", "BOTHDIE")
        if ours_attacks:
            if lost_att:
                key = f"{phase}: we struck and lost ({'bomb' if d == 'B' else 'piece'})"
                out[key] = out.get(key, 0.0) + value(a)
                if d != "B":
                    key += f", theirs {'known' if shown[1] else 'hidden'}"
                    out[key] = out.get(key, 0.0) + value(a)
                out[f"{phase}: ours lost"] = out.get(f"{phase}: ours lost", 0.0) + value(a)
            if lost_def:
                out[f"{phase}: theirs lost"] = out.get(f"{phase}: theirs lost", 0.0) + value(d)
        else:
            if lost_def:
                key = f"{phase}: they struck and took"
                out[key] = out.get(key, 0.0) + value(d)
                key += f", ours {'known' if shown[1] else 'hidden'}, theirs {'known' if shown[0] else 'hidden'}"
                out[key] = out.get(key, 0.0) + value(d)
                out[f"{phase}: ours lost"] = out.get(f"{phase}: ours lost", 0.0) + value(d)
            if lost_att:
                out[f"{phase}: theirs lost"] = out.get(f"{phase}: theirs lost", 0.0) + value(a)
    if result == "loss":
        taker = flag_taker(lines, me)
        if taker is not None:
            out[f"flag taken by rank {taker[0]} after {taker[1]} of our bombs"] = 1.0
    return ours, result, out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("logs", nargs="+", help="folders of a pool run's logs")
    ap.add_argument("--all", action="store_true", help="every game, not only the lost ones")
    args = ap.parse_args(argv)
    total: dict[str, float] = {}
    games = 0
    for folder in args.logs:
        for path in sorted(glob.glob(os.path.join(folder, "**", "game*.log"), recursive=True)):
            got = game(path)
            if got is None or (got[1] != "loss" and not args.all):
                continue
            games += 1
            ours_lost = sum(v for k, v in got[2].items() if k.endswith("ours lost"))
            theirs_lost = sum(v for k, v in got[2].items() if k.endswith("theirs lost"))
            print(f"# {os.path.relpath(path, folder)}: {got[1]}, material lost ours {ours_lost:.0f}, "
                  f"theirs {theirs_lost:.0f}")
            for k, v in got[2].items():
                total[k] = total.get(k, 0.0) + v
    print(f"material games: {games} games")
    for k in sorted(k for k in total if k.startswith("flag")):
        print(f"material {k}: {total.pop(k):.0f} games")
    for k in sorted(total, key=lambda k: ([p[2] for p in PHASES].index(k.split(':')[0]), k)):
        print(f"material {k}: {total[k] / max(1, games):.0f} points a game")


if __name__ == "__main__":
    main()
