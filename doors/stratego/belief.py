"""What a player believes about the enemy's hidden pieces, from an
observation alone, and determinizations sampled from that belief.

Facts (hard): a piece that has moved is neither a bomb nor the flag (a
scout that ran is revealed by the rules); revealed ranks (every strike shows
both ranks, and a revealed piece stays shown); lost pieces; the army's
counts. So every strike, move and non-move narrows the pool.

Setup prior (soft), sampled jointly: the flag's square first, then bombs
around it, then the other bombs, then the movable ranks.
- The flag sits deep: weights by row from the owner's back row
  ``F_DEPTH``; corners and edges a little more; a flag with no unmoved
  neighbour left (an open square) much less.
- Each unmoved neighbour of the flag is a bomb with ``RING`` odds (our own
  generator always rings the flag; the published advice and the
  setups of the UCC 2012 bots do the same), so an unmoved piece next to a
  likely flag is a likely bomb. A revealed enemy bomb makes its unmoved
  neighbours likelier flags.
- Other bombs lean to the back rows (``B_DEPTH``) and to the squares
  next to other bombs.
- The Spy waits unmoved in the front rows, to ambush a Marshal that comes
  to strike there (``SPY_DEPTH``; a moved hidden piece weighs 1). What
  this opponent's pieces did about our revealed Marshal over the whole
  game corrects that (``record.tracks``): each step of a piece's own
  that brought it nearer the Marshal makes it likelier the Spy
  (``SPY_WALK``: a piece that walked up once may walk up again; less for
  each of this side's walkers shown not to be its Spy); one that
  had a turn of its side next to the Marshal and did not strike it is
  hardly the Spy (``SPY_PASSED``), even after it walks off. How long a
  moved piece has stood still, or stood two steps from our Marshal, is
  not weighed: over the bots we measured it told the Spy from the rest
  for some and against it for others.
- Behaviour: a hidden piece that has just stepped next to one of our
  revealed pieces (and so threatens it) is weighted towards ranks that beat
  it (``THREAT``), one that stepped next to a hidden one towards the
  officers (``APPROACH``: who attacks the unknown is usually strong), and
  if that hidden piece is one of our bombs, towards the Miner too
  (``MINER_AT_BOMB``: a piece that walks up to our bomb wall may be coming
  to open it, and our defenders should start before the first bomb falls;
  scaled by what this opponent did to our bombs in this game: each bomb of
  ours it opened with a Miner makes the cue stronger, each piece but a
  Scout it lost on one weaker, ``_bomb_record``); one
  whose step brought it to two steps of a revealed piece of ours, less
  strongly, towards the ranks that beat it (``CLOSING``: a hunter walks up
  to a known piece to take it, and our piece should be gone before it is
  next to it; at our Marshal, ``SPY_WALK`` above). These are
  priors; what this opponent does in this game corrects them: a hidden
  piece that had its turn next to a revealed piece of ours and did not
  strike it is hardly one that beats it (``PASSED``; at our Marshal,
  ``SPY_PASSED``), whatever its walk looked like, so a piece that charges
  like a Marshal and never strikes stops being feared; and so is, game-
  long, a piece that charged a revealed officer of ours and broke off
  when it stepped away (``record.Track.feints``: a piece that beats it
  follows it), each time (``PASSED`` a charge, ``FEINT_MAX`` at most). A
  piece that has stayed put for a long game is likelier a bomb (the count
  already does this: every piece that moves leaves the bombs among fewer
  squares).

Where the prior came from: no corpus of human setups is reachable from the
package registries, so the weights are set by hand from the setups our own
generator makes (``ai.make_setup``), the UCC 2012 contest bots' setups and
common published setup advice (flag on the back row, bombed in; bombs in
the back two rows; scouts and a few strong pieces forward).
"""
from __future__ import annotations

import random
from typing import TypeVar

from .observation import StrategoObservation
from .pieces import COUNTS, NEIGHBOURS, RANKS, strike
from .record import FEINT_MAX

__all__ = ["R_OF", "RANK_OF_R", "unknown_pool", "sample_enemy", "Belief", "Marginals",
           "depth_of"]

# Search rank indices: strength order, flag 0 ... marshal 10, bomb 11.
R_OF = {"F": 0, "S": 1, "9": 2, "8": 3, "7": 4, "6": 5, "5": 6, "4": 7, "3": 8,
        "2": 9, "1": 10, "B": 11}
