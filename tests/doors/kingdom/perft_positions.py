"""Perft positions, perft counting, and the script that (re)writes perft.txt
after checking every node of each tree above the leaves against the slow
reference generator:  python -m tests.doors.kingdom.perft_positions
"""
from __future__ import annotations

from pathlib import Path

from doors.kingdom.boards import encode_layout, symbol_code
from doors.kingdom.position import NSQ, Position, parse_square
from doors.kingdom.rules import KingdomState

PERFT_FILE = Path(__file__).with_name("perft.txt")


def _layout(pieces: dict[str, str]) -> str:
    board = [0] * NSQ
    for name, sym in pieces.items():
        board[parse_square(name)] = symbol_code(sym)
    return encode_layout(board)


# Crafted positions: every special case within a move or two.
MELEE = _layout({
    "j1": "C", "j2": "R", "k2": "R", "i1": "#", "k1": "#",            # castle + rooks
    "c3": "R", "b3": "#", "d3": "#", "c6": "#", "c9": "p", "a3": "#",   # rook between rocks
    "e5": "B", "g7": "#", "i9": "b", "j10": "#",                      # bishop crush
    "m8": "N", "n10": "q", "o12": "r", "l10": "p",                    # knight jumps
    "f4": "P", "f5": "P", "f6": "n", "g4": "#", "e4": "p", "g5": "P",  # pawn pushes
    "q17": "P", "r17": "P",                                             # promotions
    "j19": "k", "j18": "r", "i18": "p", "k17": "b", "p15": "n",
    "a19": "q", "s1": "#", "s2": "R", "r1": "#",
})
KINGS = _layout({
    "j10": "K", "j11": "r", "a10": "q", "k11": "R", "i9": "#", "h12": "n",
    "j19": "c", "j18": "R", "k18": "r", "i17": "B", "l16": "N", "a1": "#", "s19": "#",
})
PAWNS = _layout({
    "a1": "K", "s19": "k",
    "c2": "P", "c3": "P", "c4": "p", "d3": "p", "d2": "#", "e3": "#", "e4": "P",
    "h10": "P", "h11": "P", "h12": "b", "i11": "#", "g11": "p", "h9": "p",
    "m17": "P", "m18": "P", "n18": "r", "l18": "q", "n17": "#",
    "p12": "p", "p11": "p", "p10": "R", "q11": "#", "o11": "P",
})
# Kings next to kings and castles, pawns pushed onto a king's square (issue 16.10).
ROYALS = _layout({
    "j10": "K", "a1": "R", "l12": "c",                                # the castle's reach
    "g10": "p", "h10": "p", "j13": "p", "j12": "p",                    # strength in numbers
    "q3": "r", "r4": "R", "s2": "#", "d8": "B",
})
ROYALS_B = _layout({                                                   # royals side by side
    "c3": "C", "b5": "N", "e3": "P", "e4": "P", "g4": "P", "h4": "P",
    "e5": "k", "f7": "n", "q15": "r", "r15": "#",
})

# (name, board name or layout, pawns, moves before counting, depths)
POSITIONS: list[tuple[str, str, str, str, tuple[int, ...]]] = [
    ("default", "default", "move", "", (1, 2)),
    ("default-push", "default", "push", "", (1, 2)),
    ("fortress", "fortress", "move", "", (1, 2)),
    ("skirmish", "skirmish", "move", "", (1, 2)),
    ("melee", MELEE, "move", "", (1, 2)),
    ("melee-black", MELEE, "move", "pass", (1, 2)),
    ("kings", KINGS, "move", "", (1, 2)),
    ("kings-hot", KINGS, "move", "k11-j11", (1, 2)),
    ("pawns", PAWNS, "move", "", (1, 2)),
    ("pawns-push", PAWNS, "push", "", (1, 2)),
    ("royals", ROYALS, "move", "", (1, 2)),
    ("royals-black", ROYALS, "move", "pass", (1, 2)),
    ("royals-b", ROYALS_B, "move", "", (1, 2)),
    ("royals-b-black", ROYALS_B, "move", "pass", (1, 2)),
]


def setup(board: str, pawns: str, moves: str) -> KingdomState:
    if "/" in board:
        state = KingdomState({"board": "crafted", "pawns": pawns, "layout": board})
    else:
        state = KingdomState({"board": board, "pawns": pawns})
    for text in moves.split():
        state.apply(state.current_player(), state.parse_action(text))
    return state


def perft(pos: Position, depth: int) -> int:
    if depth == 0:
        return 1
    moves = pos.moves()
    if depth == 1:
        return len(moves)
    total = 0
    for mv in moves:
        child = pos.copy()
        child.apply(mv)
        total += perft(child, depth - 1)
    return total


def read_perft() -> list[tuple[str, str, str, str, int, int]]:
    rows = []
    for line in PERFT_FILE.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        name, board, pawns, moves, depth, count = (x.strip() for x in line.split("|"))
        rows.append((name, board, pawns, moves, int(depth), int(count)))
    return rows


def _check_tree(pos: Position, depth: int) -> int:
    """Compare fast and reference generators on every node above depth 0."""
    from .reference import reference_moves
    fast = pos.moves()
    ref = reference_moves(pos)
    assert len(fast) == len(set(fast)) and sorted(fast) == sorted(ref), "mismatch"
    n = 1
    if depth > 1:
        for mv in fast:
            child = pos.copy()
            child.apply(mv)
            n += _check_tree(child, depth - 1)
    return n


def main() -> None:
    lines = ["# Kingdom perft: name | board name or layout | pawns | moves | depth | count",
             "# Written by perft_positions.py after checking the fast generator against",
             "# tests/doors/kingdom/reference.py on every node above the leaves."]
    for name, board, pawns, moves, depths in POSITIONS:
        state = setup(board, pawns, moves)
        checked = _check_tree(state.pos, max(depths))
        for d in depths:
            count = perft(state.pos, d)
            lines.append(f"{name} | {board} | {pawns} | {moves} | {d} | {count}")
            print(lines[-1][:60], "...", count, f"(checked {checked} nodes)")
    PERFT_FILE.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
