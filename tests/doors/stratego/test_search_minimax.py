"""The search's alpha-beta gives the values of plain minimax: the ply
above the horizon valued in place (``Search._frontier``) and the pruning
change the nodes, never a root move's value."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from doors.stratego.belief import R_OF
from doors.stratego.search import WIN, Search
from doors.stratego.tables import probe_pull
from doors.stratego.values import HANG

from .helpers import cells_of, played, sq


def _minimax(search: Search, side: int, depth: int) -> float:
    """Every line searched, no bound: the value for ``side`` to move."""
    if depth == 0:
        return search._leaf(side)
    moves = search.moves(side)
    if not moves:
        return -WIN - 100 * depth
    best = -WIN * 2
    for s, t in moves:
        a, d = search.b[s], search.b[t]
        delta = search.play(s, t, side == search.me)
        if delta is None:       # the flag taken (such strikes come first)
            return search.won(side, depth)
        best = max(best, -_minimax(search, 1 - side, depth - 1))
        search.unplay(s, t, a, d, delta)
    return best


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10**6), plies=st.integers(0, 240), depth=st.sampled_from([1, 2, 3]))
def test_root_values_are_those_of_plain_minimax(seed, plies, depth):
    cells, known = cells_of(played(seed, plies))
    fast = Search(list(cells), 0, 2, known=known, hang=HANG)
    plain = Search(list(cells), 0, 2, known=known, hang=HANG)
    roots = fast.moves(0)[:4 if depth == 3 else 12]
    for s, t in roots:
        got = fast.root_value(0, s, t, depth)
        a, d = plain.b[s], plain.b[t]
        delta = plain.play(s, t)
        want = WIN + 100 * depth if delta is None else -_minimax(plain, 1, depth - 1)
        if delta is not None:
            plain.unplay(s, t, a, d, delta)
        assert abs(got - want) < 1e-9, (s, t, got, want)
    assert fast.b == plain.b == cells


def test_a_probe_pulls_round_shown_bombs_not_through_them():
    """A stalled game's pull (``tables.probe_pull``) leads our cheap pieces
    to a hidden piece they can reach; one walled in by bombs already shown
    pulls no one (a Sergeant would only circle outside the wall)."""
    cells = [-1] * 100
    sergeant = 4
    walled, open_ = sq("A10"), sq("H10")
    for s in (walled, open_):
        cells[s] = 16 + R_OF["5"]
    for s in (sq("A9"), sq("B10")):
        cells[s] = 16 + R_OF["B"]
    cells[sq("E1")] = R_OF["7"]         # our Sergeant
    tables: list[list[float] | None] = [None] * 16
    probe_pull(cells, 0, {walled, open_}, 100.0, tables, (sergeant,))
    pull = tables[sergeant]
    assert pull is not None
    alone: list[list[float] | None] = [None] * 16
    probe_pull(cells, 0, {open_}, 100.0, alone, (sergeant,))
    only = alone[sergeant]
    assert only is not None
    assert all(pull[s] == only[s] for s in range(100) if s != walled)   # only the open one pulls
    assert pull[sq("A8")] == 0.0
    assert pull[sq("H9")] > pull[sq("H8")] > pull[sq("H7")] > 0.0
