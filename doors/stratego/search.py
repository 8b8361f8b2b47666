"""Alpha-beta over one determinization of a Stratego position.

Board cells: -1 empty, else ``owner * 16 + r`` with ``r`` the search rank
index (``belief.R_OF``: flag 0, spy 1, scout 2 ... marshal 10, bomb 11).
The score is kept incrementally from ``me``'s side: material (per-side
values, see ``values.piece_values``) plus a positional table per owner:
- a pull towards the nearest enemy piece;
- a pull towards the other side's flag: mild for ours towards their
  (sampled) flag, strong for theirs towards our (real) flag, so that the
  search answers any piece approaching our flag and keeps a guard near it;
- a small bonus for our pieces guarding our flag's neighbourhood;
- per rank, a pull towards revealed enemy pieces it beats (the hunt) and a
  push away from revealed ones that beat it (``hunt_tables``);
- at the search's horizon, an enemy piece next to our flag with the enemy
  to move counts as the flag taken (defence levels);
- our Colonels, General and Marshal shun squares walled in by hidden enemy
  pieces while the enemy has a piece that beats them (``pocket_table``):
  an officer that dives into the enemy's lines is caught there;
- the race to our flag (defence levels, ``race.Race``): for each enemy
  piece that moved within reach of our flag, the best-placed piece of ours
  that beats it is charged for each step it would come too late, whichever
  way the threat takes (the others go free); a threat taken in the line is
  charged no more;
- the top bonus (``values.top_bonus``): an officer that no enemy piece
  left can beat is worth ``TOP`` more, recounted whenever an officer dies
  in a line, so a trade that leaves their next officer the strongest piece
  on the board counts against us;
- our Spy beside our revealed General while their Marshal lives
  (``tables.ESCORT``);
- with ``closing`` (the game gone quiet: ``root.QUIET``), the closing hunt:
  a piece of ours that beats every movable rank they have left is pulled
  towards their pieces that moved (on each square the strongest pull)
  (``tables.closing_hunt``); with ``wide`` (well ahead: ``root.LEAD``;
  or stalled: ``root.is_stalled``), each piece of ours towards those it
  beats;
- with ``probe`` (the game stalled: ``root.is_stalled``), a strike by a cheap
  piece of ours (``PROBERS``: a Scout, Sergeant or Lieutenant) on a piece
  hidden at the root, moved or not, gains ``probe``, and such pieces
  are pulled towards the nearest of them (``tables.probe_pull``);
- with ``miner`` (the game stalled, or well ahead: ``root.LEAD``), in an
  endgame (``tables.MINER_HIDDEN``) our Miners are pulled towards the
  nearest unmoved one of theirs, through shown bombs; with ``bomb_walls``
  (the game stalled), before the endgame too, towards the nearest unmoved
  one beside a bomb they have shown (``tables.beside_bombs``): a bomb
  wall keeps a flag, and nothing but a Miner goes through it;
- with ``hang`` (level 5: ``values.HANG``), at the search's horizon the
  side to move takes its best sure strike on a revealed piece beside one
  of its own (``hang`` of the piece's value): a revealed officer left
  where the next enemy step takes it is seen a ply past the horizon
  (``_hanging``); in a chase (``guarded``), a piece beside the target
  that takes the striker back leaves only the difference.
- with ``fog`` (level 5, while their side has not gambled: ``fog.py``),
  their side strikes a hidden piece of ours only with a piece it can spare
  or one that beats whatever it may be.

Move order (the values do not depend on it, the nodes do): a strike on
the flag first (it ends the search), the other strikes, the killer move
(the quiet move that last cut the search off with as many plies left),
the other quiet moves. Each side's movable pieces are kept by square, so
``moves`` looks at them only.
"""
from __future__ import annotations

