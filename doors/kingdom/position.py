"""Kingdom's pure board: geometry, the ``Move`` value type, move generation
and move application (no options, no history, no text beyond square names).

Squares are ints ``rank * 19 + file`` (file 0 = "a" ... 18 = "s", rank 0 =
"1" ... 18 = "19"). Player 0 starts at the bottom (ranks 1, 2...) and moves
up; player 1 starts at the top and moves down.

A square holds a code: ``EMPTY`` (0), ``ROCK`` (8) or a piece
``kind | owner << 4`` with kinds K Q B N R C(astle) P = 1..7.

The rule decisions are listed in ``doors.kingdom.rules``.
"""
from __future__ import annotations

import random
from typing import NamedTuple

__all__ = [
    "SIZE", "NSQ", "EMPTY", "ROCK", "KING", "QUEEN", "BISHOP", "KNIGHT", "ROOK",
    "CASTLE", "PAWN", "KIND_LETTERS", "PROMOTIONS", "Move", "PASS",
    "square_name", "parse_square", "Position",
]

SIZE = 19
NSQ = SIZE * SIZE
EMPTY, KING, QUEEN, BISHOP, KNIGHT, ROOK, CASTLE, PAWN, ROCK = range(9)
KIND_LETTERS = ".KQBNRCP#"
PROMOTIONS = "QBNR"
FILES = "abcdefghijklmnopqrs"

ORTHO = ((1, 0), (-1, 0), (0, 1), (0, -1))
DIAG = ((1, 1), (1, -1), (-1, 1), (-1, -1))
JUMPS = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))


class Move(NamedTuple):
    """One action: ``frm`` -> ``to``; ``mid`` is a knight's first landing
    square in a double jump (-1 otherwise); ``promo`` one of "QBNR" when a
    pawn reaches the far rank ("" otherwise). ``PASS`` has frm == -1."""
    frm: int
    to: int
    mid: int = -1
    promo: str = ""

    @property
    def is_pass(self) -> bool:
        return self.frm < 0


PASS = Move(-1, -1)


