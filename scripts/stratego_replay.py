"""Replay a game log of the UCC 2012 referee into our side's view and ask
our bot at one move: the board as we saw it and the best root values.

``bench/stratego_vs_peers.py`` keeps its logs (``# logs in <folder>``); a
lost game is read there, the move where it went wrong is looked up, then::

    python scripts/stratego_replay.py <folder>/game5.log --turn 230 [--level 5] [--seeds 3]

prints the board before our move of that turn (ours ``o``, theirs ``x``
with ``?`` for a hidden rank and ``'`` once it moved), the top root values
of each seed's search (no time cap: repeatable) and the move it picks.
"""
from __future__ import annotations

import argparse
import os
import random
import sys
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
sys.path.insert(0, ROOT)

from stratego_vs_peers import TOKEN_RANK, Adapter  # noqa: E402

from doors.stratego.pieces import Move  # noqa: E402

LAKES = {42, 43, 46, 47, 52, 53, 56, 57}


def read_log(path: str, level: int = 5) -> tuple[Adapter, list[tuple[int, int, str]]]:
    """Our adapter with both setups of a log placed (their ranks hidden),
    and the log's moves as (turn, side, the move's text) for ``apply``
    (not a surrender, which is no move). Its bot has no time cap: the node
    budget alone ends a move, so a replayed move is the same on any load."""
    lines = open(path).read().splitlines()
    adapter = Adapter(level, 0, None, repeatable=True)
    adapter.me = 0 if "ours" in lines[0] else 1
    i = 0
    for owner in (0, 1):
        while "SETUP" not in lines[i]:
            i += 1
        for dy, row in enumerate(lines[i + 1:i + 5]):
            for x, ch in enumerate(row):
                if ch != ".":
                    rank = TOKEN_RANK[ch] if owner == adapter.me else None
                    adapter.board[(dy + 6 * owner) * 10 + x] = [owner, rank, False, False]
        i += 5
    moves = []
    for line in lines[i:]:
        words = line.split()
        if len(words) >= 4 and words[1] in ("RED:", "BLU:") and words[2].isdigit():
            moves.append((int(words[0]), 0 if words[1] == "RED:" else 1, " ".join(words[2:])))
    return adapter, moves


def load(path: str, turn: int, level: int) -> Adapter:
    """Our adapter after every move before our move of ``turn``."""
    adapter, moves = read_log(path, level)
    for t, side, text in moves:
        if (t, side) == (turn, adapter.me) or not adapter.apply(side, text):
            break
    return adapter


def board_text(adapter: Adapter) -> str:
    rows = []
    for y in range(10):
        cells = []
        for x in range(10):
            piece: Any = adapter.board[y * 10 + x]
            if piece is None:
                cells.append("~" if y * 10 + x in LAKES else ".")
            else:
                mark = "'" if piece[2] and piece[0] != adapter.me else ""
                cells.append(("o" if piece[0] == adapter.me else "x") + (piece[1] or "?") + mark)
        rows.append(" ".join(f"{c:4}" for c in cells))
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("log")
    ap.add_argument("--turn", type=int, required=True)
    ap.add_argument("--level", type=int, default=5)
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--top", type=int, default=6)
    args = ap.parse_args(argv)
    adapter = load(args.log, args.turn, args.level)
    print(board_text(adapter))
    obs = adapter.observation()
    bot = adapter.bot
    pick = bot._pick

    def show(obs: Any, me: int, cands: list[Any], values: list[float]) -> Any:
        for m, v in sorted(zip(cands, values, strict=True), key=lambda mv: -mv[1])[:args.top]:
            print(f"  {m.frm % 10},{m.frm // 10} -> {m.to % 10},{m.to // 10}: {v:.1f}")
        return pick(obs, me, cands, values)

    bot._pick = show  # type: ignore[method-assign]
    for seed in range(args.seeds):
        bot.rng = random.Random(seed)
        move = bot.choose(obs, adapter.me)
        assert isinstance(move, Move), move
        print(f"seed {seed}: {move.frm % 10},{move.frm // 10} -> {move.to % 10},{move.to // 10} "
              f"({bot.last_samples} samples, depth {bot.last_depth}, {bot.last_nodes} nodes)")


if __name__ == "__main__":
    main()
