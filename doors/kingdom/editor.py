"""Kingdom board editor: place pieces and rocks with the cursor, check the
board is playable and save it as a board file in the saved-boards folder
(the server's state directory), or open an existing board to change it.

Keys: arrows move the cursor; ``K Q B N R C P`` put a player 1 piece
(bottom, moves first), ``k q b n r c p`` a player 2 piece; ``#`` or ``o`` a
rock; space, ``.``, DELETE or BACKSPACE clear the square; ``m`` mirrors
player 1's half (ranks 1-9) onto player 2's half (a fair, symmetric board);
``v`` checks the board; ``l`` lists the boards (UP/DOWN, ENTER opens one);
``s`` asks for a name and saves (ENTER) - names are ``[a-z0-9_-]{1,20}``. A
saved board that was opened is saved again under its own name (the name
is filled in); a shipped board is never replaced, so a changed one is saved
under a new name; any other existing name is refused. A caller's editor
(``author``: their handle) replaces only the boards that caller saved (the
file says who made it) and keeps at most ``MAX_PER_CALLER`` of them; the
sysop's (no ``author``) may replace any saved board. ESC leaves the list
or the name prompt, or the editor (twice if there are unsaved changes).
"""
from __future__ import annotations

import os
from pathlib import Path

from ansi.canvas import BLACK, BLUE, BRIGHT_CYAN, CYAN, DARK_GREY, GREY, WHITE, YELLOW, Canvas
from ansi.keys import ARROWS, BACKSPACE, DELETE, DOWN, ENTER, ESC, UP
from doors._core.door import EditorResult

from .boards import (
    NAME_RE,
    BoardFileError,
    board_problem,
    decode_layout,
    format_board,
    is_shipped,
    list_boards,
    load_board,
    parse_board,
    saved_dir,
    symbol_code,
)
from .position import EMPTY, FILES, KIND_LETTERS, NSQ, ROCK, SIZE, parse_square

__all__ = ["BoardEditor"]

PIECE_KEYS = "KQBNRCPkqbnrcp#o"
HELP = [
    "K Q B N R C P  player 1 piece (bottom)",
    "k q b n r c p  player 2 piece (top)",
    "# or o  rock     Space/Del  clear",
    "m  mirror ranks 1-9 onto 11-19",
    "v  check the board",
    "l  load a board to change it",
    "s  save (name, Enter)",
    "Esc  leave",
]
LIST_ROWS = 8
MADE_BY = "; made with the Kingdom board editor"
MAX_PER_CALLER = 20     # boards one caller may keep saved


