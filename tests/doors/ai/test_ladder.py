"""The level ladder the door benches share (``bench/ladder.py``): points
become Elo rungs and anchors as docs/LADDERS.md says, the seats alternate
in pairs, and the doors' declared anchors are the arithmetic of their
documented ladders."""
from __future__ import annotations

import importlib.util
import math
import pathlib
from types import ModuleType

import pytest

from doors import registry
from doors.towers.rules import TowersState

BENCH = pathlib.Path(__file__).resolve().parents[3] / "bench"


def load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def ladder() -> ModuleType:
    return load("ladder")


def test_a_rung_is_the_elo_difference_of_its_score_with_a_half_game_added(ladder) -> None:
    score, diff = ladder.rung(35, 40)
    assert score == pytest.approx(35.5 / 41)
    assert diff == pytest.approx(400 * math.log10(35.5 / 5.5))
    assert ladder.rung(20, 40) == (0.5, 0.0)                      # even: no difference
    sweep = ladder.rung(40, 40)[1]
    assert math.isfinite(sweep) and sweep > 0                     # a clean sweep stays finite
    assert ladder.rung(0, 40)[1] == pytest.approx(-sweep)         # and is symmetric
    assert ladder.rung(19.5, 40)[1] < 0                            # under half: an inverted rung


def test_anchors_start_at_1000_and_add_each_rung(ladder) -> None:
    assert ladder.anchors([]) == [1000]
    assert ladder.anchors([323.9, 133.3, 196.5, 105.0]) == [1000, 1324, 1457, 1654, 1759]
    assert ladder.anchors([100.4, 100.4]) == [1000, 1100, 1201]     # the sum is rounded, not each rung


# the points and games of each rung in docs/LADDERS.md, per door that declares anchors
DOCUMENTED = {
    "awari": ((35, 40), (27.5, 40), (30.5, 40), (26, 40)),
    "stone_towers": ((38, 40), (39.5, 40)),
    "stratego": ((19, 20), (17, 20), (17, 20), (15, 20)),
}


@pytest.mark.parametrize("door", sorted(DOCUMENTED))
def test_the_declared_anchors_are_the_documented_ladder(ladder, door) -> None:
    rungs = DOCUMENTED[door]
    info = registry()[door]
    assert len(rungs) == info.levels[1] - info.levels[0]
    assert list(info.anchors) == ladder.anchors([ladder.rung(p, games)[1] for p, games in rungs])


def test_a_run_alternates_the_seats_in_pairs_and_prints_each_rung(ladder, capsys) -> None:
    calls: list[tuple[int, int, int, int]] = []

    def play(hi: int, lo: int, hi_seat: int, game: int) -> int | None:
        calls.append((hi, lo, hi_seat, game))
        return None if game == 0 else hi_seat if hi == 2 else 1 - hi_seat   # level 3 loses

    diffs = ladder.run("demo", [1, 2], 4, play, (1, 3))
    assert calls[:4] == [(2, 1, 0, 0), (2, 1, 1, 1), (2, 1, 0, 2), (2, 1, 1, 3)]
    assert [c[:2] for c in calls[4:]] == [(3, 2)] * 4
    assert diffs == pytest.approx([ladder.rung(3.5, 4)[1], ladder.rung(0.5, 4)[1]])
    out = capsys.readouterr().out
    assert "demo_ladder_2v1_points: 3.5 points (of 4 games" in out
    assert "demo_ladder_3v2_score: 0.200 ratio" in out
    assert "demo_ladder_rungs_not_rising: 1 rungs" in out
    assert f"demo_ladder_anchors: {' '.join(map(str, ladder.anchors(diffs)))} Elo (levels 1-3)" in out


def test_a_run_out_of_time_ends_on_a_whole_pair_and_skips_the_rest(ladder, capsys) -> None:
    diffs = ladder.run("demo", [1, 2], 4, lambda hi, lo, seat, game: seat, (1, 3), minutes=1e-9)
    assert diffs == []                                          # the clock ran out before any pair
    out = capsys.readouterr().out
    assert "demo_ladder_2v1_skipped: 0 games" in out and "anchors" not in out


def test_the_opening_of_a_pair_is_the_same_for_both_games(ladder) -> None:
    first = ladder.opening(TowersState({"first": 0}), 2, 7)
    again = ladder.opening(TowersState({"first": 0}), 2, 7)
    assert first.history == again.history and len(first.history) == 2


def test_the_ladder_bots_search_by_their_node_budget_alone() -> None:
    towers, kingdom = load("towers_ai"), load("kingdom_ai")
    for level in (1, 3, 5):
        bot = towers.budget_only(towers.make_bot(level, 1))
        assert getattr(bot, "strong", bot).max_time is None
    assert kingdom.budget_only(kingdom.make_bot(5, 1)).max_time is None
