from __future__ import annotations

import pytest

from doors._ai.random_bot import RandomBot

from .tiny_games import ExtraTurnNim


def test_random_bot_is_uniform_and_seeded():
    state = ExtraTurnNim({"pile": 20})
    picks = [RandomBot(seed=s).choose(state, 0) for s in range(60)]
    assert set(picks) == {1, 2, 3}
    again = [RandomBot(seed=5).choose(state, 0) for _ in range(3)]
    assert len(set(again)) == 1


def test_random_bot_actions_hook_and_no_action():
    bot = RandomBot(seed=1, actions_of=lambda obs, p: obs["moves"])
    assert bot.choose({"moves": ["x", "y"]}, 0) in ("x", "y")
    with pytest.raises(ValueError):
        bot.choose({"moves": []}, 0)
