"""Scripted Stratego opponents, each built to break one assumption of ours.

Each is a referee program (the UCC 2012 line protocol, like the outside
bots): our own level 3 plays its army, and one trick is laid over it, a
setup or a piece with a plan. ``bench/stratego_pool.py --scripted`` plays
level 5 against each. Run alone: ``python bench/stratego_scripted.py NAME``
(the referee starts it so), or ``NAME LEVEL`` for another level than 3
under the trick. ``$PEER_SEED`` seeds it (its setup and its level).

- ``spy``: its Spy walks up to our revealed Marshal and strikes it.
- ``open_flag``: its flag in the second row from the back, or in the open
  middle (the second row from the front), with no bomb next to it.
- ``front_bombs``: its six bombs on the front row.
- ``miner_rush``: its Miners run along an edge column to our back corner on
  that side and strike the unmoved pieces there.
- ``scouts``: for the first 80 plies its Scouts run the longest open line
  they have, and strike what stands at its end.
- ``bluff``: a Sergeant chases our strongest revealed piece as a Marshal
  would (it strikes only what it surely beats).
"""
from __future__ import annotations

import os
import random
import sys
from collections import deque
from collections.abc import Callable

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from stratego_vs_peers import Adapter  # noqa: E402

from doors.stratego.observation import StrategoObservation  # noqa: E402
from doors.stratego.pieces import COUNTS, LAKES, NEIGHBOURS, RANKS, Move, strike  # noqa: E402
from doors.stratego.setup import board_row, make_setup  # noqa: E402

BASE_LEVEL = 3


def _step_towards(board: list[list[object] | None], frm: int, goals: set[int],
                  through: bool = False) -> int | None:
    """The first square of a shortest walk from ``frm`` over empty squares
    to one of ``goals`` (a goal may be occupied: the walk ends by striking it;
    ``through``: the walk may strike the other side's pieces on its way)."""
    me = board[frm][0]  # type: ignore[index]
    prev = {frm: frm}
    queue = deque([frm])
    while queue:
        sq = queue.popleft()
        if sq in goals and sq != frm:
            while prev[sq] != frm:
                sq = prev[sq]
            return sq
        for n in NEIGHBOURS[sq]:
            if n in prev or n in LAKES:
                continue
            if board[n] is None or n in goals or (through and board[n][0] != me):  # type: ignore[index]
                prev[n] = sq
                queue.append(n)
    return None


class Scripted(Adapter):
    """Level 3 with one trick (``plan``) and its own setup (``layout``)."""

    name = ""

    def __init__(self, seed: int, level: int = BASE_LEVEL):
        super().__init__(level, seed, None, repeatable=True)
        self.rng = random.Random(seed)
        self.agent: int | None = None    # the square of the trick's piece

    def layout(self) -> dict[int, str]:
        return dict(make_setup(self.me, self.rng).placements)

    def plan(self, obs: StrategoObservation) -> Move | None:
        return None

    # -- the setup and the moves --
    def setup_rows(self) -> list[str]:
        grid = self.layout()
        assert sorted(grid.values()) == sorted(r for r in RANKS for _ in range(COUNTS[r])), grid
        for sq, rank in grid.items():
            self.board[sq] = [self.me, rank, False, False]
        for sq in range(60, 100) if self.me == 0 else range(0, 40):
            self.board[sq] = [1 - self.me, None, False, False]
        rows = range(0, 4) if self.me == 0 else range(6, 10)
        return ["".join("s" if grid[r * 10 + c] == "S" else grid[r * 10 + c] for c in range(10))
                for r in rows]

    def fill(self, fixed: dict[int, str], ok: Callable[[dict[int, str]], bool] = lambda g: True) -> dict[int, str]:
        """``fixed`` and the rest of the army at random on the other squares."""
        for _ in range(500):
            left = [r for r in RANKS for _ in range(COUNTS[r] - list(fixed.values()).count(r))]
            free = [s for s in (range(0, 40) if self.me == 0 else range(60, 100)) if s not in fixed]
            self.rng.shuffle(left)
            grid = {**fixed, **dict(zip(free, left, strict=True))}
            if ok(grid):
                return grid
        return grid

    def line(self, k: int) -> list[int]:
        """The squares of setup line ``k`` (0 = front)."""
        r = board_row(self.me, k)
        return list(range(r * 10, r * 10 + 10))

    def mine(self, rank: str) -> list[int]:
        return [s for s, p in enumerate(self.board) if p is not None and p[0] == self.me and p[1] == rank]

    def theirs(self) -> list[int]:
        return [s for s, p in enumerate(self.board) if p is not None and p[0] != self.me]

    def legal(self, obs: StrategoObservation, frm: int, to: int) -> Move | None:
        move = Move(frm, to)
        return move if move in obs.legal_actions() else None

    def choose(self, obs: StrategoObservation) -> Move:
        move = self.plan(obs)
        if move is not None:
            return move
        chosen = self.bot.choose(obs, self.me)
        assert isinstance(chosen, Move)
        return chosen


