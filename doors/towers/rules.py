"""Towers: place eight towers each, move each once like a rook, score lines.

Rules (RULES.md "Towers"): an 8x8 board, 8 towers each. Phase 1: the players
alternate placing towers on empty squares until all 16 are placed. Phase 2:
starting with the player who placed second, the players alternate moving one
of their unmoved towers like a chess rook (orthogonally, any distance, not
through towers, at least one square); a moved tower is built and never moves
again. A player whose unmoved towers are all pinned (or who has none left)
skips; phase 2 ends when neither player can move. Score: every pair of one
player's towers on a row or column with nothing between them scores one point
per empty square between them. Most points wins; equal points is a draw.

Options: ``first`` (0 or 1: who places first in game 1) and ``games`` (1, or
2 for a match of two: a second game with the first placer swapped, won on
the sum of the margins, that is on the total points). The test-and-puzzle
option ``setup`` starts game 1 from a diagram: ``{"board": diagram, "turn":
player, "phase": "movement" (optional: all towers count as placed)}`` (see
``parse_diagram``).

Squares are ints 0..63 (``row * 8 + column``), named ``a1``..``h8``: column
letters a-h, row numbers 1-8.
"""
from __future__ import annotations

import enum
from collections.abc import Hashable, Iterator, Mapping
from typing import NamedTuple, TypeAlias

from doors._core.game import GameState, InvalidNotation, Options, Outcome, Player, Termination

__all__ = [
    "SIZE", "TOWERS_EACH", "Phase", "PLACEMENT", "MOVEMENT", "OVER", "Place", "Move", "Action",
    "TowersState", "square_name",
    "parse_square", "line_pairs", "line_score", "parse_diagram", "RAYS",
    "NEIGHBOURS",
]

SIZE = 8
SQUARES = SIZE * SIZE
TOWERS_EACH = 8
EMPTY = 0


class Phase(enum.StrEnum):
    """Where a Towers game is (its values are the words the rules use)."""
    PLACEMENT = "placement"
    MOVEMENT = "movement"
    OVER = "over"


PLACEMENT, MOVEMENT, OVER = Phase.PLACEMENT, Phase.MOVEMENT, Phase.OVER


class Place(NamedTuple):
    """Phase 1: put a tower on an empty square."""
    square: int


class Move(NamedTuple):
    """Phase 2: move an unmoved tower like a rook; it is then built."""
    origin: int
    target: int


Action: TypeAlias = Place | Move


# ----- cells and geometry ---------------------------------------------------
# A cell is 0 (empty) or 1 + 2 * player + built: 1/2 player 0 unmoved/built,
# 3/4 player 1 unmoved/built.

def tower(player: Player, built: bool) -> int:
    return 1 + 2 * player + int(built)


def owner_of(cell: int) -> Player | None:
    return None if cell == EMPTY else (cell - 1) >> 1


def _rays(sq: int) -> tuple[tuple[int, ...], ...]:
    row, col = divmod(sq, SIZE)
    out = []
    for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        ray, r, c = [], row + dr, col + dc
        while 0 <= r < SIZE and 0 <= c < SIZE:
            ray.append(r * SIZE + c)
            r, c = r + dr, c + dc
        out.append(tuple(ray))
    return tuple(out)


RAYS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(_rays(s) for s in range(SQUARES))
"""Per square, the squares in each direction (up, down, right, left), nearest first."""
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(ray[0] for ray in RAYS[s] if ray) for s in range(SQUARES))
LINES: tuple[tuple[int, ...], ...] = tuple(
    tuple(r * SIZE + c for c in range(SIZE)) for r in range(SIZE)) + tuple(
    tuple(r * SIZE + c for r in range(SIZE)) for c in range(SIZE))


