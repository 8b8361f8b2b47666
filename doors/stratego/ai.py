"""Stratego computer players.

Library interface::

    bot = make_bot(level, seed)          # level 1-5; seed makes it repeatable
    action = bot.choose(observation, player)
    part = bot.choose_part(observation, player, k, 2)    # or in two workers: k = 0, 1
    action = make_bot(level, seed).merge(observation, player, [part0, part1])

``choose`` sees only ``StrategoState.observation(player)`` (never the state;
the observation pickles, so a worker process can answer, see
``doors._ai.worker``). In setup it returns one ``Fill`` (``setup.make_setup``)
and then ``Ready``.

Level 1 moves almost at random (but leans forward, takes sure wins and
avoids sure losses against revealed pieces). Levels 2-5 weigh each root move
over determinizations of the hidden enemy army drawn from the belief
(``belief.py``: flag and bombs placed jointly, ranks deduced from strikes
and moves), each searched with alpha-beta (``search.py``).

Risk: a root strike on a hidden piece is not judged by whatever rank the
samples happen to put there: in sample ``i`` the struck piece's rank is set
by stratified sampling from the belief's odds for that square (its
marginals over many samples), so with 36 samples a 30 % bomb is a bomb in
9 to 13 of them, never 3 or 18. Below the root, our non-Miner strikes on pieces
unmoved and hidden at the root count as dying on a bomb (no flag found by
hindsight in one sample). On top of that, from level 3 on, the Marshal and
the General never strike an unmoved hidden piece whose bomb odds exceed
``RISK_BOMB`` (10 %; ``RISK_LIMIT``: a Colonel 15 %, a Major 25 %, the Spy
10 %) unless the strike surely takes the flag, nothing else is legal, or
the piece has no empty square to step to and stands beside an enemy
likelier to take it than the strike is to meet a bomb (``refused``), and
no piece makes a known losing strike (on a revealed piece that beats it)
while another move exists. From level 4 on, a move that leaves our Marshal,
known to them, next to their hidden pieces costs what the Marshal is worth
in play (``root.marshal_stake``: its value and what their next officer gains
once it is gone) times the odds that one of them is the Spy: a rare rank
is in few samples or none, and the Marshal is too dear to leave to that
chance. The odds are the belief's, which follow this opponent's pieces in
this game (a piece that walks up to our Marshal is likelier the Spy, one
that let it be hardly).

Win value: taking the flag at the root is worth ``ROOT_WIN_NOW`` times its
odds; a flag line deeper in one sample is worth only ``ROOT_WIN_DEEP`` over
the sample's position now (over nothing when behind), less than the Marshal,
so speculation never outweighs a sure loss of the Marshal, and a lead does
not make a deeper win look worse than playing on.
A sampled loss of our flag counts ``ROOT_LOSS``, less the sooner it comes, so
when every line looks lost the most resistant move still scores best.

The terms the root adds to each move's searched value (below, and the
game's phase: quiet, stalled, well ahead) are ``root.py``'s.

Concealment and our own rules: from level 4 on, moving a piece for the
first time costs ``FIRST_MOVE_COST`` (an unmoved piece may still be a bomb
to them, and their officers only strike what they surely beat). The search
keeps our own two-square rule for our next move: a root move that undoes
our last move may not be undone again, so a last piece left without a move
is seen to lose.

Levels (``LEVELS``): 2 looks one ply ahead over three samples with much
noise; 3 searches two plies over five, with noise, and keeps the risk rules;
4 adds the flag-defence terms, a sample more and less noise; 5 searches three
plies over up to 36 samples (node budget, and ``TIME_CAP`` as a safety net
on a loaded machine). The node budgets are sized so that the budget, not
the clock, ends a move on an idle server, where the samples are spread over
two workers (``choose_part``, ``merge``: the door's ``bot_parts``); so the
benches' repeatable runs (one process, the same budget) measure the level
callers meet.
Level 5 also deepens (``Level.deepen``): two or four plies more when a
sample there costs under ``DEEP_TRY`` nodes (few pieces
left): the first sample is searched again deeper with a node limit, and
the rest at the depth that fitted, each with a node limit too (``DEEP_LIMIT``:
one sample may cost far more than the first); not where the deeper search loses in
every line (their side sees our flag there: the shallower one still ranks
the defences).
A won endgame is taken, not circled: once ``QUIET`` plies have passed
without a strike, a piece of ours that beats every movable rank they have
left goes after their moved pieces (the search's closing hunt); when we
are well ahead (``LEAD``), or the game is stalled, each piece of ours
goes after those it beats (well ahead, our cheap pieces also probe as in
a stall: ``root.probing``). Its first move costs nothing (stalled: if it
beats a piece of theirs that is shown), nor does that of a piece of ours
beside it while our own pieces wall it in (``root._walled``). A game
stalled for ``STALL`` plies (their side never comes out, or both sides
circle), with a strike only now and then since, or with no strike of
theirs in ``STALL`` plies (``root.is_stalled``), is opened with cheap
pieces: a Scout, Sergeant or Lieutenant that strikes a hidden piece
gains ``PROBE`` in the search, such pieces are pulled towards the
nearest hidden piece (``tables.probe_pull``), their first move costs
nothing (nor, while they are walled in, that of our pieces beside them),
and a Scout that lines up a strike on an unmoved one gains half of
``PROBE`` at the root. In a stalled endgame
(``tables.MINER_HIDDEN`` unmoved hidden pieces of theirs left) our Miners
set out too, towards the nearest of those, through their shown bombs: a
flag walled in by bombs is reached only so.
Level 5 also sees a ply past its horizon where a piece is left to be
taken: when the search stops, the side to move takes its best sure strike
on a revealed piece beside one of its own (``Level.hang``, ``values.HANG``
of the piece's value).
Level 5 ends a chase (``chase.py``: one piece of theirs stepping beside
one of ours, move after move): the chased piece flees towards a guard
that beats the chaser (``CHASE_PULL`` a step) and may stay beside it,
the search counting a guarded piece as no sure gain at its horizon; a
chase that found no guard in ``chase.LONG_CHASE`` moves is given up while
our lead outlasts the chased piece.
Level 5 also searches their side as careful (``fog.py``): it strikes a
hidden piece of ours only with a piece it can spare, or one that beats
whatever a moved piece may be, until the game's strikes show it gambles.

The goals: each level wins at least 65 % against the one below
(``bench/stratego_ai.py --ladder 20``), and level 5 wins against outside
programs it was never tuned on (``bench/stratego_pool.py``). The measured
figures behind every setting, and the changes tried and not kept, are in
``docs/STRATEGO-AI.md``.
"""
from __future__ import annotations

