"""A door's table (Awari's endgame table, DoorInfo.tables) built by the
server at start: in the door's folder of the state directory, its state on
the door jobs service (what the sysop console shows), a failure logged with
its reason, nothing built when the sysop turns it off."""
from __future__ import annotations

import logging

from doors.awari import endgame
from tests.e2e.harness import start_app, wait_until


def described(app) -> list[str]:
    return [status.describe() for status in app.services.jobs.status()]


async def test_the_awari_table_is_built_in_the_state_directory(tmp_path):
    state = tmp_path / "state"
    app = await start_app(tmp_path / "gatehouse.db", paths={"state_dir": str(state)},
                          awari={"build_endgame": True, "endgame_stones": 6})
    try:
        await wait_until(lambda: described(app) == ["Awari endgame table: ready"], timeout=60,
                         what="the table to be built")
        assert endgame.is_current(state / "awari" / "endgame.bin", 6)
        assert endgame.table_status(state / "awari" / "endgame.bin", 6) == "ready (6 stones)"
    finally:
        await app.stop()


async def test_a_failed_build_is_logged_with_its_reason(tmp_path, caplog):
    caplog.set_level(logging.INFO, logger="gatehouse")
    state = tmp_path / "state"
    (state / "awari" / "endgame.bin").mkdir(parents=True)    # nothing can be written there
    app = await start_app(tmp_path / "gatehouse.db", paths={"state_dir": str(state)},
                          awari={"build_endgame": True, "endgame_stones": 5})
    try:
        def failed() -> list[str]:
            return [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
        await wait_until(lambda: failed(), timeout=60, what="the failure in the log")
        why = f"Awari endgame table not built: cannot write {state / 'awari' / 'endgame.bin'}: Is a directory"
        assert failed() == [f"Awari endgame table not built, exit status 1: {why}"]
        assert described(app) == [f"Awari endgame table: failed ({why})"]
    finally:
        await app.stop()


async def test_no_build_when_switched_off(tmp_path):
    app = await start_app(tmp_path / "gatehouse.db", paths={"state_dir": str(tmp_path)}, awari={"build_endgame": False})
    try:
        assert described(app) == []
        assert endgame.table_status(tmp_path / "awari" / "endgame.bin") == "missing"
        assert not (tmp_path / "awari" / "endgame.bin").exists()
    finally:
        await app.stop()
