"""A game-long record of what each enemy piece did, from the public moves.

The observation keeps only the last few public moves; a Spy that walked
up to our Marshal long ago, or that sits where our Marshal walks, shows
nothing there. This record follows every enemy piece now on the board
back through the whole public move list (every move and every strike is
public, so it holds no hidden rank) and says, per piece:

- ``still``: plies since it last moved (since the start if it never did);
- ``walked``: its steps that brought it nearer the viewer's shown Marshal,
  ending within ``NEAR`` steps of it;
- ``passed``: it had a turn of its side next to the viewer's shown Marshal
  and did not strike it (only the Spy takes a Marshal, and it takes a
  shown one whenever it can);
- ``waited``: turns of its side it stood, not moving, two steps from the
  viewer's shown Marshal (where one step of the Marshal's brings it in
  reach).

- ``feints``: per rank of ours, how often it charged a shown officer of
  ours of that rank (``FEINT_RANKS``) and broke off: it stepped next to
  it, our piece stepped off, and its next move went away from it (one
  that beats our piece follows it or strikes). Counted at most
  ``FEINT_MAX`` times a piece of ours.

And the ranks of the enemy's pieces that walked up to the viewer's shown
Marshal while hidden and were shown since (``walkers``): a side whose
hidden walkers turn out not to be its Spy walks up for other reasons (the
belief reads it so).

"Shown" dates from the first strike our Marshal was in (a position with
no such strike on record counts it shown from the start). One pass over
the moves, newest first: a piece's square before a move is known from its
square after it (a move of its side that ends where it stands was its
own: a piece that strikes and loses is not on that square after).
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, Protocol

from .pieces import NEIGHBOURS
from .rules import Strike

__all__ = ["NEAR", "FEINT_MAX", "FEINT_RANKS", "Record", "Track", "tracks"]

NEAR = 3        # a step towards the Marshal counts if it ends this close (steps) to it
FEINT_RANKS = frozenset("2345")    # our shown pieces worth taking whenever one can (not the Marshal)
FEINT_MAX = 3


class Track(NamedTuple):
    still: int
    walked: int = 0
    passed: bool = False
    waited: int = 0
    feints: tuple[tuple[str, int], ...] = ()    # (our rank, times), by rank


class _Seen(Protocol):
    @property
    def owner(self) -> int: ...
    @property
    def rank(self) -> str | None: ...
    @property
    def revealed(self) -> bool: ...


def _far(a: int, b: int) -> int:
    return abs(a % 10 - b % 10) + abs(a // 10 - b // 10)


# the squares exactly two steps from each square (on the board; lakes included)
RING2: tuple[tuple[int, ...], ...] = tuple(
    tuple(t for t in range(100) if _far(s, t) == 2) for s in range(100))


class Record(NamedTuple):
    tracks: tuple[tuple[int, Track], ...]   # (square, record) of each enemy piece on the board
    walkers: tuple[str, ...]                # ranks, now shown, of enemy pieces that walked up (sorted)


def tracks(squares: Sequence[_Seen | None], moves: Sequence[tuple[int, int, int]],
           strikes: Sequence[Strike], viewer: int) -> Record:
    """The record of every piece of the viewer's enemy on ``squares`` (the
    board now, after ``moves``: every public move of the game), and the
    ranks of the enemy's pieces that walked up to the viewer's shown
    Marshal and have been shown since (struck, or lost)."""
    me, enemy = viewer, 1 - viewer
    ply = len(moves)
    ids = [sq for sq, s in enumerate(squares) if s is not None and s.owner == enemy]
    pos = dict(zip(ids, ids, strict=True))     # square before the move -> the piece (its square now)
    rank = {sq: squares[sq].rank for sq in ids}  # type: ignore[union-attr]
    by_ply = {st.ply: st for st in strikes}
    last: dict[int, int] = {}
    walked: dict[int, int] = {}
    first_walk: dict[int, int] = {}         # the ply of its first step up to our Marshal
    reveal: dict[int, int] = {}             # the ply its rank was first shown (a strike, a run)
    waited: dict[int, int] = {}
    passed: set[int] = set()
    marshal = next((sq for sq, s in enumerate(squares) if s is not None and s.owner == me
                    and s.rank == "1" and s.revealed), None)
    shown = min((st.ply for st in strikes if (st.attacker if st.player == me else st.defender) == "1"),
                default=0)
    for j in range(ply - 1, -1, -1):        # move j is ply j + 1
        p, frm, to = moves[j]
        st = by_ply.get(j + 1)
        if p == me:
            if to == marshal:
                marshal = frm
            if st is not None and not st.defender_survived:     # an enemy piece lost on ``to``
                pos[to] = 100 + j
                rank[100 + j] = st.defender
            if st is not None and to in pos:
                reveal[pos[to]] = j + 1
            continue
        piece = pos.pop(to, None)
        if piece is None and st is not None and not st.attacker_survived:   # lost striking
            piece = 100 + j
            rank[piece] = st.attacker
        if piece is not None:
            pos[frm] = piece
            last.setdefault(piece, j + 1)
            if st is not None or _far(frm, to) > 1:
                reveal[piece] = j + 1
        if marshal is None or j + 1 <= shown:
            continue
        if piece is not None and to != marshal and _far(to, marshal) < _far(frm, marshal) \
                and _far(to, marshal) <= NEAR:
            walked[piece] = walked.get(piece, 0) + 1
            first_walk[piece] = j + 1
        for n in NEIGHBOURS[marshal]:
            if (other := pos.get(n)) is not None and not (other == piece and to == marshal):
                passed.add(other)
        for n in RING2[marshal]:
            if (other := pos.get(n)) is not None and other != piece:
                waited[other] = waited.get(other, 0) + 1
    feints = _feints(squares, moves, by_ply, viewer)
    return Record(tuple((sq, Track(ply - last.get(sq, 0), walked.get(sq, 0), sq in passed, waited.get(sq, 0),
                                   feints.get(sq, ())))
                        for sq in ids),
                  tuple(sorted(r for piece, r in rank.items() if r is not None and piece in first_walk
                               and first_walk[piece] <= reveal.get(piece, ply))))


def _feints(squares: Sequence[_Seen | None], moves: Sequence[tuple[int, int, int]],
            by_ply: dict[int, Strike], viewer: int) -> dict[int, tuple[tuple[str, int], ...]]:
    """``Track.feints`` of each enemy piece on ``squares`` (by its square):
    one more pass over the moves, newest first, following the viewer's
    shown officers as well as the enemy's pieces. A charge counts if our
    piece had been shown (struck, or made a run) before it; a charge is
    kept only while fewer than ``FEINT_MAX`` newer ones were, so the count
    is right once that ply is known, at the end."""
    me, enemy = viewer, 1 - viewer
    ours = {sq: sq for sq, s in enumerate(squares)
            if s is not None and s.owner == me and s.revealed and s.rank in FEINT_RANKS}
    if not ours:
        return {}
    where = {q: q for q in ours}            # our piece -> its square (after the move at hand)
    theirs = {sq: sq for sq, s in enumerate(squares) if s is not None and s.owner == enemy}
    shown: dict[int, int] = {}              # our piece -> the ply it was first shown
    kept: dict[tuple[int, int], list[int]] = {}     # (their piece, ours) -> plies, newest first
    broke: dict[int, set[int]] = {}         # their piece -> ours its next move broke off from
    for j in range(len(moves) - 1, -1, -1):
        p, frm, to = moves[j]
        st = by_ply.get(j + 1)
        if p == me:
            if (q := ours.pop(to, None)) is not None:
                ours[frm] = q
                where[q] = frm
                if st is not None or _far(frm, to) > 1:
                    shown[q] = j + 1
            continue
        if st is not None and to in ours:       # it struck a piece of ours and lost
            shown[ours[to]] = j + 1
        piece = theirs.pop(to, None)
        if piece is None:
            continue
        theirs[frm] = piece
        for q in broke.pop(piece, ()):          # this move charged it
            if _far(to, where[q]) == 1:
                plies = kept.setdefault((piece, q), [])
                if len(plies) < FEINT_MAX:
                    plies.append(j + 1)
        broke[piece] = {q for at, q in ours.items() if _far(frm, at) == 2 and _far(to, at) > 1}
    out: dict[int, dict[str, int]] = {}
    for (piece, q), plies in kept.items():
        times = sum(1 for t in plies if t > shown.get(q, 0))
        if times:
            by_rank = out.setdefault(piece, {})
            rank = squares[q].rank      # type: ignore[union-attr]
            assert rank is not None
            by_rank[rank] = by_rank.get(rank, 0) + times
    return {piece: tuple(sorted(by_rank.items())) for piece, by_rank in out.items()}
