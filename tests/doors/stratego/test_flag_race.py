"""``scripts/stratego_flag_race.py`` reads the referee's logs of our games
against outside bots and says how each flag we lost was walked to, and how
our race saw the walker coming."""
from __future__ import annotations

from .helpers import load_script

# Theirs (RED, rows 0-3): a Miner on A4 and a part of their army behind. Ours (BLUE, rows 6-9): the flag on
# A10 behind bombs on A9 and B10, a Captain far off on J7 that walks away
# up the J file. Their Miner walks down the A file, clears the bomb on A9
# and takes the flag.
GAME = """/tmp/peers/peternlewis RED SETUP
FB99999999
BB77776666
5555444433
8.......22
/tmp/stratego_peers_x/ours0.sh BLUE SETUP
.........5
..........
B.........
FB........
1 RED: 0 3 DOWN 1 OK
1 BLU: 9 6 UP 1 OK
2 RED: 0 4 DOWN 1 OK
2 BLU: 9 5 UP 1 OK
3 RED: 0 5 DOWN 1 OK
3 BLU: 9 4 UP 1 OK
4 RED: 0 6 DOWN 1 OK
4 BLU: 9 3 LEFT 1 OK
5 RED: 0 7 DOWN 1 KILLS 8 B
5 BLU: 8 3 LEFT 1 OK
6 RED: 0 8 DOWN 1 VICTORY_FLAG
Game ends on RED's turn - REASON: Captured the flag
/tmp/peers/peternlewis RED VICTORY 6 1 1
"""


def test_a_miner_walk_to_our_flag_is_told_with_the_race_at_each_turn(tmp_path, capsys):
    (tmp_path / "game0.log").write_text(GAME)
    load_script("stratego_flag_race").main([str(tmp_path), "--turns", "3", "--samples", "10"])
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 4, out
    # the walk: five steps and the flag, the bomb on A9 cleared on the way;
    # our last three turns: the Miner hidden on A6 and A7 (a threat only in
    # the samples that make it a Miner: our ring keeps out every other
    # rank), then shown on A8 beside our last bomb, with our Captain far
    # beyond the race's six steps
    line = out[0]
    assert "game0.log turn 6: rank 8, 6 moves, 1 bombs cleared; " in line
    view = line.split("; ")[1].split(", ")
    assert [v.split()[0] for v in view] == ["t3", "t4", "t5"]
    assert view[2] == "t5 6* 1.00"
    assert all(float(v.split()[2]) < 1.0 for v in view[:2])
    assert out[1:] == ["flag losses: 1 games", "flag losses by a Miner through our bombs: 1 games",
                       "flag losses with a defender in time in the last turns: 0 games"]


def test_a_game_we_won_or_lost_otherwise_is_not_counted(tmp_path, capsys):
    (tmp_path / "game0.log").write_text(GAME.replace("6 RED: 0 8 DOWN 1 VICTORY_FLAG\n", ""))
    load_script("stratego_flag_race").main([str(tmp_path)])
    assert capsys.readouterr().out.splitlines()[0] == "flag losses: 0 games"


def test_moves_told_without_a_count_are_read_as_one_square(tmp_path, capsys):
    """Some programs (``celsius``) leave the count out of a one-square move,
    and the referee logs it so: the walk reads the same."""
    (tmp_path / "game0.log").write_text(GAME)
    load_script("stratego_flag_race").main([str(tmp_path), "--turns", "3", "--samples", "10"])
    with_counts = capsys.readouterr().out
    short = GAME.replace(" DOWN 1 ", " DOWN ").replace(" UP 1 ", " UP ").replace(" LEFT 1 ", " LEFT ")
    assert short.count(" 1 ") < GAME.count(" 1 ")
    (tmp_path / "game0.log").write_text(short)
    load_script("stratego_flag_race").main([str(tmp_path), "--turns", "3", "--samples", "10"])
    assert capsys.readouterr().out == with_counts
