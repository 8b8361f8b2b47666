"""What the root adds to each candidate move's searched value, beside the
search (``ai.StrategoBot._pick``): the costs of showing a piece or moving
it first, the Spy's risk to our shown Marshal, the trade bonus, the shuffle
penalty, a stalled game's probes, and the chase given up while we lead.

And the phase of the game that the root and the search read from the
observation: quiet (``QUIET``: the closing hunt), stalled (``is_stalled``: the
probes), well ahead (``LEAD``: the Miners set out). The figures behind each
setting are in ``docs/STRATEGO-AI.md``.
"""
from __future__ import annotations

from collections.abc import Sequence

from .belief import R_OF, Marginals
from .chase import LONG_CHASE, Chase
from .observation import Seen, StrategoObservation
from .pieces import COUNTS, NEIGHBOURS, Move, piece_targets
from .search import trade_ok
from .tables import MARSHAL, MINER_HIDDEN, beats
from .values import VALUE, piece_values, top_bonus

__all__ = ["REVEAL_COST", "FIRST_MOVE_COST", "TRADE_BONUS", "QUIET", "STALL", "STALL_STRIKES", "PROBE",
           "PROBE_RANKS", "LEAD", "MINER_LEAD", "CHASE_PULL", "costs", "counts", "spy_risk", "marshal_stake",
           "quiet", "is_stalled", "probing", "ahead", "stays"]

# Striking shows our rank: a cost for the strong pieces while still hidden (a
# hidden Marshal keeps their General and Marshal off every piece of ours that
# moved: any may be it). None once shown: a known Marshal may eat moved pieces.
# None either for taking a shown piece it beats in a stalled game
# (``_reveal_cost``): their officers are not coming to be kept off.
REVEAL_COST = {10: 80.0, 9: 40.0, 8: 10.0}
# moving a piece for the first time shows it is no bomb: their officers
# strike moved pieces they surely beat, never a piece that might be a bomb
FIRST_MOVE_COST = 12.0
TRADE_BONUS = 40.0  # striking a revealed equal Colonel or better (it would go on killing),
#                    if it leaves our officers no weaker than theirs (else a malus)
# plies without a strike after which the search's closing hunt is on
# (``tables.closing_hunt``): a piece of ours that beats all they have left
# goes after their moved pieces. Only then: sent out while strikes still
# come, it leaves our flag to their Miners
QUIET = 120
# plies without a strike after which the game is stalled: in the search, a
# cheap piece of ours (``search.PROBERS``) that strikes a piece hidden at
# the root gains ``PROBE`` (what it shows is worth the piece). Against a
# side that never comes out, or circles, nothing else breaks the wall
STALL = 300
STALL_STRIKES = 6   # at most so many strikes in ``2 * STALL`` plies: still stalled
PROBE = 100.0
PROBE_RANKS = frozenset("976")  # the ranks of ``search.PROBERS``: Scout, Sergeant, Lieutenant
# our movable pieces worth this many times theirs (``values.VALUE``): a won
# endgame, where our Miners set out for their last unmoved pieces as in a
# stall (their flag is walled in by bombs that only a Miner opens, and a
# game that is still busy runs out of turns before it stalls)
LEAD = 1.5
MINER_LEAD = 4 * PROBE  # ... their pull's gain then (``search.Search``'s ``miner``): above the
#                        stall's, for a busy game's moves outweigh a small pull
CHASE_PULL = 15.0   # per step, a chased piece of ours towards a guard (``chase.py``; level 5)


def counts(obs: StrategoObservation, me: int) -> tuple[list[int], list[int]]:
    """Pieces left by rank index: ours (on the board), theirs (not lost)."""
    mine, theirs = [0] * 12, [0] * 12
    for seen in obs.squares:
        if seen is not None and seen.owner == me:
            mine[R_OF[seen.known_rank]] += 1
    for r, n in COUNTS.items():
        theirs[R_OF[r]] = n
    for r in obs.lost[1 - me]:
        theirs[R_OF[r]] -= 1
    return mine, theirs