RANK_OF_R = {v: k for k, v in R_OF.items()}

F_DEPTH = (10.0, 2.0, 0.5, 0.1)     # flag weight by row (0 = the owner's back row)
B_DEPTH = (1.6, 2.0, 1.3, 0.7)      # other bombs' weight by row
RING = 0.72                         # odds that an unmoved flag neighbour is a bomb
BOMB_NEXT_TO_BOMB = 1.5             # other bombs cluster a little
THREAT = 30.0                       # a piece that stepped next to a revealed one: beats it
CLOSING = 8.0                       # ... that stepped to two steps of one: likely beats it
PASSED = 0.15                       # ... had its turn next to one and did not strike: hardly beats it
OFFICERS = ("2", "3", "4", "5")     # ... one of these (a piece worth taking whenever one can)
# ... next to a hidden one: likelier an officer, the likelier the higher
APPROACH = {"1": 6.0, "2": 5.0, "3": 3.5, "4": 2.5, "5": 1.5}
MINER_AT_BOMB = 5.0                 # ... one of our bombs (we know it is one): also likelier a Miner
BOMB_RECORD = (0.25, 4.0)           # ... times this game's record at our bombs, kept within these
SPY_DEPTH = (0.5, 1.0, 2.0, 3.0)    # the spy's weight on an unmoved square, by row
SPY_PASSED = 0.1                    # ... next to our revealed Marshal and did not strike it
SPY_WALK = 2.5                      # ... each step of its own towards our revealed Marshal, near it
SPY_WALK_MAX = 3                    # ... counted at most (a step counts if it ends ``record.NEAR`` from it)
MARGINAL_SAMPLES = 300


def depth_of(sq: int, owner: int) -> int:
    """0 for the owner's back row ... 9 for the far side."""
    row = sq // 10
    return row if owner == 0 else 9 - row


def unknown_pool(obs: StrategoObservation, enemy: int) -> list[str]:
    """The ranks the enemy's hidden pieces have, as a multiset."""
    counts = dict(COUNTS)
    for r in obs.lost[enemy]:
        counts[r] -= 1
    for s in obs.squares:
        if s is not None and s.owner == enemy and s.rank is not None:
            counts[s.rank] -= 1
    out: list[str] = []
    for r in RANKS:
        out += [r] * max(0, counts[r])
    return out


T = TypeVar("T")


def _pick(rng: random.Random, items: list[T], weights: list[float]) -> T:
    total = sum(weights)
    x = rng.random() * total
    for item, w in zip(items, weights, strict=True):
        x -= w
        if x <= 0:
            return item
    return items[-1]


def _beaters(rank: str) -> set[str]:
    """The movable ranks that strike a piece of ``rank`` and survive it."""
    return {r for r in RANKS[:10] if strike(r, rank) == (True, False)}


def _bomb_record(obs: StrategoObservation, enemy: int) -> float:
    """How much likelier than the prior says a piece of ``enemy``'s at our
    bomb wall is a Miner, from its strikes on our bombs in this game: one
    that opens bombs with Miners comes to open them (1 + opened), one that
    loses its other pieces on them walks into bombs unawares (1 + lost; not
    a Scout: striking an unknown piece to see what it is is a Scout's job)."""
    opened = lost = 0
    for st in obs.strikes:
        if st.player == enemy and st.defender == "B":
            if st.attacker == "8":
                opened += 1
            elif st.attacker != "9":
                lost += 1
    low, high = BOMB_RECORD
    return min(high, max(low, (1 + opened) / (1 + lost)))


