"""Awari: the "Awwari" variant (Stefan Zeiger, 1993) as a Gatehouse door."""
from __future__ import annotations

import dataclasses
import functools
import re
from pathlib import Path

from doors._core.door import Door, DoorSetting, OptionSpec, PreparedTable, Settings, TextCommand

from . import endgame
from .ai import make_bot
from .rules import AwariState
from .view import AwariUI

__all__ = ["INFO", "HELP_TEXT", "OPTIONS"]

OPTIONS = (
    OptionSpec("first", "Who begins",
               ((0, "player 1 (the challenger)"), (1, "player 2"), ("random", "random")),
               0),
)

HELP_TEXT = """\
AWARI - the rules
Each player owns a row of 6 holes (yours is at the bottom) and a home at the
end of it (yours on the left). 3 stones start in each hole: 36 in all.
Your turn: pick one of your non-empty holes (Enter, or its digit 1-6). All its
stones are sown one by one into the following holes, clockwise: along your
row into your home, through the other row and the other home, and round
again - every hole gets one, even the emptied hole on a 14+ stone sowing.
 * Last stone in your own home: you move again (but never a third time).
 * Last stone into an empty hole (on either side) whose facing hole is not
   empty: both holes go into your home - even your own hole facing it.
 * Last stone in the other home: nothing special, the turn passes.
The game ends when the player to move has no stones in their row, or at once
when a home holds 19 or more. The fuller home wins (stones left in the rows
do not count); equal homes are a tie.
Keys: Left/Right choose a hole, Enter sows it, 1-6 sow that hole directly,
a = auto finish: the computer plays both sides to the end (the other player
must agree).
"""

_PROGRESS = re.compile(r"building (\d+)%")


def _build_progress(line: str) -> float | None:
    """The table build's progress from one of its stderr lines."""
    found = _PROGRESS.search(line)
    return int(found.group(1)) / 100 if found else None


def _table_ready(path: Path, stones: int) -> bool:
    return endgame.is_current(path, stones)


def endgame_table(path: Path, stones: int) -> PreparedTable:
    """The endgame table at ``path``, covering ``stones`` row stones."""
    return PreparedTable(
        title="Awari endgame table",
        is_ready=functools.partial(_table_ready, path, stones),
        module="doors.awari",
        args=("build", "--path", str(path), "--stones", str(stones), "--quiet"),
        progress=_build_progress,
        enabled_by="build_endgame",
    )


def use_state_folder(folder: Path, settings: Settings) -> Door[int, AwariState]:
    """Awari with its endgame table in the door's folder of the state
    directory: built there (its PreparedTable), read there by its bots."""
    path = folder / "endgame.bin"
    stones = int(settings.get("endgame_stones", endgame.DEFAULT_STONES))
    return dataclasses.replace(INFO, tables=(endgame_table(path, stones),),
                               bot_options={"endgame_table": str(path)})

INFO = Door(
    key="awari",
    title="Awari",
    blurb="Sow stones round 14 holes; fill your home with 19 first. 1993 Amiga rules.",
    state_class=AwariState,
    ui_class=AwariUI,
    make_bot=make_bot,
    help_text=HELP_TEXT,
    options=OPTIONS,
    levels=(1, 5),
    default_level=3,
    anchors=(1000.0, 1324.0, 1457.0, 1654.0, 1759.0),     # the ladder as Elo: docs/LADDERS.md
    # capabilities: auto finish; the endgame table in its state folder (use_state_folder
    # gives the door its table: built at start if missing)
    auto_finish=True,
    settings=(DoorSetting("build_endgame", True),
              DoorSetting("endgame_stones", endgame.DEFAULT_STONES, low=1,
                          high=endgame.DEFAULT_STONES)),
    state_folder=use_state_folder,
    text_commands=(TextCommand("sow", "sow N", "sow hole N (1-6, as numbered under your row)"),),
)
