"""The shipped systemd unit and the settings example agree with what the
server does at start: state in /var/lib/gatehouse, no `nice` in the start
path, and the one call the Awari build makes to lower its priority allowed."""
from __future__ import annotations

from pathlib import Path

from doors import registry
from server.config import Config

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
    awari = registry()["awari"]
    assert awari.configure is not None and awari.background_job is not None
    awari.configure(Config(state_dir=str(tmp_path)).door_folder("awari"),
                    {"build_endgame": True, "endgame_stones": 12})
    argv = awari.background_job()
    assert argv is not None and argv[:3] == ["-m", "doors.awari", "build"]
    assert "nice" not in argv and argv[argv.index("--nice") + 1] == "15"     # in-process
    assert argv[argv.index("--path") + 1] == str(tmp_path / "awari" / "endgame.bin")
    assert argv[argv.index("--stones") + 1] == "12"
