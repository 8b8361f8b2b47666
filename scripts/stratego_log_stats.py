"""Count, over the referee's logs of ``bench/stratego_vs_peers.py`` runs, how
our officers and Spy were lost: who took them, where (their camp, the
middle, ours), and whether the taker was already revealed.

    python scripts/stratego_log_stats.py <folder> [<folder> ...]

Each folder is one run's ``# logs in <folder>``. Prints one line a kind of
loss: how often, per game, and how often in games we lost. Ranks are the
referee's (1 Marshal, 2 General, 3 Colonel, s Spy, B bomb).
"""
from __future__ import annotations

import argparse
import glob
import os
import re
from collections import Counter

MOVE = re.compile(r"(\d+) (RED|BLU): (\d+) (\d+) (UP|DOWN|LEFT|RIGHT) (\d+) (\w+)(?: (\S+) (\S+))?")
STEP = {"UP": (0, -1), "DOWN": (0, 1), "LEFT": (-1, 0), "RIGHT": (1, 0)}
WATCHED = "123s"


class Piece:
    def __init__(self, owner: str, rank: str):
        self.owner, self.rank = owner, rank
        self.moves = 0
        self.revealed = False


def where(y: int, ours: str) -> str:
    """The row's part of the board, seen from our side."""
    deep = y if ours == "BLU" else 9 - y      # 0: their back row
    return "their camp" if deep <= 3 else "middle" if deep <= 5 else "our camp"


def read(path: str, tally: Counter[str], lost_in: Counter[str]) -> bool | None:
    """Tally one game; True if we lost it (None: not a finished game)."""
    lines = open(path).read().splitlines()
    if len(lines) < 11 or "VICTORY" not in lines[-1] and "SURRENDER" not in lines[-1] \
            and "ILLEGAL" not in lines[-1]:
        return None
    ours = "RED" if "ours" in lines[0].split()[0] else "BLU"
    lost = "ours" not in lines[-1].split()[0] and "VICTORY" in lines[-1]
    board: dict[tuple[int, int], Piece] = {}
    for y0, owner, first in ((0, "RED", 1), (6, "BLU", 6)):
        for dy, row in enumerate(lines[first:first + 4]):
            for x, ch in enumerate(row):
                if ch != ".":
                    board[(x, y0 + dy)] = Piece(owner, ch)
    events = []
    for line in lines:
        m = MOVE.match(line)
        if not m:
            continue
        _, side, xs, ys, d, n, res, a, b = m.groups()
        x, y, k = int(xs), int(ys), int(n)
        to = (x + STEP[d][0] * k, y + STEP[d][1] * k)
        mover = board.pop((x, y))
        target = board.get(to)
        shown = mover.revealed
        mover.moves += 1
        if res == "OK":
            board[to] = mover
            continue
        if res not in ("KILLS", "DIES", "BOTHDIE") or target is None:
            continue
        mover.revealed = target.revealed = True
        dead = [target] if res == "KILLS" else [mover] if res == "DIES" else [mover, target]
        for piece in dead:
            if piece.owner != ours or piece.rank not in WATCHED:
                continue
            other = mover if piece is target else target
            how = "struck by" if piece is target else "striking"
            known = "" if piece is mover else " (taker known)" if shown else " (taker hidden)"
            events.append(f"our {piece.rank} lost {how} {other.rank} in {where(to[1], ours)}{known}")
        if res == "KILLS":
            board[to] = mover
        elif res == "BOTHDIE":
            board.pop(to, None)
    for e in events:
        tally[e] += 1
        lost_in[e] += lost
    return lost


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folders", nargs="+")
    args = ap.parse_args(argv)
    tally: Counter[str] = Counter()
    lost_in: Counter[str] = Counter()
    games = losses = 0
    for folder in args.folders:
        for path in sorted(glob.glob(os.path.join(folder, "game*.log"))):
            lost = read(path, tally, lost_in)
            if lost is not None:
                games += 1
                losses += lost
    print(f"games: {games} games")
    print(f"lost: {losses} games")
    for what, n in tally.most_common():
        print(f"{what}: {n} times, {n / max(games, 1):.2f} a game, {lost_in[what]} in lost games")


if __name__ == "__main__":
    main()
