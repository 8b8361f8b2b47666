"""``scripts/stratego_belief_fit.py`` scores our belief on the referee's
logs: at each strike that shows a hidden piece of theirs, the odds the
belief gave the rank it showed."""
from __future__ import annotations

import math

import pytest

from doors.stratego import belief

from .helpers import load_script
from .test_peer_logs import GAME


def load_fit():  # type: ignore[no-untyped-def]
    return load_script("stratego_belief_fit")


def figures(out: str) -> dict[str, float]:
    lines = dict(line.split(": ", 1) for line in out.splitlines())
    return {name: float(value.split()[0]) for name, value in lines.items()}


def test_each_strike_on_a_hidden_piece_is_scored_and_a_constant_can_be_changed(tmp_path, capsys):
    """Two strikes show a hidden piece of theirs: their Spy, unmoved on their
    front row, takes our Marshal; our Scout strikes their Marshal, which had
    moved. Their Marshal, shown, then takes our General: not scored."""
    (tmp_path / "game0.log").write_text(GAME)
    fit = load_fit()
    fit.main([str(tmp_path), "--samples", "200"])
    got = figures(capsys.readouterr().out)
    assert got["belief strikes all"] == 2 and got["belief strikes moved"] == 1
    assert got["belief strikes approach"] == 0
    assert math.log(0.5 / 200) <= got["belief log-odds all"] < 0
    # a belief that puts the Spy on the back rows guesses that strike worse
    depth = belief.SPY_DEPTH
    fit.main([str(tmp_path), "--samples", "200", "--set", "SPY_DEPTH=(3.0, 2.0, 0.01, 0.01)"])
    worse = figures(capsys.readouterr().out)
    assert worse["belief log-odds all"] < got["belief log-odds all"]
    assert belief.SPY_DEPTH == depth, "the constant is put back"
    with pytest.raises(SystemExit):
        fit.main([str(tmp_path), "--set", "NO_SUCH=1"])