from .fog import Fog
from .pieces import NEIGHBOURS, RAYS
from .race import Race
from .tables import (
    BOMB,
    FLAG,
    GENERAL,
    MARSHAL,
    MINER,
    MINER_HIDDEN,
    POCKET,
    RESULT,
    SCOUT,
    SPY,
    beside_bombs,
    bfs,
    closing_hunt,
    hunt_tables,
    pocket_table,
    probe_pull,
    rank_counts,
    trade_ok,
)
from .values import BEATS, TOPPLES, piece_values, top_bonus

__all__ = ["Search", "Spent", "trade_ok", "pocket_table", "bfs", "POCKET", "RESULT", "WIN", "FLAG",
           "SPY", "SCOUT", "MINER", "MARSHAL", "GENERAL", "BOMB"]

WIN = 100000.0
ATTACK = (0.0, 16.0, 12.0, 8.0, 5.0, 2.0, 0.0)     # ours near their flag, by distance
DEFEND = (0.0, 60.0, 34.0, 18.0, 8.0, 3.0, 0.0)    # theirs near our flag, by distance
PULL = 0.3          # towards the nearest enemy piece, per step
GUARD = 5.0                                        # ours within two squares of our flag
INTRUDER = 240.0    # pull towards an enemy piece next to our flag (less, further off)
OFFICERS = (8, 9, 10)
TIE_BREAK = 40.0    # at most, of a win's value (which a ply changes by 100)
# Scout, Sergeant, Lieutenant (by rank index): cheap enough to throw at a hidden
# piece to see what it is, once the game has stalled (``probe``)
PROBER_RANKS = (SCOUT, 4, 5)
PROBERS = tuple(r in PROBER_RANKS for r in range(16))


class Spent(Exception):
    """The search passed its node ``limit`` (the board is left as it was
    mid-line: the search object is thrown away)."""


