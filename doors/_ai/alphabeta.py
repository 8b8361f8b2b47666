"""Alpha-beta (negamax) search with iterative deepening and a time budget.

Written only against the ``GameState`` protocol: ``clone``, ``apply``,
``legal_actions(player)``, ``current_player`` and ``outcome``. It never assumes
the players alternate: every node asks ``current_player()`` who moves there,
and a node's value is always taken from its mover's point of view, so an
extra turn (the same player again) is searched like any other move.

``evaluate(state, player)`` scores a non-terminal position from ``player``'s
view and must be zero-sum (``evaluate(s, 0) == -evaluate(s, 1)``). Terminal
positions score ``outcome().returns()`` times ``WIN`` unless a
``terminal_value(state, player)`` hook says otherwise (e.g. to prefer bigger
margins); faster wins and slower losses are preferred. A position where
several players act at once (simultaneous) is treated as a leaf.

Optional: ``order(state, player, actions)`` returns the actions best-first;
a transposition table is used when states have ``key_for_tt()`` (a hashable
key naming the position including who is to move).
"""
from __future__ import annotations

import random
import time
from collections.abc import Callable, Hashable
from typing import Any, Generic, TypeVar

from doors._core.game import GameState, Player

__all__ = ["WIN", "AlphaBetaBot"]

WIN = 1_000_000.0
_EXACT, _LOWER, _UPPER = 0, 1, 2
_CHECK_EVERY = 16

#: the game a bot searches, as its own class (its evaluation and ordering
#: know the concrete state), whatever its action and observation types
S = TypeVar("S", bound="GameState[Any, object]")
A = TypeVar("A", bound=Hashable)    # the game's action (S's own)
Evaluate = Callable[[S, Player], float]
Order = Callable[[S, Player, list[A]], list[A]]


class _OutOfBudget(Exception):
    """The time or node budget ran out mid-iteration."""


class AlphaBetaBot(Generic[S, A]):
    """Iterative-deepening negamax with alpha-beta pruning.

    ``max_time`` (seconds) bounds each ``choose``; ``max_nodes`` gives a
    deterministic budget instead (or as well). ``seed`` shuffles the root
    actions, so equal moves are broken differently but reproducibly."""

    def __init__(self, evaluate: Evaluate[S], max_time: float | None = 1.0,
                 max_depth: int = 64, seed: int | None = None,
                 order: Order[S, A] | None = None,
                 terminal_value: Evaluate[S] | None = None,
                 use_tt: bool = True, max_nodes: int | None = None):
        self.evaluate = evaluate
        self.max_time = max_time
        self.max_depth = max_depth
        self.rng = random.Random(seed)
        self.order = order
        self.terminal_value = terminal_value
        self.use_tt = use_tt
        self.max_nodes = max_nodes
        self.last_info: dict[str, object] = {}
        self._tt: dict[Hashable, tuple[int, float, int, A | None]] = {}
        self._nodes = 0
        self._deadline: float | None = None
        self._horizon = False

    # ----- the public entry point -------------------------------------------
    def choose(self, observation: S, player: Player) -> A:
        start = time.monotonic()
        actions: list[A] = list(observation.legal_actions(player))
        if not actions:
            raise ValueError(f"player {player} has no legal action")
        self.rng.shuffle(actions)
        if self.order is not None:
            actions = self.order(observation, player, actions)
        self._tt = {}
        self._nodes = 0
        self._deadline = start + self.max_time if self.max_time is not None else None
        best, value, depth_done = actions[0], 0.0, 0
        if len(actions) > 1:
            for depth in range(1, self.max_depth + 1):
                self._horizon = False
                try:
                    value, best = self._root(observation, player, actions, depth)
                except _OutOfBudget as stop:
                    if stop.args and stop.args[0] is not None:
                        value, best = stop.args[0]
                    break
                depth_done = depth
                actions.remove(best)
                actions.insert(0, best)
                if abs(value) >= WIN / 2 or not self._horizon:
                    break              # decided, or the whole tree was searched
        self.last_info = {"depth": depth_done, "nodes": self._nodes, "value": value,
                          "time": time.monotonic() - start, "best": best}
        return best

    # ----- search -----------------------------------------------------------
    def _root(self, state: S, player: Player, actions: list[A],
              depth: int) -> tuple[float, A]:
        alpha, beta = -float("inf"), float("inf")
        best, best_value = actions[0], -float("inf")
        for action in actions:
            child = state.clone()
            child.apply(player, action)
            try:
                value = self._search(child, depth - 1, alpha, beta, player)
            except _OutOfBudget:
                partial = (best_value, best) if best_value > -float("inf") else None
                raise _OutOfBudget(partial) from None
            if value > best_value:
                best_value, best = value, action
            alpha = max(alpha, value)
        return best_value, best

    def _tick(self) -> None:
        self._nodes += 1
        if self.max_nodes is not None and self._nodes > self.max_nodes:
            raise _OutOfBudget(None)
        if (self._deadline is not None and self._nodes % _CHECK_EVERY == 0
                and time.monotonic() > self._deadline):
            raise _OutOfBudget(None)

    def _leaf_value(self, state: S, viewer: Player, depth: int) -> float:
        if state.is_terminal():
            if self.terminal_value is not None:
                value = self.terminal_value(state, viewer)
            else:
                value = state.returns()[viewer] * WIN
            # prefer quick wins and slow losses: more depth left = sooner
            return value + depth if value > 0 else value - depth if value < 0 else value
        self._horizon = True
        return self.evaluate(state, viewer)

    def _search(self, state: S, depth: int, alpha: float, beta: float,
                viewer: Player) -> float:
        """Value of ``state`` from ``viewer``'s point of view."""
        self._tick()
        mover = state.current_player()
        if mover < 0 or depth <= 0:          # terminal, simultaneous, or horizon
            return self._leaf_value(state, viewer, depth)
        if mover != viewer:                  # the other side moves here
            return -self._search_as_mover(state, depth, -beta, -alpha, mover)
        return self._search_as_mover(state, depth, alpha, beta, mover)

    def _search_as_mover(self, state: S, depth: int, alpha: float,
                         beta: float, mover: Player) -> float:
        key = None
        tt_best: A | None = None
        alpha0 = alpha
        if self.use_tt and hasattr(state, "key_for_tt"):
            key = state.key_for_tt()
            entry = self._tt.get(key)
            if entry is not None:
                e_depth, e_value, e_flag, tt_best = entry
                if e_depth >= depth:
                    self._horizon = True     # conservatively: it may have been cut
                    if e_flag == _EXACT:
                        return e_value
                    if e_flag == _LOWER and e_value >= beta:
                        return e_value
                    if e_flag == _UPPER and e_value <= alpha:
                        return e_value
        actions: list[A] = state.legal_actions(mover)
        if self.order is not None and depth > 1:
            actions = self.order(state, mover, actions)
        if tt_best is not None and tt_best in actions:
            actions.remove(tt_best)
            actions.insert(0, tt_best)
        best_value, best = -float("inf"), None
        for action in actions:
            child = state.clone()
            child.apply(mover, action)
            value = self._search(child, depth - 1, alpha, beta, mover)
            if value > best_value:
                best_value, best = value, action
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        if key is not None:
            flag = (_UPPER if best_value <= alpha0 else
                    _LOWER if best_value >= beta else _EXACT)
            self._tt[key] = (depth, best_value, flag, best)
        return best_value
