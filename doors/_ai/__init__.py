"""Generic computer players written only against the GameState protocol.

``RandomBot`` (baseline), ``AlphaBetaBot`` (iterative-deepening negamax with
a per-game evaluation) and ``MCTSBot`` (UCT, with a determinization hook for
hidden-information games). Doors build their levels from these in ``ai.py``.
"""
from __future__ import annotations

from .alphabeta import AlphaBetaBot
from .mcts import MCTSBot
from .random_bot import RandomBot

__all__ = ["RandomBot", "AlphaBetaBot", "MCTSBot"]
