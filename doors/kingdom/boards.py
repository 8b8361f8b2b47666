"""Kingdom board files: parse, check, list, write, and a compact layout code.

A board file (``data/boards/kingdom/<name>.txt``, documented in that folder's
README.md) has a ``title: ...`` header line, then 19 lines of 19 symbols, the
top line being rank 19 (player 2's side) and the bottom one rank 1 (player
1's side). ``;`` starts a comment; blank lines are ignored.

Symbols: ``K Q B N R C P`` player 1 (the challenger, bottom) king, queen,
bishop, knight, rook, castle (king inside a rook), pawn; lowercase for player
2 (top); ``#`` or ``o`` a rock; ``.`` an empty square.
"""
from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from .position import CASTLE, EMPTY, KIND_LETTERS, KING, NSQ, PAWN, ROCK, SIZE, square_name

__all__ = ["BoardFileError", "BoardSpec", "BOARD_DIR", "parse_board",
           "board_problem", "load_board", "list_boards", "format_board",
           "encode_layout", "decode_layout", "symbol_code", "code_symbol",
           "NAME_RE"]

BOARD_DIR = Path(__file__).resolve().parents[2] / "data" / "boards" / "kingdom"
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


def load_board(name: str, directory: Path | str | None = None) -> BoardSpec:
    directory = Path(directory) if directory is not None else BOARD_DIR
    if not NAME_RE.fullmatch(name):
        raise BoardFileError(name, None, "not a board name")
    path = directory / f"{name}.txt"
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise BoardFileError(str(path), None, f"cannot read: {err.strerror}") from None
    return parse_board(text, str(path), name)


def list_boards(directory: Path | str | None = None) -> list[str]:
    """Names of the board files, "default" first, then alphabetical."""
    directory = Path(directory) if directory is not None else BOARD_DIR
    names = sorted(p.stem for p in directory.glob("*.txt") if NAME_RE.fullmatch(p.stem))
    return sorted(names, key=lambda n: (n != "default", n))


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
            if tok.isdigit():
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