def square_name(sq: int) -> str:
    return FILES[sq % SIZE] + str(sq // SIZE + 1)


def parse_square(text: str) -> int:
    """"a1".."s19" -> square; ValueError otherwise."""
    text = text.strip().lower()
    if len(text) < 2 or text[0] not in FILES or not text[1:].isdecimal():
        raise ValueError(f"not a square: {text!r}")
    rank = int(text[1:])
    if not 1 <= rank <= SIZE or text[1] == "0":
        raise ValueError(f"not a square: {text!r}")
    return (rank - 1) * SIZE + FILES.index(text[0])


def _step(sq: int, df: int, dr: int) -> int:
    f, r = sq % SIZE + df, sq // SIZE + dr
    return r * SIZE + f if 0 <= f < SIZE and 0 <= r < SIZE else -1


def _ray(sq: int, df: int, dr: int) -> tuple[int, ...]:
    out = []
    s = _step(sq, df, dr)
    while s >= 0:
        out.append(s)
        s = _step(s, df, dr)
    return tuple(out)


ORTHO_RAYS = [tuple(_ray(s, df, dr) for df, dr in ORTHO) for s in range(NSQ)]
DIAG_RAYS = [tuple(_ray(s, df, dr) for df, dr in DIAG) for s in range(NSQ)]
ALL_RAYS = [ORTHO_RAYS[s] + DIAG_RAYS[s] for s in range(NSQ)]
KNIGHT_JUMPS = [tuple(t for t in (_step(s, df, dr) for df, dr in JUMPS) if t >= 0)
                for s in range(NSQ)]
NEIGHBOURS = [tuple(t for t in (_step(s, df, dr) for df, dr in ORTHO + DIAG) if t >= 0)
              for s in range(NSQ)]

_rng = random.Random(0x6B696E67)
ZOBRIST = [[0] * NSQ] + [[_rng.getrandbits(64) for _ in range(NSQ)] for _ in range(31)]
Z_TURN = _rng.getrandbits(64)
Z_HOT = [_rng.getrandbits(64) for _ in range(NSQ + 1)]
Z_PASS = [0, _rng.getrandbits(64), _rng.getrandbits(64)]


def _unit(frm: int, to: int) -> tuple[int, int]:
    df = to % SIZE - frm % SIZE
    dr = to // SIZE - frm // SIZE
    return (df > 0) - (df < 0), (dr > 0) - (dr < 0)


class Position:
    """The board and the few facts the rules need beyond it.

    ``hot`` is the square of the rook converted by the last move (-1 if
    none): attacking it again now destroys it. ``passes`` counts consecutive
    passes. ``winner`` is set when a king dies; ``draw`` after two passes.
    """

    __slots__ = ("board", "turn", "kings", "hot", "passes", "winner", "draw",
                 "pawn_steps", "zkey", "_new_hot", "_log", "_taken")

    def __init__(self, board: list[int], turn: int = 0, pawn_steps: int = 4):
        self.board = board
        self.turn = turn
        self.pawn_steps = pawn_steps
        self.hot = -1
        self.passes = 0
        self.winner: int | None = None
        self.draw = False
        self.kings = [-1, -1]
        self.zkey = 0
        for sq, c in enumerate(board):
            self.zkey ^= ZOBRIST[c][sq]
            if c & 7 in (KING, CASTLE):
                self.kings[c >> 4] = sq
        self._new_hot = -1
        self._log: list[str] | None = None
        self._taken: list[int] | None = None

    def copy(self) -> Position:
        p = Position.__new__(Position)
        p.board = self.board[:]
        p.turn, p.pawn_steps, p.hot, p.passes = self.turn, self.pawn_steps, self.hot, self.passes
        p.winner, p.draw, p.kings, p.zkey = self.winner, self.draw, self.kings[:], self.zkey
        p._new_hot, p._log, p._taken = -1, None, None
        return p

    def key(self) -> int:
        """Zobrist key of everything that decides the future."""
        return (self.zkey ^ (Z_TURN if self.turn else 0) ^ Z_HOT[self.hot]
                ^ Z_PASS[min(self.passes, 2)])

    @property
    def over(self) -> bool:
        return self.winner is not None or self.draw

    # ----- attacks ----------------------------------------------------------
    def attacked(self, t: int, o: int) -> bool:
        """Could a piece of ``o`` take an enemy king standing on ``t`` by a
        legal move that lands a piece on ``t``? That is every capture the
        move generator makes: queen/bishop/rook lines, knight single and
        double jumps, a pawn's forward diagonals, a pawn pushed onto ``t``
        by a friendly pawn (strength in numbers), and, when the square would
        be safe for him, the enemy king stepping there or leaving his castle
        diagonally onto it. Rock crushes do not count (the rock moves, not
        a piece)."""
        b = self.board
        ob = o << 4
        q, bi, ro, ki, ca = QUEEN | ob, BISHOP | ob, ROOK | ob, KING | ob, CASTLE | ob
        royal = -1
        for i, ray in enumerate(ALL_RAYS[t]):
            for n, s in enumerate(ray):
                c = b[s]
                if c:
                    if c == q or c == (ro if i < 4 else bi):
                        return True
                    if n == 0 and (c == ki or (c == ca and i >= 4)):
                        royal = s
                    break
        kn = KNIGHT | ob
        p = 1 - o
        for m in KNIGHT_JUMPS[t]:
            c = b[m]
            if c == kn:
                return True
            if c == 0 or (c >> 4 == p and c & 7 in (QUEEN, BISHOP, KNIGHT, PAWN)):
                for n in KNIGHT_JUMPS[m]:
                    if b[n] == kn and n != t:
                        return True
        pw = PAWN | ob
        dr = 1 if o == 0 else -1
        f, r = t % SIZE, t // SIZE - dr
        if 0 <= r < SIZE:
            if f > 0 and b[r * SIZE + f - 1] == pw:
                return True
            if f < SIZE - 1 and b[r * SIZE + f + 1] == pw:
                return True
        for df, ddr in ORTHO:       # a pawn pushed onto t by the pawn behind it
            u = _step(t, -df, -ddr)
            if u >= 0 and b[u] == pw:
                v = _step(u, -df, -ddr)
                if v >= 0 and b[v] == pw:
                    return True
        if royal >= 0:
            leave = ro if b[royal] == ca else EMPTY
            return self._safe_for(o, royal, t, leave)
        return False

    def _safe_for(self, p: int, frm: int, t: int, leave: int) -> bool:
        """Would ``p``'s king be safe on ``t`` after leaving ``frm`` (which
        then holds ``leave``)? Whatever stood on ``t`` is gone (taken)."""
        b = self.board
        old_f, old_t = b[frm], b[t]
        b[frm] = leave
        b[t] = KING | p << 4
        try:
            return not self.attacked(t, 1 - p)
        finally:
            b[frm] = old_f
            b[t] = old_t

    def king_safe_at(self, frm: int, t: int, leave: int) -> bool:
        """Would the king of the side to move be safe on ``t`` after leaving
        ``frm`` (which then holds ``leave``)?"""
        return self._safe_for(self.turn, frm, t, leave)

    def in_check(self, p: int | None = None) -> bool:
        """Whether ``p``'s king is attacked; a king inside his castle is
        never in check (the castle may be taken, which is another threat)."""
        p = self.turn if p is None else p
        k = self.kings[p]
        return k >= 0 and self.board[k] & 7 == KING and self.attacked(k, 1 - p)

    # ----- move generation --------------------------------------------------
    def moves(self) -> list[Move]:
        """Every legal action of the side to move (PASS last)."""
        if self.over:
            return []
        out: list[Move] = []
        p = self.turn
        b = self.board
        for sq in range(NSQ):
            c = b[sq]
            if c & 7 and c >> 4 == p:
                self._gen(sq, c & 7, out)
        out.append(PASS)
        return out

    def moves_from(self, sq: int) -> list[Move]:
        c = self.board[sq]
        out: list[Move] = []
        if not self.over and c & 7 and c >> 4 == self.turn:
            self._gen(sq, c & 7, out)
        return out

    def _rock_dest_ok(self, dest: int, beyond: int) -> bool:
        """May a rock be pushed onto ``dest`` (``beyond`` is the square after
        it in the push direction, -1 off the board)?"""
        c = self.board[dest]
        if c == EMPTY:
            return True
        if c == ROCK or c >> 4 == self.turn:
            return False
        k = c & 7
        if k == PAWN:
            return True
        if k in (KING, QUEEN, BISHOP, KNIGHT):
            return beyond < 0 or self.board[beyond] == ROCK
        return False

    def _gen(self, sq: int, kind: int, out: list[Move]) -> None:
        b = self.board
        p = self.turn
        add = out.append
        if kind in (QUEEN, BISHOP, ROOK):
            rays = ALL_RAYS[sq] if kind == QUEEN else (
                DIAG_RAYS[sq] if kind == BISHOP else ORTHO_RAYS[sq])
            pusher = kind != QUEEN
            for ray in rays:
                for n, t in enumerate(ray):
                    c = b[t]
                    if c == EMPTY:
                        add(Move(sq, t))
                        continue
                    if c == ROCK:
                        if pusher:  # push it ahead for as long as we go
                            ln = len(ray)
                            for j in range(n, ln - 1):
                                dest = ray[j + 1]
                                if not self._rock_dest_ok(dest, ray[j + 2] if j + 2 < ln else -1):
                                    break
                                add(Move(sq, ray[j]))
                                if b[dest] != EMPTY:
                                    break
                    elif c >> 4 != p:
                        add(Move(sq, t))
                    break
        elif kind == KNIGHT:
            jumps = KNIGHT_JUMPS
            for m in jumps[sq]:
                c = b[m]
                if c == EMPTY or c >> 4 != p and c != ROCK:
                    add(Move(sq, m))
                if c == EMPTY or (c >> 4 != p and c & 7 in (QUEEN, BISHOP, KNIGHT, PAWN)):
                    for t in jumps[m]:
                        if t != sq:
                            c2 = b[t]
                            if c2 == EMPTY or c2 >> 4 != p and c2 != ROCK:
                                add(Move(sq, t, m))
        elif kind == PAWN:
            self._gen_pawn(sq, out)
        elif kind == KING:
            for t in NEIGHBOURS[sq]:
                c = b[t]
                if c == EMPTY:
                    if self.king_safe_at(sq, t, EMPTY):
                        add(Move(sq, t))
                elif c == ROCK:
                    continue
                elif c >> 4 == p:
                    if c & 7 == ROOK:
                        add(Move(sq, t))        # into his rook: a castle
                elif c & 7 == ROOK:
                    add(Move(sq, t))            # converts it, or takes it
                elif self.king_safe_at(sq, t, EMPTY):
                    add(Move(sq, t))
        elif kind == CASTLE:
            for ray in ORTHO_RAYS[sq]:
                for t in ray:
                    if b[t] != EMPTY:
                        break
                    add(Move(sq, t))
            own_rook = ROOK | p << 4
            for t in NEIGHBOURS[sq]:
                c = b[t]
                if c == own_rook:
                    add(Move(sq, t))            # the king moves to that rook
                elif sq % SIZE != t % SIZE and sq // SIZE != t // SIZE:
                    # diagonal: the king steps out, the rook stays
                    if (c == EMPTY or (c != ROCK and c >> 4 != p and c & 7 != ROOK)) \
                            and self.king_safe_at(sq, t, own_rook):
                        add(Move(sq, t))

    def _gen_pawn(self, sq: int, out: list[Move]) -> None:
        b = self.board
        p = self.turn
        o = 1 - p
        dr = 1 if p == 0 else -1
        far = SIZE - 1 if p == 0 else 0
        f, r = sq % SIZE, sq // SIZE

        def add(t: int, promote: bool) -> None:
            if promote:
                out.extend(Move(sq, t, -1, pr) for pr in PROMOTIONS)
            else:
                out.append(Move(sq, t))

        def converts(t: int) -> bool:  # the target is a rook that will only turn
            c = b[t]
            return c & 7 == ROOK and t != self.hot

        def push(t: int, df: int, ddr: int) -> None:
            c = b[t]
            dest = _step(t, df, ddr)
            if dest < 0:
                return
            if c == ROCK:
                if self._rock_dest_ok(dest, _step(dest, df, ddr)):
                    add(t, False)
            elif c & 7 == PAWN:
                dc = b[dest]
                if c >> 4 == p:     # a friend: strength in numbers
                    if dc == EMPTY or (dc != ROCK and dc >> 4 == o):
                        add(t, dest // SIZE == far and not (dc and converts(dest)))
                elif dc == EMPTY and dest // SIZE != (0 if o == 1 else SIZE - 1):
                    add(t, False)

        for n in range(1, self.pawn_steps + 1):
            rr = r + n * dr
            if not 0 <= rr < SIZE:
                break
            t = rr * SIZE + f
            if b[t] == EMPTY:
                add(t, rr == far)
                continue
            if n == 1:
                push(t, 0, dr)
            break
        rr = r + dr
        if 0 <= rr < SIZE:
            for df in (-1, 1):
                if 0 <= f + df < SIZE:
                    t = rr * SIZE + f + df
                    c = b[t]
                    if c == ROCK:
                        push(t, df, dr)
                    elif c and c >> 4 == o:
                        add(t, rr == far and not converts(t))
        for df in (-1, 1):
            if 0 <= f + df < SIZE:
                t = sq + df
                if b[t] == ROCK or b[t] & 7 == PAWN:
                    push(t, df, 0)
        rr = r - dr
        if 0 <= rr < SIZE:
            t = rr * SIZE + f
            if b[t] & 7 == PAWN and b[t] != ROCK:
                push(t, 0, -dr)

    # ----- applying a move ----------------------------------------------------
    def _put(self, sq: int, code: int) -> None:
        old = self.board[sq]
        self.zkey ^= ZOBRIST[old][sq] ^ ZOBRIST[code][sq]
        self.board[sq] = code

    def _note(self, text: str) -> None:
        if self._log is not None:
            self._log.append(text)

    def _lose(self, sq: int, how: str) -> None:
        """The piece on ``sq`` is taken or crushed (the square is not
        changed here)."""
        c = self.board[sq]
        if self._taken is not None:
            self._taken.append(c)
        k = c & 7
        if k in (KING, CASTLE):
            self.kings[c >> 4] = -1
            self.winner = self.turn
            self._note(("castle" if k == CASTLE else "king") + " " + how)
        elif self._log is not None:
            self._note(f"{_NAMES[k]} {how}")

    def _strike(self, frm: int, t: int, rook_attacker: bool) -> str:
        """An attack on ``t``: "move" (the attacker moves in), "stay" (a rook
        was converted), "broken" (a rook broke a castle: both rooks go)."""
        b = self.board
        c = b[t]
        if c == EMPTY:
            return "move"
        k = c & 7
        p = self.turn
        if k == ROOK:
            if t == self.hot:
                self._lose(t, "destroyed")
                return "move"
            self._put(t, ROOK | p << 4)
            self._new_hot = t
            self._note("rook converted")
            return "stay"
        if k == CASTLE and rook_attacker:
            self._put(t, KING | (1 - p) << 4)
            self._note("castle broken, both rooks destroyed, king exposed")
            if self._taken is not None:
                self._taken.append(ROOK | (1 - p) << 4)
            return "broken"
        self._lose(t, "taken")
        return "move"

    def _push_rock(self, rock: int, dest: int) -> None:
        if self.board[dest] != EMPTY:
            self._lose(dest, "crushed")
        else:
            self._note("rock pushed")
        self._put(rock, EMPTY)
        self._put(dest, ROCK)

    def apply(self, mv: Move, log: list[str] | None = None,
              taken: list[int] | None = None) -> None:
        """Play a legal move. ``log`` collects what happened ("rook
        converted"...), ``taken`` the codes of pieces taken or crushed."""
        self._log, self._taken = log, taken
        self._new_hot = -1
        p = self.turn
        if mv.frm < 0:
            self.passes += 1
            self._note("passed")
            if self.passes >= 2:
                self.draw = True
        else:
            self.passes = 0
            self._apply_move(mv)
        self.hot = self._new_hot
        self.turn = 1 - p
        self._log = self._taken = None

    def _apply_move(self, mv: Move) -> None:
        b = self.board
        frm, t = mv.frm, mv.to
        code = b[frm]
        kind = code & 7
        if kind == KING:
            self._apply_king(frm, t, code)
        elif kind == CASTLE:
            self._apply_castle(frm, t)
        elif kind == KNIGHT:
            if mv.mid >= 0:
                m = mv.mid
                if b[m]:
                    self._lose(m, "taken")
                self._put(frm, EMPTY)
                self._put(m, code)
                frm = m
            if self._strike(frm, t, False) == "move":
                self._put(frm, EMPTY)
                self._put(t, code)
        elif kind == PAWN:
            self._apply_pawn(frm, t, code, mv.promo)
        else:  # queen, bishop, rook
            df, dr = _unit(frm, t)
            s = frm
            rock = -1
            while s != t:
                s = _step(s, df, dr)
                if b[s] == ROCK:
                    rock = s
                    break
            leave = EMPTY
            if kind == ROOK and self._makes_rock(frm):
                leave = ROCK
            if rock >= 0:
                self._push_rock(rock, _step(t, df, dr))
                result = "move"
            else:
                result = self._strike(frm, t, kind == ROOK)
            if result == "move":
                self._put(frm, leave)
                self._put(t, code)
                if leave == ROCK:
                    self._note("rock created")
            elif result == "broken":
                self._put(frm, EMPTY)

    def _makes_rock(self, sq: int) -> bool:
        """Is a rook on ``sq`` between two rocks, or a rock and the edge,
        horizontally or vertically?"""
        b = self.board
        for a, c in (((-1, 0), (1, 0)), ((0, -1), (0, 1))):
            s1, s2 = _step(sq, *a), _step(sq, *c)
            r1 = s1 >= 0 and b[s1] == ROCK
            r2 = s2 >= 0 and b[s2] == ROCK
            if (r1 or s1 < 0) and (r2 or s2 < 0) and (r1 or r2):
                return True
        return False

    def _apply_king(self, frm: int, t: int, code: int) -> None:
        b = self.board
        p = self.turn
        c = b[t]
        if c == ROOK | p << 4:
            self._put(frm, EMPTY)
            self._put(t, CASTLE | p << 4)
            self.kings[p] = t
            self._note("castle formed")
            return
        if c & 7 == ROOK:
            if (t == self.hot or self.in_check()) and self.king_safe_at(frm, t, EMPTY):
                self._lose(t, "destroyed")      # he moves onto it
            else:
                self._put(t, ROOK | p << 4)     # converted; he stays
                self._new_hot = t
                self._note("rook converted")
                return
        elif c:
            self._strike(frm, t, False)
        self._put(frm, EMPTY)
        self._put(t, code)
        self.kings[p] = t

    def _apply_castle(self, frm: int, t: int) -> None:
        b = self.board
        p = self.turn
        rook = ROOK | p << 4
        c = b[t]
        if c == rook:
            self._put(frm, rook)
            self._put(t, CASTLE | p << 4)
            self.kings[p] = t
            self._note("king moved to another castle")
        elif frm % SIZE != t % SIZE and frm // SIZE != t // SIZE:
            if c:
                self._strike(frm, t, False)
            self._put(frm, rook)
            self._put(t, KING | p << 4)
            self.kings[p] = t
            self._note("king left his castle")
        else:
            self._put(frm, EMPTY)
            self._put(t, CASTLE | p << 4)
            self.kings[p] = t

    def _apply_pawn(self, frm: int, t: int, code: int, promo: str) -> None:
        b = self.board
        p = self.turn
        far = SIZE - 1 if p == 0 else 0
        df, dr = _unit(frm, t)
        dist = abs(t // SIZE - frm // SIZE)
        c = b[t]

        def promoted(sq: int, pawn: int) -> int:
            if sq // SIZE == far and pawn >> 4 == p:
                self._note("pawn promoted")
                return "..QBNR".index(promo) | p << 4 if promo else QUEEN | p << 4
            return pawn

        if c == ROCK and dist <= 1:
            self._push_rock(t, _step(t, df, dr))
        elif c & 7 == PAWN and df * dr == 0 and dist <= 1:
            dest = _step(t, df, dr)
            if b[dest]:
                if self._strike(t, dest, False) != "move":
                    return                      # a rook converted: nobody moves
                self._note("strength in numbers")
            else:
                self._note("pawn pushed")
            self._put(dest, promoted(dest, c))
        elif c:
            if self._strike(frm, t, False) != "move":
                return
        self._put(frm, EMPTY)
        self._put(t, promoted(t, code))


_NAMES = {KING: "king", QUEEN: "queen", BISHOP: "bishop", KNIGHT: "knight",
          ROOK: "rook", CASTLE: "castle", PAWN: "pawn"}