import dataclasses
import random
import time
from collections.abc import Sequence

from .belief import R_OF, Belief, Marginals
from .chase import chase, guard_steps
from .fog import fog_of, gambled
from .observation import StrategoObservation
from .pieces import NEIGHBOURS, Action, Move, Phase, Ready, strike
from .root import CHASE_PULL, MINER_LEAD, PROBE, QUIET, ahead, costs, is_stalled, probing, quiet, stays
from .search import RESULT, WIN, Search, Spent
from .setup import _all_free, make_setup
from .values import HANG

__all__ = ["StrategoBot", "Part", "make_bot", "make_setup", "seen_cells", "LEVELS", "Level", "RISK_BOMB", "Search",
           "_all_free"]


@dataclasses.dataclass(frozen=True)
class Level:
    samples: int        # most determinizations
    depth: int          # plies searched per determinization
    noise: float        # gaussian noise on root values (none where every line loses)
    budget: int         # nodes: no new sample once passed (after two samples)
    marginal: int       # belief samples for the root odds
    careful: bool       # the risk rules (officers vs likely bombs, known losing strikes)
    defend: bool        # the flag-defence terms of the evaluation
    deepen: int = 0     # more plies at most, while a sample costs little (``DEEP_TRY``)
    hang: float = 0.0   # at the horizon, of a revealed piece the side to move takes (``values.HANG``)
    fog: bool = False   # their side strikes only what it sees of ours, until it gambles (``fog.py``)


@dataclasses.dataclass(frozen=True)
class Part:
    """What one share of a move's samples found (``StrategoBot.choose_part``),
    sent back from its worker to be merged."""
    cands: list[Move]           # the moves searched, the same in every part
    totals: list[float]         # per move, the sum of its root values over the samples
    done: int                   # samples searched
    depth: int                  # plies they were searched to
    nodes: int
    marginals: Marginals | None
    decided: Action | None = None   # part 0 of a move that needed no search


