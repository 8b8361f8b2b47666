"""A bot for the worker tests: the first time it is asked it records its
process id and stalls (so the test can kill it mid-think); once that mark
exists it plays as the real Stratego bot."""
from __future__ import annotations

import os
import time
from typing import Any

from doors.stratego.ai import make_bot as stratego_bot


class StallingBot:
    def __init__(self, level: int, seed: int | None, mark: str):
        self.inner = stratego_bot(level, seed)
        self.mark = mark

    def choose(self, observation: Any, player: int) -> Any:
        if not os.path.exists(self.mark):
            tmp = self.mark + ".tmp"
            with open(tmp, "w") as fh:
                fh.write(str(os.getpid()))
            os.replace(tmp, self.mark)
            for _ in range(6000):          # stalls until killed (bounded: 10 minutes)
                time.sleep(0.1)
        return self.inner.choose(observation, player)


def make_bot(level: int, seed: int | None, options: dict[str, Any]) -> StallingBot:
    return StallingBot(level, seed, options["mark"])
