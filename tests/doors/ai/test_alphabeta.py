from __future__ import annotations

from types import SimpleNamespace

import pytest

from doors._ai import alphabeta
from doors._ai.alphabeta import WIN, AlphaBetaBot
from doors._core.game import replay

from .tiny_games import ExtraTurnNim, alternating_winning_takes, mover_wins, nim_eval, winning_takes


def test_the_extra_turn_rule_changes_the_answer():
    # the test game is one where assuming alternation gives wrong moves
    assert winning_takes(8) == [3]
    assert alternating_winning_takes(8) == []
    assert alternating_winning_takes(9) == [1] and 1 not in winning_takes(9)


@pytest.mark.parametrize("pile", range(1, 23))
@pytest.mark.parametrize("player", [0, 1])
def test_finds_a_winning_move_whenever_one_exists(pile, player):
    state = ExtraTurnNim({"pile": pile, "first": player})
    bot = AlphaBetaBot(nim_eval, max_time=None, max_depth=30, seed=pile)
    move = bot.choose(state.clone(), player)
    assert move in state.legal_actions(player)
    if mover_wins(pile):
        assert move in winning_takes(pile)
        if pile > 1:                # a single legal action is played unsearched
            assert bot.last_info["value"] >= WIN / 2
    else:
        assert bot.last_info["value"] <= -WIN / 2


def test_uses_the_extra_turn_to_win():
    # pile 8: only taking 3 (leaving 5, an extra turn) wins
    state = ExtraTurnNim({"pile": 8})
    assert AlphaBetaBot(nim_eval, max_time=None, max_depth=20).choose(state, 0) == 3


@pytest.mark.parametrize("use_tt", [True, False])
def test_wins_a_whole_game_against_itself_from_a_won_position(use_tt):
    state = ExtraTurnNim({"pile": 13})
    assert mover_wins(13)
    bots = [AlphaBetaBot(nim_eval, max_time=None, max_depth=30, seed=s, use_tt=use_tt)
            for s in (1, 2)]
    while not state.is_terminal():
        p = state.current_player()
        state.apply(p, bots[p].choose(state.clone(), p))
    assert state.outcome().winner == 0
    again = replay(ExtraTurnNim, state.options, state.record())
    assert again.outcome() == state.outcome()


def test_respects_the_time_budget(monkeypatch):
    """On a clock where every evaluation takes a millisecond, the search
    stops within a few checks of its 0.1 s budget."""
    now = [0.0]

    def slow_eval(state, player):
        now[0] += 0.001
        return 0.0
    monkeypatch.setattr(alphabeta, "time", SimpleNamespace(monotonic=lambda: now[0]))
    state = ExtraTurnNim({"pile": 400})
    bot = AlphaBetaBot(slow_eval, max_time=0.1, seed=0)
    move = bot.choose(state, 0)
    assert now[0] < 0.1 + 0.001 * 2 * alphabeta._CHECK_EVERY
    assert move in (1, 2, 3)


def test_node_budget_is_deterministic():
    state = ExtraTurnNim({"pile": 300})
    picks = {AlphaBetaBot(nim_eval, max_time=None, max_nodes=500, seed=7).choose(state, 0)
             for _ in range(3)}
    assert len(picks) == 1


def test_evaluation_is_from_the_searching_players_view():
    # an evaluation that likes small piles for player 0: the bot takes 3
    def likes_small(state, player):
        value = -float(state.pile)
        return value if player == 0 else -value
    state = ExtraTurnNim({"pile": 200})
    assert AlphaBetaBot(likes_small, max_time=None, max_depth=1).choose(state, 0) == 3


def test_move_ordering_hook_is_used_and_keeps_the_answer():
    calls = []

    def order(state, player, actions):
        calls.append(len(actions))
        return sorted(actions, reverse=True)
    state = ExtraTurnNim({"pile": 17})
    move = AlphaBetaBot(nim_eval, max_time=None, max_depth=25, order=order).choose(state, 0)
    assert calls
    assert move in winning_takes(17)


def test_terminal_value_hook_overrides_returns():
    # a hook that makes losing attractive: the bot then avoids the winning take
    state = ExtraTurnNim({"pile": 2})
    bot = AlphaBetaBot(nim_eval, max_time=None, max_depth=5,
                       terminal_value=lambda s, p: -s.returns()[p] * WIN)
    assert bot.choose(state, 0) == 1


def test_no_legal_action_is_an_error():
    state = ExtraTurnNim({"pile": 1})
    state.apply(0, 1)
    with pytest.raises(ValueError):
        AlphaBetaBot(nim_eval).choose(state, 1)
