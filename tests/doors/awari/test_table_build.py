"""The endgame table build as the server runs it: its own process, lower
priority, progress a sysop can read (missing / building N% / failed / ready),
and a failure with its reason."""
from __future__ import annotations

import os
import subprocess
import sys

from doors.awari import endgame


def run_build(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "doors.awari", "build", "--quiet", *args],
                          capture_output=True, text=True, timeout=120)


def test_build_writes_the_table_and_reports_ready(tmp_path):
    path = tmp_path / "awari" / "endgame.bin"
    assert endgame.table_status(path, 6) == "missing"
    done = run_build("--path", str(path), "--stones", "6", "--jobs", "1", "--nice", "5")
    assert done.returncode == 0, done.stderr
    assert endgame.is_current(path, 6)
    assert endgame.table_status(path, 6) == "ready (6 stones)"
    assert not (tmp_path / "awari" / "endgame.bin.progress").exists()
    assert endgame.table_status(path, 8) == "missing"           # wants a bigger one


def test_progress_is_read_as_building_while_the_builder_lives(tmp_path):
    path = tmp_path / "endgame.bin"
    progress = tmp_path / "endgame.bin.progress"
    progress.write_text(f"building 42 {os.getpid()}\n")
    assert endgame.table_status(path, 16) == "building 42%"
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True).stdout.strip()
    progress.write_text(f"building 42 {dead}\n")                # the builder was killed
    assert endgame.table_status(path, 16) == "missing"


def test_progress_hears_every_share_up_to_the_whole():
    shares: list[float] = []
    endgame.build(7, None, jobs=1, progress=shares.append)
    assert shares == sorted(shares) and shares[-1] == 1.0 and len(shares) > 7


def test_a_failed_build_says_why_in_one_line_and_in_the_status(tmp_path):
    path = tmp_path / "state" / "endgame.bin"
    (tmp_path / "state").mkdir()
    (tmp_path / "state" / "endgame.bin").mkdir()                 # cannot replace a folder
    done = run_build("--path", str(path), "--stones", "4", "--jobs", "1")
    assert done.returncode == 1
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("Awari endgame table not built: cannot write ")
    assert str(path) in last
    status = endgame.table_status(path, 4)
    assert status.startswith("failed: cannot write ") and str(path) in status


def test_the_build_lowers_its_own_priority_in_process():
    code = ("import os; from doors._core.table_build import lower_priority;"
            "a = os.getpriority(os.PRIO_PROCESS, 0); why = lower_priority(5);"
            "print(a, os.getpriority(os.PRIO_PROCESS, 0), repr(why))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60).stdout.split(maxsplit=2)
    before, after, why = int(out[0]), int(out[1]), out[2].strip()
    assert after == min(19, before + 5) and why == "''"


def test_the_server_s_runner_lowers_the_priority_then_runs_the_build(tmp_path):
    """What the server starts (doors._core.table_build 15 doors.awari build ...):
    no `nice` program, the build itself runs at the lowered priority and prints
    its progress as "building N%" lines."""
    path = tmp_path / "endgame.bin"
    done = subprocess.run([sys.executable, "-m", "doors._core.table_build", "7", "doors.awari",
                           "build", "--path", str(path), "--stones", "5", "--jobs", "1", "--quiet"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert endgame.table_status(path, 5) == "ready (5 stones)"
    lines = done.stderr.split()
    assert "0%" in lines and "100%" in lines