def board_author(path: Path) -> str | None:
    """Who saved the board file at ``path`` with the editor (None: made by
    hand, by the sysop, or by the editor before it named its author)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            first = fh.readline(200).rstrip("\n")
    except OSError:
        return None
    return first[len(MADE_BY) + 4:] if first.startswith(MADE_BY + " by ") else None


class BoardEditor:
    def __init__(self, start_layout: str | None = None,
                 directory: Path | str | None = None, author: str | None = None):
        if start_layout:
            self.board = decode_layout(start_layout)
        else:
            self.board = [EMPTY] * NSQ
            self.board[parse_square("j1")] = symbol_code("K")
            self.board[parse_square("j19")] = symbol_code("k")
        self.directory = Path(directory) if directory is not None else None
        self.author = author                  # the caller's handle (None: the sysop)
        self.cur = parse_square("j10")
        self.message = "Place pieces and rocks; l loads a board, s saves, Esc leaves."
        self.naming = False
        self.name = ""
        self.dirty = False
        self.esc_armed = False
        self.saved_path: Path | None = None
        self.opened: str | None = None        # the board loaded with l
        self.title = ""
        self.choosing: list[str] | None = None   # the board list (l)
        self.choice = 0

    def folder(self) -> Path | None:
        """Where boards are saved (the server's state directory)."""
        return self.directory if self.directory is not None else saved_dir()

    def _boards(self) -> list[str]:
        names = list_boards()
        if self.directory is not None:
            names = sorted(set(names) | set(list_boards(self.directory)),
                           key=lambda n: (n != "default", n))
        return names

    # ----- keys -------------------------------------------------------------
    def on_key(self, key: str) -> EditorResult:
        if self.naming:
            return self._name_key(key)
        if self.choosing is not None:
            return self._choose_key(key)
        if key != ESC:
            self.esc_armed = False
        if key in ARROWS:
            dx, dy = ARROWS[key]
            f = min(SIZE - 1, max(0, self.cur % SIZE + dx))
            r = min(SIZE - 1, max(0, self.cur // SIZE - dy))
            self.cur = r * SIZE + f
        elif len(key) == 1 and key in PIECE_KEYS:
            self._set(self.cur, symbol_code(key))
        elif key in (" ", ".", DELETE, BACKSPACE):
            self._set(self.cur, EMPTY)
        elif key == "m":
            for r in range(SIZE // 2):
                for f in range(SIZE):
                    c = self.board[r * SIZE + f]
                    if c and c != ROCK:
                        c ^= 16
                    self.board[(SIZE - 1 - r) * SIZE + f] = c
            self.dirty = True
            self.message = "Mirrored player 1's half onto player 2's."
        elif key == "v":
            problem = board_problem(self.board)
            self.message = "The board is playable." if problem is None else problem[1] + "."
        elif key == "l":
            self.choosing = self._boards()
            self.choice = 0
            self.message = ("UP/DOWN choose a board, Enter opens it, Esc returns"
                            + (" (unsaved changes are lost)." if self.dirty else "."))
        elif key == "s":
            problem = board_problem(self.board)
            if problem is not None:
                self.message = f"Cannot save: {problem[1]}."
                return None
            keep = self.opened is not None and self._may_replace(self.opened)
            self.naming, self.name = True, (self.opened or "") if keep else ""
            self.message = ("Enter saves it again, or type a new name; Esc returns." if keep else
                            "Name the board ([a-z0-9_-], up to 20), Enter saves, Esc returns.")
        elif key == ESC:
            if self.dirty and not self.esc_armed:
                self.esc_armed = True
                self.message = "Unsaved changes: press Esc again to leave."
                return None
            return "cancel"
        return None

    def _choose_key(self, key: str) -> EditorResult:
        names = self.choosing or []
        if key == ESC:
            self.choosing = None
            self.message = "Nothing opened."
        elif key in (UP, DOWN) and names:
            self.choice = (self.choice + (1 if key == DOWN else -1)) % len(names)
        elif key == ENTER and names:
            name = names[self.choice]
            try:
                spec = load_board(name, self.directory) if (
                    self.directory is not None and (self.directory / f"{name}.txt").is_file()
                ) else load_board(name)
            except ValueError as err:
                self.message = f"Cannot open {name}: {getattr(err, 'reason', err)}."
                return None
            self.board = list(spec.board)
            self.opened, self.title = name, spec.title
            self.choosing, self.dirty = None, False
            self.message = (f"Opened {name}; s saves it again." if self._may_replace(name) else
                            f"Opened {name}: it comes with Gatehouse, so save your changes "
                            "under a new name." if is_shipped(name) and not self._saved(name) else
                            f"Opened {name}: it is not yours, so save your changes under a new name.")
        return None

    def _may_replace(self, name: str) -> bool:
        """Whether this editor may save over the board ``name``: one saved
        here (not only shipped), and by this caller unless it is the sysop's."""
        folder = self.folder()
        if folder is None or not self._saved(name):
            return False
        return self.author is None or (board_author(folder / f"{name}.txt") or "").casefold() \
            == self.author.casefold()

    def _mine(self, folder: Path) -> int:
        """How many boards in ``folder`` this caller saved."""
        author = (self.author or "").casefold()
        return sum(1 for name in list_boards(folder)
                   if (board_author(folder / f"{name}.txt") or "").casefold() == author)

    def _saved(self, name: str) -> bool:
        folder = self.folder()
        return folder is not None and (folder / f"{name}.txt").is_file()

    def _set(self, sq: int, code: int) -> None:
        self.board[sq] = code
        self.dirty = True

    def _name_key(self, key: str) -> EditorResult:
        if key == ESC:
            self.naming = False
            self.message = "Not saved."
        elif key in (BACKSPACE, DELETE):
            self.name = self.name[:-1]
        elif key == ENTER:
            folder = self.folder()
            if folder is None:
                self.message = "Boards cannot be saved here (no state directory)."
                return None
            replace = self.name == self.opened and self._may_replace(self.name)
            if self.author is not None and not replace and self._mine(folder) >= MAX_PER_CALLER:
                self.message = (f"You have {MAX_PER_CALLER} boards saved: open one of yours "
                                "and save over it.")
                return None
            try:
                self.saved_path = self.save(folder, self.name, replace=replace)
            except (ValueError, OSError) as err:
                self.message = str(err)
                return None
            self.naming = False
            self.dirty = False
            self.message = f"Saved as {self.name}."
            return "saved"
        elif len(key) == 1 and len(self.name) < 20 and NAME_RE.fullmatch(key):
            self.name += key
        return None

    # ----- saving -----------------------------------------------------------
    def save(self, directory: Path | str, name: str, replace: bool = False) -> Path:
        """Write the board as ``directory/name.txt``; ValueError (with a
        reason) for a bad or taken name or an unplayable board. ``replace``:
        the board opened under this name may be written over (never a
        shipped board, unless it was itself saved here)."""
        if not NAME_RE.fullmatch(name):
            raise ValueError("A name is 1-20 of a-z 0-9 _ -.")
        path = Path(directory) / f"{name}.txt"
        if is_shipped(name) and not (replace and path.is_file()):
            raise ValueError(f"{name} comes with Gatehouse: save the board under another name.")
        if not replace and path.exists():
            raise ValueError(f"There is already a board called {name}.")
        if replace and self.author is not None and (board_author(path) or "").casefold() \
                != self.author.casefold():
            raise ValueError(f"{name} is not yours: save the board under another name.")
        problem = board_problem(self.board)
        if problem is not None:
            raise BoardFileError(name, None, problem[1])
        title = self.title if replace and self.title else name
        made = MADE_BY + (f" by {self.author}" if self.author is not None else "")
        text = made + "\n" + format_board(self.board, title)
        parse_board(text, name, name)               # never write what we cannot read
        path.parent.mkdir(parents=True, exist_ok=True)
        if replace:
            tmp = path.with_name(f".{name}.{os.getpid()}.tmp")
            with open(tmp, "w", encoding="utf-8") as fh:
                fh.write(text)
            os.replace(tmp, path)                   # the old board or the new, never half
        else:
            with open(path, "x", encoding="utf-8") as fh:
                fh.write(text)
        self.opened, self.title = name, title
        return path

    # ----- drawing ----------------------------------------------------------
    def draw(self, canvas: Canvas) -> None:
        canvas.clear()
        for y in range(SIZE):
            rank = SIZE - y
            canvas.text(0, y, f"{rank:>2}", DARK_GREY)
            for x in range(SIZE):
                sq = (rank - 1) * SIZE + x
                c = self.board[sq]
                bg = BLUE if (x + y) % 2 else BLACK
                if sq == self.cur:
                    bg = CYAN
                if c == ROCK:
                    text, fg = "()", GREY
                elif c:
                    text, fg = KIND_LETTERS[c & 7] + " ", (YELLOW, BRIGHT_CYAN)[c >> 4]
                else:
                    text, fg = "  ", DARK_GREY
                canvas.text(3 + 2 * x, y, text, fg, bg)
        for x in range(SIZE):
            canvas.put(3 + 2 * x, SIZE, FILES[x], DARK_GREY)
        canvas.text(42, 0, "KINGDOM BOARD EDITOR", WHITE)
        canvas.text(42, 1, "Player 1 (yellow) at the bottom", YELLOW)
        canvas.text(42, 2, "Player 2 (cyan) at the top", BRIGHT_CYAN)
        if self.choosing is not None:
            self._draw_list(canvas)
        else:
            for i, line in enumerate(HELP):
                canvas.text(42, 4 + i, line, GREY)
            if self.opened:
                canvas.text(42, 12, f"Board: {self.opened}"[:38], WHITE)
        problem = board_problem(self.board)
        canvas.text(42, 13, "Playable" if problem is None else "Not playable:", WHITE)
        if problem is not None:
            canvas.text(42, 14, problem[1][:38], GREY)
        if self.naming:
            canvas.text(0, 21, f"Board name: {self.name}_", WHITE)
        canvas.text(0, 22, self.message[:80], YELLOW)
        f, r = self.cur % SIZE, self.cur // SIZE
        canvas.text(0, 23, f"Cursor {FILES[f]}{r + 1}", DARK_GREY)

    def _draw_list(self, canvas: Canvas) -> None:
        names = self.choosing or []
        canvas.text(42, 4, "Open which board?", WHITE)
        if not names:
            canvas.text(42, 5, "(no boards)", GREY)
            return
        first = max(0, min(self.choice - LIST_ROWS // 2, len(names) - LIST_ROWS))
        for row, name in enumerate(names[first:first + LIST_ROWS]):
            sel = first + row == self.choice
            where = "saved" if self._saved(name) else "shipped"
            canvas.text(42, 5 + row, f" {name:<20} {where:<8}", BLUE if sel else WHITE,
                        CYAN if sel else BLACK)
