"""Kingdom board files: parse, check, list, write, and a compact layout code.

A board file (``<name>.txt``, documented in ``board_files/README.md``) has
a ``title: ...`` header line, then 19 lines of 19 symbols, the
top line being rank 19 (player 2's side) and the bottom one rank 1 (player
1's side). ``;`` starts a comment; blank lines are ignored.

Boards come from two places: the shipped ones (package data in
``board_files/``, read through importlib.resources) and the saved ones, in the
Kingdom folder of the server's state directory (the folder the server hands
the door, passed to these functions as ``saved``: the board editor writes
there, and a sysop may drop files there). A saved board of the same name as
a shipped one takes its place.

Symbols: ``K Q B N R C P`` player 1 (the challenger, bottom) king, queen,
bishop, knight, rook, castle (king inside a rook), pawn; lowercase for player
2 (top); ``#`` or ``o`` a rock; ``.`` an empty square.
"""
from __future__ import annotations

import dataclasses
import re
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from .position import CASTLE, EMPTY, KIND_LETTERS, KING, NSQ, PAWN, ROCK, SIZE, square_name

__all__ = ["BoardFileError", "BoardSpec", "SHIPPED", "parse_board",
           "board_problem", "load_board", "list_boards", "is_shipped", "saved_boards", "format_board",
           "encode_layout", "decode_layout", "symbol_code", "code_symbol",
           "NAME_RE"]

SHIPPED: Traversable = resources.files("doors.kingdom").joinpath("board_files")
NAME_RE = re.compile(r"[a-z0-9_-]{1,20}")


class BoardFileError(ValueError):
    """A bad board file: ``str(err)`` is "file:line: reason"."""

    def __init__(self, source: str, line: int | None, reason: str):
        self.source, self.line, self.reason = source, line, reason
        where = f"{source}:{line}" if line is not None else source
        super().__init__(f"{where}: {reason}")


@dataclasses.dataclass(frozen=True)
class BoardSpec:
    name: str
    title: str
    board: tuple[int, ...]     # codes by square (see position.py)

    @property
    def layout(self) -> str:
        return encode_layout(self.board)


def symbol_code(ch: str) -> int:
    """Board-file symbol -> square code; KeyError if unknown."""
    if ch in ".":
        return EMPTY
    if ch in "#o":
        return ROCK
    if ch in "KQBNRCP":
        return KIND_LETTERS.index(ch)
    if ch in "kqbnrcp":
        return KIND_LETTERS.index(ch.upper()) | 16
    raise KeyError(ch)


def code_symbol(code: int) -> str:
    if code == EMPTY:
        return "."
    if code == ROCK:
        return "#"
    letter = KIND_LETTERS[code & 7]
    return letter.lower() if code >> 4 else letter


def board_problem(board: list[int] | tuple[int, ...]) -> tuple[int | None, str] | None:
    """Why a board cannot be played: (rank index 0-18 or None, reason), or
    None if it is playable."""
    kings: list[list[int]] = [[], []]
    for sq, c in enumerate(board):
        if c & 7 in (KING, CASTLE):
            kings[c >> 4].append(sq)
        if c & 7 == PAWN:
            far = SIZE - 1 if c >> 4 == 0 else 0
            if sq // SIZE == far:
                owner = "player 1" if c >> 4 == 0 else "player 2"
                return sq // SIZE, (f"a {owner} pawn on {square_name(sq)}, "
                                    "its promotion rank")
    for side, ks in enumerate(kings):
        who = f"player {side + 1}"
        if not ks:
            return None, f"{who} has no king"
        if len(ks) > 1:
            return ks[1] // SIZE, (f"{who} has more than one king "
                                   f"({', '.join(square_name(s) for s in ks)})")
    return None


def parse_board(text: str, source: str = "<board>", name: str = "") -> BoardSpec:
    """Parse a board file's text; raises BoardFileError naming the line."""
    title: str | None = None
    rows: list[tuple[int, str]] = []
    lineno = 0
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.split(";", 1)[0].strip()
        if not line:
            continue
        if title is None:
            m = re.fullmatch(r"(?i)title\s*:\s*(.*)", line)
            if not m or not m.group(1).strip():
                raise BoardFileError(source, lineno, "expected a 'title: ...' header line")
            title = m.group(1).strip()
            continue
        if len(rows) == SIZE:
            raise BoardFileError(source, lineno, f"more than {SIZE} board lines")
        if len(line) != SIZE:
            raise BoardFileError(source, lineno,
                                 f"a board line must have {SIZE} symbols, not {len(line)}")
        for ch in line:
            try:
                symbol_code(ch)
            except KeyError:
                raise BoardFileError(source, lineno, f"unknown symbol {ch!r}") from None
        rows.append((lineno, line))
    if title is None:
        raise BoardFileError(source, None, "empty board file (no 'title:' line)")
    if len(rows) != SIZE:
        raise BoardFileError(source, lineno or None,
                             f"{len(rows)} board lines, expected {SIZE}")
    board = [EMPTY] * NSQ
    for i, (_, line) in enumerate(rows):
        rank = SIZE - 1 - i
        for f, ch in enumerate(line):
            board[rank * SIZE + f] = symbol_code(ch)
    problem = board_problem(board)
    if problem is not None:
        bad_rank, reason = problem
        line_no = rows[SIZE - 1 - bad_rank][0] if bad_rank is not None else rows[-1][0]
        raise BoardFileError(source, line_no, reason)
    return BoardSpec(name, title, tuple(board))