LEVELS = {
    1: Level(0, 0, 0.0, 0, 0, False, False),
    2: Level(3, 1, 16.0, 5000, 40, False, False),
    3: Level(5, 2, 6.0, 15000, 60, True, False),
    4: Level(6, 2, 4.0, 25000, 200, True, True),
    5: Level(36, 3, 0.3, 40000, 300, True, True, 4, HANG, True),
}
DEEP_TRY = 3000     # nodes: search two plies deeper if one sample there costs under this
DEEP_LIMIT = 15000  # ... and then no sample past this many nodes (a deep sample of an
#                     endgame can cost far more than the first: docs/STRATEGO-AI.md)
WIDE = 30           # more candidate moves than this: search one ply less
RISK_BOMB = 0.10    # Marshal/General never strike an unmoved piece likelier a bomb than this
RISK_LIMIT = {"1": RISK_BOMB, "2": RISK_BOMB, "3": 0.15, "4": 0.25, "S": RISK_BOMB}
ROOT_WIN_NOW = 1000.0
ROOT_WIN_DEEP = 150.0
ROOT_LOSS = -1500.0
TIME_CAP = 0.6      # seconds: no new sample is started that would likely pass it
HARD_CAP = 1.4      # of TIME_CAP: a sample still running then is dropped


def seen_cells(obs: StrategoObservation) -> tuple[list[int], set[int]]:
    """The search's cells of what ``obs`` shows (a hidden enemy piece's
    square left -1, for a sample to fill) and the squares of revealed
    pieces."""
    cells = [-1] * 100
    known = set()
    for s, seen in enumerate(obs.squares):
        if seen is not None and seen.rank is not None:
            cells[s] = seen.owner * 16 + R_OF[seen.rank]
            if seen.revealed:
                known.add(s)
    return cells, known


def taken_where_it_stands(obs: StrategoObservation, sq: int, marg: Marginals) -> float:
    """The odds that our piece on ``sq`` is lost to a strike of the likeliest
    of its enemy neighbours (a shown one that beats it: 1; a hidden one: the
    belief's odds of the ranks that would)."""
    piece = obs.piece(sq)
    mine = piece.known_rank
    worst = 0.0
    for n in NEIGHBOURS[sq]:
        seen = obs.squares[n]
        if seen is None or seen.owner == piece.owner:
            continue
        odds = {seen.rank: 1.0} if seen.rank is not None else marg.odds.get(n, {})
        worst = max(worst, sum(p for r, p in odds.items() if r not in ("B", "F") and not strike(r, mine)[1]))
    return worst


def _vdc(i: int) -> float:
    """Van der Corput radical inverse: any prefix of 0, 1, 2 ... is well spread."""
    out, denom = 0.0, 1.0
    while i:
        denom *= 2.0
        i, bit = divmod(i, 2)
        out += bit / denom
    return out


