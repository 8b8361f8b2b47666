"""Kingdom: a 19x19 chess variant with rocks, crushing, castles and
double-jumping knights (DMA, Amiga 1996) as a Gatehouse door."""
from __future__ import annotations

import logging
from pathlib import Path

from doors._core.door import Door, OptionSpec, Settings

from .ai import make_bot
from .boards import list_boards, load_board, use_saved_dir
from .editor import BoardEditor
from .rules import KingdomState
from .view import KingdomUI

__all__ = ["INFO", "HELP_TEXT", "OPTIONS", "board_option"]

log = logging.getLogger("gatehouse.kingdom")
_reported: set[tuple[str, str]] = set()     # each broken file is logged once


def board_option() -> OptionSpec:
    """The "board" option, its choices read from the board files."""
    choices = []
    for name in list_boards():
        try:
            choices.append((name, f"{name}: {load_board(name).title}"[:60]))
        except ValueError as err:      # a bad file is not offered, and the sysop is told
            if (name, str(err)) not in _reported:
                _reported.add((name, str(err)))
                log.warning("Kingdom board file %r skipped: %s", name, err)
            continue
    if not choices:
        choices = [("default", "default")]
    return OptionSpec("board", "Board", tuple(choices), "default")


PAWNS = OptionSpec("pawns", "Pawns",
                   (("move", "Pawns Move (up to 4 squares)"), ("push", "Pawns Push (1 square)")),
                   "move")
OPTIONS = (board_option(), PAWNS)


def current_options() -> tuple[OptionSpec, ...]:
    """The options with the board files as they are now (the editor adds some)."""
    return (board_option(), PAWNS)


def new_editor(author: str | None = None) -> BoardEditor:
    """The board editor for the caller ``author`` (None: the sysop)."""
    return BoardEditor(author=author)


def use_state_folder(folder: Path, settings: Settings) -> None:
    """Saved boards (the editor's, or a sysop's files) live in <folder>/boards."""
    use_saved_dir(folder / "boards")


HELP_TEXT = """\
KINGDOM - the aim and the board (1/4)
Chess on a 19x19 board with rocks. Take the enemy king - or the castle he
hides in - and the game is won. There is no check rule: only the king himself
may not step onto a square an enemy piece could move to. Any other move is
allowed, even one that leaves your king open - so watch your king!
Player 1 (the challenger) moves first from the bottom; each player sees his
own army at the bottom of the screen. Squares are named a1 (bottom left for
player 1) to s19. You may pass a move (x, then x again); two passes in a row
end the game as a draw.
Keys: arrows move the cursor, Enter selects a piece and Enter on a target
square moves it; Esc/Backspace cancels. t shows or hides the legal targets,
k finds your king (even inside a castle), p cycles the piece your pawns are
promoted to (queen, bishop, knight, rook).
Board symbols: K Q B N R P pieces, C castle (king inside a rook), () rock.
\f\
KINGDOM - the pieces (2/4)
King: one square any way, never onto a square an enemy piece could move to
(an enemy castle's king stepping out diagonally and a pawn pushed by a friend
count too), so he takes only undefended pieces. Into his rook: a CASTLE.
Queen: any distance, any direction. Cannot push rocks.
Bishop: diagonally any distance; pushes a rock ahead of it as far as it goes.
Knight: one chess jump, or two jumps in one move (Enter on the first landing,
then on the second; Enter twice on the first to stop there). Each landing
square must be empty or hold an enemy piece - it takes both! It jumps over
anything but cannot push rocks. A double jump onto an enemy rook: the knight
stays on the first square and the rook changes side.
Rook: straight any distance, pushes a rock ahead of it. Leaving a square
between two rocks (or a rock and the edge) it leaves a NEW rock behind.
A rook attacked is not taken: it changes side and the attacker stays put.
Attack it again on the very next move and it is destroyed (the attacker
moves in). A king in check may take a rook outright to escape.
\f\
KINGDOM - castles and pawns (3/4)
Castle: a rook with the king inside. It moves like a rook but cannot take,
push or make rocks, and cannot be crushed; the king inside is never in check.
The king leaves by moving the castle one square diagonally (he steps out, the
rook stays), or straight into one of his rooks next to it.
A castle taken by an enemy piece ends the game - but if an enemy ROOK takes
it, both rooks are destroyed and the king stands exposed, still alive.
Pawns: forward up to 4 squares (1 with the "Pawns Push" option), take one
square diagonally forward. A pawn pushes a rock one square left, forward-left,
forward, forward-right or right, and pushes any pawn one square forward, back,
left or right. A friendly pawn pushed this way takes whatever enemy stands in
its way: strength in numbers! On the far rank a pawn becomes the piece chosen
in your panel (p).
\f\
KINGDOM - rocks (4/4)
Bishops, rooks and pawns push rocks, one rock per move, into empty squares -
or onto an enemy piece to CRUSH it:
 * a pawn is crushed by a rock alone;
 * a king, queen, bishop or knight only against another rock right behind
   it, or against the edge of the board;
 * rooks and castles cannot be crushed. Your own pieces are never crushed.
A crushed king loses the game.
Boards: pick one when you challenge. New boards are made with the board
editor (e on the door list), which can also open a board to change it.
"""

INFO = Door(
    key="kingdom",
    title="Kingdom",
    blurb="19x19 chess with rocks, crushing, castles and double-jumping knights.",
    state_class=KingdomState,
    ui_class=KingdomUI,
    make_bot=make_bot,
    help_text=HELP_TEXT,
    options=OPTIONS,
    options_factory=current_options,
    editor=new_editor,            # capability: a board editor on the new-game screen
    editor_title="board editor",
    state_folder=use_state_folder,  # saved boards in <state_dir>/kingdom/boards
    levels=(1, 5),
    default_level=3,
)
