"""The endgame table against plain exhaustive search."""
from __future__ import annotations

import functools
import itertools
import random

import pytest

from doors.awari import endgame
from doors.awari.rules import AwariState, sow

STONES = 8


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    path = tmp_path_factory.mktemp("eg") / "endgame.bin"
    built = endgame.build(STONES, path, jobs=1)
    assert endgame.is_current(path, STONES)
    loaded = endgame.load(path)
    assert loaded is not None and bytes(loaded.data.cast("B")) == bytes(built.data.cast("B"))
    return loaded


@functools.cache
def net_gain(board: tuple, player: int, extra: bool) -> int:
    """Plain negamax on the rules' sow(), without the 19 stop: best future
    (own home - other home) gain for ``player`` to move."""
    if not any(board[7 * player:7 * player + 6]):
        return 0
    best = None
    me, other = (6, 13) if player == 0 else (13, 6)
    for hole in range(1, 7):
        if not board[7 * player + hole - 1]:
            continue
        r = sow(board, player, hole, extra)
        gain = (r.board[me] - board[me]) - (r.board[other] - board[other])
        if r.extra_turn:
            v = gain + net_gain(r.board, player, True)
        else:
            v = gain - net_gain(r.board, 1 - player, False)
        best = v if best is None else max(best, v)
    return best


def rows(total):
    for cut in itertools.product(range(total + 1), repeat=6):
        if sum(cut) == total:
            yield cut


def test_every_small_position_matches_search(table):
    checked = 0
    for b in range(0, 7):
        for a in range(b + 1):
            for A in rows(a):
                for B in rows(b - a):
                    for player in (0, 1):
                        board = [0] * 14
                        board[7 * player:7 * player + 6] = A
                        board[7 - 7 * player:13 - 7 * player] = B
                        board[6], board[13] = 36 - b, 0   # homes do not matter
                        for extra in (False, True):
                            assert table.value(board, player, extra) == \
                                net_gain(tuple(board), player, extra), (board, player, extra)
                            checked += 1
    assert checked > 10_000


def test_random_positions_up_to_table_size_match_search(table):
    rng = random.Random(5)
    for _ in range(400):
        b = rng.randint(5, STONES)
        board = [0] * 14
        for _ in range(b):
            board[rng.choice([i for i in range(14) if i not in (6, 13)])] += 1
        player, extra = rng.randint(0, 1), rng.random() < 0.3
        assert table.value(board, player, extra) == net_gain(tuple(board), player, extra)
    board = [1] * 6 + [0] + [1] * 6 + [0]
    assert table.value(board, 0, False) is None      # 12 stones: not covered


@functools.cache
def real_result(board: tuple, player: int, extra: bool) -> int:
    """Win (+1) / tie (0) / loss (-1) for ``player`` with the real rules
    (19 stop included), by exhaustive search over AwariState."""
    s = AwariState.from_position(board, player, extra)
    out = s.outcome()
    if out is not None:
        return 0 if out.winner is None else (1 if out.winner == player else -1)
    best = -2
    for a in s.legal_actions():
        c = s.clone()
        c.apply(player, a)
        v = real_result(tuple(c.board), c.player, c.extra)
        best = max(best, v if c.player == player else -v)
    return best


def test_table_sign_gives_the_real_winner_with_the_19_rule(table):
    rng = random.Random(9)
    for _ in range(300):
        b = rng.randint(1, STONES)
        board = [0] * 14
        for _ in range(b):
            board[rng.choice([i for i in range(14) if i not in (6, 13)])] += 1
        h0 = rng.randint(max(0, 36 - b - 18), min(18, 36 - b))
        board[6], board[13] = h0, 36 - b - h0
        player, extra = rng.randint(0, 1), rng.random() < 0.3
        assert endgame.value_of(table, board, player, extra) == \
            real_result(tuple(board), player, extra), board


def test_stale_or_missing_table_is_refused(tmp_path):
    assert endgame.load(tmp_path / "none.bin") is None
    bad = tmp_path / "bad.bin"
    bad.write_bytes(b"AWARIEGT" + b"\0" * 40)
    assert endgame.load(bad) is None and not endgame.is_current(bad)


def test_ensure_builds_when_missing_or_out_of_date(tmp_path):
    path = tmp_path / "t.bin"
    assert endgame.ensure(4, path, jobs=1) is True
    assert endgame.ensure(4, path, jobs=1) is False
    assert endgame.ensure(3, path, jobs=1) is False          # covers more already
    data = bytearray(path.read_bytes())
    data[8:12] = (endgame.RULES_VERSION + 1).to_bytes(4, "little")
    path.write_bytes(bytes(data))
    assert endgame.load(path) is None
    assert endgame.ensure(4, path, jobs=1) is True
    assert endgame.load(path).stones == 4


def test_parallel_build_matches_serial(tmp_path):
    serial = endgame.build(9, None, jobs=1)
    parallel = endgame.build(9, None, jobs=2)
    assert bytes(serial.data.cast("B")) == bytes(parallel.data.cast("B"))