class StrategoBot:
    """A Stratego computer player; deterministic given its seed."""

    def __init__(self, level: int = 3, seed: int | None = None, time_cap: float | None = TIME_CAP,
                 time_scale: float = 1.0):
        self.level = max(1, min(5, int(level)))
        self.time_cap = time_cap      # None: the node budget alone bounds a move (repeatable)
        self.rng = random.Random(seed)
        self.cfg = busy_level(LEVELS[self.level], time_scale)
        self.last_nodes = 0
        self.last_samples = 0
        self.last_depth = 0
        self.last_marginals: Marginals | None = None

    def choose(self, observation: StrategoObservation, player: int) -> Action:
        obs = observation
        decided = self._decided(obs, player)
        if decided is not None:
            return decided
        part = self.choose_search(obs, player, self._legal(obs))
        return self._pick(obs, player, part.cands, [t / part.done for t in part.totals])

    def choose_part(self, observation: StrategoObservation, player: int, part: int, parts: int) -> Part:
        """Share ``part`` of ``parts`` of the move's samples, thought out
        in a worker of its own beside the others (``merge`` then picks the
        move). Every part draws the same belief odds and candidates from
        the seed; each searches its own samples within its share of the
        node budget. A move that needs no search is decided by part 0."""
        obs = observation
        decided = self._decided(obs, player)
        if decided is not None:
            return Part([], [], 0, 0, 0, None, decided if part == 0 else None)
        return self.choose_search(obs, player, self._legal(obs), part, max(1, parts))

    def merge(self, observation: StrategoObservation, player: int, parts: Sequence[Part]) -> Action:
        """The move from the parts' samples: those searched at the greatest
        depth any part reached (a deeper search, where it fitted, is the
        better estimate) are averaged, and the root's costs added."""
        for part in parts:
            if part.decided is not None:
                return part.decided
        found = [part for part in parts if part.done]
        if not found:
            raise ValueError("no part searched a sample")
        depth = max(part.depth for part in found)
        kept = [part for part in found if part.depth == depth]
        done = sum(part.done for part in kept)
        totals = [sum(col) for col in zip(*(part.totals for part in kept), strict=True)]
        self.last_marginals = next((part.marginals for part in found if part.marginals is not None), None)
        self.last_nodes = sum(part.nodes for part in found)
        self.last_samples, self.last_depth = done, depth
        return self._pick(observation, player, kept[0].cands, [t / done for t in totals])

    def _decided(self, obs: StrategoObservation, player: int) -> Action | None:
        """The action when no search is needed: setup, a single legal move,
        level 1 (None: search)."""
        if obs.phase == Phase.SETUP:
            if obs.remaining(player) and any(obs.remaining(player).values()):
                return make_setup(player, self.rng)
            return Ready()
        legal = self._legal(obs)
        if not legal:
            raise ValueError("no legal action")
        if len(legal) == 1:
            return legal[0]
        if self.level == 1:
            return self.choose_simple(obs, player, legal)
        return None

    @staticmethod
    def _legal(obs: StrategoObservation) -> list[Move]:
        return [m for m in obs.legal_actions() if isinstance(m, Move)]   # play: all moves

    def choose_simple(self, obs: StrategoObservation, me: int, legal: list[Move]) -> Move:
        good, ok = [], []
        for m in legal:
            target = obs.squares[m.to]
            mine = obs.piece(m.frm).known_rank
            if target is None or target.rank is None:
                ok.append(m)
                continue
            res = RESULT[R_OF[mine]][R_OF[target.rank]]
            if res >= 1:
                good.append(m)
            elif res == 0:
                ok.append(m)
        if good and self.rng.random() < 0.7:
            return self.rng.choice(good)
        pool = ok or legal
        if self.rng.random() < 0.5:      # lean forward, towards the enemy
            ahead = [m for m in pool if (m.to // 10 - m.frm // 10) * (1 if me == 0 else -1) > 0]
            if ahead:
                return self.rng.choice(ahead)
        return self.rng.choice(pool)

    # ----- risk ------------------------------------------------------------------
    def refused(self, obs: StrategoObservation, m: Move, marg: Marginals | None,
                stuck: frozenset[int] = frozenset()) -> bool:
        """The risk rules: a known losing strike; the Marshal or General on
        an unmoved hidden piece whose bomb odds pass ``RISK_BOMB`` (a Colonel,
        Major or the Spy past ``RISK_LIMIT``), unless it surely takes the flag
        or the piece is ``stuck`` (no empty square to step to) beside an enemy
        likelier to take it where it stands than the strike is to meet a bomb:
        refusing the gamble would then only leave it to the likelier loss."""
        target = obs.squares[m.to]
        if target is None:
            return False
        mine = obs.piece(m.frm).known_rank
        if target.rank is not None:
            return RESULT[R_OF[mine]][R_OF[target.rank]] == -1
        if mine in RISK_LIMIT and not target.moved and marg is not None:
            bomb = marg.bomb(m.to)
            if m.frm in stuck and taken_where_it_stands(obs, m.frm, marg) > bomb:
                return False
            return bomb > RISK_LIMIT[mine] and marg.flag(m.to) < 1.0
        return False

    # ----- search ----------------------------------------------------------------
    def choose_search(self, obs: StrategoObservation, me: int, legal: list[Move],
                      part: int = 0, parts: int = 1) -> Part:
        """The samples of share ``part`` of ``parts`` (all of them for one
        part), each searched for every candidate move: their root values'
        sums. The belief's odds and the stratification's offset come first
        from the seed, the same in every part; then each part samples with
        a generator of its own."""
        cfg = self.cfg
        t0 = time.perf_counter()
        belief = Belief(obs, me)
        marg = belief.marginals(self.rng, cfg.marginal) if belief.hidden else None
        self.last_marginals = marg
        cands = legal
        if cfg.careful:
            stuck = frozenset(m.frm for m in legal) - {m.frm for m in legal if obs.squares[m.to] is None}
            cands = [m for m in legal if not self.refused(obs, m, marg, stuck)] or legal
        enemy = 1 - me
        base, known = seen_cells(obs)
        # stratified ranks for root strikes on hidden pieces
        ladders: dict[int, list[tuple[float, int]]] = {}
        if marg is not None:
            for m in cands:
                if (seen := obs.squares[m.to]) is not None and seen.rank is None \
                        and m.to not in ladders:
                    acc, ladder = 0.0, []
                    for r, p in sorted(marg.odds[m.to].items(), key=lambda kv: R_OF[kv[0]]):
                        acc += p
                        ladder.append((acc, enemy * 16 + R_OF[r]))
                    ladders[m.to] = ladder
        unknown = frozenset(belief.unmoved)
        plies = quiet(obs)
        closing = plies >= QUIET
        lead = ahead(obs, me)
        probe = PROBE if probing(obs, me) else 0.0
        stalled = is_stalled(obs, me)
        miner = PROBE if stalled else MINER_LEAD if lead else 0.0
        fog = fog_of(obs, me) if cfg.fog else None
        if fog is not None and gambled(obs, me, fog.top):
            fog = None      # their side strikes what it cannot see: no careful player
        scout_strike = obs.opts.get("scout_strike", 2)
        seed_rule = obs.opts.get("two_square", "seed") == "seed"
        own = obs.own_moves(me)
        guarded = bool(cfg.hang) and chase(obs, me) is not None
        depth = cfg.depth - 1 if cfg.depth > 2 and len(cands) > WIDE else cfg.depth
        totals = [0.0] * len(cands)
        shallow = depth
        self.last_nodes = 0
        samples = cfg.samples if belief.hidden else 1
        offset = self.rng.random()
        if parts > 1:
            self.rng = random.Random(self.rng.getrandbits(64) * parts + part)
        budget = cfg.budget // parts
        done = 0
        t1 = time.perf_counter()
        def values_of(cells: list[int], depth: int, limit: int | None = None) -> list[float] | None:
            """Root values over one sample at ``depth`` (None: out of time)."""
            search = Search(cells, me, scout_strike, cfg.defend, known, unknown, closing, probe, cfg.hang, fog,
                            guarded, miner, closing and (lead or stalled), stalled)
            search.limit = limit
            base = search.score     # this sample's position as it stands (before any swap)
            values: list[float] = []
            try:
                for m in cands:
                    if done and self.time_cap is not None \
                            and time.perf_counter() - t0 > self.time_cap * HARD_CAP:
                        return None     # the machine stalled: drop this sample, answer in time
                    steps = ladders.get(m.to)
                    swap = self._swap_in(search, m.to, steps, u) if steps else None
                    ban = (m.to, m.frm) if seed_rule and own and own[-1] == (m.to, m.frm) else None
                    val = search.root_value(me, m.frm, m.to, depth, ban)
                    if swap is not None:
                        self._swap_back(search, m.to, swap)
                    values.append(self._root_map(val, depth, base))
            finally:
                self.last_nodes += search.nodes
            return values

        for i in range(part, samples, parts):
            if done >= 2 and self.last_nodes >= budget:
                break
            now = time.perf_counter()
            if done and self.time_cap is not None and now - t0 + (now - t1) / done > self.time_cap:
                break       # a safety net on a slow machine; the budget binds first
            cells = list(base)
            for s, rank in belief.sample(self.rng).items():
                cells[s] = enemy * 16 + R_OF[rank]
            u = (_vdc(i + 1) + offset) % 1.0
            try:    # deepened, a sample may cost far more than the first one did
                values = values_of(list(cells), depth, DEEP_LIMIT if depth > shallow else None)
            except Spent:
                break
            if values is None:
                break
            for _ in range(cfg.deepen // 2 if i == part else 0):
                try:    # few pieces left: look deeper while enough samples still fit
                    deeper = values_of(list(cells), depth + 2, DEEP_TRY)
                except Spent:
                    break
                if deeper is None or max(deeper) < ROOT_LOSS / 2:
                    break       # lost in every line there: the shallower search still ranks them
                values, depth = deeper, depth + 2
            for j, v in enumerate(values):
                totals[j] += v
            done += 1
        self.last_samples = done
        self.last_depth = depth
        return Part(cands, totals, done, depth, self.last_nodes, marg)

    @staticmethod
    def _swap_in(search: Search, t: int, ladder: list[tuple[float, int]],
                 u: float) -> tuple[int, int | None] | None:
        """Give square ``t`` the rank at quantile ``u`` of its odds, swapping
        with a square of that rank in the sample; returns how to undo it."""
        want = next((c for acc, c in ladder if u < acc), ladder[-1][1])
        b = search.b
        have = b[t]
        if have == want:
            return None
        other = next((s for s in range(100) if b[s] == want and s != t), None)
        search.set_cell(t, want)
        if other is not None:
            search.set_cell(other, have)
        search.rerace()
        return have, other

    @staticmethod
    def _swap_back(search: Search, t: int, swap: tuple[int, int | None]) -> None:
        have, other = swap
        if other is not None:
            search.set_cell(other, search.b[t])
        search.set_cell(t, have)
        search.unrace()

    @staticmethod
    def _root_map(val: float, depth: int, base: float) -> float:
        """A searched value at the root: a win by how soon it comes (the
        flag now; the enemy left without a move; a flag line deeper), on
        top of ``base``, the sample's position now, when we lead (else a
        lead would make a win look worse than playing on); a loss by how
        soon it comes."""
        if val > WIN / 2:
            lead = max(0.0, base)
            left = (val - WIN) / 100.0
            if left >= depth:
                return ROOT_WIN_NOW + 100.0 + lead      # the flag taken by our move
            if left >= depth - 1:
                return ROOT_WIN_NOW + lead              # the enemy left without a move
            return ROOT_WIN_DEEP + 10.0 * left + lead
        if val < -WIN / 2:
            return ROOT_LOSS - 50.0 * (-val - WIN) / 100.0
        return val

    def _pick(self, obs: StrategoObservation, me: int, cands: list[Move], values: list[float]) -> Move:
        own = obs.own_moves(me)
        best_val, best = -1e18, []
        marshal = next((s for s, seen in enumerate(obs.squares) if seen is not None
                        and seen.owner == me and seen.rank == "1"), None) if self.cfg.defend else None
        # every move loses the flag in every sample: then only the search's
        # tie-break counts (the move that brings our pieces nearest the
        # intruder, which may not know it stands beside our flag), not the
        # costs of showing or moving a piece, nor the noise (the tie-break's
        # steps are a fraction of a point, less than level 5's noise)
        lost = max(values) < ROOT_LOSS / 2
        at = chase(obs, me) if self.cfg.hang else None
        steps = guard_steps(obs, me, at) if at is not None else None
        stay = at is not None and stays(obs, me, at)
        for m, val in zip(cands, values, strict=True):
            if not lost:
                val += costs(obs, me, m, marshal, own, self.last_marginals, self.cfg.defend)
                if at is not None and m.frm == at.chased:
                    if stay:
                        val -= 1e6 if obs.squares[m.to] is None else 0.0   # unless nothing else moves
                    elif steps is not None:
                        val += CHASE_PULL * (steps[m.frm] - steps[m.to])   # flee towards a guard
                val += self.rng.gauss(0.0, self.cfg.noise)
            if val > best_val + 1e-9:
                best_val, best = val, [m]
            elif abs(val - best_val) <= 1e-9:
                best.append(m)
        return self.rng.choice(best)


def busy_level(cfg: Level, time_scale: float) -> Level:
    """``cfg`` thinking ``time_scale`` (0-1] as long: its samples, belief
    samples and node budget shrink alike (at least two samples), so a busy
    server's shorter move is the same on any load, as the node budget is."""
    if time_scale >= 1.0 or not cfg.samples:
        return cfg
    return dataclasses.replace(cfg, samples=max(2, round(cfg.samples * time_scale)),
                               budget=int(cfg.budget * time_scale),
                               marginal=max(20, round(cfg.marginal * time_scale)))


def make_bot(level: int = 3, seed: int | None = None, time_cap: float | None = TIME_CAP,
             time_scale: float = 1.0) -> StrategoBot:
    """``time_cap`` None: the node budget alone ends a move (the benches'
    repeatable runs: the same move on any load). ``time_scale`` < 1 (a busy
    server's share): ``busy_level`` of the level, and the time cap scaled too."""
    scale = max(0.0, min(1.0, time_scale))
    return StrategoBot(level, seed, None if time_cap is None else time_cap * scale, scale)
