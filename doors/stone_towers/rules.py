"""Stone Towers rules (RULES.md "Stone Towers"; seed 000_5df534639f9edae4).

Red (player 0, the challenger) and blue (player 1) alternate turns. A turn
builds a castle (strength 1) on an empty square or on the mover's own flag,
or fortifies one of the mover's castles by one (at most 3). A player's
influence on a square is the sum of the strengths of that player's castles on
the square and its four orthogonal neighbours. After each turn ownership is
recomputed in rounds, all squares at once: the greater influence owns a
square, a tie keeps the previous owner (an unowned square stays unowned). A
castle on a square that changed hands is destroyed (the square becomes the
new owner's flag), which changes influence, so rounds repeat until one
changes nothing (the "domino effect"). After the chosen number of turns per
player, more squares wins.

An action is a square index (``y * size + x``): build on an empty square or
own flag, fortify an own castle. ``PASS`` is the only legal action of a
player who can do neither. Squares are written "e5": column letter from the
left, row number from the top.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from functools import cache

from doors._core.game import GameState, InvalidNotation, Options, Outcome, Player, Termination

__all__ = ["RED", "BLUE", "NOBODY", "PASS", "COLOUR", "SIZES", "TURNS", "Frame",
           "Round", "TurnReport", "Board", "StoneTowersState", "square_name",
           "parse_square"]

RED, BLUE, NOBODY = 0, 1, -1
PASS = -1
COLOUR = ("red", "blue")
MAX_STRENGTH = 3
SIZES = tuple(range(5, 16))
TURNS = (5, 10, 15, 20, 25, 30, 40, 50, 60)
DEFAULT_SIZE, DEFAULT_TURNS = 9, 20
MIN_TURNS, MAX_TURNS = 5, 60


@cache
def areas(size: int) -> tuple[tuple[int, ...], ...]:
    """For each square: itself followed by its orthogonal neighbours."""
    out = []
    for i in range(size * size):
        y, x = divmod(i, size)
        cells = [i]
        if y > 0:
            cells.append(i - size)
        if x > 0:
            cells.append(i - 1)
        if x < size - 1:
            cells.append(i + 1)
        if y < size - 1:
            cells.append(i + size)
        out.append(tuple(cells))
    return tuple(out)


def square_name(size: int, square: int) -> str:
    y, x = divmod(square, size)
    return f"{chr(ord('a') + x)}{y + 1}"


def parse_square(size: int, text: str) -> int:
    text = text.strip().lower()
    if len(text) < 2 or not text[0].isalpha() or not text[1:].isdecimal():
        raise InvalidNotation(f"not a square: {text!r}")
    x, y = ord(text[0]) - ord("a"), int(text[1:]) - 1
    if not (0 <= x < size and 0 <= y < size):
        raise InvalidNotation(f"off the board: {text!r}")
    return y * size + x


Frame = tuple[tuple[int, ...], tuple[int, ...]]    # (owner, castle) of every square, a snapshot


@dataclasses.dataclass(frozen=True)
class Round:
    """One recomputation round: squares that changed hands (to whom) and the
    castles destroyed on them."""
    changed: tuple[tuple[int, Player], ...]
    destroyed: tuple[int, ...]


@dataclasses.dataclass(frozen=True)
class TurnReport:
    """What the last turn did, step by step, for the view.

    ``frames[0]`` is the board (owners, castles) before the turn,
    ``frames[1]`` just after the build/fortify, ``frames[k + 1]`` after
    ``rounds[k - 1]``... i.e. ``frames[-1]`` is the settled board."""
    player: Player
    action: int
    kind: str                                   # "build", "fortify", "pass"
    rounds: tuple[Round, ...]
    frames: tuple[Frame, ...]

    @property
    def gained(self) -> tuple[int, ...]:
        """Squares that changed hands this turn (the built square included)."""
        out = [sq for rnd in self.rounds for sq, _ in rnd.changed]
        if self.kind == "build" and self.frames[0][0][self.action] != self.player:
            out.insert(0, self.action)
        return tuple(out)

    @property
    def destroyed(self) -> tuple[int, ...]:
        return tuple(sq for rnd in self.rounds for sq in rnd.destroyed)


class Board:
    """Owners, castle strengths and both players' influence, kept
    incrementally. Cheap to copy; used by the rules state and the bots."""

    __slots__ = ("size", "owner", "castle", "inf", "count", "area")

    def __init__(self, size: int):
        self.size = size
        n = size * size
        self.owner = [NOBODY] * n
        self.castle = [0] * n
        self.inf = ([0] * n, [0] * n)
        self.count = [0, 0]
        self.area = areas(size)

    def copy(self) -> Board:
        b = Board.__new__(Board)
        b.size, b.area = self.size, self.area
        b.owner, b.castle = self.owner[:], self.castle[:]
        b.inf = (self.inf[0][:], self.inf[1][:])
        b.count = self.count[:]
        return b

    def can_play(self, player: Player, sq: int) -> bool:
        o = self.owner[sq]
        return o == NOBODY or (o == player and self.castle[sq] < MAX_STRENGTH)

    def moves(self, player: Player) -> list[int]:
        castle = self.castle
        return [i for i, o in enumerate(self.owner)
                if o == NOBODY or (o == player and castle[i] < MAX_STRENGTH)]

    def influence(self, sq: int) -> tuple[int, int]:
        return self.inf[0][sq], self.inf[1][sq]

    def play(self, player: Player, sq: int, rounds: list[Round] | None = None,
             frames: list[Frame] | None = None) -> int:
        """Build or fortify at ``sq`` (known legal) and settle the board.
        Returns the number of squares ``player`` gained. If given, ``rounds``
        receives each round's Round and ``frames`` each step's snapshot."""
        owner, castle, count, area = self.owner, self.castle, self.count, self.area
        gained = 0
        if owner[sq] == NOBODY:
            owner[sq] = player
            count[player] += 1
            gained = 1
        castle[sq] += 1
        mine = self.inf[player]
        for j in area[sq]:
            mine[j] += 1
        if frames is not None:
            frames.append((tuple(owner), tuple(castle)))
        return gained + self.settle(area[sq], player, rounds, frames)

    def settle(self, dirty: Iterable[int], player: Player | None = None,
               rounds: list[Round] | None = None, frames: list[Frame] | None = None) -> int:
        """Recompute owners of the squares in ``dirty`` (those whose influence
        changed) in rounds until nothing changes; returns squares ``player``
        gained minus squares it lost.

        A turn only adds the mover's influence and destroys only the
        opponent's castles, so every flip goes to the mover and the rounds
        end (each round turns at least one square for good)."""
        owner, castle, count, area = self.owner, self.castle, self.count, self.area
        inf0, inf1 = self.inf
        gained = 0
        while True:
            flips = []
            for j in dirty:
                a, b = inf0[j], inf1[j]
                if a != b:
                    new = RED if a > b else BLUE
                    if owner[j] != new:
                        flips.append((j, new))
            if not flips:
                return gained
            flips.sort()
            touched: set[int] = set()
            destroyed = []
            for j, new in flips:
                old = owner[j]
                owner[j] = new
                count[new] += 1
                if old != NOBODY:
                    count[old] -= 1
                    if old == player:
                        gained -= 1
                if new == player:
                    gained += 1
                k = castle[j]
                if k:
                    castle[j] = 0
                    destroyed.append(j)
                    theirs = self.inf[old]
                    for t in area[j]:
                        theirs[t] -= k
                    touched.update(area[j])
            if rounds is not None:
                rounds.append(Round(tuple(flips), tuple(destroyed)))
            if frames is not None:
                frames.append((tuple(owner), tuple(castle)))
            dirty = sorted(touched)

    @classmethod
    def from_rows(cls, rows: list[str]) -> Board:
        """A board from text rows (tests, examples): ``.`` empty, ``r``/``b``
        a red/blue flag, ``R1``..``B3`` a castle; cells separated by spaces.
        Influence is computed; owners are taken as given (not settled)."""
        grid = [row.split() for row in rows]
        b = cls(len(grid))
        for y, row in enumerate(grid):
            assert len(row) == b.size, row
            for x, cell in enumerate(row):
                i = y * b.size + x
                if cell != ".":
                    b.owner[i] = RED if cell[0] in "rR" else BLUE
                    b.count[b.owner[i]] += 1
                    if cell[0].isupper():
                        b.castle[i] = int(cell[1:])
                        for j in b.area[i]:
                            b.inf[b.owner[i]][j] += b.castle[i]
        return b


class StoneTowersState(GameState[int, "StoneTowersState"]):
    key = "stone_towers"

    def __init__(self, options: Options):
        size = int(options.get("size", DEFAULT_SIZE))
        turns = int(options.get("turns", DEFAULT_TURNS))
        if size not in SIZES:
            raise ValueError(f"board size must be 5 to 15, not {size}")
        if not MIN_TURNS <= turns <= MAX_TURNS:
            raise ValueError(f"turns must be {MIN_TURNS} to {MAX_TURNS}, not {turns}")
        super().__init__({"size": size, "turns": turns})
        self.size = size
        self.turns = turns
        self.board = Board(size)
        self.ply = 0
        self.last_turn: TurnReport | None = None

    # ----- who acts ---------------------------------------------------------
    def _to_move(self) -> tuple[Player, ...]:
        return (self.ply % 2,)

    def turns_left(self, player: Player) -> int:
        """Turns ``player`` still has to play."""
        done = (self.ply + (1 - player)) // 2
        return self.turns - done

    # ----- actions ----------------------------------------------------------
    def _legal(self, player: Player) -> list[int]:
        return self.board.moves(player) or [PASS]

    def forced_action(self, player: Player) -> int | None:
        """RULES: a player with no legal action passes automatically."""
        return PASS if player in self.to_move() and not self.board.moves(player) else None

    def _why_illegal(self, player: Player, action: int) -> str | None:
        b = self.board
        if action == PASS:
            if b.moves(player):
                return "You can still build or fortify: no passing."
            return None
        if type(action) is not int or not 0 <= action < self.size * self.size:
            return "That is not a square of the board."
        o = b.owner[action]
        if o == 1 - player:
            return f"That is {COLOUR[o]}'s land."
        if o == player and b.castle[action] >= MAX_STRENGTH:
            return "That castle already has three flags."
        return None

    def _apply(self, player: Player, action: int) -> None:
        b = self.board
        before = (tuple(b.owner), tuple(b.castle))
        rounds: list[Round] = []
        frames = [before]
        if action == PASS:
            kind = "pass"
        else:
            kind = "fortify" if b.castle[action] else "build"
            b.play(player, action, rounds, frames)
        self.last_turn = TurnReport(player, action, kind, tuple(rounds), tuple(frames))
        self.ply += 1

    # ----- the end ----------------------------------------------------------
    def outcome(self) -> Outcome | None:
        if self.ply < 2 * self.turns:
            return None
        red, blue = self.board.count
        if red == blue:
            return Outcome(None, Termination.RULES,
                           f"equal empires, {red} squares each", (red, blue))
        winner = RED if red > blue else BLUE
        hi, lo = max(red, blue), min(red, blue)
        return Outcome(winner, Termination.RULES,
                       f"{COLOUR[winner]} holds {hi} squares to {lo}", (red, blue))

    # ----- queries for views and bots ----------------------------------------
    def influence(self, square: int) -> tuple[int, int]:
        """(red, blue) influence on a square."""
        return self.board.influence(square)

    def counts(self) -> tuple[int, int]:
        """Squares owned by (red, blue)."""
        return self.board.count[0], self.board.count[1]

    def owner(self, square: int) -> Player:
        return self.board.owner[square]

    def castle(self, square: int) -> int:
        return self.board.castle[square]

    # ----- copies, views and notation ----------------------------------------
    def observation(self, player: Player | None) -> StoneTowersState:
        return self.clone()

    def clone(self) -> StoneTowersState:
        s = StoneTowersState.__new__(StoneTowersState)
        s.options = dict(self.options)
        s.history = list(self.history)
        s.size, s.turns, s.ply = self.size, self.turns, self.ply
        s.board = self.board.copy()
        s.last_turn = self.last_turn
        return s

    def action_to_str(self, action: int) -> str:
        return "pass" if action == PASS else square_name(self.size, action)

    def parse_action(self, text: str) -> int:
        if text.strip().lower() == "pass":
            return PASS
        return parse_square(self.size, text)
