"""Stratego's pieces, board geometry, actions and move generation.

Squares are ints 0-99: ``sq = row * 10 + col`` with ``row`` 0-9 shown as
rows 1-10 counted from player 1's side (player index 0) and ``col`` 0-9 as
columns A-J. Both players name squares the same way ("A1", "J10").

Player 0 (player 1, the challenger) sets up in rows 1-4 -- the top four rows
of the seed's screen -- and player 1 (player 2) in rows 7-10. Lakes are rows
5-6, columns C-D and G-H.

The move generator works on any board whose entries are ``None`` or a
sequence starting ``(owner, rank, ...)``; the rank of an enemy piece may be
``None`` (hidden): generating one's own moves never needs it. So the rules
state and a player's observation share it.
"""
from __future__ import annotations

import dataclasses
import enum
from collections.abc import Sequence
from typing import TypeAlias

from doors._core.game import InvalidNotation, Options


class Phase(enum.StrEnum):
    """Where a Stratego game is: both sides placing, playing, or over."""
    SETUP = "setup"
    PLAY = "play"
    OVER = "over"


class TwoSquare(enum.StrEnum):
    """The two-squares rule in force (the option's stored values)."""
    SEED = "seed"               # not X-Y, Y-X, X-Y again
    TOURNAMENT = "tournament"   # at most five moves in a row between two squares

__all__ = [
    "Phase", "TwoSquare",
    "RANKS", "MOVABLE", "COUNTS", "NAMES", "STRENGTH", "ARMY_SIZE", "LAKES",
    "COLS", "square_name", "parse_square", "setup_squares", "is_setup_square",
    "strike", "Place", "Remove", "Fill", "Ready", "Move", "Action",
    "action_to_str", "parse_action", "piece_targets", "legal_moves",
    "has_move", "two_square_blocked", "why_move_illegal", "opponent",
]

RANKS: tuple[str, ...] = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "S", "B", "F")
MOVABLE = frozenset(RANKS[:10])
COUNTS: dict[str, int] = {"1": 1, "2": 1, "3": 2, "4": 3, "5": 4, "6": 4, "7": 4,
                          "8": 5, "9": 8, "S": 1, "B": 6, "F": 1}
NAMES: dict[str, str] = {
    "1": "Marshal", "2": "General", "3": "Colonel", "4": "Major", "5": "Captain",
    "6": "Lieutenant", "7": "Sergeant", "8": "Miner", "9": "Scout", "S": "Spy",
    "B": "Bomb", "F": "Flag"}
# Higher beats lower. Bomb and flag never strike; their numbers are unused.
STRENGTH: dict[str, int] = {"1": 10, "2": 9, "3": 8, "4": 7, "5": 6, "6": 5, "7": 4,
                            "8": 3, "9": 2, "S": 1, "B": 11, "F": 0}
ARMY_SIZE = sum(COUNTS.values())  # 40
COLS = "ABCDEFGHIJ"
LAKES = frozenset(r * 10 + c for r in (4, 5) for c in (2, 3, 6, 7))
_DIRS = ((1, 0), (-1, 0), (0, 1), (0, -1))

# Rays: for each square, per direction, the squares on the board and out of
# the lakes in that direction, nearest first (stopping at an edge or a lake).
def _build_rays() -> tuple[tuple[tuple[int, ...], ...], ...]:
    rays = []
    for sq in range(100):
        per = []
        r0, c0 = divmod(sq, 10)
        for dr, dc in _DIRS:
            out = []
            r, c = r0 + dr, c0 + dc
            while 0 <= r < 10 and 0 <= c < 10 and r * 10 + c not in LAKES:
                out.append(r * 10 + c)
                r, c = r + dr, c + dc
            per.append(tuple(out))
        rays.append(tuple(per))
    return tuple(rays)


RAYS = _build_rays()
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(ray[0] for ray in RAYS[sq] if ray) for sq in range(100))


def opponent(player: int) -> int:
    return 1 - player


def square_name(sq: int) -> str:
    row, col = divmod(sq, 10)
    return f"{COLS[col]}{row + 1}"


