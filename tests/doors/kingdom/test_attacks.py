"""Attacked squares (issue 16.10): the king may not step where an enemy
piece could move to and take him, and every capture the move generator
makes counts as an attack: an enemy castle's king stepping out diagonally,
an enemy king's step, a pawn pushed onto him by a friend (strength in
numbers). Hand-built positions first, then a hypothesis property tying
``Position.attacked`` to the move generator itself."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from doors.kingdom.ai import KingdomBot
from doors.kingdom.position import (
    BISHOP,
    CASTLE,
    EMPTY,
    KING,
    KNIGHT,
    NEIGHBOURS,
    NSQ,
    PAWN,
    QUEEN,
    ROCK,
    ROOK,
    SIZE,
    Position,
)

from .helpers import at, legal, make, play, targets


# ----- the repro: a castle next to the king ---------------------------
def test_king_may_not_step_next_to_an_enemy_castle():
    s = make({"j10": "K", "a1": "R", "l12": "c"})
    assert "k11" not in targets(s, "j10")
    assert targets(s, "j10") == {"i9", "i10", "i11", "j9", "j11", "k9", "k10"}
    assert "king" in s.why_illegal(0, s.parse_action("j10-k11"))


def test_castle_releases_its_king_diagonally_onto_the_enemy_king():
    s = make({"k11": "K", "a1": "R", "l12": "c"}, turn=1)
    assert s.pos.in_check(0)
    play(s, "l12-k11")
    assert s.outcome().winner == 1 and at(s, "k11") == "k" and at(s, "l12") == "r"


def test_castle_orthogonal_neighbours_are_not_attacked():
    s = make({"j10": "K", "l10": "c"})          # k10 touches the castle straight
    assert "k10" in targets(s, "j10") and {"k9", "k11"} & targets(s, "j10") == set()
    s = make({"j10": "K", "l11": "c"})          # k10 and k12 are diagonal to l11
    assert "k10" not in targets(s, "j10") and {"k9", "k11"} <= targets(s, "j10")


def test_castle_does_not_attack_a_square_its_king_could_not_survive_on():
    # k11 is covered by the white queen: the black king may not step out there,
    # so the castle does not attack it and the white king may go
    s = make({"j10": "K", "k2": "Q", "l12": "c"})
    assert "k11" in targets(s, "j10")
    play(s, "j10-k11")
    assert "k11" not in targets(s, "l12") and not s.pos.in_check(0)


def test_king_in_check_from_a_castle_takes_a_rook_outright():
    # the castle on k11 checks j10 diagonally (nothing else does); i9 is
    # safe: he takes the rook there instead of converting it
    s = make({"j10": "K", "i9": "r", "k11": "c"})
    assert s.pos.in_check(0)
    play(s, "j10-i9")
    assert at(s, "i9") == "K" and at(s, "j10") == "." and "rook destroyed" in s.events


def test_king_leaving_his_castle_may_not_step_next_to_the_enemy_castle():
    s = make({"j10": "C", "l12": "c"})
    assert "k11" not in targets(s, "j10") and {"i9", "i11", "k9"} <= targets(s, "j10")


# ----- strength in numbers -----------------------------------------------------
def test_king_may_not_step_where_a_pushed_pawn_would_take_him():
    s = make({"j10": "K", "j12": "p", "j13": "p"})     # j13 pushes j12 down onto j11
    assert "j11" not in targets(s, "j10")
    s = make({"j10": "K", "g10": "p", "h10": "p"})     # g10 pushes h10 right onto i10
    assert "i10" not in targets(s, "j10") and "i11" in targets(s, "j10")
    s = make({"j10": "K", "j12": "p"})                 # one pawn alone pushes nothing
    assert "j11" in targets(s, "j10")


def test_pushed_pawn_takes_the_king_and_that_is_check():
    s = make({"j11": "K", "j12": "p", "j13": "p"}, turn=1)
    assert s.pos.in_check(0)
    play(s, "j13-j12")
    assert s.outcome().winner == 1 and at(s, "j11") == "p"


# ----- kings side by side --------------------------------------------------------
def test_king_may_step_next_to_the_enemy_king_on_a_defended_square():
    # the black king could only take on d4 by stepping onto the knight's square
    s = make({"c3": "C", "b5": "N", "e5": "k", "s19": "#"})
    assert "d4" in targets(s, "c3")
    play(s, "c3-d4")
    assert "d4" not in targets(s, "e5")
    s = make({"c3": "C", "e5": "k"})                   # undefended: he may not
    assert "d4" not in targets(s, "c3") and "d4" not in targets(make({"d3": "K", "e5": "k"}), "d3")


# ----- the computer sees it --------------------------------------------------------
def test_bot_looking_one_move_ahead_keeps_the_castle_off_its_king():
    # the white pawn on j10 is all that keeps the black castle's king off k11;
    # taking the bishop on i11 (or stepping to j11) would let him in; the
    # rook on l15 keeps the white king from taking the castle himself
    s = make({"k11": "K", "j10": "P", "i11": "b", "l12": "c", "l15": "r"})
    assert not s.pos.in_check(0) and "j10-i11" in legal(s)
    for seed in range(4):
        bot = KingdomBot(level=4, seed=seed)
        bot.nodes_budget = len(s.legal_actions()) + 2      # depth 1 only
        move = bot.choose(s.observation(0), 0)
        after = s.clone()
        after.apply(0, move)
        king = after.pos.kings[0]
        assert all(m.to != king for m in after.legal_actions(1)), s.action_to_str(move)


# ----- the property: attack set == the squares the generator captures on -----------
def _landings(pos: Position, mv) -> set[int]:
    """Squares on which the move lands a piece of the mover onto an enemy
    piece: the target, a knight's first landing, or the square a pawn is
    pushed onto by its friend. (A rock crush lands a rock, not a piece.)"""
    b = pos.board
    out = set()
    mover = b[mv.frm]
    if b[mv.to] not in (EMPTY, ROCK) and b[mv.to] >> 4 != pos.turn:
        out.add(mv.to)
    if mv.mid >= 0 and b[mv.mid] not in (EMPTY, ROCK):
        out.add(mv.mid)
    if mover & 7 == PAWN and b[mv.to] == PAWN | pos.turn << 4:
        f, r = mv.to % SIZE * 2 - mv.frm % SIZE, mv.to // SIZE * 2 - mv.frm // SIZE
        if 0 <= f < SIZE and 0 <= r < SIZE and b[r * SIZE + f] not in (EMPTY, ROCK):
            out.add(r * SIZE + f)
    return out


_KINDS = [QUEEN, BISHOP, KNIGHT, ROOK, PAWN, PAWN, ROCK, ROCK]


@st.composite
def _positions(draw):
    """A king of player 0 in the middle of a crowd of pieces in a 9x9 window,
    player 1 with a king or a castle near him."""
    board = [EMPTY] * NSQ
    cells = [r * SIZE + f for r in range(5, 14) for f in range(5, 14)]
    chosen = draw(st.lists(st.sampled_from(cells), min_size=3, max_size=22, unique=True))
    king, royal, rest = chosen[0], chosen[1], chosen[2:]
    board[king] = KING
    board[royal] = draw(st.sampled_from([KING, CASTLE])) | 16
    for sq in rest:
        kind = draw(st.sampled_from(_KINDS))
        board[sq] = kind if kind == ROCK else kind | draw(st.integers(0, 1)) << 4
    return board, king


@settings(max_examples=300, deadline=None)
@given(_positions())
def test_attacked_is_exactly_where_the_enemy_can_take_the_king(case):
    board, king = case
    enemy = Position(board[:], turn=1)
    takes = any(king in _landings(enemy, mv) for mv in enemy.moves() if not mv.is_pass)
    assert Position(board[:], turn=0).attacked(king, 1) == takes


@settings(max_examples=200, deadline=None)
@given(_positions())
def test_king_steps_exactly_onto_squares_where_no_enemy_move_takes_him(case):
    board, king = case
    pos = Position(board[:], turn=0)
    offered = {mv.to for mv in pos.moves_from(king)}
    for t in NEIGHBOURS[king]:
        c = board[t]
        if c == ROCK or (c and (c >> 4 == 0 or c & 7 == ROOK)):
            continue                  # rocks, own pieces, rooks: other rules
        after = board[:]
        after[king], after[t] = EMPTY, KING
        enemy = Position(after, turn=1)
        safe = not any(t in _landings(enemy, mv) for mv in enemy.moves() if not mv.is_pass)
        assert (t in offered) == safe, (t, c)

