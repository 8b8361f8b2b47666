"""What their side knows of our pieces, for level 5's search (``Search``'s
``fog``).

A sample fixes the ranks of their hidden pieces and the alpha-beta lets
both sides see every rank: in a sample that puts their Colonel beside our
hidden Major, their Colonel "knows" to take it. A careful player does not
gamble an officer on a piece it cannot see: it may be a bomb, or stronger.
With the fog, their side strikes a hidden piece of ours only

- with a piece it can spare to learn what it is (``PROBERS``: Scout, Miner,
  Sergeant, Lieutenant, Captain), or
- if ours has moved (no bomb), with a piece that beats every rank of ours
  they have not seen (above ``Fog.top``).

A piece of ours that strikes or is struck is shown for the rest of the
line (the search's ``shown``); one that moves in the line is no longer
unmoved (``Fog.still``).

The fog is an assumption about the opponent, so it is checked against the
game: once their side has made a strike the fog forbids (an officer on a
hidden piece of ours, ``gambled``), it is off for the rest of the game.
A careful opponent is searched as careful; one that gambles, as one that
sees every rank: without that check the fog loses to a side that gambles
(level 4 is one).
"""
from __future__ import annotations

from typing import NamedTuple

from .belief import R_OF
from .observation import StrategoObservation
from .tables import BOMB

__all__ = ["Fog", "PROBERS", "fog_of", "gambled"]

# their pieces that strike a hidden piece of ours to learn what it is
PROBERS = frozenset(range(2, 7))


class Fog(NamedTuple):
    still: set[int]     # our squares with a piece unmoved and hidden (bombs and flag too)
    top: int            # our best movable rank they have not seen (0: none)

    def may(self, unmoved: bool) -> tuple[bool, ...]:
        """By rank index: whether their piece of that rank strikes a hidden
        piece of ours, unmoved or moved."""
        return tuple(r in PROBERS or (not unmoved and self.top < r < BOMB) for r in range(16))


def fog_of(obs: StrategoObservation, me: int) -> Fog:
    """The fog over our pieces in ``obs`` (its squares' moved and revealed
    flags: what the other side has seen)."""
    still: set[int] = set()
    top = 0
    for s, seen in enumerate(obs.squares):
        if seen is None or seen.owner != me or seen.revealed:
            continue
        r = R_OF[seen.known_rank]
        if not seen.moved:
            still.add(s)
        if r < BOMB:
            top = max(top, r)
    return Fog(still, top)


def gambled(obs: StrategoObservation, me: int, top: int) -> bool:
    """Whether their side has struck a hidden piece of ours with a piece
    the fog forbids: an officer on an unmoved one, or on a moved one while
    we still hide a rank at least as high (``top``, our best hidden rank
    now: no higher than it was then, so a strike that was allowed then
    is never counted)."""
    for st in obs.strikes:
        if st.player == me or not st.defender_hidden:
            continue
        r = R_OF[st.attacker]
        if r in PROBERS:
            continue
        if not st.defender_moved or r <= top:
            return True
    return False