def parse_square(text: str) -> int:
    text = text.strip().upper()
    if len(text) < 2 or text[0] not in COLS or not text[1:].isdecimal():
        raise InvalidNotation(f"not a square: {text!r}")
    row = int(text[1:])
    if not 1 <= row <= 10:
        raise InvalidNotation(f"not a square: {text!r}")
    return (row - 1) * 10 + COLS.index(text[0])


def setup_squares(player: int) -> range:
    """The 40 squares a player sets up on (rows 1-4 or 7-10)."""
    return range(0, 40) if player == 0 else range(60, 100)


def is_setup_square(player: int, sq: int) -> bool:
    return 0 <= sq < 40 if player == 0 else 60 <= sq < 100


def strike(attacker: str, defender: str) -> tuple[bool, bool]:
    """(attacker survives, defender survives) when ``attacker`` strikes."""
    if defender == "F":
        return True, False
    if defender == "B":
        return (True, False) if attacker == "8" else (False, True)
    if attacker == "S" and defender == "1":
        return True, False
    a, d = STRENGTH[attacker], STRENGTH[defender]
    if a > d:
        return True, False
    if a < d:
        return False, True
    return False, False


# ----- actions ---------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class Place:
    square: int
    rank: str


@dataclasses.dataclass(frozen=True)
class Remove:
    square: int


@dataclasses.dataclass(frozen=True)
class Fill:
    """Set one's whole setup to exactly these placements (random fill, a
    loaded setup). Legal in setup but not listed by ``legal_actions``."""
    placements: tuple[tuple[int, str], ...]


@dataclasses.dataclass(frozen=True)
class Ready:
    pass


@dataclasses.dataclass(frozen=True)
class Move:
    frm: int
    to: int


Action: TypeAlias = Place | Remove | Fill | Ready | Move

# A board as the rules hold it (rules.Piece) or as a player sees it
# (observation.Seen, rank None when hidden): 100 squares, None when empty.
Cell: TypeAlias = "tuple[int, str | None, bool, bool] | None"    # (owner, rank, moved, revealed)
Board: TypeAlias = Sequence[Cell]


def action_to_str(action: Action) -> str:
    if isinstance(action, Move):
        return f"{square_name(action.frm)}-{square_name(action.to)}"
    if isinstance(action, Place):
        return f"place {square_name(action.square)} {action.rank}"
    if isinstance(action, Remove):
        return f"remove {square_name(action.square)}"
    if isinstance(action, Ready):
        return "ready"
    if isinstance(action, Fill):
        return "fill " + " ".join(f"{square_name(s)}={r}" for s, r in action.placements)
    raise InvalidNotation(f"not a Stratego action: {action!r}")


def parse_action(text: str) -> Action:
    words = text.strip().split()
    if not words:
        raise InvalidNotation("empty action")
    head = words[0].lower()
    if head == "ready" and len(words) == 1:
        return Ready()
    if head == "place" and len(words) == 3:
        rank = words[2].upper()
        if rank not in COUNTS:
            raise InvalidNotation(f"not a rank: {words[2]!r}")
        return Place(parse_square(words[1]), rank)
    if head == "remove" and len(words) == 2:
        return Remove(parse_square(words[1]))
    if head == "fill":
        out = []
        for word in words[1:]:
            sq, eq, rank = word.partition("=")
            if not eq or rank.upper() not in COUNTS:
                raise InvalidNotation(f"bad placement: {word!r}")
            out.append((parse_square(sq), rank.upper()))
        return Fill(tuple(out))
    if len(words) == 1 and "-" in head:
        a, _, b = words[0].partition("-")
        return Move(parse_square(a), parse_square(b))
    if len(words) == 2 and "-" not in text:          # typed: "a4 a5"
        return Move(parse_square(words[0]), parse_square(words[1]))
    raise InvalidNotation(f"not a Stratego action: {text!r}")


