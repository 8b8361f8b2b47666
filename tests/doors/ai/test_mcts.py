from __future__ import annotations

from doors._ai.mcts import MCTSBot
from doors._ai.random_bot import RandomBot

from .tiny_games import ExtraTurnNim, winning_takes


def test_plays_legal_moves_through_whole_games():
    for seed in range(4):
        state = ExtraTurnNim({"pile": 15 + seed})
        bots = [MCTSBot(iterations=60, seed=seed), RandomBot(seed)]
        while not state.is_terminal():
            p = state.current_player()
            move = bots[p].choose(state.clone(), p)
            assert move in state.legal_actions(p)
            state.apply(p, move)
        assert state.outcome() is not None


def test_finds_the_extra_turn_win():
    state = ExtraTurnNim({"pile": 8})
    assert winning_takes(8) == [3]
    assert MCTSBot(iterations=1500, seed=3).choose(state, 0) == 3


def test_deterministic_for_a_seed_with_an_iteration_budget():
    state = ExtraTurnNim({"pile": 30})
    picks = [MCTSBot(iterations=200, seed=11).choose(state, 0) for _ in range(3)]
    assert len(set(picks)) == 1


def test_time_budget_alone_works():
    bot = MCTSBot(max_time=0.05, seed=0)
    assert bot.choose(ExtraTurnNim({"pile": 40}), 0) in (1, 2, 3)
    assert bot.last_info["iterations"] > 0


def test_determinize_hook_is_used_for_hidden_information():
    seen = []

    def determinize(observation, player, rng):
        seen.append(observation)
        return ExtraTurnNim({"pile": observation["pile"]})
    bot = MCTSBot(iterations=50, seed=1, determinize=determinize)
    assert bot.choose({"pile": 9}, 0) in (1, 2, 3)
    assert len(seen) == 50


def test_rollout_policy_hook_is_used():
    calls = []

    def greedy(state, player, rng):
        calls.append(player)
        return max(state.legal_actions(player))
    bot = MCTSBot(iterations=30, seed=2, rollout=greedy)
    assert bot.choose(ExtraTurnNim({"pile": 25}), 0) in (1, 2, 3)
    assert calls
