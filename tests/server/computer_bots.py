"""Computer players for the worker-process tests. The worker processes
import this module by name, so what they need comes through the
environment they are started with.

- ``stalling``: the first time it is asked it writes its process id to
  ``$GATEHOUSE_TEST_STALL_MARK`` and stalls (so a test can kill it
  mid-think); once that mark exists it plays as the Towers computer.
- ``split_probe``: a bot whose move splits into parts (a door's
  ``bot_parts``): each part leaves its process id in
  ``$GATEHOUSE_TEST_SPLIT_DIR`` and waits for the other parts' (bounded),
  so parts report "together" only if they ran side by side; ``merge``
  answers the parts, ``choose`` (a move thought whole) "whole".
- ``table_probe``: Awari's computer with the endgame table its options
  name (the door's bot_options); it answers (worker pid, how many times this
  worker loaded the table, whether the bot has it, the worker's niceness,
  the action).
"""
from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from doors.awari import ai as awari_ai
from doors.awari import endgame
from doors.towers.ai import make_bot as towers_bot

TABLE_LOADS = 0
_load = endgame.load


def _counted_load(path: Path | str) -> endgame.EndgameTable | None:
    global TABLE_LOADS
    TABLE_LOADS += 1
    return _load(path)


class StallingBot:
    def __init__(self, level: int, seed: int | None):
        self.inner = towers_bot(level, seed)
        self.mark = os.environ["GATEHOUSE_TEST_STALL_MARK"]

    def choose(self, observation: Any, player: int) -> Any:
        if not os.path.exists(self.mark):
            tmp = self.mark + ".tmp"
            with open(tmp, "w") as fh:
                fh.write(str(os.getpid()))
            os.replace(tmp, self.mark)
            for _ in range(6000):          # stalls until killed (bounded: 10 minutes)
                time.sleep(0.1)
        return self.inner.choose(observation, player)


def stalling(level: int, seed: int | None) -> StallingBot:
    return StallingBot(level, seed)


class TableProbe:
    def __init__(self, level: int, seed: int | None, options: dict[str, Any] | None = None):
        endgame.load = _counted_load
        self.inner = awari_ai.make_bot(level, seed, options)

    def choose(self, observation: Any, player: int) -> tuple[int, int, bool, int, Any]:
        action = self.inner.choose(observation, player)
        return os.getpid(), TABLE_LOADS, self.inner.table is not None, os.nice(0), action


def table_probe(level: int, seed: int | None, options: dict[str, Any] | None = None) -> TableProbe:
    return TableProbe(level, seed, options)


class SplitProbe:
    def __init__(self, level: int, seed: int | None):
        self.folder = Path(os.environ["GATEHOUSE_TEST_SPLIT_DIR"])

    def choose(self, observation: Any, player: int) -> tuple[str, int]:
        return "whole", os.getpid()

    def choose_part(self, observation: Any, player: int, part: int, parts: int) -> tuple[str, int]:
        mark = self.folder / f"part-{part}"
        tmp = self.folder / f"part-{part}.tmp"
        tmp.write_text(str(os.getpid()))
        os.replace(tmp, mark)
        for _ in range(6000):             # until every part has started (bounded: 60 s)
            if len(list(self.folder.glob("part-*[0-9]"))) >= parts:
                return "together", os.getpid()
            time.sleep(0.01)
        return "alone", os.getpid()

    def merge(self, observation: Any, player: int, parts: list[tuple[str, int]]) -> tuple[str, list[tuple[str, int]]]:
        return "merged", list(parts)


def split_probe(level: int, seed: int | None) -> SplitProbe:
    return SplitProbe(level, seed)