def _folders(saved: Path | str | None) -> list[Traversable]:
    return ([Path(saved)] if saved is not None else []) + [SHIPPED]


def load_board(name: str, saved: Path | str | None = None) -> BoardSpec:
    """The board ``name``: from the folder of saved boards ``saved`` (the
    server's, if given), else the shipped ones."""
    if not NAME_RE.fullmatch(name):
        raise BoardFileError(name, None, "not a board name")
    folders = _folders(saved)
    for folder in folders:
        entry = folder.joinpath(f"{name}.txt")
        if entry.is_file() or folder is folders[-1]:
            try:
                text = entry.read_text(encoding="utf-8")
            except OSError as err:
                raise BoardFileError(str(entry), None, f"cannot read: {err.strerror}") from None
            except UnicodeDecodeError as err:
                raise BoardFileError(str(entry), None,
                                     f"not UTF-8 text (byte {err.start})") from None
            return parse_board(text, str(entry), name)
    raise BoardFileError(f"{name}.txt", None, "no such board")   # (no folders at all)


def is_shipped(name: str) -> bool:
    """True when ``name`` is one of the boards that come with Gatehouse."""
    return bool(NAME_RE.fullmatch(name)) and SHIPPED.joinpath(f"{name}.txt").is_file()


def _names_in(folder: Traversable) -> set[str]:
    try:
        entries = list(folder.iterdir())
    except OSError:          # no saved boards yet
        return set()
    return {e.name[:-4] for e in entries if e.name.endswith(".txt") and NAME_RE.fullmatch(e.name[:-4])}


def list_boards(saved: Path | str | None = None) -> list[str]:
    """Names of the board files, saved (in ``saved``) and shipped, "default"
    first, then alphabetical."""
    names: set[str] = set()
    for folder in _folders(saved):
        names |= _names_in(folder)
    return sorted(names, key=lambda n: (n != "default", n))


def saved_boards(folder: Path | str) -> list[str]:
    """Names of the boards saved in ``folder`` alone, alphabetical."""
    return sorted(_names_in(Path(folder)))


def format_board(board: list[int] | tuple[int, ...], title: str) -> str:
    """A board file's text."""
    lines = [f"title: {title}"]
    for rank in range(SIZE - 1, -1, -1):
        lines.append("".join(code_symbol(board[rank * SIZE + f]) for f in range(SIZE)))
    return "\n".join(lines) + "\n"


def encode_layout(board: list[int] | tuple[int, ...]) -> str:
    """Compact text of a board: ranks 19..1 separated by "/", runs of empty
    squares as numbers (as FEN does)."""
    parts = []
    for rank in range(SIZE - 1, -1, -1):
        out, run = "", 0
        for f in range(SIZE):
            c = board[rank * SIZE + f]
            if c == EMPTY:
                run += 1
                continue
            if run:
                out += str(run)
                run = 0
            out += code_symbol(c)
        parts.append(out + (str(run) if run else ""))
    return "/".join(parts)


def decode_layout(layout: str) -> list[int]:
    """Inverse of encode_layout; BoardFileError if malformed or unplayable."""
    rows = layout.split("/")
    if len(rows) != SIZE:
        raise BoardFileError("layout", None, f"{len(rows)} ranks, expected {SIZE}")
    board = [EMPTY] * NSQ
    for i, row in enumerate(rows):
        rank = SIZE - 1 - i
        f = 0
        for tok in re.findall(r"\d+|.", row):
            if tok.isdecimal():
                f += int(tok)
                continue
            try:
                code = symbol_code(tok)
            except KeyError:
                raise BoardFileError("layout", None, f"unknown symbol {tok!r}") from None
            if f < SIZE:
                board[rank * SIZE + f] = code
            f += 1
        if f != SIZE:
            raise BoardFileError("layout", None, f"rank {rank + 1} has {f} squares")
    problem = board_problem(board)
    if problem is not None:
        raise BoardFileError("layout", None, problem[1])
    return board