class Belief:
    """The hidden enemy pieces of one observation and how to sample them."""

    def __init__(self, obs: StrategoObservation, me: int):
        self.me = me
        self.enemy = enemy = 1 - me
        squares = obs.squares
        self.hidden = obs.hidden_squares(enemy)
        self.unmoved = [sq for sq in self.hidden if not obs.piece(sq).moved]
        self.moved = [sq for sq in self.hidden if obs.piece(sq).moved]
        pool = unknown_pool(obs, enemy)
        self.n_flag = pool.count("F")
        self.n_bomb = pool.count("B")
        self.mobile = [r for r in pool if r not in ("B", "F")]
        unmoved = set(self.unmoved)
        known_bombs = {sq for sq, s in enumerate(squares)
                       if s is not None and s.owner == enemy and s.rank == "B"}
        self.f_w: dict[int, float] = {}
        self.b_w: dict[int, float] = {}
        self.ring: dict[int, list[int]] = {}
        for sq in self.unmoved:
            d = min(3, depth_of(sq, enemy))
            col = sq % 10
            w = F_DEPTH[d] * (1.4 if col in (0, 9) else 1.0)
            near = NEIGHBOURS[sq]
            shut = sum(1 for n in near if n in unmoved or n in known_bombs)
            w *= (0.15, 0.6, 1.0, 1.2, 1.3)[min(4, shut)]
            if any(n in known_bombs for n in near):
                w *= 3.0
            self.f_w[sq] = w
            self.b_w[sq] = B_DEPTH[d]
            self.ring[sq] = [n for n in near if n in unmoved]
        # where the spy may be: front rows, not one that let our Marshal be
        self.n_spy = self.mobile.count("S")
        self.spy_w = {sq: SPY_DEPTH[min(3, depth_of(sq, enemy))] for sq in self.unmoved}
        self.spy_w.update(dict.fromkeys(self.moved, 1.0))
        mine = [to for p, _frm, to in obs.moves if p == me]
        theirs = [to for p, _frm, to in obs.moves if p == enemy]
        self._watch(obs)
        # rank weights for moved pieces that just stepped next to a piece of ours
        self.threat: dict[int, dict[str, float]] = {}
        at_bomb = MINER_AT_BOMB * _bomb_record(obs, enemy)
        recent = {to: frm for p, frm, to in obs.moves[-6:] if p == enemy}
        shown = [(n, s.rank) for n, s in enumerate(squares)
                 if s is not None and s.owner == me and s.revealed and s.rank is not None]
        for sq in self.moved:
            if sq not in recent:
                continue
            best: set[str] | None = None
            near_hidden = near_bomb = False
            for n in NEIGHBOURS[sq]:
                piece = squares[n]
                if piece is None or piece.owner != me or piece.rank is None:
                    continue
                if not piece.revealed:
                    near_hidden = True
                    near_bomb = near_bomb or piece.rank in ("B", "F")
                    continue
                beats = _beaters(piece.rank)
                if beats and (best is None or len(beats) < len(best)):
                    best = beats
            if best:
                self.threat[sq] = dict.fromkeys(best, THREAT)
            elif near_hidden:
                self.threat[sq] = {**APPROACH, "8": at_bomb} if near_bomb else dict(APPROACH)
            else:
                closing = self._closing(sq, recent[sq], shown)
                if closing and closing != {"S"}:    # at our Marshal: ``SPY_WALK``
                    self.threat[sq] = dict.fromkeys(closing, CLOSING)
        # pieces that had their turn next to a revealed piece of ours and let it be
        last_theirs = theirs[-1] if theirs else None
        for n, rank in shown:
            if rank not in OFFICERS or (mine and mine[-1] == n):
                continue        # an officer, not the Marshal (``SPY_PASSED``), that has not just come
            beats = _beaters(rank)
            for x in NEIGHBOURS[n]:
                if x in self.spy_w and x != last_theirs:
                    odds = self.threat.setdefault(x, {})     # its walk no longer counts
                    odds.update(dict.fromkeys(beats, PASSED))
        # pieces that charged a shown officer of ours and broke off, game-long
        for sq, track in obs.tracks:
            if track.feints and sq in self.spy_w:
                odds = self.threat.setdefault(sq, {})
                for rank, times in track.feints:
                    for r in _beaters(rank):
                        odds[r] = min(odds.get(r, 1.0), PASSED ** min(times, FEINT_MAX))

    def _watch(self, obs: StrategoObservation) -> None:
        """What each hidden piece did about our shown Marshal over the whole
        game (``obs.tracks``): a piece that walked up to it at any time is
        likelier the Spy, one that let it be hardly (``SPY_PASSED``). The
        walk's weight follows this opponent: ``SPY_WALK`` a step while none
        of its walkers has been shown, nearer 1 with each walker shown not
        to be its Spy (a side whose other pieces walk up to our Marshal
        walks up for other reasons)."""
        others = sum(1 for r in obs.walkers if r != "S")
        step = 1.0 + (SPY_WALK - 1.0) / (1 + others)
        for sq, track in obs.tracks:
            if sq not in self.spy_w:
                continue
            if track.walked:
                self.spy_w[sq] *= step ** min(track.walked, SPY_WALK_MAX)
            if track.passed:
                self.spy_w[sq] *= SPY_PASSED

    @staticmethod
    def _closing(sq: int, frm: int, shown: list[tuple[int, str]]) -> set[str] | None:
        """The ranks that beat the strongest revealed piece of ours that the
        piece's last step (``frm`` to ``sq``) brought it to two steps of (a
        hunter walking up to a known piece comes to take it)."""
        def far(a: int, b: int) -> int:
            return abs(a % 10 - b % 10) + abs(a // 10 - b // 10)
        best: set[str] | None = None
        for n, rank in shown:
            if far(sq, n) == 2 and far(frm, n) > 2:
                beats = _beaters(rank)
                if beats and (best is None or len(beats) < len(best)):
                    best = beats
        return best

    def sample(self, rng: random.Random) -> dict[int, str]:
        """One assignment square -> rank for every hidden enemy piece."""
        out: dict[int, str] = {}
        free = list(self.unmoved)
        bombs = self.n_bomb
        if self.n_flag and free:
            flag = _pick(rng, free, [self.f_w[s] for s in free])
            out[flag] = "F"
            free.remove(flag)
            for n in self.ring[flag]:
                if bombs and rng.random() < RING:
                    out[n] = "B"
                    free.remove(n)
                    bombs -= 1
        # squares beside a bomb placed so far: a bomb there is likelier
        beside = {n for s, r in out.items() if r == "B" for n in NEIGHBOURS[s]}
        b_w = self.b_w
        while bombs and free:
            weights = [b_w[s] * (BOMB_NEXT_TO_BOMB if s in beside else 1.0) for s in free]
            sq = _pick(rng, free, weights)
            out[sq] = "B"
            free.remove(sq)
            beside.update(NEIGHBOURS[sq])
            bombs -= 1
        mobile = list(self.mobile)
        rng.shuffle(mobile)
        # inconsistent beliefs cannot happen with a true observation; pad anyway
        rest = free + self.moved
        while len(mobile) < len(rest):
            mobile.append("9")
        if self.n_spy and rest:
            weights = [self.spy_w[s] * self.threat.get(s, {}).get("S", 1.0) for s in rest]
            spy = _pick(rng, rest, weights)
            out[spy] = "S"
            mobile.remove("S")
            rest = [s for s in rest if s != spy]
        if self.threat:
            for sq, odds in self.threat.items():
                if sq in out:
                    continue
                weights = [odds.get(r, 1.0) for r in mobile]
                r = _pick(rng, list(range(len(mobile))), weights)
                out[sq] = mobile.pop(r)
            rest = [s for s in rest if s not in self.threat]
        for sq, rank in zip(rest, mobile, strict=False):
            out[sq] = rank
        return out

    def marginals(self, rng: random.Random, samples: int = MARGINAL_SAMPLES) -> Marginals:
        return Marginals(self, rng, samples)


class Marginals:
    """Per hidden square, the odds of each rank (from many samples)."""

    def __init__(self, belief: Belief, rng: random.Random, samples: int):
        counts: dict[int, dict[str, int]] = {sq: {} for sq in belief.hidden}
        for _ in range(samples):
            for sq, rank in belief.sample(rng).items():
                c = counts[sq]
                c[rank] = c.get(rank, 0) + 1
        self.samples = samples
        self.odds = {sq: {r: n / samples for r, n in c.items()} for sq, c in counts.items()}

    def p(self, sq: int, rank: str) -> float:
        return self.odds.get(sq, {}).get(rank, 0.0)

    def bomb(self, sq: int) -> float:
        return self.p(sq, "B")

    def flag(self, sq: int) -> float:
        return self.p(sq, "F")

    def beats(self, sq: int, attacker: str) -> float:
        """Odds that ``attacker`` striking ``sq`` dies (alone or with it)."""
        return sum(p for r, p in self.odds.get(sq, {}).items() if not strike(attacker, r)[0])


def sample_enemy(obs: StrategoObservation, me: int, rng: random.Random) -> dict[int, str]:
    return Belief(obs, me).sample(rng)

