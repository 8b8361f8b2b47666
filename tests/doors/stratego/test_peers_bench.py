"""The peers bench's game runner (``bench/stratego_vs_peers.py``), with a
stand-in referee: a game the referee reports is read as the referee says,
and a game that stalls is stopped and counted, the run going on."""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

from doors.stratego.pieces import Move

from .helpers import load_script, position, sq


def bench_module() -> ModuleType:
    return load_script("stratego_vs_peers", "bench")


def referee(tmp: Path, body: str) -> str:
    """A stand-in for the referee: a Python script given the referee's
    arguments (``-o LOG ... RED BLUE``)."""
    path = tmp / "referee"
    path.write_text(f"#!{sys.executable}\nimport sys\nlog = sys.argv[sys.argv.index('-o') + 1]\n{body}\n")
    os.chmod(path, 0o755)
    return str(path)


def args(ref: str, game_timeout: float, seed: int = 1, repeatable: bool = False) -> argparse.Namespace:
    return argparse.Namespace(referee=ref, peer="/bin/true", level=5, seed=seed, timeout=10.0,
                              max_turns=2000, game_timeout=game_timeout, repeatable=repeatable)


def test_a_reported_game_is_scored_for_our_colour(tmp_path: Path) -> None:
    mod = bench_module()
    ref = referee(tmp_path, "open(log, 'w').write('... Captured the flag ...')\nprint('ours RED VICTORY 212')")
    assert mod.play_game(args(ref, 60.0), 0, str(tmp_path))[:2] == ("win", "flag")      # game 0: we are RED
    assert mod.play_game(args(ref, 60.0), 1, str(tmp_path))[:2] == ("loss", "flag")     # game 1: we are BLUE


def test_a_draw_at_the_turn_limit_stays_a_draw_when_the_referee_then_fails(tmp_path: Path) -> None:
    """The referee declares the draw, then loses a program's pipe and
    names the other player's move illegal: the game was drawn."""
    mod = bench_module()
    lines = ["Game ends on BLUE's turn - REASON: Game declared a draw after 1000 turns",
             "SIGPIPE - Broken pipe (AI program no longer running)",
             "Game ends on BLUE's turn - REASON: Internal controller error - Unspecified ERROR"]
    ref = referee(tmp_path, f"open(log, 'w').write(chr(10).join({lines!r}))\n"
                            "print('peer BLUE ILLEGAL 1000 129 95')")
    assert mod.play_game(args(ref, 60.0), 0, str(tmp_path))[:2] == ("draw", "turn limit")


def test_a_repeatable_run_gives_each_game_the_same_peer_seed(tmp_path: Path) -> None:
    """``--repeatable``: the referee's programs get ``$PEER_SEED``, the same
    for a game in every run of one seed and different between games, and
    our side runs without its time cap and with a fixed hash seed."""
    mod = bench_module()
    ref = referee(tmp_path, "import os\nopen(log, 'w').write(os.environ.get('PEER_SEED', '-') + '\\n'"
                            " + open(sys.argv[-2 if 'ours' in sys.argv[-2] else -1]).read())\n"
                            "print('ours RED VICTORY 1')")

    def seen(game: int, seed: int = 1) -> list[str]:
        mod.play_game(args(ref, 60.0, seed, repeatable=True), game, str(tmp_path))
        return (tmp_path / f"game{game}.log").read_text().splitlines()

    first, again, other_game, other_seed = seen(0), seen(0), seen(1), seen(0, seed=2)
    assert first[0] == again[0] != other_game[0]
    assert first[0] != other_seed[0] and first[0].isdigit()
    assert "PYTHONHASHSEED=0" in first[2] and first[2].endswith("--repeatable")
    assert mod.Adapter(5, 1, None, repeatable=True).bot.time_cap is None
    assert mod.Adapter(5, 1, None).bot.time_cap is not None


def test_a_game_that_stalls_is_stopped_and_counted(tmp_path: Path) -> None:
    """The referee never answers (a program hung): past ``--game-timeout``
    the game is a draw by 'stalled', not the end of the whole run."""
    mod = bench_module()
    ref = referee(tmp_path, "import time\nwhile True:\n    time.sleep(60)")
    result, how, _ = mod.play_game(args(ref, 0.5), 0, str(tmp_path))
    assert (result, how) == ("draw", "stalled")


