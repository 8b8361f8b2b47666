"""Nim's computer player: leave a multiple of four when it can."""
from __future__ import annotations

import random

from doors._core.door import Bot
from doors._core.game import Player

from .rules import NimState


class NimBot:
    def __init__(self, level: int, seed: int | None):
        self.level = level
        self.rng = random.Random(seed)

    def choose(self, observation: NimState, player: Player) -> int:
        best = observation.pile % 4
        if best and self.level >= 2:
            return best
        return int(self.rng.choice(observation.legal_actions(player)))


def make_bot(level: int, seed: int | None = None) -> Bot[NimState, int]:
    return NimBot(level, seed)
