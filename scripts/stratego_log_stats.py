"""Count, over the referee's logs of ``bench/stratego_vs_peers.py`` runs, how
our officers and Spy were lost: who took them, where (their camp, the
middle, ours), and whether the taker was already revealed.

    python scripts/stratego_log_stats.py <folder> [<folder> ...]

Each folder is one run's ``# logs in <folder>``. Prints one line a kind of
loss: how often, per game, and how often in games we lost. Ranks are the
referee's (1 Marshal, 2 General, 3 Colonel, s Spy, B bomb).

Then how the games we lost stood in material (the search's ``VALUE`` of
the movable pieces each side lost) at turns 100 and 150 (or the end, if
sooner): how many were lost from a lead of ``LEAD`` or more (thrown), how
many from as far behind.

Last, the strikes' balance: for each side as striker, and for struck
pieces hidden or already revealed, the material (``VALUE``) the striker's
side won and lost a game (a trade counts on both sides), over all games and
over the games we lost.

And the cornered: a revealed piece of theirs steps next to a revealed piece
of ours that it beats, we make a quiet move elsewhere, and it strikes. Was
ours trapped (no empty square beside it before our move: the striker's
square is not empty) or could it have fled?
"""
from __future__ import annotations

import argparse
import glob
import os
import sys
from collections import Counter
from typing import NamedTuple

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path[:0] = [HERE, ROOT, os.path.join(ROOT, "bench")]     # the replay's reader; the doors; the bench

from stratego_replay import read_log  # noqa: E402
from stratego_vs_peers import DIRS  # noqa: E402

from doors.stratego.belief import R_OF  # noqa: E402
from doors.stratego.pieces import NEIGHBOURS  # noqa: E402
from doors.stratego.values import VALUE  # noqa: E402

WATCHED = ("1", "2", "3", "S")
LEAD = 100.0        # material, as the search values it
CHECKS = (100, 150)  # turns
STRIKES = [(f"{who} struck {whose} {kind} pieces", (us, shown))
           for us, who, whose in ((True, "we", "their"), (False, "they", "our"))
           for shown, kind in ((False, "hidden"), (True, "revealed"))]


def token(rank: str) -> str:
    return "s" if rank == "S" else rank


def where(square: int, me: int) -> str:
    """The square's part of the board, seen from our side."""
    deep = square // 10 if me == 1 else 9 - square // 10     # 0: their back row
    return "their camp" if deep <= 3 else "middle" if deep <= 5 else "our camp"


Balance = Counter[tuple[bool, bool, bool]]     # (we struck, struck piece shown, striker won): material
Cornered = Counter[tuple[bool, str]]            # (trapped, our rank): times


def trapped(occupied: set[int], victim: int) -> bool:
    """No empty square beside ``victim`` (board edges and lakes aside)."""
    return all(n in occupied for n in NEIGHBOURS[victim])


class Game(NamedTuple):
    lost: bool
    leads: list[float]      # our material lead at each of ``CHECKS``
    balance: Balance
    cornered: Cornered