def wait_for(check: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + 120.0
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def test_a_stopped_game_leaves_no_program_running(tmp_path: Path) -> None:
    """The referee's programs go with it: none is left to spin."""
    mod = bench_module()
    pid_file = tmp_path / "child"
    ref = referee(tmp_path, "import os, subprocess, time\n"
                            "child = subprocess.Popen(['sleep', '600'])\n"
                            f"open({str(pid_file)!r} + '.new', 'w').write(str(child.pid))\n"
                            f"os.rename({str(pid_file)!r} + '.new', {str(pid_file)!r})\n"
                            "while True:\n    time.sleep(60)")
    proc = mod.start_game([ref, "-o", str(tmp_path / "log")])
    wait_for(pid_file.exists, "the referee started its program")
    stat = Path(f"/proc/{int(pid_file.read_text())}/stat")
    mod.stop_game(proc)
    assert proc.returncode is not None
    # gone, or a zombie waiting for init to reap it
    wait_for(lambda: not stat.exists() or stat.read_text().rsplit(")", 1)[-1].split()[0] == "Z",
             "the referee's program stopped")


def test_a_reported_move_is_read_with_or_without_its_count() -> None:
    parse = bench_module().parse_move
    assert parse("0 7 DOWN 1 KILLS 8 B") == (70, 80, 1, ["KILLS", "8", "B"])
    assert parse("0 7 DOWN KILLS 8 B") == (70, 80, 1, ["KILLS", "8", "B"])
    assert parse("4 8 UP 8 DIES 9 6") == (84, 4, 8, ["DIES", "9", "6"])
    assert parse("3 2 RIGHT") == (23, 24, 1, [])


def test_a_run_says_how_many_moves_came_near_the_time_cap() -> None:
    """A loaded machine makes the time cap, not the node budget, end our
    sampling (a weaker bot): the run says so, so that runs are compared
    only when few moves came near it."""
    mod = bench_module()
    cap = mod.TIME_CAP
    lines = mod.think_lines([0.1, 0.2, 0.9 * cap, cap])
    assert "peers moves near the time cap: 50.0 %" in lines
    assert f"peers max think time: {cap:.3f} s" in lines
    assert mod.think_lines([]) == []


def test_a_run_started_at_a_later_game_plays_those_games_as_a_whole_run_would(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """``--first 2 --games 4``: games 2 and 3 only, each with the colour and
    the seeds it has in a whole run, so a stopped run can go on."""
    mod = bench_module()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))     # the run's logs, gone with the test
    ref = referee(tmp_path, "import os\nopen(log, 'w').write(os.environ['PEER_SEED'] + ' '"
                            " + open(sys.argv[-2 if 'ours' in sys.argv[-2] else -1]).read())\n"
                            "print('ours RED VICTORY 1')")
    mod.main(["--referee", ref, "--peer", "/bin/true", "--games", "4", "--first", "2",
              "--seed", "7", "--repeatable", "--verbose"])
    out = capsys.readouterr().out
    assert "# game 0" not in out and "# game 1" not in out
    assert "# game 2 (RED): win" in out and "# game 3 (BLUE): loss" in out
    assert "peers games: 2 games" in out and "peers wins: 1 games" in out
    logs = Path(out.split("# logs in ")[1].split()[0])
    for game in (2, 3):
        peer, *agent = (logs / f"game{game}.log").read_text().split()
        assert int(peer) == mod.peer_seed(7, game)
        assert agent[agent.index("--seed") + 1] == str(7 + game)


def test_the_bot_sees_as_many_past_moves_through_the_bench_as_in_the_door() -> None:
    """Thirty moves each side, reported by the referee: the observation the
    bench builds carries the same last moves as the door's own (a long
    chase is seen the same way in both)."""
    mod = bench_module()
    loops = {0: ("E4", "E5", "F5", "F4"), 1: ("A7", "A6", "B6", "B7")}    # round and round
    adapter = mod.Adapter(5, 1, None, repeatable=True)
    adapter.board[sq("E4")] = [0, "4", False, False]
    adapter.board[sq("A7")] = [1, None, False, False]
    state = position({"E4": (0, "4"), "A7": (1, "3"), "A1": (0, "F"), "J10": (1, "F")})
    for k in range(30):
        for player, loop in loops.items():
            frm, to = sq(loop[k % 4]), sq(loop[(k + 1) % 4])
            state.apply(player, Move(frm, to))
            way = {10: "DOWN", -10: "UP", 1: "RIGHT", -1: "LEFT"}[to - frm]
            adapter.apply(player, f"{frm % 10} {frm // 10} {way} 1 OK")
    assert adapter.observation().moves == state.observation(0).moves
    assert len(adapter.observation().moves) == mod.MOVES_KEPT
