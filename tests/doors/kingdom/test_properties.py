"""Protocol conformance and hypothesis properties over random games."""
from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from doors._core.conformance import check_game
from doors.kingdom.position import CASTLE, KING, NSQ, PASS, ROCK, ZOBRIST, Position
from doors.kingdom.rules import KingdomState


class NoPassKingdom(KingdomState):
    """Kingdom where a random player never passes (a pass is always legal in
    the real game, which makes random games endless); used so that
    ``check_game``'s random playout terminates."""

    def _legal(self, player):
        moves = super()._legal(player)
        return [m for m in moves if m != PASS] or moves


def test_conformance_default_board():
    for seed in range(2):
        check_game(NoPassKingdom({"board": "default"}), random.Random(seed), max_steps=20_000)


def test_conformance_other_boards_and_pawn_rule():
    check_game(NoPassKingdom({"board": "fortress", "pawns": "push"}), random.Random(5), 20_000)
    check_game(NoPassKingdom({"board": "skirmish"}), random.Random(6), 20_000)


def test_conformance_real_state_with_passes():
    """Random play with passes allowed still ends (a king falls long before
    two passes in a row are likely), so the core helper works unchanged."""
    check_game(KingdomState({}), random.Random(0), max_steps=20_000)


def test_conformance_with_passes_is_bounded():
    """The real state with passes allowed: a capped random playout keeps the
    protocol (check_game's own checks, run by hand up to max_steps)."""
    from doors._core.conformance import random_playout
    from doors._core.game import replay
    s = KingdomState({})
    random_playout(s, random.Random(9), max_steps=300)
    again = replay(KingdomState, s.options, s.record())
    assert again.pos.board == s.pos.board and again.outcome() == s.outcome()


def _kings(board):
    out = [0, 0]
    for c in board:
        if c & 7 in (KING, CASTLE):
            out[c >> 4] += 1
    return out


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), board=st.sampled_from(["default", "fortress", "skirmish"]),
       pawns=st.sampled_from(["move", "push"]), pass_rate=st.sampled_from([0.0, 0.05]))
def test_random_games_keep_the_invariants(seed, board, pawns, pass_rate):
    rng = random.Random(seed)
    s = KingdomState({"board": board, "pawns": pawns})
    for _ in range(400):
        if s.is_terminal():
            break
        pos = s.pos
        moves = s.legal_actions()
        real = [m for m in moves if m != PASS]
        mv = PASS if (rng.random() < pass_rate or not real) else rng.choice(real)
        s.apply(s.current_player(), mv)
        kings = _kings(pos.board)
        if s.is_terminal() and pos.winner is not None:
            assert kings[1 - pos.winner] == 0 and kings[pos.winner] == 1
        else:
            assert kings == [1, 1]
            for p in (0, 1):
                assert pos.board[pos.kings[p]] & 7 in (KING, CASTLE)
        key = 0
        for sq in range(NSQ):
            key ^= ZOBRIST[pos.board[sq]][sq]
        assert key == pos.zkey




@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), board=st.sampled_from(["default", "fortress", "skirmish"]))
def test_material_is_conserved_move_by_move(seed, board):
    """One thing per square: each move changes the number of occupied squares
    only by what it took or crushed, rocks it created, and castles."""
    rng = random.Random(seed)
    s = KingdomState({"board": board})
    for _ in range(300):
        if s.is_terminal():
            break
        before = sum(1 for c in s.pos.board if c)
        real = [m for m in s.legal_actions() if m != PASS]
        log: list[str] = []
        taken: list[int] = []
        pos: Position = s.pos.copy()
        mv = rng.choice(real)
        pos.apply(mv, log, taken)
        after = sum(1 for c in pos.board if c)
        # a king stepping out of his castle adds a square, one moving in frees one
        expected = (before - len(taken) + log.count("rock created")
                    + log.count("king left his castle") - log.count("castle formed"))
        assert after == expected, (log, taken)
        assert all(c in (0, ROCK) or (c & 7 and c >> 4 in (0, 1)) for c in pos.board)
        s.apply(s.current_player(), mv)
        assert s.pos.board == pos.board
