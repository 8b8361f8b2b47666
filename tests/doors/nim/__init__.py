"""Nim, the door of docs/NEW-DOOR.md: registered only in the tests."""
from __future__ import annotations

from doors._core.door import Door, OptionSpec

from .ai import make_bot
from .rules import NimState
from .view import NimUI

INFO = Door(
    key="nim",
    title="Nim",
    blurb="Take 1 to 3 stones from one pile; whoever takes the last wins.",
    state_class=NimState,
    ui_class=NimUI,
    make_bot=make_bot,
    help_text="NIM\nTake 1, 2 or 3 stones with the keys 1 2 3. Whoever takes the last stone wins.\n",
    options=(OptionSpec("pile", "Stones", ((15, "15"), (21, "21")), 15),),
    levels=(1, 2),
    default_level=2,
)
