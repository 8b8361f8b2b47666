"""Perft: frozen move-generation counts (checked against the reference
generator when they were written), and the reference itself on fresh
positions from random games."""
from __future__ import annotations

import random

import pytest

from doors.kingdom.position import PASS

from .perft_positions import perft, read_perft, setup
from .reference import reference_moves

ROWS = read_perft()


@pytest.mark.parametrize("row", ROWS, ids=[f"{r[0]}-d{r[4]}" for r in ROWS])
def test_perft(row):
    name, board, pawns, moves, depth, count = row
    assert perft(setup(board, pawns, moves).pos, depth) == count


def test_perft_file_covers_every_shipped_board_and_crafted_cases():
    names = {r[0] for r in ROWS}
    assert {"default", "fortress", "skirmish", "melee", "kings-hot", "pawns-push", "royals", "royals-b"} <= names


@pytest.mark.parametrize("board,pawns,seed", [("default", "move", 1), ("fortress", "push", 2),
                                              ("skirmish", "move", 3)])
def test_fast_generator_matches_reference_along_random_games(board, pawns, seed):
    rng = random.Random(seed)
    state = setup(board, pawns, "")
    for ply in range(400):
        if state.is_terminal():
            break
        fast = state.pos.moves()
        if ply % 8 == 0 or state.pos.hot >= 0 or state.pos.in_check():
            assert len(fast) == len(set(fast))
            assert sorted(fast) == sorted(reference_moves(state.pos)), ply
        choices = [m for m in fast if m != PASS]
        state.apply(state.current_player(), rng.choice(choices))
