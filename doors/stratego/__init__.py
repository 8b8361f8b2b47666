"""Stratego: the headline door (two players, hidden armies)."""
from __future__ import annotations

from doors._core.door import Door, DoorSetting, OptionSpec, TextCommand

from .ai import make_bot
from .keys import StrategoUI
from .rules import StrategoState

__all__ = ["INFO", "HELP", "OPTIONS"]

OPTIONS = (
    OptionSpec("scout_strike", "Scout strike",
               ((1, "Option 1: no strike after a long scout move"),
                (2, "Option 2: a scout may move far and strike"),
                ("random", "Random")), 2),
    OptionSpec("two_square", "Two-square rule",
               (("seed", "Seed: not X-Y, Y-X, X-Y again"),
                ("tournament", "Tournament: at most 5 moves between 2 squares"),
                ("random", "Random")), "seed"),
)

HELP = "\f".join([
    """\
STRATEGO - capture your opponent's flag.

Each army has 40 pieces, high to low:  key  piece       how many
   1 Marshal  1    2 General   1    3 Colonel  2    4 Major     3
   5 Captain  4    6 Lieutenant 4   7 Sergeant 4    8 Miner     5
   9 Scout    8    S Spy       1    B Bomb     6    F Flag      1
Bombs and the Flag never move.

The board is 10x10 with two lakes in the middle rows (C5-D6, G5-H6) that no
piece may enter. Squares are named the same for both players: columns A-J,
rows 1-10 counted from Red's side. Red (player 1, the challenger) sets up on
rows 1-4, Blue (player 2) on rows 7-10; rows 5-6 start empty. You always see
your own army at the bottom of your screen.

Setup is simultaneous: you watch the other grid fill (as hidden pieces).
When both players are ready, Red moves first.""",
    """\
SETUP KEYS
  Arrows          move the cursor over your four rows
  1-9 S B F       place that piece on the empty square under the cursor
  A               switch on (or off) stepping to the next empty square
                  after each piece placed (off at first: the cursor stays)
  DELETE/BACKSP   remove the piece under the cursor
  R               fill the remaining squares at random
  W               save your setup under a name;  L  load a saved setup
  ENTER           when all 40 are placed: "Ready? y/n" (then it is locked)

PLAY KEYS
  Arrows          move the cursor      h   cursor to the board's centre
  ENTER           on your piece: select it (highlighted);
                  on the target square: move or strike
  DELETE/BACKSP   cancel the selection
  c chat   r redraw   ? help   = offer/accept a draw   Q resign""",
    """\
MOVING
A piece moves one square forward, backward or sideways, never diagonally,
never into a lake, never onto or over a piece of its own. A Scout moves any
number of empty squares in a straight line; doing so reveals it as a Scout.
A turn is one move or one strike; you may not pass.
Scout option 1: a Scout may not strike after moving more than one square.
Scout option 2 (default): it may move several squares and strike at the end.
Two-square rule (seed, default): if your last two moves were one piece going
X-Y then Y-X, it may not now go X-Y again (a Scout move counts with its start
and end squares). Tournament option: at most five moves in a row between the
same two squares; the sixth is refused.
The options in force are shown on the game screen.""",
    """\
STRIKING
Move onto an enemy piece next to you (or at the end of a Scout's run) to
strike. Both pieces are shown to both players for about 3 seconds, then:
 - the lower rank is removed; equal ranks are both removed;
 - the Spy removes the Marshal, but only when the Spy strikes;
 - any piece striking a Bomb is removed, except a Miner, which removes it;
 - Bombs and the Flag never strike;
 - a winning striker moves onto the square.
Pieces revealed by a strike stay shown (in yellow) for the rest of the game.

THE END
Striking the Flag wins. A player who cannot move or strike on their turn
loses. If neither side can move the game is drawn; a draw may also be
offered (=) and accepted.
Hint: bombs around the flag, a few scouts in front, miners kept back.""",
])

INFO = Door(
    key="stratego",
    title="Stratego",
    blurb="Hidden armies, bombs and spies: capture the enemy flag.",
    state_class=StrategoState,
    ui_class=StrategoUI,
    make_bot=make_bot,
    help_text=HELP,
    options=OPTIONS,
    levels=(1, 5),
    default_level=3,
    anchors=(1000.0, 1446.0, 1725.0, 2005.0, 2185.0),     # the ladder as Elo: docs/LADDERS.md
    bot_parts=2,        # its samples spread over two workers when no other game thinks
    # capabilities: a strike shows both ranks for a while; named setups
    saved_setups=True,
    text_commands=(TextCommand("move", "move a4 a5", "move (or strike) from a4 to a5; a4-a5 too"),
                   TextCommand("place", "place d4 B", "set up: put a piece of that rank (1-9, S, B, F) on d4"),
                   TextCommand("remove", "remove d4", "set up: take the piece off d4"),
                   TextCommand("random", "random", "set up: the pieces still to place, at random", key="R"),
                   TextCommand("save", "save NAME", "set up: keep all 40 pieces as they stand under NAME",
                               key="W", typed=True),
                   TextCommand("load", "load N", "set up: saved setup N (load alone lists them)",
                               key="L", typed=True),
                   TextCommand("ready", "ready", "set up: done, when all 40 pieces stand")),
    settings=(DoorSetting("reveal_seconds", 3.0, low=0, high=60, ui_attribute="REVEAL_SECONDS"),),
)
