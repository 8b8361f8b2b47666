"""Towers: an 8x8 game of placing towers, moving each once, and lines of sight."""
from __future__ import annotations

from doors._core.door import Door, OptionSpec

from .ai import make_bot
from .rules import TowersState
from .view import TowersUI

__all__ = ["INFO", "HELP_TEXT", "OPTIONS"]

HELP_TEXT = """\
TOWERS - rules                                                   page 1 of 2

An 8x8 board; each player has 8 towers.

Phase 1 - placing. The players take turns putting one tower on any empty
square until all 16 are down. No passing.

Phase 2 - moving. The player who placed second moves first; then turns
alternate. Move one of your unmoved towers like a chess rook: up, down, left
or right, any distance, never through another tower, at least one square.
A moved tower is built and never moves again. Every tower must move once,
unless it is pinned. If all your unmoved towers are pinned (or none is left)
you skip; phase 2 ends when neither player can move.

Score. For every pair of your towers on one row or column with nothing
between them you score one point per empty square between them. Adjacent
towers score 0; any tower in between (yours or not) blocks the line.
Most points wins; equal points is a draw.
\fTOWERS - keys and options                                        page 2 of 2

Arrows        move the cursor (it wraps round the edges)
Enter, Space  phase 1: place a tower under the cursor
              phase 2: pick one of your unmoved towers, then its target
ESC, BKSP,    cancel the picked tower (so does Enter on it again)
  DELETE
l             show or hide the lines of sight (always shown at the end)
TAB           in a match of two: look at game 1's final board

On the board:  ▐█▌ a tower that has not moved   ▓▓▓ a built tower
               [ ] the last move, ∙ where it came from, • where you can go

Options chosen by the challenger:
  Who places first: random, the challenger or the opponent.
  Match of two: a second game with the first placer swapped; the winner is
  decided by the sum of the margins (the total points of both games).
"""

OPTIONS = (
    OptionSpec("first", "Who places first",
               (("random", "Random"), (0, "Challenger"), (1, "Opponent")), "random"),
    OptionSpec("games", "Games", ((1, "One game"), (2, "Match of two")), 1),
)

INFO = Door(
    key="towers",
    title="Towers",
    blurb="Place 8 towers, move each once like a rook, score lines of sight.",
    state_class=TowersState,
    ui_class=TowersUI,
    make_bot=make_bot,
    help_text=HELP_TEXT,
    options=OPTIONS,
    levels=(1, 5),
    default_level=3,
)
