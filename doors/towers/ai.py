"""Computer players for Towers, levels 1 (weakest) to 5.

1  random moves, now and then the greediest one;
2  the move with the best immediate prospects, with some random slips;
3  alpha-beta on the line-of-sight margin, shallow;
4  alpha-beta with the unmoved towers' prospects, medium budget;
5  the same with about one second per move.

The searches are bounded by a node budget (so a bot is deterministic for a
given seed) with a time cap as a safety net on a busy machine.
"""
from __future__ import annotations

import random
from collections.abc import Callable

from doors._ai.alphabeta import AlphaBetaBot
from doors._ai.random_bot import ListsActions, RandomBot
from doors._core.door import Bot
from doors._core.game import Player

from .evaluate import evaluate_fast, evaluate_full, order_actions, terminal_value
from .rules import Action, TowersState

__all__ = ["make_bot", "LEVELS", "MixedBot"]

LEVELS = (1, 5)


class MixedBot:
    """Plays ``strong``'s choice with probability ``p_strong``, else a
    random legal action."""

    def __init__(self, strong: Bot[TowersState, Action], p_strong: float, seed: int | None):
        self.strong = strong
        self.p_strong = p_strong
        self.rng = random.Random(seed)
        self.random: RandomBot[ListsActions[Action], Action] = RandomBot(self.rng.randrange(2**32))

    def choose(self, observation: TowersState, player: Player) -> Action:
        if self.rng.random() < self.p_strong:
            return self.strong.choose(observation, player)
        return self.random.choose(observation, player)


def _search(evaluate: Callable[[TowersState, Player], float], seed: int | None, max_nodes: int,
            max_time: float, max_depth: int = 64) -> AlphaBetaBot[TowersState, Action]:
    return AlphaBetaBot(evaluate, max_time=max_time, max_depth=max_depth, seed=seed,
                        order=order_actions, terminal_value=terminal_value,
                        max_nodes=max_nodes)


def make_bot(level: int, seed: int | None = None) -> Bot[TowersState, Action]:
    """A Towers bot of ``level`` 1..5 (clamped)."""
    level = max(LEVELS[0], min(LEVELS[1], int(level)))
    if level == 1:
        return MixedBot(_search(evaluate_fast, seed, 200, 0.2, max_depth=1), 0.3, seed)
    if level == 2:
        return MixedBot(_search(evaluate_full, seed, 400, 0.3, max_depth=1), 0.8, seed)
    if level == 3:
        return _search(evaluate_fast, seed, 4000, 0.4, max_depth=2)
    if level == 4:
        return _search(evaluate_full, seed, 1500, 0.6)
    return _search(evaluate_full, seed, 3000, 1.0)