class Search:
    """Alpha-beta over one determinization (``me`` moves at the root)."""

    def __init__(self, cells: list[int], me: int, scout_strike: int, defend: bool = True,
                 known: frozenset[int] | set[int] = frozenset(),
                 unknown: frozenset[int] | set[int] = frozenset(), closing: bool = False,
                 probe: float = 0.0, hang: float = 0.0, fog: Fog | None = None,
                 guarded: bool = False, miner: float = 0.0, wide: bool = False,
                 bomb_walls: bool = False):
        self.b = cells
        self.me = me
        self.long_strike = scout_strike == 2
        self.nodes = 0
        self.limit: int | None = None    # nodes; passing it raises ``Spent``
        self.unknown = unknown      # enemy squares unmoved and hidden at the root
        self.probe = probe          # a cheap piece of ours that strikes a hidden one gains this
        # enemy pieces hidden at the root (moved or not): what a probe shows
        self.probe_at = frozenset(s for s, c in enumerate(cells) if c >= 0 and c >> 4 != me
                                  and s not in known) if probe else frozenset()
        self.hang = hang            # at the horizon, of a revealed piece taken (``_hanging``)
        self.guarded = guarded      # ... less the striker, where a piece beside takes it back
        # our own two-square rule: after a root move that undoes our last
        # move, undoing it again is refused on our next move (``root_value``)
        self.ban: tuple[int, int] | None = None
        self.ban_depth = -1
        # killer moves: per plies left, the last quiet move that cut the
        # search off there, tried right after the strikes (the same values
        # in fewer nodes: the node budget buys more samples). Not
        # before them: a strike that takes the flag ends the search at once
        self.killers: list[tuple[int, int] | None] = [None] * 16
        # each side's movable pieces, by square (``moves`` looks at these only)
        self.at: tuple[set[int], set[int]] = (set(), set())
        for s, c in enumerate(cells):
            if c >= 0 and 0 < c & 15 < BOMB:
                self.at[c >> 4].add(s)
        # each side's revealed movable pieces, by square (kept by ``play``:
        # a strike shows both pieces); ``_hanging`` strikes at these
        self.shown: tuple[set[int], set[int]] = (set(), set())
        for s in known:
            c = cells[s]
            if c >= 0 and 0 < c & 15 < BOMB:
                self.shown[c >> 4].add(s)
        self.shown_undo: list[tuple[bool, bool]] = []     # per strike played, to undo
        # their side strikes a hidden piece of ours only where the fog lets
        # it (``fog.Fog``); ``still``: ours unmoved and hidden, kept by ``play``
        self.fog = fog is not None
        self.still: set[int] = set(fog.still) if fog is not None else set()
        self.may = (fog.may(False), fog.may(True)) if fog is not None else ((), ())
        self.still_undo: list[tuple[bool, bool]] = []     # per move played, to undo
        self.counts = rank_counts(cells)
        self.val = piece_values(self.counts)
        flags = [[s for s, c in enumerate(cells) if c >= 0 and c >> 4 == p and c & 15 == FLAG]
                 for p in (0, 1)]
        pieces = [[s for s, c in enumerate(cells) if c >= 0 and c >> 4 == p] for p in (0, 1)]
        # with the defence terms: an enemy piece next to our flag when the
        # search stops with the enemy to move takes it (a Miner that cleared
        # the last bomb is struck at once, or answered before it gets there)
        self.flag_side = tuple(NEIGHBOURS[flags[me][0]]) if defend and flags[me] else ()
        self.pos: list[list[float]] = []
        for p in (0, 1):
            near_enemy = bfs(pieces[1 - p]) if pieces[1 - p] else [0] * 100
            near_flag = bfs(flags[1 - p]) if flags[1 - p] else [99] * 100
            pull = DEFEND if p != me and defend else ATTACK
            if p == me and closing:     # for the closing hunt, which takes it off again
                attack = [ATTACK[min(near_flag[s], 6)] for s in range(100)]
            table = [-PULL * min(near_enemy[s], 12) + pull[min(near_flag[s], 6)] for s in range(100)]
            if p == me and flags[me] and defend:
                home = bfs(flags[me])
                table = [t + (GUARD if h <= 2 else 0.0) for t, h in zip(table, home, strict=True)]
            self.pos.append(table)
        intruders: tuple[tuple[int, float], ...] = ()
        if defend and flags[me]:
            home = bfs(flags[me])
            intruders = tuple((s, INTRUDER * (5 - home[s]) / 4.0) for s in pieces[1 - me]
                              if home[s] <= 4 and 0 < cells[s] & 15 < BOMB)
        self.hunt = hunt_tables(cells, known, self.val, intruders, me)
        if closing and unknown:
            closing_hunt(cells, me, unknown, self.val, self.hunt[me], attack, wide)
        if probe:
            probe_pull(cells, me, self.probe_at, probe, self.hunt[me], PROBER_RANKS)
        if miner:
            walled = unknown if len(unknown) <= MINER_HIDDEN \
                else beside_bombs(cells, me, unknown) if bomb_walls else frozenset()
            probe_pull(cells, me, walled, miner, self.hunt[me], (MINER,), miner=True)
        ranks = [c & 15 for c in cells if c >= 0 and c >> 4 != me]
        pocket: list[float] | None = None
        for r in OFFICERS:
            if not any(RESULT[e][r] == 1 for e in ranks if 0 < e < BOMB):
                continue
            if pocket is None:
                pocket = pocket_table(cells, me, known)
            cut = [-x * self.val[me][r] for x in pocket]
            old = self.hunt[me][r]
            self.hunt[me][r] = cut if old is None else [a + b for a, b in zip(old, cut, strict=True)]
        self.home = flags[me][0] if defend and flags[me] else None     # our flag, for the race
        race = Race(cells, me, self.home, unknown) if self.home is not None else None
        self.race = race if race else None      # (no threat: None, a cheap test on every move)
        self.races: list[Race | None] = []     # those ``rerace`` replaced, for ``unrace``
        # the race's moves, to undo: ours (rank, from, to) and theirs (from, to)
        self.moved: list[tuple[tuple[int, int, int] | None, tuple[int, int] | None]] = []
        self.score = sum(self.worth(c, s) for s, c in enumerate(cells) if c >= 0)
        self.top = top_bonus(self.counts, me)
        self.score += self.top
        self.tops: list[tuple[float, int, int]] = []    # before each officer strike, to undo
        if self.race:
            self.score += self.race.charge()
        self.base = self.score      # the score at the root (``root_value``), for ``won``'s tie-break

    def worth(self, c: int, s: int) -> float:
        """Signed (``me``'s side) worth of piece ``c`` on square ``s``."""
        p, r = c >> 4, c & 15
        v = self.val[p][r]
        if 0 < r < BOMB:
            v += self.pos[p][s]
            table = self.hunt[p][r]
            if table is not None:
                v += table[s]
        return v if p == self.me else -v

    def set_cell(self, s: int, c: int) -> None:
        """Put piece ``c`` (or -1) on ``s``, keeping the score."""
        old = self.b[s]
        if old >= 0:
            self.score -= self.worth(old, s)
            self.counts[old >> 4][old & 15] -= 1
        self.b[s] = c
        self.at[0].discard(s)
        self.at[1].discard(s)
        if 0 <= c and 0 < c & 15 < BOMB:
            self.at[c >> 4].add(s)
        if c >= 0:
            self.score += self.worth(c, s)
            self.counts[c >> 4][c & 15] += 1
        if TOPPLES[old & 15] or TOPPLES[c & 15]:
            top = top_bonus(self.counts, self.me)
            self.score += top - self.top
            self.top = top

    def rerace(self) -> None:
        """Count the race again after ``set_cell`` changed ranks at the root
        (a threat's rank decides its way and which of ours stop it); the
        race it replaces is kept for ``unrace``."""
        if self.home is None:
            return
        self.races.append(self.race)
        self._use_race(Race(self.b, self.me, self.home, self.unknown))

    def unrace(self) -> None:
        """Back to the race before the last ``rerace`` (the root's ranks
        put back as they were): no need to count it again."""
        if self.home is not None:
            self._use_race(self.races.pop())

    def _use_race(self, race: Race | None) -> None:
        if self.race:
            self.score -= self.race.charge()
        self.race = race if race else None
        if self.race:
            self.score += self.race.charge()

    def evaluate(self, side: int) -> float:
        return self.score if side == self.me else -self.score

    def moves(self, side: int, killer: tuple[int, int] | None = None) -> list[tuple[int, int]]:
        """``side``'s moves in the search's order: strikes on the flag,
        the other strikes, ``killer`` (if it is a move here), the quiet ones."""
        b = self.b
        lo = side * 16
        hi = lo + 16
        on_flag: list[tuple[int, int]] = []
        strikes: list[tuple[int, int]] = []
        quiet: list[tuple[int, int]] = []
        add_quiet, add_strike = quiet.append, strikes.append
        scout = lo + SCOUT
        flag = (1 - side) * 16 + FLAG
        fogged = self.fog and side != self.me     # their strikes on our hidden pieces
        shown, still, may = self.shown[self.me], self.still, self.may
        neighbours = NEIGHBOURS
        for s in self.at[side]:
            if b[s] != scout:
                for t in neighbours[s]:
                    o = b[t]
                    if o < 0:
                        add_quiet((s, t))
                    elif o < lo or o >= hi:
                        if fogged and t not in shown and not may[t in still][b[s] & 15]:
                            continue
                        if o == flag:
                            on_flag.append((s, t))
                        else:
                            add_strike((s, t))
                continue
            for ray in RAYS[s]:
                first = True
                for t in ray:
                    o = b[t]
                    if o < 0:
                        add_quiet((s, t))
                        first = False
                        continue
                    if (o < lo or o >= hi) and (first or self.long_strike):
                        (on_flag if o == flag else strikes).append((s, t))
                    break
        if killer is not None and killer in quiet:
            quiet.remove(killer)
            quiet.insert(0, killer)
        if on_flag:
            return on_flag + strikes + quiet
        if strikes:
            strikes += quiet
            return strikes
        return quiet

    def play(self, s: int, t: int, guess: bool = False) -> float | None:
        """Make s->t (the caller restores the two cells and the score); the
        score change, or None if it takes the flag (board left unchanged).
        With ``guess`` (our strikes below the root), a piece other than a
        Miner striking a piece unmoved and hidden at the root is counted as
        dying on a bomb: we do not know what it is, so no line may profit
        from the sample's truth there (no flag found by hindsight)."""
        b = self.b
        a, d = b[s], b[t]
        if d >= 0:
            if guess and t in self.unknown and a & 15 != MINER:
                res = -1
            else:
                res = RESULT[a & 15][d & 15]
            if res == 2:
                return None
            shown, theirs_shown = self.shown[a >> 4], self.shown[d >> 4]
            self.shown_undo.append((s in shown, t in theirs_shown))
            shown.discard(s)
            theirs_shown.discard(t)
            if res == 1:
                shown.add(t)
            elif res == -1 and 0 < d & 15 < BOMB:
                theirs_shown.add(t)
            delta = -self.worth(a, s) - self.worth(d, t)
            if self.probe and PROBERS[a & 15] and a >> 4 == self.me and t in self.probe_at:
                delta += self.probe     # a stalled game: what it shows is worth the piece
            b[s] = -1
            mine, theirs = self.at[a >> 4], self.at[d >> 4]
            mine.discard(s)
            if res == 1:
                b[t] = a
                theirs.discard(t)
                mine.add(t)
                delta += self.worth(a, t)
            elif res == -1:
                delta += self.worth(d, t)
            else:
                b[t] = -1
                theirs.discard(t)
            if TOPPLES[a & 15] or TOPPLES[d & 15]:
                delta += self._officers(a if res < 1 else -1, d if res > -1 else -1)
            if self.race is not None:   # the defender that won stays where it stood: no race move
                if a >> 4 == self.me:
                    delta += self._race((a & 15, s, t if res == 1 else -1), (t, -1) if res > -1 else None)
                else:
                    delta += self._race((d & 15, t, -1) if res > -1 else None, (s, t if res == 1 else -1))
        else:
            b[s] = -1
            b[t] = a
            p, r = a >> 4, a & 15
            mine = self.at[p]
            mine.discard(s)
            mine.add(t)
            shown = self.shown[p]
            if s in shown:
                shown.discard(s)
                shown.add(t)
            # ``worth(a, t) - worth(a, s)``, summed in the same order
            v = self.val[p][r]
            pos = self.pos[p]
            w_t, w_s = v + pos[t], v + pos[s]
            table = self.hunt[p][r]
            if table is not None:
                w_t += table[t]
                w_s += table[s]
            race = self.race
            if p == self.me:
                delta = w_t - w_s
                if race is not None:        # ``_race``, written out
                    self.moved.append(((r, s, t), None))
                    delta += race.move(r, s, t)
            else:
                delta = w_s - w_t
                if race is not None:
                    self.moved.append((None, (s, t)))
                    delta += 0.0 + race.enemy(s, t)     # summed as ``_race`` sums it
        if self.fog:    # a piece of ours that moves, or is taken, is unmoved no more
            still = self.still
            gone = (s in still, t in still and b[t] != d)
            self.still_undo.append(gone)
            if gone[0]:
                still.discard(s)
            if gone[1]:
                still.discard(t)
        self.score += delta
        return delta

    def _officers(self, a: int, d: int) -> float:
        """Pieces ``a``, ``d`` (-1: none) leave the board in a strike with
        an officer; the change of the top bonus (``_officers_back`` undoes)."""
        a = a if TOPPLES[a & 15] else -1     # only an officer's death can change it
        d = d if TOPPLES[d & 15] else -1
        self.tops.append((self.top, a, d))
        if a < 0 and d < 0:
            return 0.0
        for c in (a, d):
            if c >= 0:
                self.counts[c >> 4][c & 15] -= 1
        self.top = top_bonus(self.counts, self.me)
        return self.top - self.tops[-1][0]

    def _officers_back(self) -> None:
        self.top, a, d = self.tops.pop()
        for c in (a, d):
            if c >= 0:
                self.counts[c >> 4][c & 15] += 1

    def _race(self, ours: tuple[int, int, int] | None, theirs: tuple[int, int] | None) -> float:
        """Our piece's move (rank, from, to; to -1: it died) and theirs
        (from, to; to -1: it died) in the race; kept to undo."""
        assert self.race is not None
        self.moved.append((ours, theirs))
        change = self.race.move(*ours) if ours is not None else 0.0
        if theirs is not None:
            change += self.race.enemy(*theirs)
        return change

    def unplay(self, s: int, t: int, a: int, d: int, delta: float) -> None:
        """Undo ``play(s, t)`` (``a``, ``d``: the cells before it)."""
        self.b[s], self.b[t] = a, d
        if self.fog:
            gone = self.still_undo.pop()
            if gone[0]:
                self.still.add(s)
            if gone[1]:
                self.still.add(t)
        p = a >> 4
        mine = self.at[p]
        mine.discard(t)
        mine.add(s)
        shown = self.shown[p]
        self.score -= delta
        if d < 0:       # a quiet move: the piece on ``t`` is shown if it was on ``s``
            if t in shown:
                shown.discard(t)
                shown.add(s)
            if self.race is not None:
                ours, theirs = self.moved.pop()
                if theirs is not None:
                    self.race.enemy_back()
                if ours is not None:
                    self.race.move_back(*ours)
            return
        was_shown, was_theirs = self.shown_undo.pop()
        shown.discard(t)
        if was_shown:
            shown.add(s)
        theirs_shown = self.shown[d >> 4]
        theirs_shown.discard(t)
        if was_theirs:
            theirs_shown.add(t)
        if 0 < d & 15 < BOMB:     # a movable piece came back
            self.at[d >> 4].add(t)
        if TOPPLES[a & 15] or TOPPLES[d & 15]:
            self._officers_back()
        if self.race is not None:
            ours, theirs = self.moved.pop()
            if theirs is not None:
                self.race.enemy_back()
            if ours is not None:
                self.race.move_back(*ours)

    def won(self, side: int, depth: int) -> float:
        """``side`` takes the flag with ``depth`` plies left: a win, sooner
        better, and within one time a little better the better the position
        it was taken from (``TIE_BREAK``): when every line loses our flag,
        the move that brings our pieces nearer the intruder still scores best
        (their player may not know it is our flag). The position is counted
        from the root's (``base``): counted whole, a score past 800 either way
        hit the bound in every line and the tie-break was lost."""
        change = self.score - self.base
        change = change if side == self.me else -change
        return WIN + 100 * depth + max(-TIE_BREAK, min(TIE_BREAK, change / 20.0))

    def negamax(self, side: int, depth: int, alpha: float, beta: float) -> float:
        self.nodes += 1
        if self.limit is not None and self.nodes > self.limit:
            raise Spent
        if depth == 0:
            return self._leaf(side)
        moves = self.moves(side, self.killers[depth])
        if depth == self.ban_depth and side == self.me and self.ban in moves:
            moves.remove(self.ban)
        if not moves:
            if not self.moves(1 - side):
                return 0.0      # neither side can move: a draw (an even score)
            return -WIN - 100 * depth
        if depth == 1:
            return self._frontier(side, moves, alpha, beta)
        best = -WIN * 2
        b = self.b
        guess = side == self.me
        play, unplay = self.play, self.unplay
        for s, t in moves:
            a, d = b[s], b[t]
            delta = play(s, t, guess)
            if delta is None:
                return self.won(side, depth)
            val = -self.negamax(1 - side, depth - 1, -beta, -alpha)
            unplay(s, t, a, d, delta)
            if val > best:
                best = val
                if val > alpha:
                    alpha = val
                    if alpha >= beta:
                        if d < 0:
                            self.killers[depth] = (s, t)
                        break
        return best

    def _leaf(self, side: int) -> float:
        """The value at the horizon for ``side`` to move (a node counted
        by the caller)."""
        if side == self.me:
            return self.score + self._hanging(side) if self.hang else self.score
        lo = side * 16
        b = self.b
        for n in self.flag_side:
            c = b[n]
            if lo < c < lo + BOMB:
                return self.won(side, 0)
        return -self.score + self._hanging(side) if self.hang else -self.score

    def _frontier(self, side: int, moves: list[tuple[int, int]], alpha: float, beta: float) -> float:
        """``negamax`` one ply above the horizon: each move's leaf valued
        here rather than in a call of its own (the same values and nodes;
        most of the search's nodes are these leaves)."""
        best = -WIN * 2
        b = self.b
        guess = side == self.me
        play, unplay = self.play, self.unplay
        other = 1 - side
        limit = self.limit
        ours_next = other == self.me        # the leaves' side: ours, or theirs (our flag)
        hang = self.hang
        hanging = self._hanging
        flag_side = self.flag_side
        lo = other * 16
        hi = lo + BOMB
        for s, t in moves:
            a, d = b[s], b[t]
            delta = play(s, t, guess)
            if delta is None:
                return self.won(side, 1)
            self.nodes += 1
            if limit is not None and self.nodes > limit:
                raise Spent
            if ours_next:
                val = -(self.score + hanging(other) if hang else self.score)
            else:
                for n in flag_side:
                    if lo < b[n] < hi:
                        val = -self.won(other, 0)
                        break
                else:
                    val = -(-self.score + hanging(other) if hang else -self.score)
            unplay(s, t, a, d, delta)
            if val > best:
                best = val
                if val > alpha:
                    alpha = val
                    if alpha >= beta:
                        if d < 0:
                            self.killers[1] = (s, t)
                        break
        return best

    def _hanging(self, side: int) -> float:
        """``hang`` of the most that ``side``, to move at the horizon, wins
        by one sure strike: a piece of its own beside a revealed piece of
        the other side that it beats (the search's rank for it: a hidden
        striker's is the sample's guess). With ``guarded`` (a chase:
        ``chase.py``), where a piece of the other side beside the target
        beats the striker in turn, the strike wins only the difference: a
        chased Major beside our Spy is no gift to their Marshal."""
        b = self.b
        vals = self.val[1 - side]
        beats = BEATS[side]
        guarded = self.guarded
        best = 0.0
        for s in self.shown[1 - side]:
            r = b[s] & 15
            v = vals[r]
            if v > best:
                them = beats[r]
                for n in NEIGHBOURS[s]:
                    c = b[n]
                    if c in them:
                        if guarded and self._guarded(s, c, side):
                            best = max(best, v - self.val[side][c & 15])
                            continue
                        best = v
                        break
        return self.hang * best

    def _guarded(self, s: int, striker: int, side: int) -> bool:
        """A piece of the other side beside ``s`` beats ``side``'s
        ``striker`` (a cell) when it strikes back."""
        back = BEATS[1 - side][striker & 15]
        b = self.b
        return any(b[m] in back for m in NEIGHBOURS[s])

    def root_value(self, side: int, s: int, t: int, depth: int,
                   ban: tuple[int, int] | None = None) -> float:
        """The value of our root move s->t; ``ban``: our move refused next
        time by our own two-square rule (a last piece with no move loses)."""
        self.ban, self.ban_depth = ban, depth - 2
        self.base = self.score
        b = self.b
        a, d = b[s], b[t]
        delta = self.play(s, t)
        if delta is None:
            return WIN + 100 * depth
        val = -self.negamax(1 - side, depth - 1, -WIN * 2, WIN * 2)
        self.unplay(s, t, a, d, delta)
        return val
