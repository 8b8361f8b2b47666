"""Property tests: random Stone Towers games keep the board consistent."""
from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from doors.stone_towers.rules import NOBODY, PASS, Board, StoneTowersState


def recount(board: Board) -> tuple[list[int], list[int]]:
    inf = ([0] * len(board.owner), [0] * len(board.owner))
    for i, k in enumerate(board.castle):
        if k:
            for j in board.area[i]:
                inf[board.owner[i]][j] += k
    return inf


@settings(max_examples=25, deadline=None)
@given(size=st.integers(5, 15), turns=st.sampled_from([5, 10, 20, 40]),
       seed=st.integers(0, 2**32 - 1))
def test_random_games_stay_consistent(size, turns, seed):
    rng = random.Random(seed)
    s = StoneTowersState({"size": size, "turns": turns})
    steps = 0
    while not s.is_terminal():
        player = s.current_player()
        before_owner, before_castle = list(s.board.owner), list(s.board.castle)
        action = rng.choice(s.legal_actions())
        s.apply(player, action)
        steps += 1
        b, report = s.board, s.last_turn
        destroyed = set(report.destroyed)
        for i, (old, new) in enumerate(zip(before_castle, b.castle, strict=True)):
            if i == action:
                assert new == old + 1 or (i in destroyed and new == 0)
            elif new != old:
                # castles only disappear, and only through the cascade
                assert new == 0 and i in destroyed
        changed = [i for i in range(size * size) if before_owner[i] != b.owner[i]]
        assert sorted(changed) == sorted(report.gained)
        assert all(b.owner[i] == player for i in changed)      # mover never loses
        # counts add up
        assert b.count[0] == b.owner.count(0) and b.count[1] == b.owner.count(1)
        assert b.count[0] + b.count[1] + b.owner.count(NOBODY) == size * size
        # influence kept incrementally equals influence counted afresh
        assert tuple(map(list, b.inf)) == tuple(recount(b))
        # every castle stands on its owner's land; the board is settled
        assert all(b.owner[i] != NOBODY for i, k in enumerate(b.castle) if k)
        settled = b.copy()
        assert settled.settle(range(size * size)) == 0
        assert settled.owner == b.owner and settled.castle == b.castle
        assert report.frames[-1] == (tuple(b.owner), tuple(b.castle))
        if action == PASS:
            assert report.frames == ((tuple(before_owner), tuple(before_castle)),)
    assert steps == 2 * turns
    out = s.outcome()
    assert out.score == tuple(s.board.count)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_settle_does_not_change_a_played_board(seed):
    rng = random.Random(seed)
    s = StoneTowersState({"size": 7, "turns": 15})
    while not s.is_terminal():
        s.apply(s.current_player(), rng.choice(s.legal_actions()))
    b = s.board.copy()
    rounds: list = []
    b.settle(range(49), None, rounds)
    assert rounds == [] and b.owner == s.board.owner