def square_name(sq: int) -> str:
    return "abcdefgh"[sq % SIZE] + str(sq // SIZE + 1)


def parse_square(text: str) -> int:
    text = text.strip().lower()
    if len(text) != 2 or text[0] not in "abcdefgh" or text[1] not in "12345678":
        raise InvalidNotation(f"not a square: {text!r}")
    return (int(text[1]) - 1) * SIZE + "abcdefgh".index(text[0])


def line_pairs(cells: bytes | bytearray) -> Iterator[tuple[int, int, int, Player]]:
    """Every pair of same-player towers on a row or column with nothing
    between them: ``(square_a, square_b, points, player)``."""
    for line in LINES:
        prev = -1
        prev_owner = -1
        for i, sq in enumerate(line):
            cell = cells[sq]
            if cell:
                who = (cell - 1) >> 1
                if who == prev_owner:
                    yield line[prev], sq, i - prev - 1, who
                prev, prev_owner = i, who


def line_score(cells: bytes | bytearray) -> tuple[int, int]:
    """Line-of-sight points of both players on a board."""
    score = [0, 0]
    for line in LINES:
        prev = -1
        prev_owner = -1
        for i, sq in enumerate(line):
            cell = cells[sq]
            if cell:
                who = (cell - 1) >> 1
                if who == prev_owner:
                    score[who] += i - prev - 1
                prev, prev_owner = i, who
    return score[0], score[1]


_DIAGRAM_CELLS = {".": 0, "A": 1, "a": 2, "B": 3, "b": 4}


def parse_diagram(text: str) -> bytearray:
    """A board from 8 rows of 8 characters, row 8 first, rows separated by
    newlines or '/': '.' empty, 'A'/'a' player 0's unmoved/built tower,
    'B'/'b' player 1's."""
    rows = [r.strip() for r in text.replace("/", "\n").splitlines() if r.strip()]
    if len(rows) != SIZE or any(len(r) != SIZE for r in rows):
        raise ValueError("a diagram is 8 rows of 8 characters")
    cells = bytearray(SQUARES)
    for i, row in enumerate(rows):
        for col, ch in enumerate(row):
            if ch not in _DIAGRAM_CELLS:
                raise ValueError(f"unknown diagram character {ch!r}")
            cells[(SIZE - 1 - i) * SIZE + col] = _DIAGRAM_CELLS[ch]
    for p in (0, 1):
        if sum(1 for c in cells if owner_of(c) == p) > TOWERS_EACH:
            raise ValueError("a player has more than 8 towers")
    return cells


def _player_option(value: object, name: str) -> int:
    if value in (0, 1, "0", "1"):
        return int(value)
    raise ValueError(f"option {name!r} must be 0 or 1, got {value!r}"
                     " (resolve 'random' with DoorInfo.resolve_options)")


# ----- the state --------------------------------------------------------------

class TowersState(GameState[Action, "TowersState"]):
    """A game (or a match of two games) of Towers; every player sees it all."""

    key = "towers"

    def __init__(self, options: Options):
        super().__init__(options)
        self.first = _player_option(self.options.get("first", 0), "first")
        games = self.options.get("games", 1)
        if games not in (1, 2, "1", "2"):
            raise ValueError(f"option 'games' must be 1 or 2, got {games!r}")
        self.games = int(games)
        self.game = 0                                  # index of the current game
        self.results: list[tuple[int, int]] = []       # finished games' points
        self.final_boards: list[bytes] = []            # finished games' boards
        self.game_plies = 0                            # actions in this game
        self._outcome: Outcome | None = None
        self.cells = bytearray(SQUARES)
        self.placed = [0, 0]
        self.turn: Player | None = self.first
        setup = self.options.get("setup")
        if setup:
            self._load_setup(setup)

    def _load_setup(self, setup: Mapping[str, object]) -> None:
        self.cells = parse_diagram(str(setup["board"]))
        self.placed = [sum(1 for c in self.cells if owner_of(c) == p) for p in (0, 1)]
        if setup.get("phase") == MOVEMENT:            # a puzzle with fewer towers
            self.placed = [TOWERS_EACH, TOWERS_EACH]
        nominal = _player_option(setup.get("turn", 0), "turn")
        if self.phase == PLACEMENT:
            self.turn = nominal if self.placed[nominal] < TOWERS_EACH else 1 - nominal
        else:
            self.turn = self._next_mover(nominal)
            if self.turn is None:
                self._end_game()

    # ----- queries the view and the AI use ------------------------------------
    @property
    def phase(self) -> Phase:
        if self._outcome is not None:
            return OVER
        return PLACEMENT if sum(self.placed) < 2 * TOWERS_EACH else MOVEMENT

    @property
    def phase_name(self) -> str:
        return {PLACEMENT: "Placement", MOVEMENT: "Movement", OVER: "Game over"}[self.phase]

    def first_placer(self, game: int | None = None) -> Player:
        """Who places first in ``game`` (0-based; default the current one)."""
        game = self.game if game is None else game
        return self.first ^ (game & 1)

    def owner(self, sq: int) -> Player | None:
        return owner_of(self.cells[sq])

    def is_built(self, sq: int) -> bool:
        return self.cells[sq] in (2, 4)

    def towers_to_place(self, player: Player) -> int:
        return TOWERS_EACH - self.placed[player]

    def towers_to_move(self, player: Player) -> int:
        """Unmoved towers of ``player`` on the board."""
        return self.cells.count(tower(player, False))

    def targets(self, sq: int) -> list[int]:
        """Squares the tower on ``sq`` could reach like a rook (any tower)."""
        out = []
        cells = self.cells
        for ray in RAYS[sq]:
            for t in ray:
                if cells[t]:
                    break
                out.append(t)
        return out

    def can_move(self, player: Player) -> bool:
        """Whether ``player`` has an unmoved tower with somewhere to go."""
        cells = self.cells
        mine = tower(player, False)
        start = 0
        while True:
            sq = cells.find(mine, start)
            if sq < 0:
                return False
            for n in NEIGHBOURS[sq]:
                if not cells[n]:
                    return True
            start = sq + 1

    def score(self) -> tuple[int, int]:
        """Line-of-sight points on the current board."""
        return line_score(self.cells)

    def scoring_lines(self, include_zero: bool = False) -> list[tuple[int, int, int, Player]]:
        """``(square_a, square_b, points, player)`` for each scoring pair."""
        return [p for p in line_pairs(self.cells) if include_zero or p[2] > 0]

    def total_margin(self, player: Player) -> int:
        """Sum of ``player``'s margins over the finished games."""
        return sum(r[player] - r[1 - player] for r in self.results)

    def last_action_this_game(self) -> tuple[Player, Action] | None:
        return self.history[-1] if self.game_plies and self.history else None

    def key_for_tt(self) -> Hashable:
        return bytes(self.cells), self.turn, self.game, tuple(self.results)

    # ----- protocol -----------------------------------------------------------
    def observation(self, player: Player | None) -> TowersState:
        return self.clone()

    def _to_move(self) -> tuple[Player, ...]:
        return () if self.turn is None else (self.turn,)

    def _legal(self, player: Player) -> list[Action]:
        cells = self.cells
        if self.phase == PLACEMENT:
            return [Place(s) for s in range(SQUARES) if not cells[s]]
        out: list[Action] = []
        mine = tower(player, False)
        for sq in range(SQUARES):
            if cells[sq] == mine:
                for ray in RAYS[sq]:
                    for t in ray:
                        if cells[t]:
                            break
                        out.append(Move(sq, t))
        return out

    def _why_illegal(self, player: Player, action: Action) -> str | None:
        cells = self.cells
        if isinstance(action, Place) and len(action) == 1:
            if self.phase != PLACEMENT:
                return "All towers are placed: move one of yours."
            if not _on_board(action.square):
                return "No such square."
            return "That square is taken." if cells[action.square] else None
        if isinstance(action, Move) and len(action) == 2:
            if self.phase != MOVEMENT:
                return "Place your towers first."
            origin, target = action
            if not (_on_board(origin) and _on_board(target)):
                return "No such square."
            cell = cells[origin]
            if not cell:
                return "There is no tower there."
            if owner_of(cell) != player:
                return "That is not your tower."
            if cell == tower(player, True):
                return "That tower is built: it cannot move again."
            if target == origin:
                return "A tower must move at least one square."
            for ray in RAYS[origin]:
                if target in ray:
                    for t in ray:
                        if t == target:
                            return "That square is taken." if cells[t] else None
                        if cells[t]:
                            return "Another tower is in the way."
            return "Towers move in a straight line, like a rook."
        return "That is not a Towers move."

    def _apply(self, player: Player, action: Action) -> None:
        self.game_plies += 1
        if isinstance(action, Place):
            self.cells[action.square] = tower(player, False)
            self.placed[player] += 1
            if sum(self.placed) < 2 * TOWERS_EACH:
                other = 1 - player
                self.turn = other if self.placed[other] < TOWERS_EACH else player
                return
            nominal = 1 - self.first_placer()      # who placed second moves first
        else:
            self.cells[action.origin] = EMPTY
            self.cells[action.target] = tower(player, True)
            nominal = 1 - player
        self.turn = self._next_mover(nominal)
        if self.turn is None:
            self._end_game()

    def _next_mover(self, nominal: Player) -> Player | None:
        if self.can_move(nominal):
            return nominal
        if self.can_move(1 - nominal):
            return 1 - nominal                     # ``nominal`` is pinned: skips
        return None

    def _end_game(self) -> None:
        self.results.append(self.score())
        self.final_boards.append(bytes(self.cells))
        if len(self.results) < self.games:
            self.game += 1
            self.cells = bytearray(SQUARES)
            self.placed = [0, 0]
            self.game_plies = 0
            self.turn = self.first_placer()
            return
        self.turn = None
        self._outcome = self._final_outcome()

    def _final_outcome(self) -> Outcome:
        p0 = sum(r[0] for r in self.results)
        p1 = sum(r[1] for r in self.results)
        winner = 0 if p0 > p1 else 1 if p1 > p0 else None
        if self.games == 1:
            reason = f"lines of sight {p0}-{p1}"
        else:
            games = " and ".join(f"{a}-{b}" for a, b in self.results)
            reason = f"match of two: {games}, total {p0}-{p1}"
        if winner is None:
            reason += ": a draw"
        return Outcome(winner, Termination.RULES, reason, (p0, p1))

    def outcome(self) -> Outcome | None:
        return self._outcome

    def clone(self) -> TowersState:
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new.options = dict(self.options)
        new.history = list(self.history)
        new.results = list(self.results)
        new.final_boards = list(self.final_boards)
        new.cells = bytearray(self.cells)
        new.placed = list(self.placed)
        return new

    # ----- notation -----------------------------------------------------------
    def action_to_str(self, action: Action) -> str:
        if isinstance(action, Move):
            return f"{square_name(action.origin)}-{square_name(action.target)}"
        return square_name(action.square)

    def parse_action(self, text: str) -> Action:
        if not isinstance(text, str):
            raise InvalidNotation(f"not a Towers move: {text!r}")
        compact = "".join(text.split())
        if "-" in compact:
            if len(compact) != 5 or compact[2] != "-":
                raise InvalidNotation(f"not a Towers move: {text!r}")
            compact = compact[:2] + compact[3:]
        if len(compact) == 2:
            return Place(parse_square(compact))
        if len(compact) == 4:
            return Move(parse_square(compact[:2]), parse_square(compact[2:]))
        raise InvalidNotation(f"not a Towers move: {text!r}")


def _on_board(sq: object) -> bool:
    return type(sq) is int and 0 <= sq < SQUARES
