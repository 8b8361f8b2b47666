"""Install Gatehouse the way the sysop guide says: a wheel, installed (not
editable) into a fresh venv, the server started from an unrelated folder
with a settings file naming a state directory; a caller on telnet sees the
title art, every Kingdom board, and a game; the Awari table is built in the
state directory; `gatehouse games` from another folder finds the record.

Slow (a wheel build and a venv, about half a minute): marked ``slow``, and
part of ``make test`` all the same."""
from __future__ import annotations

import asyncio
import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from doors.awari import endgame
from tests.e2e.harness import DOWN, ENTER, RIGHT, Caller, door_digit, wait_until

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
SHIPPED_BOARDS = {"default", "fortress", "skirmish"}
STONES = 8          # a small Awari table: the build takes a second, not two minutes


def _run(*argv: str | Path, cwd: Path | None = None, timeout: float = 300) -> str:
    done = subprocess.run([str(a) for a in argv], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout, env=_clean_env())
    assert done.returncode == 0, f"{argv} failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout


def _clean_env() -> dict[str, str]:
    """No way back to the checkout: no PYTHONPATH, no venv of ours."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """A fresh venv with Gatehouse installed from a wheel; returns the venv."""
    tmp = tmp_path_factory.mktemp("install")
    src = tmp / "src"
    src.mkdir()
    shutil.copy(ROOT / "pyproject.toml", src)
    for package in ("server", "ansi", "doors"):
        shutil.copytree(ROOT / package, src / package,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    _run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", tmp / "wheel", "./src",
         cwd=tmp)
    wheels = list((tmp / "wheel").glob("gatehouse-*.whl"))
    assert len(wheels) == 1
    venv = tmp / "venv"
    _run(sys.executable, "-m", "venv", venv)
    _run(venv / "bin" / "python", "-m", "pip", "install", "--quiet", wheels[0])
    where = _run(venv / "bin" / "python", "-c",
                 "import doors, server, ansi; print(doors.__file__, server.__file__, ansi.__file__)",
                 cwd=tmp)
    assert all(p.startswith(str(venv)) for p in where.split()), where   # not editable
    return venv


async def _start_server(venv: Path, settings: Path, cwd: Path) -> tuple[asyncio.subprocess.Process, int]:
    proc = await asyncio.create_subprocess_exec(
        str(venv / "bin" / "gatehouse"), "serve", "--config", str(settings), cwd=cwd,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, env=_clean_env())
    assert proc.stdout is not None
    line = (await asyncio.wait_for(proc.stdout.readline(), 60)).decode()
    found = re.search(r"telnet://127\.0\.0\.1:(\d+)", line)
    assert found, f"no listening line: {line!r}"
    return proc, int(found.group(1))


async def _board_choices(caller: Caller) -> set[str]:
    """Step through the Board option with RIGHT until it comes round again."""
    seen: list[str] = []
    while True:
        text = await caller.expect(r"Board\s+< (\S+?): ", regex=True)
        name = re.search(r"Board\s+< (\S+?): ", text).group(1)   # type: ignore[union-attr]
        if seen and name == seen[0]:
            return set(seen)
        assert name not in seen, f"{name} twice in {seen}"
        seen.append(name)
        caller.send(RIGHT)
        await caller.expect_gone(f"< {name}: ")


async def test_installed_wheel_serves_from_an_unrelated_folder(installed, tmp_path):
    etc, run, other = tmp_path / "etc", tmp_path / "run", tmp_path / "other"
    for folder in (etc, run, other):
        folder.mkdir()
    settings = etc / "gatehouse.toml"
    settings.write_text(f'[paths]\nstate_dir = "../state"\n[server]\nport = 0\n'
                        f'[awari]\nendgame_stones = {STONES}\n')
    state = tmp_path / "state"
    proc, port = await _start_server(installed, settings, run)
    try:
        caller = await Caller.connect(port)
        text = await caller.expect("╬═╬═╬═╬═╬═╬")          # the gate of the title art
        assert "▄█████▄ ███████ ███████" in text and "G A T E H O U S E" not in text
        await caller.login("Sysadmin")
        caller.send("p")
        await caller.expect("Choose a door")
        caller.send(door_digit("Kingdom"))
        await caller.expect("choose your opponent")
        caller.send("1")
        await caller.expect("Kingdom against The computer: options")
        assert await _board_choices(caller) == SHIPPED_BOARDS
        caller.send(DOWN + ENTER)            # ENTER on any line starts the game
        text = await caller.expect("Your move", timeout=20)
        assert "Sorry" not in text
        await wait_until(lambda: endgame.is_current(state / "awari" / "endgame.bin", STONES),
                         timeout=90, what="the Awari table in the state directory")
        assert (state / "gatehouse.db").is_file() and (state / "sysop.sock").exists()
        await caller.close()
        games = await asyncio.to_thread(
            _run, installed / "bin" / "gatehouse", "games", "--config", "../etc/gatehouse.toml",
            cwd=other)
        assert re.search(r"\d+  kingdom\s+Sysadmin\s+computer:3", games), games
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = await asyncio.wait_for(proc.communicate(), 30)
    log = err.decode("utf-8", "replace")
    assert proc.returncode == 0, log
    assert "Traceback" not in log and "title art" not in log and "failed" not in log, log
    assert "Awari endgame table built" in log
    assert list(run.iterdir()) == [] and list(other.iterdir()) == []    # nothing in the cwd
    assert list(etc.iterdir()) == [settings]


def test_the_systemd_unit_verifies_against_the_installed_command(installed, tmp_path):
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed: the unit was not verified")
    unit = (ROOT / "deploy" / "gatehouse.service").read_text()
    assert "/opt/gatehouse/venv/bin/gatehouse" in unit
    (tmp_path / "gatehouse.service").write_text(
        unit.replace("/opt/gatehouse/venv", str(installed)))
    done = subprocess.run([analyze, "verify", str(tmp_path / "gatehouse.service")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "gatehouse.service" not in done.stderr, done.stderr