def spy_risk(obs: StrategoObservation, me: int, m: Move, marshal: int | None, marg: Marginals | None) -> float:
    """The odds that our Marshal, shown, stands next to their Spy after
    ``m`` (at most 1), by the belief's odds ``marg``."""
    if marshal is None or marg is None:
        return 0.0
    moves = m.frm == marshal
    if not (obs.piece(marshal).revealed or (moves and obs.squares[m.to] is not None)):
        return 0.0
    where = m.to if moves else marshal
    odds = 0.0
    for n in NEIGHBOURS[where]:
        seen = obs.squares[n]
        if seen is not None and seen.owner != me and seen.rank is None and n != m.to:
            odds += marg.p(n, "S")
    return min(1.0, odds)

def marshal_stake(obs: StrategoObservation, me: int) -> float:
    """What losing our Marshal costs in this position: its value in play
    (``values.piece_values``) and the top bonus it takes with it (their
    General, no longer outranked, takes whatever it finds). The Spy risk
    weighs this by the Spy's odds: a few samples see the Spy's strike or
    miss it, the charge counts it in every move."""
    mine, theirs = counts(obs, me)
    by_side = [mine, theirs] if me == 0 else [theirs, mine]
    after = [list(c) for c in by_side]
    after[me][MARSHAL] -= 1
    return piece_values(by_side)[me][MARSHAL] + top_bonus(by_side, me) - top_bonus(after, me)

def costs(obs: StrategoObservation, me: int, m: Move, marshal: int | None,
          own: list[tuple[int, int]], marg: Marginals | None, defend: bool) -> float:
    """What the root adds to a move's searched value: the Spy risk, the
    costs of showing a piece or moving it first, the trade bonus and
    the shuffle penalty. ``marshal``: our Marshal's square where the
    Spy risk counts (level 4 on); ``own``: our moves so far; ``marg``:
    the belief's odds; ``defend``: the level's flag-defence terms (the
    first-move cost among them)."""
    target = obs.squares[m.to]
    mine = obs.piece(m.frm)
    val = -marshal_stake(obs, me) * spy_risk(obs, me, m, marshal, marg) if marshal is not None else 0.0
    if target is not None:
        val -= _reveal_cost(obs, mine, target)
    probes = probing(obs, me)
    if not mine.moved and defend and not _sets_out(obs, me, m.frm, probes) \
            and not _frees(obs, me, m.frm, probes):
        val -= FIRST_MOVE_COST      # it might still be a bomb to them (in a stall, a probe)
    if target is not None and target.rank == mine.rank and target.rank in ("1", "2", "3"):
        # an equal officer on the loose: trade it off, unless that
        # leaves their next officer stronger than ours
        val += TRADE_BONUS if trade_ok(*counts(obs, me), R_OF[target.rank]) \
            else -TRADE_BONUS
    if own and (m.to, m.frm) == own[-1]:
        val -= 4.0          # do not shuffle back and forth
    if target is None and mine.rank == "9" and probes:
        strike = obs.opts.get("scout_strike", 2)
        after = list(obs.squares)
        after[m.frm], after[m.to] = None, mine
        if _can_probe(after, m.to, strike) and not _can_probe(obs.squares, m.frm, strike):
            val += PROBE / 2    # while probing: a Scout lines up a probe
    return val


def _reveal_cost(obs: StrategoObservation, mine: Seen, target: Seen) -> float:
    """What our piece ``mine`` loses by showing its rank when it strikes
    ``target``: ``REVEAL_COST`` while it is hidden and the strike shows
    it (against its equal both die: none is left to hide); nothing when
    the game is stalled and it takes a shown piece that does not take it
    back. The stall's hunt (``_hunts``) sends it there, and kept hidden
    beside its prey it would wait out the game."""
    if mine.revealed or target.rank == mine.rank:
        return 0.0
    if _prey(mine.known_rank, target) and is_stalled(obs, mine.owner):
        return 0.0
    return REVEAL_COST.get(R_OF[mine.known_rank], 0.0)


