"""Small helpers to build Kingdom positions in tests."""
from __future__ import annotations

from doors.kingdom.boards import encode_layout, symbol_code
from doors.kingdom.position import NSQ, parse_square
from doors.kingdom.rules import KingdomState


def make(pieces: dict[str, str], turn: int = 0, pawns: str = "move") -> KingdomState:
    """A state from {"e4": "Q", "e5": "#", ...}; kings default to a1 / s19
    when not given. ``turn`` 1 makes player 1 to move (as if a pass)."""
    board = [0] * NSQ
    for name, sym in pieces.items():
        board[parse_square(name)] = symbol_code(sym)
    syms = set(pieces.values())
    if not syms & {"K", "C"}:
        board[parse_square("a1")] = symbol_code("K")
    if not syms & {"k", "c"}:
        board[parse_square("s19")] = symbol_code("k")
    state = KingdomState({"board": "test", "pawns": pawns, "layout": encode_layout(board)})
    if turn == 1:
        state.apply(0, state.parse_action("pass"))
    return state


def play(state: KingdomState, *texts: str) -> KingdomState:
    for text in texts:
        state.apply(state.current_player(), state.parse_action(text))
    return state


def legal(state: KingdomState) -> set[str]:
    return {state.action_to_str(a) for a in state.legal_actions()}


def targets(state: KingdomState, frm: str) -> set[str]:
    sq = parse_square(frm)
    return {state.action_to_str(a).split("-", 1)[1] for a in state.legal_actions()
            if a.frm == sq}


def at(state: KingdomState, name: str) -> str:
    from doors.kingdom.boards import code_symbol
    return code_symbol(state.pos.board[parse_square(name)])
