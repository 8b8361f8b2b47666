"""A chase: one enemy piece stepping beside one piece of ours, move after
move, while ours steps away.

Fleeing is right for one move and wrong for a game: the pair can go round
the board until the turn limit, and no other piece of ours moves meanwhile.
What ends a chase is a guard, a piece of ours that beats the chaser: beside
the guard, the chased piece may stay (the chaser that takes it is taken),
and the moves it no longer spends fleeing go to the guard's hunt. So in a
chase (level 5) the chased piece flees towards the nearest guard
(``guard_steps``, ``ai.CHASE_PULL``), and the search counts a piece beside
its guard as no sure gain for the striker (``search.Search``'s
``guarded``).
"""
from __future__ import annotations

from typing import NamedTuple

from .belief import R_OF, unknown_pool
from .observation import StrategoObservation
from .pieces import NEIGHBOURS
from .tables import RESULT, bfs_seeded

__all__ = ["CHASE", "Chase", "chase", "guard_steps"]

CHASE = 3   # the enemy's last moves that stepped beside our fleeing piece


class Chase(NamedTuple):
    chased: int     # square of our piece
    chaser: int     # square of theirs, beside it


def chase(obs: StrategoObservation, me: int) -> Chase | None:
    """The chase going on, if the last ``2 * CHASE`` public moves were ours
    and theirs in turn, each side moving one piece on from where it last
    stopped, and each of theirs ending beside ours (none a strike: both
    pieces still stand there)."""
    need = 2 * CHASE
    if len(obs.moves) < need:
        return None
    ours = theirs = -1
    for k, (player, frm, to) in enumerate(obs.moves[-need:]):
        if k % 2 == 0:
            if player != me or (ours >= 0 and frm != ours):
                return None
            ours = to
        else:
            if player == me or (theirs >= 0 and frm != theirs) or to not in NEIGHBOURS[ours]:
                return None
            theirs = to
    mine, enemy = obs.squares[ours], obs.squares[theirs]
    if mine is None or mine.owner != me or enemy is None or enemy.owner == me:
        return None
    return Chase(ours, theirs)


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
