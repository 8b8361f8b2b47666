"""A chase: one enemy piece stepping beside one piece of ours, move after
move, while ours steps away.

Fleeing is right for one move and wrong for a game: the pair can go round
the board until the turn limit, and no other piece of ours moves meanwhile.
What ends a chase is a guard, a piece of ours that beats the chaser: beside
the guard, the chased piece may stay (the chaser that takes it is taken),
and the moves it no longer spends fleeing go to the guard's hunt. So in a
chase (level 5) the chased piece flees towards the nearest guard
(``guard_steps``, ``root.CHASE_PULL``), and the search counts a piece beside
its guard as no sure gain for the striker (``search.Search``'s
``guarded``).

A chase as long as the observation shows (``LONG_CHASE``) has found no
guard, and fleeing on would hold the rest of our army still to the end of
the game: then, while our lead outlasts the chased piece, it flees no
more (``root.stays``) and the game goes on elsewhere.
"""
from __future__ import annotations

from typing import NamedTuple

from .belief import R_OF, unknown_pool
from .observation import MOVES_KEPT, StrategoObservation
from .pieces import NEIGHBOURS
from .tables import RESULT, bfs_seeded

__all__ = ["CHASE", "LONG_CHASE", "Chase", "chase", "guard_steps"]

CHASE = 3   # the enemy's last moves that stepped beside our fleeing piece
LONG_CHASE = MOVES_KEPT // 2    # a chase as long as the observation shows: fleeing gets nowhere


class Chase(NamedTuple):
    chased: int     # square of our piece
    chaser: int     # square of theirs, beside it
    length: int     # their moves in a row that stepped beside it (at most ``LONG_CHASE``)


def chase(obs: StrategoObservation, me: int) -> Chase | None:
    """The chase going on, if at least the last ``2 * CHASE`` public moves
    were ours and theirs in turn, each side moving one piece on from where
    it last stopped, and each of theirs ending beside ours (none a strike:
    both pieces still stand there). Its length counts back as far as the
    observation's moves go."""
    moves = obs.moves
    length = 0
    ours = theirs = -1
    while 2 * (length + 1) <= len(moves):
        mine, other = moves[-2 * (length + 1)], moves[-2 * (length + 1) + 1]
        if mine[0] != me or other[0] == me or other[2] not in NEIGHBOURS[mine[2]] \
                or (ours >= 0 and (mine[2] != ours or other[2] != theirs)):
            break
        ours, theirs = mine[1], other[1]
        length += 1
    if length < CHASE:
        return None
    at = Chase(moves[-2][2], moves[-1][2], length)
    mine_now, enemy = obs.squares[at.chased], obs.squares[at.chaser]
    if mine_now is None or mine_now.owner != me or enemy is None or enemy.owner == me:
        return None
    return at


def guard_steps(obs: StrategoObservation, me: int, at: Chase) -> list[int] | None:
    """Per square, the steps to the nearest guard of ours: a piece that
    beats, when it strikes, the chaser's rank if shown, else every rank
    their hidden pieces may have (``belief.unknown_pool``) that would take
    the chased piece (our Spy guards against a shown Marshal only). None when no piece of ours is a guard,
    or the chaser is shown and would not take the chased piece (nothing
    to flee). Bombs and the flag, which never move, block the way."""
    chased = R_OF[obs.piece(at.chased).known_rank]
    rank = obs.piece(at.chaser).rank
    if rank is not None:
        threats = {R_OF[rank]} if RESULT[R_OF[rank]][chased] == 1 else set()
    else:
        threats = {R_OF[r] for r in unknown_pool(obs, 1 - me)
                   if r not in ("B", "F") and RESULT[R_OF[r]][chased] == 1}
    guards: dict[int, int] = {}
    blocked: set[int] = set()
    for s, seen in enumerate(obs.squares):
        if seen is None:
            continue
        if seen.rank in ("B", "F"):
            blocked.add(s)
        elif seen.owner == me and s != at.chased \
                and all(RESULT[R_OF[seen.known_rank]][t] == 1 for t in threats):
            guards[s] = 0
    return bfs_seeded(guards, blocked) if guards and threats else None
