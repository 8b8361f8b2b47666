"""A slow, obviously correct Kingdom move generator, written straight from the
rules (RULES.md + the decisions in doors/kingdom/rules.py) with coordinates
and brute force: for every own piece, every target square (and for knights
every first landing) is tested against the rule's definition. It shares only
the square codes and the Move type with the fast generator.
"""
from __future__ import annotations

from doors.kingdom.position import BISHOP, CASTLE, EMPTY, KING, KNIGHT, PASS, PAWN, QUEEN, ROCK, ROOK, Move

N = 19


def xy(sq):
    return sq % N, sq // N


def sq_of(x, y):
    return y * N + x if 0 <= x < N and 0 <= y < N else None


def owner(c):
    return c >> 4


def kind(c):
    return c & 7 if c != ROCK else None


def is_piece(c):
    return c not in (EMPTY, ROCK)


def sign(v):
    return (v > 0) - (v < 0)


def between(a, b):
    """Squares strictly between a and b on a line (None if not on a line)."""
    (x1, y1), (x2, y2) = xy(a), xy(b)
    dx, dy = x2 - x1, y2 - y1
    if not (dx == 0 or dy == 0 or abs(dx) == abs(dy)) or a == b:
        return None
    sx, sy = sign(dx), sign(dy)
    out = []
    x, y = x1 + sx, y1 + sy
    while (x, y) != (x2, y2):
        out.append(sq_of(x, y))
        x, y = x + sx, y + sy
    return out


def is_diag(a, b):
    (x1, y1), (x2, y2) = xy(a), xy(b)
    return a != b and abs(x1 - x2) == abs(y1 - y2)


def is_orth(a, b):
    (x1, y1), (x2, y2) = xy(a), xy(b)
    return a != b and (x1 == x2 or y1 == y2)


def knight_hop(a, b):
    (x1, y1), (x2, y2) = xy(a), xy(b)
    return {abs(x1 - x2), abs(y1 - y2)} == {1, 2}


def first_landing_ok(board, m, knight_side):
    c = board[m]
    return c == EMPTY or (is_piece(c) and owner(c) != knight_side
                          and kind(c) in (QUEEN, BISHOP, KNIGHT, PAWN))


def can_take_on(board, s, t):
    """Could the piece on s move to t by taking an enemy king there (attack)?
    Rock crushes do not count: the rock moves there, not a piece."""
    c = board[s]
    k, side = kind(c), owner(c)
    if k in (QUEEN, BISHOP, ROOK):
        path = between(s, t)
        if path is None or any(board[q] != EMPTY for q in path):
            return False
        return (k == QUEEN or (k == BISHOP and is_diag(s, t))
                or (k == ROOK and is_orth(s, t)))
    if k == KING:   # a king takes only where he will be safe
        (x1, y1), (x2, y2) = xy(s), xy(t)
        return (s != t and max(abs(x1 - x2), abs(y1 - y2)) == 1
                and king_safe(board, s, t, EMPTY, side))
    if k == CASTLE:  # its king steps out diagonally, safely, to take
        return (is_diag(s, t) and between(s, t) == []
                and king_safe(board, s, t, ROOK | side << 4, side))
    if k == KNIGHT:
        if knight_hop(s, t):
            return True
        return any(knight_hop(s, m) and knight_hop(m, t) and m != t and t != s
                   and first_landing_ok(board, m, side) for m in range(N * N))
    if k == PAWN:
        (x1, y1), (x2, y2) = xy(s), xy(t)
        fwd = 1 if side == 0 else -1
        if y2 - y1 == fwd and abs(x2 - x1) == 1:
            return True
        # strength in numbers: a friendly pawn right behind pushes it onto t
        behind = sq_of(2 * x1 - x2, 2 * y1 - y2)
        return (abs(x2 - x1) + abs(y2 - y1) == 1 and behind is not None
                and board[behind] == PAWN | side << 4)
    return False


def attacked(board, t, by):
    return any(is_piece(c) and owner(c) == by and can_take_on(board, s, t)
               for s, c in enumerate(board) if s != t)


def king_safe(board, frm, t, leave, side):
    b = list(board)
    b[frm] = leave
    b[t] = KING | side << 4
    return not attacked(b, t, 1 - side)


def crushable(board, dest, beyond, side):
    c = board[dest]
    if not is_piece(c) or owner(c) == side:
        return False
    if kind(c) == PAWN:
        return True
    if kind(c) in (KING, QUEEN, BISHOP, KNIGHT):
        return beyond is None or board[beyond] == ROCK
    return False


def rock_may_go(board, dest, beyond, side):
    return dest is not None and (board[dest] == EMPTY or crushable(board, dest, beyond, side))


