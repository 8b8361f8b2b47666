"""Awari bots."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from doors.awari import endgame
from doors.awari.ai import AwariBot, make_bot, play
from doors.awari.rules import AwariState, sow


@pytest.fixture(scope="module")
def small_table():
    return endgame.build(8, None, jobs=1)


def random_state(rng: random.Random, plies: int) -> AwariState:
    s = AwariState({"first": rng.randint(0, 1)})
    for _ in range(plies):
        if s.is_terminal():
            break
        s.apply(s.current_player(), rng.choice(s.legal_actions()))
    return s


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 15), min_size=14, max_size=14), st.integers(0, 1),
       st.integers(1, 6), st.booleans())
def test_fast_play_matches_rules(board, player, hole, extra):
    board[7 * player + hole - 1] = max(1, board[7 * player + hole - 1])
    res = sow(board, player, hole, extra)
    nb, nxt, nextra = play(board, player, 7 * player + hole - 1, extra)
    assert tuple(nb) == res.board
    assert nextra == res.extra_turn
    assert nxt == (player if res.extra_turn else 1 - player)


@pytest.mark.parametrize("level", [1, 2, 3, 4, 5])
def test_every_level_plays_legal_and_deterministic(level, small_table):
    rng = random.Random(level)
    for k in range(3):
        s = random_state(rng, rng.randint(0, 12))
        if s.is_terminal():
            continue
        p = s.current_player()
        picks = []
        for _ in range(2):
            bot = AwariBot(level, 42 + k, table=small_table)
            picks.append(bot.choose(s.observation(p), p))
        assert picks[0] == picks[1]
        assert picks[0] in s.legal_actions()


def test_make_bot_levels():
    assert isinstance(make_bot(1, 0), AwariBot)
    with pytest.raises(ValueError):
        make_bot(6, 0)


def test_level5_plays_perfectly_in_table_positions(small_table):
    rng = random.Random(11)
    tried = 0
    while tried < 60:
        board = [0] * 14
        for _ in range(rng.randint(2, 8)):
            board[rng.choice([i for i in range(14) if i not in (6, 13)])] += 1
        rest = 36 - sum(board)
        board[6] = rng.randint(max(0, rest - 18), min(18, rest))
        board[13] = rest - board[6]
        player, extra = rng.randint(0, 1), rng.random() < 0.3
        s = AwariState.from_position(board, player, extra)
        if s.is_terminal():
            continue
        tried += 1
        best = endgame.value_of(small_table, board, player, extra)
        bot = AwariBot(5, tried, table=small_table)
        action = bot.choose(s.clone(), player)
        c = s.clone()
        c.apply(player, action)
        if c.is_terminal():
            w = c.outcome().winner
            got = 0 if w is None else (1 if w == player else -1)
        else:
            got = endgame.value_of(small_table, c.board, c.player, c.extra)
            got = got if c.player == player else -got
        assert got == best, (board, player, extra, action)


def test_stronger_level_beats_level_one():
    points = 0.0
    for g in range(4):
        seat = g % 2
        bots = [None, None]
        bots[seat] = AwariBot(3, g, table=None)
        bots[1 - seat] = AwariBot(1, g, table=None)
        s = AwariState({"first": 0})
        while not s.is_terminal():
            p = s.current_player()
            s.apply(p, bots[p].choose(s.observation(p), p))
        w = s.outcome().winner
        points += 0.5 if w is None else float(w == seat)
    assert points >= 3


def test_level5_search_without_table_keeps_to_budget():
    bot = AwariBot(5, 1, table=None)
    assert bot.table is None
    s = AwariState({"first": 0})
    assert bot.choose(s.clone(), 0) in range(1, 7)
    assert bot.nodes <= bot.budget + 1