def _can_probe(squares: Sequence[Seen | None], sq: int, scout_strike: int) -> bool:
    """Our Scout on ``sq`` of ``squares`` (an observation's) could strike an
    unmoved hidden piece next."""
    return any((seen := squares[t]) is not None and seen.rank is None and not seen.moved
               for t in piece_targets(squares, sq, scout_strike))


def _sets_out(obs: StrategoObservation, me: int, sq: int, probes: bool) -> bool:
    """Our piece on ``sq`` is pulled out: a probe while ``probes`` (the
    game stalled, or quiet while we lead: ``probing``); a piece that beats
    every movable rank they have left, once the game has gone quiet (the
    search's closing hunt); or a Miner in an endgame (at
    most ``MINER_HIDDEN`` of their pieces still hidden and unmoved, as the
    search counts them) while ``probes`` or while we lead (``LEAD``), or in
    a stalled game where a bomb they have shown walls in a hidden piece
    (the search's ``bomb_walls``)."""
    seen = obs.squares[sq]
    if seen is None or seen.owner != me or seen.rank is None:
        return False
    rank = seen.rank
    if rank in PROBE_RANKS:
        return probes
    if _hunts(obs, me, sq):
        return True
    if rank != "8":
        return False
    hidden = [s for s, seen in enumerate(obs.squares) if seen is not None and seen.owner != me
              and seen.rank is None and not seen.moved]
    if len(hidden) <= MINER_HIDDEN:
        return probes or ahead(obs, me)
    return is_stalled(obs, me) and any((near := obs.squares[n]) is not None and near.owner != me
                                   and near.rank == "B" for s in hidden for n in NEIGHBOURS[s])


def _hunts(obs: StrategoObservation, me: int, sq: int) -> bool:
    """Our piece on ``sq`` is the closing hunt's: the game has gone quiet
    (``QUIET``) and it beats every movable rank they have left; or the
    game is stalled (``is_stalled``) and it beats a piece of theirs that
    is shown (the search's hunt is then wide: each piece of ours goes
    after those it beats, as when we are well ahead)."""
    seen = obs.squares[sq]
    if seen is None or seen.owner != me or seen.rank in (None, "B", "F") or quiet(obs) < QUIET:
        return False
    return _beats_all(obs, me, seen.rank) or is_stalled(obs, me) and _beats_shown(obs, me, seen.rank)


def _frees(obs: StrategoObservation, me: int, sq: int, probes: bool) -> bool:
    """Our piece on ``sq`` walls in a piece of ours that the game sets out:
    the closing hunt's piece, or a probe (a Miner) while no probe (no
    Miner) of ours is free to walk. Its first move frees that one's way."""
    for n in NEIGHBOURS[sq]:
        if not _walled(obs, me, n):
            continue
        if _hunts(obs, me, n):
            return True
        rank = obs.piece(n).rank
        kind = PROBE_RANKS if rank in PROBE_RANKS else {rank}
        if _sets_out(obs, me, n, probes) and not any(
                seen is not None and seen.owner == me and seen.rank in kind and not _walled(obs, me, s)
                for s, seen in enumerate(obs.squares)):
            return True
    return False


def _walled(obs: StrategoObservation, me: int, sq: int) -> bool:
    """Our unmoved piece on ``sq`` has no step to take: every square beside
    it (``NEIGHBOURS`` leaves out the water) is ours. Its neighbours' first
    moves may free its way (``_frees``)."""
    seen = obs.squares[sq]
    if seen is None or seen.owner != me or seen.moved:
        return False
    return all((near := obs.squares[n]) is not None and near.owner == me for n in NEIGHBOURS[sq])


