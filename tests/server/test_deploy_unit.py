"""The shipped systemd unit and the settings example agree with what the
server does at start: state in /var/lib/gatehouse, no `nice` in the start
path, and the one call the Awari build makes to lower its priority allowed."""
from __future__ import annotations

import sys
from pathlib import Path

from doors import registry
from server.config import Config, PathSettings
from server.services.jobs import build_command

ROOT = Path(__file__).resolve().parents[2]


def unit_settings() -> list[tuple[str, str]]:
    pairs = []
    for line in (ROOT / "deploy" / "gatehouse.service").read_text().splitlines():
        if line.strip() and not line.startswith(("#", "[")):
            key, _, value = line.partition("=")
            pairs.append((key.strip(), value.strip()))
    return pairs


def test_the_unit_keeps_state_in_var_lib_and_starts_gatehouse_directly():
    settings = unit_settings()
    assert ("StateDirectory", "gatehouse") in settings
    assert ("ReadWritePaths", "/var/lib/gatehouse") in settings
    start = [v for k, v in settings if k == "ExecStart"]
    assert start == ["/opt/gatehouse/venv/bin/gatehouse serve --config /etc/gatehouse/gatehouse.toml"]
    assert "nice" not in start[0].split()


def test_the_unit_allows_the_builds_own_priority_change_and_kills_for_nothing():
    filters = [v for k, v in unit_settings() if k == "SystemCallFilter"]
    # systemd applies these in order: allow @system-service, take away
    # @privileged and @resources, give back setpriority alone
    assert filters == ["@system-service", "~@privileged @resources", "setpriority"]
    assert ("SystemCallErrorNumber", "EPERM") in unit_settings()


def test_the_awari_build_is_python_itself_lowering_its_own_priority(tmp_path):
    unbound = registry()["awari"]
    assert unbound.state_folder is not None and not unbound.tables    # a table needs its folder
    awari = unbound.state_folder(Config(paths=PathSettings(state_dir=str(tmp_path))).door_folder("awari"),
                                 {"build_endgame": True, "endgame_stones": 12})
    assert len(awari.tables) == 1
    argv = build_command(awari.tables[0])
    assert argv[0] == sys.executable and not any("nice" in word for word in argv)
    assert argv[1:4] == ["-m", "doors._core.table_build", "15"]      # lowered in-process
    assert argv[4:6] == ["doors.awari", "build"]
    assert argv[argv.index("--path") + 1] == str(tmp_path / "awari" / "endgame.bin")
    assert argv[argv.index("--stones") + 1] == "12"


def test_make_serve_installs_only_the_server_and_takes_a_port(tmp_path):
    """A try-out: `make serve PORT=2424` installs the project without the
    test extras (Playwright, mypy...) and listens on that port."""
    import subprocess
    root = Path(__file__).resolve().parents[2]
    plan = subprocess.run(["make", "-n", "--no-print-directory", "-C", str(root), "serve", "PORT=2424",
                           f"VENV={tmp_path / 'venv'}"], capture_output=True, text=True, timeout=60)
    assert plan.returncode == 0, plan.stderr
    installs = [line for line in plan.stdout.splitlines() if "pip install" in line]
    assert any(line.rstrip().endswith("-e .") for line in installs), installs
    assert not any("[test]" in line for line in installs), installs
    assert plan.stdout.splitlines()[-1].endswith("gatehouse serve --port 2424")
