"""Shared helpers for the Stratego tests."""
from __future__ import annotations

import importlib.util
import pathlib
import random
from collections.abc import Callable
from types import ModuleType
from typing import Any

from doors.stratego.belief import R_OF
from doors.stratego.pieces import COUNTS, parse_square
from doors.stratego.rules import Piece, StrategoState
from doors.stratego.setup import random_fill


def sq(name: str) -> int:
    return parse_square(name)


def position(pieces: dict[str, tuple[int, str]], turn: int = 0,
             **options: object) -> StrategoState:
    """A state in play with just these pieces ("A1": (owner, rank))."""
    state = StrategoState(options)
    for name, (owner, rank) in pieces.items():
        state.board[sq(name)] = Piece(owner, rank)
    state.phase = "play"
    state.ready = [True, True]
    state.turn = turn
    return state


def started(seed: int = 0, **options: object) -> StrategoState:
    """A fresh game with both setups filled at random and both Ready."""
    rng = random.Random(seed)
    state = StrategoState(options)
    for p in (0, 1):
        state.apply(p, random_fill(p, (), rng))
    state.apply(0, state.legal_actions(0)[-1])
    state.apply(1, state.legal_actions(1)[-1])
    return state


def played(seed: int, plies: int) -> StrategoState:
    """A random game after ``plies`` random moves (strikes thin both
    armies out)."""
    rng = random.Random(seed)
    state = started(seed)
    for _ in range(plies):
        if state.is_terminal():
            break
        state.apply(state.turn, rng.choice(state.legal_actions(state.turn)))
    return state


def cells_of(state: StrategoState) -> tuple[list[int], set[int]]:
    """The search's board of ``state`` (every rank), and the squares of
    the pieces that moved or were shown."""
    cells = [-1] * 100
    seen = set()
    for x, piece in enumerate(state.board):
        if piece is not None:
            cells[x] = piece.owner * 16 + R_OF[piece.rank]
            if piece.revealed or piece.moved:
                seen.add(x)
    return cells, seen


def played_cells(seed: int, plies: int) -> list[int]:
    """The search's board after ``plies`` random moves of a random game."""
    cells, _ = cells_of(played(seed, plies))
    return cells


def move(state: StrategoState, a: str, b: str, player: int | None = None) -> None:
    from doors.stratego.pieces import Move
    state.apply(state.turn if player is None else player, Move(sq(a), sq(b)))


def with_losses(state: StrategoState) -> StrategoState:
    """Count every piece not on the board as lost (a consistent endgame)."""
    for p in (0, 1):
        left = dict(COUNTS)
        for piece in state.board:
            if piece is not None and piece.owner == p:
                left[piece.rank] -= 1
        state.lost[p][:] = [r for r, n in left.items() for _ in range(n)]
    return state


def random_line(search: Any, picks: list[int],
                after: Callable[[int, int, int], None] | None = None) -> list[tuple[int, int, int, int, float]]:
    """Play ``search``'s moves picked by ``picks`` (ours first, sides
    alternating) until a side has none or one takes the flag, calling
    ``after(s, t, d)`` after each; what ``undo_line`` needs to undo them."""
    done = []
    for i, pick in enumerate(picks):
        moves = search.moves(i % 2)
        if not moves:
            break
        s, t = moves[pick % len(moves)]
        a, d = search.b[s], search.b[t]
        delta = search.play(s, t)
        if delta is None:       # the flag taken: the board is left as it was
            break
        done.append((s, t, a, d, delta))
        if after is not None:
            after(s, t, d)
    return done


def undo_line(search: Any, done: list[tuple[int, int, int, int, float]]) -> None:
    for s, t, a, d, delta in reversed(done):
        search.unplay(s, t, a, d, delta)


def load_script(name: str, folder: str = "scripts") -> ModuleType:
    """``<folder>/<name>.py`` loaded as a module (the scripts and benches are no package)."""
    path = pathlib.Path(__file__).resolve().parents[3] / folder / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
