"""Positional tables for the search's evaluation (``search.py``), built
once per determinization: distances on the board, the hunt (pulls towards
revealed enemy pieces one beats, pushes away from those that beat one),
the escort (our Spy beside our revealed General, to take back their
Marshal) and the pocket rule for our officers (the race to our flag:
``race.py``).

Cells: -1 empty, else ``owner * 16 + r`` (``belief.R_OF`` rank index).
"""
from __future__ import annotations

from .pieces import NEIGHBOURS

__all__ = ["RESULT", "beats", "rank_counts", "trade_ok", "bfs", "bfs_seeded", "hunt_tables", "pocket_table",
           "closing_hunt", "probe_pull", "beside_bombs", "MINER_HIDDEN", "HUNT", "FEAR", "TRADE", "POCKET",
           "CLOSE", "CLOSE_REACH"]

SCOUT, MINER, SPY, MARSHAL, GENERAL, BOMB, FLAG = 2, 3, 1, 10, 9, 11, 0
HUNT = 0.25         # pull towards a revealed enemy piece one can beat, of its value
FEAR = 0.2          # push away from a revealed enemy piece that beats one, of own value
TRADE = 1.0         # of the hunt's pull, towards a revealed equal Colonel or better
# our officer on a square walled in by hidden enemy pieces (and edges, lakes),
# while the enemy still has a piece that beats it: of its value, by walls
POCKET = (0.0, 0.0, 0.03, 0.08, 0.2)
# our Spy beside our revealed General while they have a Marshal: their
# Marshal that takes the General is taken back (the pull, fading over
# ``ESCORT_REACH`` steps; the General, chased by their revealed Marshal,
# is pulled towards the Spy alike)
ESCORT = 24.0
ESCORT_REACH = 4
# the closing hunt (only once the game has gone quiet: ``root.QUIET``): a
# piece of ours that beats every movable rank they have left, striking or
# struck, is pulled (``CLOSE`` of the target's value, fading over
# ``CLOSE_REACH`` steps) towards the best of their pieces that moved or were
# shown (no bomb, no flag: it takes them, whatever they are), so a won
# endgame is taken, not circled near their flag (``search.ATTACK``)
CLOSE = 0.5
CLOSE_REACH = 12
# a stalled game (``root.STALL``): our cheap pieces are pulled towards the
# nearest enemy piece hidden at the root, this share of a probe's gain
# next to it, fading over ``PROBE_REACH`` steps (``probe_pull``)
PROBE_PULL = 0.25
PROBE_REACH = 8
# ... and in a stalled endgame (``MINER_HIDDEN``), our Miners towards the
# nearest unmoved one, from anywhere on the board, through shown bombs
MINER_REACH = 16
MINER_HIDDEN = 10   # their unmoved hidden pieces left: at most this, an endgame


def _result(a: int, d: int) -> int:
    """1 attacker wins, 0 both die, -1 attacker dies, 2 flag taken."""
    if d == FLAG:
        return 2
    if d == BOMB:
        return 1 if a == MINER else -1
    if a == SPY and d == MARSHAL:
        return 1
    return 1 if a > d else 0 if a == d else -1


RESULT = [[_result(a, d) for d in range(12)] for a in range(12)]


def beats(a: int, d: int) -> bool:
    """Rank index ``a`` takes ``d``, striking or struck."""
    return RESULT[a][d] == 1 and RESULT[d][a] == -1


def rank_counts(cells: list[int]) -> list[list[int]]:
    """Per owner, how many pieces of each rank index stand on ``cells``."""
    counts = [[0] * 12 for _ in (0, 1)]
    for c in cells:
        if c >= 0:
            counts[c >> 4][c & 15] += 1
    return counts


def trade_ok(mine: list[int], theirs: list[int], r: int) -> bool:
    """Trading one rank-``r`` piece each (counts by rank index) leaves us
    with officers (Major and up) at least as strong as theirs: otherwise the
    trade hands the board to their next officer. Or theirs is on the loose
    (nothing else of ours beats it: it takes whatever it finds) and the
    trade leaves us a piece as strong as their next best."""
    def top(counts: list[int]) -> list[int]:
        return [x for x in range(MARSHAL, 6, -1) for _ in range(counts[x] - (x == r))]
    ours, their = top(mine), top(theirs)
    if ours >= their:
        return True
    loose = not any(mine[x] for x in range(r + 1, MARSHAL + 1)) and not (r == MARSHAL and mine[SPY])
    return loose and bool(ours) and ours[0] >= their[0]


def bfs(sources: list[int]) -> list[int]:
    dist = [99] * 100
    frontier = list(sources)
    for s in frontier:
        dist[s] = 0
    while frontier:
        nxt = []
        for s in frontier:
            d = dist[s] + 1
            for n in NEIGHBOURS[s]:
                if dist[n] > d:
                    dist[n] = d
                    nxt.append(n)
        frontier = nxt
    return dist


