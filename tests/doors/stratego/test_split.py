"""Level 5's move spread over two workers (``choose_part`` and ``merge``):
the parts search the same candidate moves, each its own samples within its
share of the node budget, and together as many samples as the whole move;
the merged move is legal; a move that needs no search is decided once."""
from __future__ import annotations

import dataclasses
import random

import pytest

from doors.stratego import INFO
from doors.stratego.ai import LEVELS, Part, make_bot
from doors.stratego.pieces import Fill
from doors.stratego.rules import StrategoState

from .helpers import started


def _middle_game(seed: int, plies: int = 40) -> StrategoState:
    state = started(seed)
    rng = random.Random(seed)
    for _ in range(plies):
        if state.is_terminal():
            break
        state.apply(state.turn, rng.choice(state.legal_actions()))
    return state


def test_stratego_offers_its_move_to_two_workers():
    assert INFO.bot_parts == 2


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_parts_share_the_samples_of_the_whole_move(seed):
    state = _middle_game(seed)
    me = state.turn
    obs = state.observation(me)
    parts = [make_bot(5, seed, time_cap=None).choose_part(obs, me, k, 2) for k in range(2)]
    whole = make_bot(5, seed, time_cap=None)
    whole.choose(obs, me)
    assert parts[0].cands == parts[1].cands, "both parts weigh the same moves"
    assert all(part.done >= 2 for part in parts)
    assert abs(sum(part.done for part in parts) - whole.last_samples) <= 2
    budget = LEVELS[5].budget
    for part in parts:      # a part stops after the sample that passes its share
        assert part.nodes < budget // 2 + budget // 4
    legal = set(state.legal_actions())
    merger = make_bot(5, seed, time_cap=None)
    move = merger.merge(obs, me, parts)
    assert move in legal and move in parts[0].cands
    assert merger.last_samples == sum(part.done for part in parts)


def test_a_move_that_needs_no_search_is_decided_by_the_first_part():
    state = StrategoState({})
    obs = state.observation(0)
    first, second = (make_bot(5, 7).choose_part(obs, 0, k, 2) for k in range(2))
    assert isinstance(first.decided, Fill) and second.decided is None and not second.done
    assert make_bot(5, 7).merge(obs, 0, [first, second]) == first.decided


def test_the_merge_keeps_the_deepest_samples():
    """A part that could look two plies deeper (few pieces left) is the
    better estimate: a shallower part's samples are left out."""
    state = _middle_game(4)
    obs = state.observation(state.turn)
    a, b = [m for m in state.legal_actions() if obs.squares[m.to] is None][:2]
    deep = Part([a, b], [0.0, 30.0], 3, 5, 1000, None)
    shallow = Part([a, b], [900.0, 0.0], 9, 3, 1000, None)
    bot = make_bot(5, 1)
    bot.cfg = dataclasses.replace(bot.cfg, noise=0.0, defend=False)
    assert bot.merge(obs, state.turn, [shallow, deep]) == b
    assert (bot.last_samples, bot.last_depth) == (3, 5)
