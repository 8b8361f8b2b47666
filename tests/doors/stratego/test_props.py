"""Property tests: conformance, piece counts, games end, observations hide ranks."""
from __future__ import annotations

import pickle
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from doors._core.conformance import check_game
from doors.stratego.pieces import ARMY_SIZE
from doors.stratego.rules import StrategoState

OPTS = st.fixed_dictionaries({"scout_strike": st.sampled_from([1, 2]),
                              "two_square": st.sampled_from(["seed", "tournament"])})


def test_conformance_all_options():
    for i, (ss, ts) in enumerate([(1, "seed"), (2, "seed"), (1, "tournament"), (2, "tournament")]):
        s = check_game(StrategoState({"scout_strike": ss, "two_square": ts}), random.Random(i))
        assert s.outcome() is not None


def scramble(state: StrategoState, sides: set[int], rng: random.Random) -> StrategoState:
    """A copy whose unrevealed pieces of ``sides`` have their ranks permuted
    (moved pieces among moved pieces, unmoved among unmoved)."""
    twin = state.clone()
    for side in sides:
        for moved in (False, True):
            squares = [s for s, p in enumerate(twin.board) if p is not None
                       and p.owner == side and not p.revealed and p.moved == moved]
            ranks = [twin.board[s].rank for s in squares]
            rng.shuffle(ranks)
            for s, r in zip(squares, ranks, strict=True):
                twin.board[s] = twin.board[s]._replace(rank=r)
    return twin


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**9), opts=OPTS)
def test_random_games_count_end_and_hide(seed, opts):
    rng = random.Random(seed)
    state = StrategoState(opts)
    step = 0
    while state.to_move():
        player = rng.choice(state.to_move())
        obs = state.observation(player)
        legal = state.legal_actions(player)
        assert obs.legal_actions() == legal
        action = rng.choice(legal)
        assert obs.why_illegal(action) is None
        state.apply(player, action)
        step += 1
        if state.phase == "play":
            for side in (0, 1):
                assert state.counts_on_board(side) + len(state.lost[side]) == ARMY_SIZE
        struck_now = state.last_strike is not None and state.last_strike.ply == state.ply
        if state.outcome() is None and (step % 7 == 0 or struck_now):
            check_hidden(state, rng)
        assert step < 20000
    assert state.outcome() is not None
    final = state.observation(0)
    assert all(s is None or s.rank is not None for s in final.squares), "all revealed at the end"


def check_hidden(state: StrategoState, rng: random.Random) -> None:
    for viewer, sides in ((0, {1}), (1, {0}), (None, {0, 1})):
        twin = scramble(state, sides, rng)
        a, b = state.observation(viewer), twin.observation(viewer)
        assert a == b
        assert pickle.dumps(a) == pickle.dumps(b)
        assert repr(a) == repr(b)
        for s in a.squares:
            if s is not None and s.owner in sides and not s.revealed:
                assert s.rank is None
