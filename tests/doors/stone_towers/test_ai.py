"""Stone Towers bots: legal, deterministic, and the top level plays well."""
from __future__ import annotations

import random

import pytest

from doors.stone_towers import INFO
from doors.stone_towers.ai import GreedyBot, move_swings, swing
from doors.stone_towers.rules import BLUE, PASS, RED, Board, StoneTowersState

from .test_rules import state_with


def play(bots, options):
    s = StoneTowersState(options)
    while not s.is_terminal():
        p = s.current_player()
        action = bots[p].choose(s.observation(p), p)
        assert s.why_illegal(p, action) is None
        s.apply(p, action)
    return s


@pytest.mark.parametrize("level", [1, 2, 3])
def test_levels_play_legal_games(level):
    s = play([INFO.make_bot(level, 1), INFO.make_bot(level, 2)], {"size": 6, "turns": 12})
    assert s.is_terminal()


def test_deterministic_given_seed():
    a = play([INFO.make_bot(3, 5), INFO.make_bot(1, 6)], {"size": 7, "turns": 8})
    b = play([INFO.make_bot(3, 5), INFO.make_bot(1, 6)], {"size": 7, "turns": 8})
    assert a.record() == b.record()


def test_forced_pass():
    s = StoneTowersState({"size": 5, "turns": 5})
    s.board = Board.from_rows(["R3 R3 R3 R3 R3"] * 5)
    for level in (1, 2, 3):
        assert INFO.make_bot(level, 0).choose(s.clone(), RED) == PASS


def test_swing_matches_simulation():
    rng = random.Random(4)
    s = StoneTowersState({"size": 7, "turns": 30})
    while not s.is_terminal():
        p = s.current_player()
        b = s.board
        for sw, sq in move_swings(b, p):
            c = b.copy()
            c.play(p, sq)
            assert sw == (c.count[p] - c.count[1 - p]) - (b.count[p] - b.count[1 - p])
        s.apply(p, rng.choice(s.legal_actions()))


def test_takes_the_cascade():
    s = state_with([
        ". B1 B1 B2 .",
        "B1 R1 R1 R1 r",
        ". . B2 . .",
        ". . . . .",
        ". . . . .",
    ], ply=9, turns=5)                                 # blue's last turn
    s.board.settle(range(25))
    a2 = 5
    assert swing(s.board, BLUE, a2) == 6
    # building on d3 is better still: d2 falls, then c2, then b2
    d3 = 13
    assert max(move_swings(s.board, BLUE)) == (8, d3)
    for level in (2, 3):
        assert INFO.make_bot(level, 0).choose(s.clone(), BLUE) == d3


def test_top_level_beats_greedy_and_random():
    options = {"size": 7, "turns": 10}
    wins = 0
    for g in range(4):
        seat = g % 2
        bots = [None, None]
        bots[seat] = INFO.make_bot(3, g)
        bots[1 - seat] = GreedyBot(100 + g)
        out = play(bots, options).outcome()
        wins += out.winner == seat
    assert wins >= 3
