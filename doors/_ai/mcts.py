"""Monte Carlo tree search (UCT) over the ``GameState`` protocol.

Each tree node keeps, per player, the total of the returns seen through it,
and a node is chosen by the UCB value of the player who moves at its parent,
so extra turns and any order of play work without assuming alternation.

Hidden-information games pass ``determinize(observation, player, rng)``: each
iteration then searches one full ``GameState`` consistent with what
``player`` can see (a determinized, single-tree search in the spirit of
OpenSpiel's ISMCTS). Without it the observation must be a ``GameState``.
"""
from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar, cast, overload

from doors._core.game import GameState, Player

__all__ = ["MCTSBot", "random_rollout"]

A = TypeVar("A", bound=Hashable)    # the game's action
Obs = TypeVar("Obs")                # what the bot is given: a state, or an observation
#: the state searched: its own observation type does not matter to the search
Searched = GameState[A, object]
Rollout = Callable[[Searched[A], Player, random.Random], A]
Determinize = Callable[[Obs, Player, random.Random], Searched[A]]
Evaluate = Callable[[Searched[A], Player], float]


def random_rollout(state: Searched[A], player: Player, rng: random.Random) -> A:
    """The default rollout policy: a uniformly random legal action."""
    return rng.choice(state.legal_actions(player))


class _Node(Generic[A]):
    __slots__ = ("children", "visits", "totals")

    def __init__(self) -> None:
        self.children: dict[A, _Node[A]] = {}
        self.visits = 0
        self.totals = [0.0, 0.0]


class MCTSBot(Generic[Obs, A]):
    """UCT with random (or ``rollout``-policy) playouts.

    The budget is ``iterations`` and/or ``max_time`` seconds (1000
    iterations if neither is given); with iterations only the bot is fully
    deterministic for a given ``seed``. A rollout longer than
    ``max_rollout_steps`` stops and scores ``evaluate(state, 0)`` if given
    (a value in [-1, 1] for player 0), else a draw."""

    @overload
    def __init__(self: MCTSBot[Searched[A], A], iterations: int | None = None,
                 max_time: float | None = None, seed: int | None = None,
                 rollout: Rollout[A] | None = None, determinize: None = None,
                 exploration: float = 1.4, max_rollout_steps: int = 1000,
                 evaluate: Evaluate[A] | None = None) -> None: ...

    @overload
    def __init__(self, iterations: int | None = None, max_time: float | None = None,
                 seed: int | None = None, rollout: Rollout[A] | None = None, *,
                 determinize: Determinize[Obs, A],
                 exploration: float = 1.4, max_rollout_steps: int = 1000,
                 evaluate: Evaluate[A] | None = None) -> None: ...

    def __init__(self, iterations: int | None = None, max_time: float | None = None,
                 seed: int | None = None, rollout: Rollout[A] | None = None,
                 determinize: Determinize[Obs, A] | None = None,
                 exploration: float = 1.4, max_rollout_steps: int = 1000,
                 evaluate: Evaluate[A] | None = None):
        if iterations is None and max_time is None:
            iterations = 1000
        self.iterations = iterations
        self.max_time = max_time
        self.rng = random.Random(seed)
        self.rollout: Rollout[A] = rollout or random_rollout
        self.determinize = determinize
        self.exploration = exploration
        self.max_rollout_steps = max_rollout_steps
        self.evaluate = evaluate
        self.last_info: dict[str, float] = {}

    def choose(self, observation: Obs, player: Player) -> A:
        start = time.monotonic()
        deadline = start + self.max_time if self.max_time is not None else None
        root: _Node[A] = _Node()
        done = 0
        while True:
            if self.iterations is not None and done >= self.iterations:
                break
            if deadline is not None and done and time.monotonic() > deadline:
                break
            # without determinize, the first overload made Obs a state
            state = (self.determinize(observation, player, self.rng)
                     if self.determinize is not None else cast(Searched[A], observation).clone())
            self._iterate(root, state, player)
            done += 1
        if not root.children:
            raise ValueError(f"player {player} has no legal action")
        best = max(root.children.items(), key=lambda kv: (kv[1].visits, kv[1].totals[player]))
        self.last_info = {"iterations": done, "time": time.monotonic() - start,
                          "visits": best[1].visits}
        return best[0]

    # ----- one iteration ------------------------------------------------------
    def _mover(self, state: Searched[A], me: Player) -> Player | None:
        movers = state.to_move()
        if not movers:
            return None
        return me if me in movers else movers[0]

    def _iterate(self, root: _Node[A], state: Searched[A], me: Player) -> None:
        path = [root]
        node = root
        while True:
            mover = self._mover(state, me)
            if mover is None:
                break
            actions = state.legal_actions(mover)
            if not actions:
                break
            fresh = [a for a in actions if a not in node.children]
            if fresh:
                action = self.rng.choice(fresh)
                child = node.children[action] = _Node()
                state.apply(mover, action)
                path.append(child)
                break
            action = self._select(node, actions, mover)
            node = node.children[action]
            state.apply(mover, action)
            path.append(node)
        returns = self._playout(state)
        for n in path:
            n.visits += 1
            n.totals[0] += returns[0]
            n.totals[1] += returns[1]

    def _select(self, node: _Node[A], actions: list[A], mover: Player) -> A:
        log_n = math.log(max(1, node.visits))
        c = self.exploration
        best, best_ucb = actions[0], -float("inf")
        for action in actions:
            child = node.children[action]
            ucb = child.totals[mover] / child.visits + c * math.sqrt(log_n / child.visits)
            if ucb > best_ucb:
                best, best_ucb = action, ucb
        return best

    def _playout(self, state: Searched[A]) -> tuple[float, float]:
        rng = self.rng
        for _ in range(self.max_rollout_steps):
            movers = state.to_move()
            if not movers:
                return state.returns()
            player = movers[0] if len(movers) == 1 else rng.choice(movers)
            state.apply(player, self.rollout(state, player, rng))
        if state.is_terminal():
            return state.returns()
        if self.evaluate is not None:
            v = max(-1.0, min(1.0, self.evaluate(state, 0)))
            return v, -v
        return 0.0, 0.0
