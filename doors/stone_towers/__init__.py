"""Stone Towers: build castles, spread influence, topple the rival's towers
(seed 000_5df534639f9edae4; RULES.md "Stone Towers")."""
from __future__ import annotations

from doors._core.door import Door, OptionSpec

from .ai import make_bot
from .rules import SIZES, TURNS, StoneTowersState
from .view import StoneTowersUI

__all__ = ["INFO"]

HELP_TEXT = """\
STONE TOWERS - the greater empire wins

Red (the challenger) and blue take turns; after the chosen number of turns
each, whoever owns more squares wins. A turn is one of:
  * build a castle (one flag) on an empty square or on your own flag -
    never on the opponent's land;
  * fortify one of your castles by one flag (three flags at most).
Your influence on a square is the sum of the flags of your castles on it
and on its four neighbours (north, south, east, west). After each turn
every square goes to the greater influence; on a tie it keeps its owner.
A castle on a square that changes hands is destroyed and the square
becomes the winner's flag. That changes influence, so the count repeats
round by round until nothing changes: the domino effect. A player with no
legal move passes. Guard your borders; the board's edges guard themselves.
\f\
STONE TOWERS - keys

  Arrows    move the cursor            h / HOME  cursor to the centre
  ENTER     build on an empty square or your flag, fortify your castle
  i         influence: the square under the cursor, then every square
            (red digit left, blue digit right; A-F mean 10-15), then off
  any key   skips the replay of the last turn's cascade

The board: red land on red, blue land on blue, · a flag (land),
▲ / ▲ ▲ / ▲▲▲ castles of one, two and three flags. After each turn
• marks squares that changed hands and ☼ castles destroyed.
Squares are named by column letter and row number: a1 is top left.
"""

INFO = Door(
    key="stone_towers",
    title="Stone Towers",
    blurb="Castles, influence and domino cascades on a square board.",
    state_class=StoneTowersState,
    ui_class=StoneTowersUI,
    make_bot=make_bot,
    help_text=HELP_TEXT,
    options=(
        OptionSpec("size", "Board size",
                   tuple((n, f"{n}x{n}") for n in SIZES), 9),
        OptionSpec("turns", "Turns each",
                   tuple((n, str(n)) for n in TURNS), 20),
    ),
    levels=(1, 3),
    default_level=2,
    anchors=(1000.0, 1475.0, 2116.0),     # the ladder as Elo: docs/LADDERS.md
)