# ----- movement --------------------------------------------------------------
def piece_targets(board: Board, sq: int, scout_strike: int = 2) -> list[int]:
    """Squares the (own, known-rank) piece on ``sq`` may move or strike to,
    ignoring the two-square rule."""
    piece = board[sq]
    assert piece is not None, "no piece on that square"
    owner, rank = piece[0], piece[1]
    if rank not in MOVABLE:
        return []
    out: list[int] = []
    for ray in RAYS[sq]:
        for i, to in enumerate(ray):
            other = board[to]
            if other is None:
                out.append(to)
                if rank != "9":
                    break
                continue
            if other[0] != owner and (i == 0 or scout_strike == 2):
                out.append(to)
            break
    out.sort()
    return out


def two_square_blocked(moves: Sequence[tuple[int, int]], frm: int, to: int,
                       mode: str = TwoSquare.SEED) -> bool:
    """Is a player's move frm->to refused, given that player's own previous
    moves ``moves`` (oldest first, (from, to) pairs)?"""
    if mode == TwoSquare.TOURNAMENT:
        pair = {frm, to}
        count = 0
        expect = frm
        for a, b in reversed(moves):
            if b != expect or {a, b} != pair:
                break
            count += 1
            expect = a
        return count >= 5
    return (len(moves) >= 2 and moves[-1] == (to, frm) and moves[-2] == (frm, to))


def legal_moves(board: Board, player: int, options: Options,
                own_moves: Sequence[tuple[int, int]]) -> list[Move]:
    scout_strike = options.get("scout_strike", 2)
    mode = options.get("two_square", TwoSquare.SEED)
    out = []
    for sq in range(100):
        piece = board[sq]
        if piece is None or piece[0] != player:
            continue
        for to in piece_targets(board, sq, scout_strike):
            if not two_square_blocked(own_moves, sq, to, mode):
                out.append(Move(sq, to))
    return out


def has_move(board: Board, player: int, options: Options,
             own_moves: Sequence[tuple[int, int]]) -> bool:
    scout_strike = options.get("scout_strike", 2)
    mode = options.get("two_square", TwoSquare.SEED)
    for sq in range(100):
        piece = board[sq]
        if piece is None or piece[0] != player or piece[1] not in MOVABLE:
            continue
        for to in piece_targets(board, sq, scout_strike):
            if not two_square_blocked(own_moves, sq, to, mode):
                return True
    return False


def why_move_illegal(board: Board, player: int, options: Options,
                     own_moves: Sequence[tuple[int, int]], frm: int, to: int) -> str | None:
    """A specific reason the player's move frm->to is refused, or None."""
    if not (0 <= frm < 100 and 0 <= to < 100):
        return "That square is not on the board."
    piece = board[frm]
    if piece is None:
        return "There is no piece there."
    if piece[0] != player:
        return "That is not your piece."
    rank = piece[1]
    if rank == "B":
        return "Bombs never move."
    if rank == "F":
        return "The flag never moves."
    if to in LAKES:
        return "That square is in a lake."
    if to == frm:
        return "Pick a different square to move to."
    target = board[to]
    if target is not None and target[0] == player:
        return "You cannot move onto your own piece."
    fr, fc = divmod(frm, 10)
    tr, tc = divmod(to, 10)
    if fr != tr and fc != tc:
        return "Pieces move one square, never diagonally."
    dist = abs(fr - tr) + abs(fc - tc)
    if dist > 1:
        if rank != "9":
            return "Only a scout moves more than one square."
        step = (1 if tr > fr else -1 if tr < fr else 0) * 10 + (1 if tc > fc else -1 if tc < fc else 0)
        for mid in range(frm + step, to, step):
            if mid in LAKES:
                return "A scout cannot cross a lake."
            if board[mid] is not None:
                return "A scout cannot jump over pieces."
        if target is not None and options.get("scout_strike", 2) == 1:
            return "Option 1: a scout may not strike after moving more than one square."
    if two_square_blocked(own_moves, frm, to, options.get("two_square", "seed")):
        if options.get("two_square", "seed") == "tournament":
            return "Two-square rule: no sixth move in a row between the same two squares."
        return "Two-square rule: that piece may not go back again."
    return None