_DIST = [bfs([s]) for s in range(100)]     # steps between squares, the board empty
# ``CLOSE_REACH``'s fade, from each square: the steps short of it (0 from there on)
_CLOSE_FADE = [[max(0, CLOSE_REACH - d) for d in dist] for dist in _DIST]


def bfs_seeded(seeds: dict[int, int], blocked: set[int] | frozenset[int]) -> list[int]:
    """Steps from the nearest seed, a seed starting at its own count;
    ``blocked`` squares are never entered."""
    dist = [99] * 100
    levels: list[list[int]] = [[] for _ in range(100)]
    for s, d in seeds.items():
        dist[s] = d
        levels[d].append(s)
    for d in range(99):
        for s in levels[d]:
            if dist[s] != d:
                continue
            for n in NEIGHBOURS[s]:
                if dist[n] > d + 1 and n not in blocked:
                    dist[n] = d + 1
                    levels[d + 1].append(n)
    return dist


def hunt_tables(cells: list[int], known: frozenset[int] | set[int], val: list[list[float]],
                intruders: tuple[tuple[int, float], ...] = (),
                me: int | None = None) -> list[list[list[float] | None]]:
    """Per owner and rank, a table by square: near a revealed enemy piece it
    beats, a pull (``HUNT`` of the target's value, fading over eight steps);
    next to one that beats it, a push away (``FEAR`` of its own value). The
    ``intruders`` ((square, pull): enemy pieces near ``me``'s flag) pull
    every piece of ours that beats them, fading over sixteen steps, so a far
    Marshal comes home to a Miner at the bomb wall."""
    out: list[list[list[float] | None]] = [[None] * 12, [None] * 12]
    counts = rank_counts(cells)
    for p in (0, 1):
        targets = [(s, cells[s] & 15, HUNT * val[1 - p][cells[s] & 15], 8) for s in known
                   if cells[s] >= 0 and cells[s] >> 4 != p and 0 < cells[s] & 15 < BOMB
                   and val[1 - p][cells[s] & 15] >= 25.0]
        threats = [(s, cells[s] & 15) for s in known
                   if cells[s] >= 0 and cells[s] >> 4 != p and 0 < cells[s] & 15 < BOMB]
        targets += [(s, cells[s] & 15, gain, 16) for s, gain in intruders
                    if cells[s] >= 0 and cells[s] >> 4 != p]
        if not targets and not threats:
            continue
        dist_of = {s: bfs([s]) for s, *_ in targets + threats}
        for r in range(1, BOMB):
            table = [0.0] * 100
            used = False
            for s, er, gain, reach in targets:
                res = RESULT[r][er]
                if res == 0 and er >= 8 and reach == 8:
                    us = p if me is None else me
                    if not trade_ok(counts[us], counts[1 - us], r):
                        continue    # no trade that leaves their officers stronger
                    gain *= TRADE      # an equal officer on the loose: trade it off
                if res == 1 or (res == 0 and er >= 8 and reach == 8):
                    dist = dist_of[s]
                    for x in range(100):
                        if dist[x] < reach:
                            table[x] += gain * (reach - dist[x]) / reach
                    used = True
            for s, er in threats:
                if RESULT[r][er] == -1:
                    loss = FEAR * val[p][r]
                    dist = dist_of[s]
                    for x in range(100):
                        if 0 < dist[x] <= 2:
                            table[x] -= loss / dist[x]
                    used = True
            if used:
                out[p][r] = table
    if me is not None:
        _escort(cells, known, me, counts, out[me])
    return out


def _escort(cells: list[int], known: frozenset[int] | set[int], me: int, counts: list[list[int]],
            tables: list[list[float] | None]) -> None:
    """``ESCORT``: our Spy towards our revealed General, and the General,
    with their revealed Marshal near, towards the Spy."""
    if not counts[1 - me][MARSHAL]:
        return
    general = next((s for s in known if cells[s] == me * 16 + GENERAL), None)
    spy = next((s for s, c in enumerate(cells) if c == me * 16 + SPY), None)
    if general is None or spy is None:
        return
    marshal = next((s for s in known if cells[s] == (1 - me) * 16 + MARSHAL), None)
    chased = marshal is not None and bfs([marshal])[general] <= ESCORT_REACH + 1
    for r, centre in [(SPY, general)] + ([(GENERAL, spy)] if chased else []):
        dist = bfs([centre])
        table = tables[r] or [0.0] * 100
        for x in range(100):
            if 0 < dist[x] < ESCORT_REACH:
                table[x] += ESCORT * (ESCORT_REACH - dist[x]) / (ESCORT_REACH - 1)
        tables[r] = table