def read(path: str, tally: Counter[str], lost_in: Counter[str]) -> Game | None:
    """Tally one game's officer losses; the rest of what it tells (None:
    not a finished game)."""
    end = open(path).read().splitlines()[-1:] or [""]
    if not any(word in end[0] for word in ("VICTORY", "SURRENDER", "ILLEGAL")):
        return None
    lost = "ours" not in end[0].split()[0] and "VICTORY" in end[0]
    adapter, moves = read_log(path)
    me = adapter.me
    events = []
    lead = 0.0
    at: dict[int, float] = {}
    balance: Balance = Counter()
    cornered: Cornered = Counter()
    before_ours: set[int] = set()        # the occupied squares before our last move
    ours_quiet = False                   # and whether it struck nothing
    for turn, side, text in moves:
        for check in CHECKS:
            if turn >= check and check not in at:
                at[check] = lead
        x, y, step, far = text.split()[:4]
        frm = int(y) * 10 + int(x)
        mover, struck = adapter.board[frm], adapter.board[frm + DIRS[step] * int(far)]
        shown = mover is not None and mover[3]
        struck_shown = struck is not None and struck[3]
        before = adapter.last_strike
        if side == me:
            before_ours = {s for s, p in enumerate(adapter.board) if p is not None}
        if not adapter.apply(side, text):
            break
        hit = adapter.last_strike
        if side == me:
            ours_quiet = hit is before
        if hit is None or hit is before:
            continue
        played = adapter.moves
        if hit.player != me and shown and struck_shown and hit.attacker_survived \
                and hit.defender not in ("B", "F") and len(played) >= 3 and played[-3][2] == hit.frm \
                and ours_quiet and played[-2][2] != hit.to:
            cornered[trapped(before_ours, hit.to), token(hit.defender)] += 1
        lost_ranks = ([] if hit.attacker_survived else [(hit.player, hit.attacker, hit.defender)]) + \
            ([] if hit.defender_survived else [(1 - hit.player, hit.defender, hit.attacker)])
        for owner, rank, other in lost_ranks:
            if rank not in ("B", "F"):
                lead += VALUE[R_OF[rank]] * (-1 if owner == me else 1)
                balance[hit.player == me, struck_shown, owner != hit.player] += round(VALUE[R_OF[rank]])
            if owner != me or rank not in WATCHED:
                continue
            how = f"striking {token(other)}" if owner == hit.player else f"struck by {token(other)}"
            known = "" if owner == hit.player else " (taker known)" if shown else " (taker hidden)"
            events.append(f"our {token(rank)} lost {how} in {where(hit.to, me)}{known}")
    for e in events:
        tally[e] += 1
        lost_in[e] += lost
    return Game(lost, [at.get(check, lead) for check in CHECKS], balance, cornered)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folders", nargs="+")
    args = ap.parse_args(argv)
    tally: Counter[str] = Counter()
    lost_in: Counter[str] = Counter()
    games = losses = thrown = behind = 0
    balance: Balance = Counter()
    balance_lost: Balance = Counter()
    cornered: Cornered = Counter()
    for folder in args.folders:
        for path in sorted(glob.glob(os.path.join(folder, "game*.log"))):
            game = read(path, tally, lost_in)
            if game is not None:
                lost, leads = game.lost, game.leads
                balance.update(game.balance)
                cornered.update(game.cornered)
                if lost:
                    balance_lost.update(game.balance)
                games += 1
                losses += lost
                thrown += lost and max(leads) >= LEAD
                behind += lost and leads[-1] <= -LEAD
    print(f"games: {games} games")
    print(f"lost: {losses} games")
    for what, n in tally.most_common():
        print(f"{what}: {n} times, {n / max(games, 1):.2f} a game, {lost_in[what]} in lost games")
    turns = " or ".join(str(c) for c in CHECKS)
    print(f"lost from a lead of {LEAD:.0f} or more at turn {turns}: {thrown} games")
    print(f"lost from {LEAD:.0f} or more behind at turn {CHECKS[-1]}: {behind} games")
    for what, key in STRIKES:
        won, gone = (balance[key + (w,)] / max(games, 1) for w in (True, False))
        won_l, gone_l = (balance_lost[key + (w,)] / max(losses, 1) for w in (True, False))
        print(f"{what}: won {won:.0f} and lost {gone:.0f} a game, in lost games {won_l:.0f} and {gone_l:.0f}")
    for stuck, how in ((True, "trapped"), (False, "could have fled")):
        ranks = " ".join(f"{r}:{n}" for (t, r), n in sorted(cornered.items()) if t == stuck)
        total = sum(n for (t, _r), n in cornered.items() if t == stuck)
        print(f"cornered and {how}: {total} times, {total / max(games, 1):.2f} a game ({ranks or 'none'})")


if __name__ == "__main__":
    main()
