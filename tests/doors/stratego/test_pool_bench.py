"""The pool bench's pieces: the table it prints, the material script over
the referee's logs, and the scripted opponents' tricks."""
from __future__ import annotations

from pathlib import Path

from doors.stratego.pieces import Move

from .helpers import load_script, sq

LOG = """\
/tmp/x/ours0.sh RED SETUP
B9999999999
...
/tmp/peers/bin/bot BLUE SETUP
...
1 RED: 0 3 DOWN 1 OK
1 BLU: 0 6 UP OK
2 RED: 5 3 DOWN 1 KILLS 4 9
2 BLU: 0 5 UP OK
3 RED: 5 4 DOWN 1 DIES 6 B
3 BLU: 0 4 UP KILLS 8 B
4 RED: 1 3 DOWN 1 OK
4 BLU: 0 3 UP KILLS 8 F
Game ends on BLUE's turn - REASON: Captured the flag
/tmp/peers/bin/bot BLUE VICTORY 4 30 30
"""


def test_the_material_script_says_where_material_went_and_who_took_the_flag(tmp_path: Path) -> None:
    mod = load_script("stratego_material", "bench")
    log = tmp_path / "bot" / "game0.log"
    log.parent.mkdir()
    log.write_text(LOG)
    ours, result, table = mod.game(str(log))
    assert (ours, result) == ("RED", "loss")
    assert table["flag taken by rank 8 after 1 of our bombs"] == 1.0
    assert table["opening: we struck and lost (bomb)"] > 0          # our Lieutenant on their bomb
    assert table["opening: theirs lost"] > 0                         # their Scout
    assert table["opening: they struck and took"] == mod.value("B")  # our bomb (the flag is worth 0)


KNOWN = """\
/tmp/x/ours0.sh RED SETUP
7........9
6.........
..........
..........
/tmp/peers/bin/bot BLUE SETUP
..........
..........
..........
3.........
1 RED: 0 1 DOWN 1 OK
1 BLU: 0 9 UP 1 OK
2 RED: 0 2 DOWN 1 OK
2 BLU: 0 8 UP 1 OK
3 RED: 0 3 DOWN 1 OK
3 BLU: 0 7 UP 1 OK
4 RED: 0 4 DOWN 1 OK
4 BLU: 0 6 UP 1 KILLS 3 6
5 RED: 0 0 DOWN 1 OK
5 BLU: 0 5 UP 1 OK
6 RED: 0 1 DOWN 1 OK
6 BLU: 0 4 UP 1 OK
7 RED: 0 2 RIGHT 1 OK
7 BLU: 0 3 UP 1 OK
8 RED: 9 0 DOWN 1 OK
8 BLU: 0 2 RIGHT 1 KILLS 3 7
Game ends on BLUE's turn - REASON: Destroyed all mobile enemy pieces
/tmp/peers/bin/bot BLUE VICTORY 8 30 30
"""


def test_the_material_script_says_whether_a_taken_piece_was_known(tmp_path: Path) -> None:
    """Their hidden Colonel takes our hidden Lieutenant, is shown by it,
    then takes our Sergeant, hidden too: the second one was lost to a
    piece we knew."""
    mod = load_script("stratego_material", "bench")
    log = tmp_path / "bot" / "game0.log"
    log.parent.mkdir()
    log.write_text(KNOWN)
    _, result, table = mod.game(str(log))
    assert result == "loss"
    assert table["opening: they struck and took, ours hidden, theirs hidden"] == mod.value("6")
    assert table["opening: they struck and took, ours hidden, theirs known"] == mod.value("7")


def test_the_pool_table_counts_each_opponents_games_and_how_they_were_lost() -> None:
    mod = load_script("stratego_pool", "bench")
    rows = mod.table({"ramen": [("win", "flag"), ("draw", "turn limit"), ("loss", "flag"), ("loss", "flag")]})
    assert rows[-1] == "| ramen | 4 | 1 | 1 | 2 | drawn: turn limit 1, flag 2 |"


def test_the_scripted_spy_walks_to_our_revealed_marshal() -> None:
    """The ``spy`` opponent (Blue) sends its Spy along a shortest free walk
    to our Marshal once it is revealed, and strikes it when next to it."""
    mod = load_script("stratego_scripted", "bench")
    spy = mod.Spy(1)
    spy.me = 1
    spy.board = [None] * 100
    spy.board[sq("E8")] = [1, "S", True, False]
    spy.board[sq("J10")] = [1, "F", False, False]
    spy.board[sq("E5")] = [0, "1", True, True]        # our Marshal, revealed
    spy.board[sq("A1")] = [0, None, False, False]
    move = spy.choose(spy.observation())
    assert move == Move(sq("E8"), sq("E7"))
    spy.board[sq("E6")], spy.board[sq("E8")] = spy.board[sq("E8")], None
    assert spy.choose(spy.observation()) == Move(sq("E6"), sq("E5"))


def test_the_scripted_setups_keep_their_promise() -> None:
    """``open_flag``: no bomb next to the flag, which is off the back row;
    ``front_bombs``: all six bombs on the front row."""
    mod = load_script("stratego_scripted", "bench")
    for seed in range(6):
        side = mod.OpenFlag(seed)
        side.me = 1
        grid = side.layout()
        flag = next(s for s, r in grid.items() if r == "F")
        assert flag // 10 != 9 and all(grid.get(n) != "B" for n in mod.NEIGHBOURS[flag])
        side = mod.FrontBombs(seed)
        side.me = 0
        grid = side.layout()
        bombs = {s for s, r in grid.items() if r == "B"}
        assert len(bombs) == 6 and bombs <= set(range(30, 40))     # Red's front row is row 4