def slider_ok(board, s, t, side, pusher, hot):
    path = between(s, t)
    if path is None:
        return False
    rocks = [q for q in path + [t] if board[q] == ROCK]
    others = [q for q in path if board[q] not in (EMPTY, ROCK)]
    if others:
        return False
    if not rocks:
        c = board[t]
        return c == EMPTY or (is_piece(c) and owner(c) != side)
    if not pusher or len(rocks) != 1 or board[t] not in (EMPTY, ROCK):
        return False
    (x1, y1), (x2, y2) = xy(s), xy(t)
    sx, sy = sign(x2 - x1), sign(y2 - y1)
    dest = sq_of(x2 + sx, y2 + sy)
    beyond = sq_of(x2 + 2 * sx, y2 + 2 * sy)
    return rock_may_go(board, dest, beyond, side)


def pawn_moves(board, s, side, steps, hot):
    out = []
    x, y = xy(s)
    fwd = 1 if side == 0 else -1
    far = N - 1 if side == 0 else 0
    enemy_far = N - 1 if side == 1 else 0

    def emit(t, promote):
        if promote:
            out.extend(Move(s, t, -1, p) for p in "QBNR")
        else:
            out.append(Move(s, t))

    def converts(t):
        return kind(board[t]) == ROOK and t != hot

    for t in range(N * N):
        tx, ty = xy(t)
        dx, dy = tx - x, ty - y
        c = board[t]
        # plain forward move
        if dx == 0 and 1 <= dy * fwd <= steps and dy * fwd >= 1 and sign(dy) == fwd:
            if c == EMPTY and all(board[q] == EMPTY for q in between(s, t)):
                emit(t, ty == far)
        # diagonal take
        if dy == fwd and abs(dx) == 1 and is_piece(c) and owner(c) != side:
            emit(t, ty == far and not converts(t))
        # rock push: left, forward-left, forward, forward-right, right
        if c == ROCK and (dy == fwd and abs(dx) <= 1 or dy == 0 and abs(dx) == 1):
            dest = sq_of(tx + dx, ty + dy)
            beyond = sq_of(tx + 2 * dx, ty + 2 * dy)
            if rock_may_go(board, dest, beyond, side):
                emit(t, False)
        # pawn push: forward, back, left, right
        if is_piece(c) and kind(c) == PAWN and abs(dx) + abs(dy) == 1:
            dest = sq_of(tx + dx, ty + dy)
            if dest is None:
                continue
            dc = board[dest]
            if owner(c) == side:
                if dc == EMPTY or (is_piece(dc) and owner(dc) != side):
                    emit(t, xy(dest)[1] == far and not (dc != EMPTY and converts(dest)))
            elif dc == EMPTY and xy(dest)[1] != enemy_far:
                emit(t, False)
    return out


def reference_moves(pos):
    """All legal moves of the side to move (as a list; PASS included)."""
    if pos.winner is not None or pos.draw:
        return []
    board, side, hot = pos.board, pos.turn, pos.hot
    out = []
    for s, c in enumerate(board):
        if not is_piece(c) or owner(c) != side:
            continue
        k = kind(c)
        if k == PAWN:
            out.extend(pawn_moves(board, s, side, pos.pawn_steps, hot))
            continue
        for t in range(N * N):
            tc = board[t]
            if k in (QUEEN, BISHOP, ROOK):
                geo = (k == QUEEN or (k == BISHOP and is_diag(s, t))
                       or (k == ROOK and is_orth(s, t)))
                if geo and slider_ok(board, s, t, side, k != QUEEN, hot):
                    out.append(Move(s, t))
            elif k == KNIGHT:
                if knight_hop(s, t) and (tc == EMPTY or (is_piece(tc) and owner(tc) != side)):
                    out.append(Move(s, t))
            elif k == KING:
                (x1, y1), (x2, y2) = xy(s), xy(t)
                if s == t or max(abs(x1 - x2), abs(y1 - y2)) != 1:
                    continue
                if tc == ROOK | side << 4:
                    out.append(Move(s, t))
                elif is_piece(tc) and owner(tc) != side and kind(tc) == ROOK:
                    out.append(Move(s, t))
                elif (tc == EMPTY or (is_piece(tc) and owner(tc) != side)) \
                        and king_safe(board, s, t, EMPTY, side):
                    out.append(Move(s, t))
            elif k == CASTLE:
                (x1, y1), (x2, y2) = xy(s), xy(t)
                adjacent = s != t and max(abs(x1 - x2), abs(y1 - y2)) == 1
                if adjacent and tc == ROOK | side << 4:
                    out.append(Move(s, t))
                elif is_orth(s, t):
                    if tc == EMPTY and all(board[q] == EMPTY for q in between(s, t)):
                        out.append(Move(s, t))
                elif adjacent:   # diagonal
                    if (tc == EMPTY or (is_piece(tc) and owner(tc) != side
                                        and kind(tc) != ROOK)) \
                            and king_safe(board, s, t, ROOK | side << 4, side):
                        out.append(Move(s, t))
        if k == KNIGHT:   # double jumps: every first landing, every second
            for m in range(N * N):
                if not (knight_hop(s, m) and first_landing_ok(board, m, side)):
                    continue
                for t in range(N * N):
                    tc = board[t]
                    if (knight_hop(m, t) and t != s
                            and (tc == EMPTY or (is_piece(tc) and owner(tc) != side))):
                        out.append(Move(s, t, m))
    out.append(PASS)
    return out
