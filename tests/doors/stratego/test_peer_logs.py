"""``scripts/stratego_log_stats.py`` reads the referee's logs of our games
against outside bots and says how our officers were lost."""
from __future__ import annotations

from .helpers import load_script


def load_stats():  # type: ignore[no-untyped-def]
    return load_script("stratego_log_stats")


# RED (theirs) on rows 0-3, with its Marshal on A4 and its Spy on F4; ours
# (BLUE) on rows 6-9: Marshal E7, Scout A7, General A8. Our Scout strikes their
# Marshal and shows it; their Spy takes our Marshal, their Marshal our General.
GAME = """/tmp/peers/peternlewis RED SETUP
BBBBBBBBBB
..........
..........
1....s....
/tmp/stratego_peers_x/ours0.sh BLUE SETUP
9...1.....
2.........
..........
..........
1 RED: 0 3 DOWN 1 OK
1 BLU: 4 6 UP 1 OK
2 RED: 9 0 DOWN 1 OK
2 BLU: 4 5 UP 1 OK
3 RED: 9 1 DOWN 1 OK
3 BLU: 4 4 UP 1 OK
4 RED: 5 3 LEFT 1 KILLS s 1
4 BLU: 0 6 UP 2 DIES 9 1
5 RED: 0 4 DOWN 1 OK
5 BLU: 0 7 RIGHT 1 OK
6 RED: 0 5 DOWN 1 OK
6 BLU: 1 7 LEFT 1 OK
7 RED: 0 6 DOWN 1 KILLS 1 2
Game ends on RED's turn - REASON: Destroyed all mobile enemy pieces
/tmp/peers/peternlewis RED VICTORY 6 1 1
"""


def test_losses_are_told_by_taker_place_and_whether_the_taker_was_known(tmp_path, capsys):
    """Their hidden Spy takes our Marshal in their camp; their Marshal,
    shown when our Scout struck it, takes our General in our camp."""
    (tmp_path / "game0.log").write_text(GAME)
    load_stats().main([str(tmp_path)])
    out = capsys.readouterr().out.splitlines()
    assert "games: 1 games" in out and "lost: 1 games" in out
    assert "our 1 lost struck by s in their camp (taker hidden): 1 times, 1.00 a game, 1 in lost games" in out
    assert "our 2 lost struck by 1 in our camp (taker known): 1 times, 1.00 a game, 1 in lost games" in out
    # our Marshal, General and Scout gone by the end (turn 7), nothing of theirs
    assert "lost from a lead of 100 or more at turn 100 or 150: 0 games" in out
    assert "lost from 100 or more behind at turn 150: 1 games" in out
    # the strikes' balance: our Scout died on their hidden Marshal; their
    # Spy and Marshal took our Marshal and General, both still hidden
    assert "we struck their hidden pieces: won 0 and lost 12 a game, in lost games 0 and 12" in out
    assert "we struck their revealed pieces: won 0 and lost 0 a game, in lost games 0 and 0" in out
    assert "they struck our hidden pieces: won 420 and lost 0 a game, in lost games 420 and 0" in out
    assert "they struck our revealed pieces: won 0 and lost 0 a game, in lost games 0 and 0" in out
    # no revealed piece of ours was taken by a revealed one that had just stepped next to it
    assert "cornered and trapped: 0 times, 0.00 a game (none)" in out
    assert "cornered and could have fled: 0 times, 0.00 a game (none)" in out
    assert len(out) == 12, out


def test_a_piece_is_trapped_when_no_square_beside_it_is_empty():
    """Squares as the referee's logs number them (row * 10 + column). The
    corner 99, beside the striker on 89 and a piece on 98, has no way out;
    with 98 empty it could have fled. The lake below 32 walls it in as the
    board's edge does."""
    trapped = load_stats().trapped
    assert trapped({98, 89}, 99)
    assert not trapped({89}, 99)
    assert trapped({31, 22, 33}, 32)
    assert not trapped({31, 22}, 32)


def test_an_unfinished_log_is_not_counted(tmp_path, capsys):
    (tmp_path / "game0.log").write_text(GAME.rsplit("Game ends", 1)[0])
    load_stats().main([str(tmp_path)])
    assert capsys.readouterr().out.splitlines()[:2] == ["games: 0 games", "lost: 0 games"]