def _beats_all(obs: StrategoObservation, me: int, rank: str) -> bool:
    """Our ``rank`` takes every movable rank they have left, and none of
    those takes it when it strikes."""
    lost = list(obs.lost[1 - me])
    left = [r for r, n in COUNTS.items() if r not in ("B", "F") and n > lost.count(r)]
    return bool(left) and all(beats(R_OF[rank], R_OF[e]) for e in left)


def _beats_shown(obs: StrategoObservation, me: int, rank: str) -> bool:
    """Our ``rank`` takes a shown piece of theirs that does not take it
    when it strikes."""
    return any(seen is not None and seen.owner != me and _prey(rank, seen) for seen in obs.squares)


def _prey(rank: str, seen: Seen) -> bool:
    """Our ``rank`` takes ``seen``, a piece shown (not a bomb or the
    flag), striking it or struck by it."""
    return seen.rank not in (None, "B", "F") and beats(R_OF[rank], R_OF[seen.rank])


def ahead(obs: StrategoObservation, me: int) -> bool:
    """Our movable pieces on the board are worth ``LEAD`` times theirs."""
    ours, theirs = _material(obs, me)
    return ours >= LEAD * theirs


def stays(obs: StrategoObservation, me: int, at: Chase) -> bool:
    """The chased piece steps away no more: the chase is as long as we can
    see (``LONG_CHASE``), so no guard ends it, and our lead outlasts the
    piece. It may still strike; elsewhere the game goes on."""
    return at.length >= LONG_CHASE and _lead_survives(obs, me, at.chased)


def _lead_survives(obs: StrategoObservation, me: int, sq: int) -> bool:
    """Our movable pieces, less the one on ``sq``, are still worth more
    than theirs."""
    ours, theirs = _material(obs, me)
    return ours - VALUE[R_OF[obs.piece(sq).known_rank]] > theirs


def _material(obs: StrategoObservation, me: int) -> tuple[float, float]:
    """What our movable pieces on the board are worth, and theirs (their
    counts less their losses: known to both sides)."""
    ours = sum(VALUE[R_OF[seen.known_rank]] for seen in obs.squares
               if seen is not None and seen.owner == me and seen.known_rank not in ("B", "F"))
    theirs = sum(VALUE[R_OF[r]] * n for r, n in COUNTS.items() if r not in ("B", "F")) \
        - sum(VALUE[R_OF[r]] for r in obs.lost[1 - me] if r not in ("B", "F"))
    return ours, theirs


def is_stalled(obs: StrategoObservation, me: int) -> bool:
    """``STALL`` plies without a strike; or, ``STALL`` plies played, at
    most ``STALL_STRIKES`` strikes in the last ``2 * STALL`` (our own probe
    now and then does not open a stalled game, and waiting another
    ``STALL`` plies before the next probe runs out the turns), or none of
    theirs in the last ``STALL``: a side that never comes out leaves the
    strikes to us, and each of ours would put off the stall again."""
    if quiet(obs) >= STALL:
        return True
    if obs.ply < STALL:
        return False
    since = obs.ply - 2 * STALL
    if sum(1 for st in obs.strikes if st.ply > since) <= STALL_STRIKES:
        return True
    return not any(st.player != me and st.ply > obs.ply - STALL for st in obs.strikes)


def probing(obs: StrategoObservation, me: int) -> bool:
    """Our cheap pieces probe their hidden ones: the game is stalled, or
    quiet (``QUIET``) while we are well ahead (``LEAD``), where what a
    probe shows our stronger pieces take; not when a piece of ours beats
    all they have left (the closing hunt's: it needs no probe)."""
    if is_stalled(obs, me):
        return True
    if quiet(obs) < QUIET or not ahead(obs, me):
        return False
    ours = {seen.rank for seen in obs.squares if seen is not None and seen.owner == me
            and seen.rank not in ("B", "F")}
    return not any(_beats_all(obs, me, r) for r in ours if r is not None)


def quiet(obs: StrategoObservation) -> int:
    """Plies since the last strike (since the start if none yet)."""
    return int(obs.ply - (obs.last_strike.ply if obs.last_strike is not None else 0))