def closing_hunt(cells: list[int], me: int,
                 unknown: frozenset[int] | set[int], val: list[list[float]],
                 tables: list[list[float] | None], attack: list[float] | None = None,
                 wide: bool = False) -> None:
    """``CLOSE``: add to ``me``'s ``tables`` (by rank) the pull of each rank
    that beats every movable rank the enemy has left, both ways (their Spy
    alive, our Marshal does not: it strikes first), towards the enemy's
    pieces that moved or were shown (not ``unknown``: unmoved and hidden):
    on each square the pull of the best one (not their sum: with many
    targets a sum would outweigh the flag's defence). Such a piece loses
    the ``attack`` pull (by square, towards their flag): it cannot strike
    their unmoved pieces blind, and near their flag it only circles.

    ``wide`` (we are well ahead, or the game is stalled): each rank of
    ours is pulled towards the targets it beats both ways, whatever else
    they have left. The cells
    are one determinization, so over the samples a hidden target pulls as
    likely as it is beatable; a Marshal keeps off a piece that may be
    their Spy only as far as that is likely."""
    enemy = 1 - me
    counts = rank_counts(cells)
    left = [e for e in range(1, BOMB) if counts[enemy][e]]
    targets = [(s, c & 15, CLOSE * val[enemy][c & 15]) for s, c in enumerate(cells)
               if c >= 0 and c >> 4 == enemy and 0 < c & 15 < BOMB and s not in unknown]
    hunters = [r for r in range(1, BOMB) if counts[me][r]
               and (wide or (left and all(beats(r, e) for e in left)))]
    if not hunters or not targets:
        return      # (most of a game: no cost)
    fading = [(e, [gain * f / CLOSE_REACH for f in _CLOSE_FADE[s]]) for s, e, gain in targets]
    for r in hunters:
        prey = [fade for e, fade in fading if beats(r, e)]
        if not prey:
            continue
        pull = list(map(max, *prey)) if len(prey) > 1 else list(prey[0])
        if attack is not None and r != MINER:     # a Miner may still clear their bombs
            pull = [p - a for p, a in zip(pull, attack, strict=True)]
        old = tables[r]
        tables[r] = pull if old is None \
            else [a + p for a, p in zip(old, pull, strict=True)]


def probe_pull(cells: list[int], me: int, hidden: frozenset[int] | set[int], gain: float,
               tables: list[list[float] | None], probers: tuple[int, ...], miner: bool = False) -> None:
    """A stalled game's probe walked up to: add to ``me``'s ``tables`` for
    each rank of ``probers`` it has a pull towards the nearest of the
    ``hidden`` squares (``PROBE_PULL`` of the probe's ``gain``, fading over
    ``PROBE_REACH`` steps). The search sees a probe only within its
    horizon; a cheap piece further off would never set out. The steps go
    round their bombs that are not ``hidden`` (shown): a piece walled in
    by them pulls no one, who would only circle outside the wall; but a
    ``miner`` goes through them (it takes a bomb) to what they wall in,
    from ``MINER_REACH`` steps off."""
    if not hidden:
        return
    counts = rank_counts(cells)
    walls = set() if miner else {s for s, c in enumerate(cells)
                                 if c == (1 - me) * 16 + BOMB and s not in hidden}
    reach = MINER_REACH if miner else PROBE_REACH
    dist = bfs_seeded(dict.fromkeys(hidden, 0), walls)
    pull = [gain * PROBE_PULL * max(0, reach - dist[x]) / reach for x in range(100)]
    for r in probers:
        if counts[me][r]:
            old = tables[r]
            tables[r] = list(pull) if old is None else [a + p for a, p in zip(old, pull, strict=True)]


def beside_bombs(cells: list[int], me: int, hidden: frozenset[int] | set[int]) -> frozenset[int]:
    """Of the ``hidden`` squares (their pieces unmoved and hidden), those
    beside a bomb of theirs that is shown: where a wall of bombs keeps
    their flag, and what a Miner takes (a bomb) or wins the game on."""
    bomb = (1 - me) * 16 + BOMB
    return frozenset(s for s in hidden if any(cells[n] == bomb and n not in hidden for n in NEIGHBOURS[s]))


def pocket_table(cells: list[int], me: int, known: frozenset[int] | set[int]) -> list[float]:
    """Per square, ``POCKET`` by how many of its four sides are walls
    (board edge, lake, an enemy piece hidden at the root), if at least one
    is such a hidden piece; 0 elsewhere."""
    hidden = [c >= 0 and c >> 4 != me and s not in known for s, c in enumerate(cells)]
    out = [0.0] * 100
    for s in range(100):
        near = NEIGHBOURS[s]
        foes = sum(1 for n in near if hidden[n])
        if foes:
            out[s] = POCKET[4 - len(near) + foes]
    return out