class Spy(Scripted):
    def plan(self, obs: StrategoObservation) -> Move | None:
        spies = self.mine("S")
        marshal = [s for s in self.theirs() if self.board[s][1] == "1"]  # type: ignore[index]
        if not spies or not marshal:
            return None
        step = _step_towards(self.board, spies[0], {marshal[0]})
        return None if step is None else self.legal(obs, spies[0], step)


class OpenFlag(Scripted):
    def layout(self) -> dict[int, str]:
        if self.rng.random() < 0.5:
            flag = self.rng.choice(self.line(2))                  # second row from the back
        else:
            flag = self.rng.choice(self.line(1)[3:7])             # the open middle
        return self.fill({flag: "F"}, lambda g: all(g.get(n) != "B" for n in NEIGHBOURS[flag]))


class FrontBombs(Scripted):
    def layout(self) -> dict[int, str]:
        front = self.line(0)
        cols = sorted(self.rng.sample(range(10), 6))
        fixed = {front[c]: "B" for c in cols}
        fixed[self.rng.choice(self.line(3))] = "F"
        return self.fill(fixed)


class MinerRush(Scripted):
    def layout(self) -> dict[int, str]:
        self.edge = self.rng.choice((0, 9))
        front = self.line(0)
        side = 1 if self.edge == 0 else 8
        return self.fill({front[self.edge]: "8", front[side]: "8"},
                         lambda g: all(g[s] not in ("B", "F") for s in self.line(1)[min(side, self.edge):
                                                                                   max(side, self.edge) + 1]))

    def plan(self, obs: StrategoObservation) -> Move | None:
        back = 9 if self.me == 0 else 0
        rows = (back, back - 1) if back == 9 else (back, back + 1)
        cols = range(0, 3) if self.edge == 0 else range(7, 10)
        goals = {r * 10 + c for r in rows for c in cols
                 if self.board[r * 10 + c] is not None and self.board[r * 10 + c][0] != self.me  # type: ignore[index]
                 and not self.board[r * 10 + c][2]}  # type: ignore[index]
        for miner in self.mine("8"):
            if not goals:
                return None
            step = _step_towards(self.board, miner, goals, through=True)
            if step is not None:
                move = self.legal(obs, miner, step)
                if move is not None:
                    return move
        return None


class Scouts(Scripted):
    def plan(self, obs: StrategoObservation) -> Move | None:
        if len(self.moves) > 80:
            return None
        runs = [m for m in obs.legal_actions() if isinstance(m, Move)
                and (p := self.board[m.frm]) is not None and p[1] == "9"
                and abs(m.to - m.frm) not in (1, 10)]
        if not runs:
            return None
        strikes = [m for m in runs if self.board[m.to] is not None]
        return max(strikes or runs, key=lambda m: (abs(m.to - m.frm), self.rng.random()))


class Bluff(Scripted):
    def plan(self, obs: StrategoObservation) -> Move | None:
        here = None if self.agent is None else self.board[self.agent]
        if self.agent is None or here is None or here[0] != self.me or here[1] != "7":
            sergeants = self.mine("7")
            if not sergeants:
                return None
            self.agent = min(sergeants, key=lambda s: abs(s // 10 - 4.5))
        agent: int = self.agent
        if self.board[agent][3]:      # type: ignore[index]
            return None                # shown: the bluff is over
        shown = [s for s in self.theirs() if self.board[s][3]]  # type: ignore[index]
        for n in NEIGHBOURS[agent]:
            p = self.board[n]
            if p is not None and p[0] != self.me and p[3] and strike("7", str(p[1]))[0]:
                return self.legal(obs, agent, n)
        if not shown:
            return None
        target = min(shown, key=lambda s: RANKS.index(str(self.board[s][1])))  # type: ignore[index]
        goals = {n for n in NEIGHBOURS[target] if self.board[n] is None and n not in LAKES}
        step = _step_towards(self.board, agent, goals) if agent not in goals else None
        move = None if step is None else self.legal(obs, agent, step)
        if move is not None:
            self.agent = move.to
        return move


SCRIPTS: dict[str, type[Scripted]] = {
    "spy": Spy, "open_flag": OpenFlag, "front_bombs": FrontBombs, "miner_rush": MinerRush,
    "scouts": Scouts, "bluff": Bluff,
}


def main() -> None:
    seed = int(os.environ.get("PEER_SEED", "0")) or random.randrange(1 << 30)
    side = SCRIPTS[sys.argv[1]](seed, int(sys.argv[2]) if len(sys.argv) > 2 else BASE_LEVEL)
    side.run(sys.stdin, sys.stdout)


if __name__ == "__main__":
    main()
