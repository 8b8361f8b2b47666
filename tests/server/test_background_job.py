"""A door's start-up job (Awari's endgame table) run by the server: built in
the state directory, and a failure logged with the reason."""
from __future__ import annotations

import logging

from doors import registry
from doors.awari import endgame
from tests.e2e.harness import start_app, wait_until


async def test_the_awari_table_is_built_in_the_state_directory(tmp_path):
    state = tmp_path / "state"
    app = await start_app(tmp_path / "gatehouse.db", state_dir=str(state),
                          awari_build_endgame=True, awari_endgame_stones=6)
    try:
        status = registry()["awari"].status
        assert status is not None
        await wait_until(lambda: status() == "endgame table ready (6 stones)", timeout=60,
                         what="the table to be built")
        assert endgame.is_current(state / "awari" / "endgame.bin", 6)
    finally:
        await app.stop()


async def test_a_failed_build_is_logged_with_its_reason(tmp_path, caplog):
    caplog.set_level(logging.INFO, logger="gatehouse")
    state = tmp_path / "state"
    (state / "awari" / "endgame.bin").mkdir(parents=True)    # nothing can be written there
    app = await start_app(tmp_path / "gatehouse.db", state_dir=str(state),
                          awari_build_endgame=True, awari_endgame_stones=5)
    try:
        def failed() -> list[str]:
            return [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
        await wait_until(lambda: failed(), timeout=60, what="the failure in the log")
        assert failed() == [f"Awari: background job failed, exit status 1: Awari endgame table "
                            f"not built: cannot write {state / 'awari' / 'endgame.bin'}: "
                            "Is a directory"]
        assert registry()["awari"].status() == (     # type: ignore[misc]
            f"endgame table failed: cannot write {state / 'awari' / 'endgame.bin'}: Is a directory")
    finally:
        await app.stop()


async def test_no_build_when_switched_off(tmp_path):
    app = await start_app(tmp_path / "gatehouse.db", state_dir=str(tmp_path),
                          awari_build_endgame=False)
    try:
        assert registry()["awari"].background_job() is None     # type: ignore[misc]
        assert registry()["awari"].status() == "endgame table missing"   # type: ignore[misc]
    finally:
        await app.stop()
