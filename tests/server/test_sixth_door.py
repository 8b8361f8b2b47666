"""A sixth door plugs in by what it declares, with no edit in server/: it
shows in the lobby and the new-game screen, its settings section is read
from gatehouse.toml and checked, its UI gets them, and it plays."""
from __future__ import annotations

import dataclasses

import pytest

from doors import registry
from doors._core.door import DoorSetting
from server.config import ConfigError, load_config
from server.startup import check_settings
from tests.e2e.harness import Caller, start_app
from tests.server.inside import challenge_computer

SIXTH = dataclasses.replace(
    registry()["towers"], key="sixth", title="Sixth Door", blurb="A door the server never heard of.",
    settings=(DoorSetting("glow_seconds", 2.0, low=0, high=10, ui_attribute="glow_seconds"),))


@pytest.fixture
def sixth_door():
    doors = registry()
    doors["sixth"] = SIXTH
    yield SIXTH
    del doors["sixth"]


def test_its_settings_section_is_read_and_checked(sixth_door, tmp_path):
    path = tmp_path / "gatehouse.toml"
    path.write_text("[sixth]\nglow_seconds = 4\n")
    assert load_config(path).door_settings("sixth") == {"glow_seconds": 4.0, "move_minutes": 5.0}
    path.write_text("[sixth]\nglow_seconds = 40\n")
    with pytest.raises(ConfigError, match=r"sixth.glow_seconds = 40.0 is out of range"):
        check_settings(load_config(path))
    path.write_text("[sixth]\nsparkle = 1\n")
    with pytest.raises(ConfigError, match="unknown setting sixth.sparkle"):
        load_config(path)


async def test_it_is_offered_and_played_like_any_other(sixth_door, tmp_path):
    app = await start_app(tmp_path / "gatehouse.db", sixth={"glow_seconds": 5.0})
    try:
        alice = await Caller.connect(app.port)
        await alice.login("Alice")
        await alice.expect("Sixth Door")                        # the lobby's door list
        match = await challenge_computer(alice, app, "Alice", "Sixth Door")
        assert match.info.key == "sixth"
        screen = app.find_session("Alice").screens[-1]
        assert screen.ui.glow_seconds == 5.0                    # its setting reached its UI
        await alice.expect("TOWERS")
        games = await app.store.list_games()
        assert [g.door for g in games] == ["sixth"]
        await alice.close()
    finally:
        await app.stop()


async def test_the_console_shows_its_table_being_built_then_ready(tmp_path):
    from doors._core.door import PreparedTable
    from tests.server.sysop_harness import Console
    path = tmp_path / "sixth.table"
    table = PreparedTable(title="Sixth table", is_ready=path.exists,
                          module="tests.server.table_build", args=(str(path),),
                          progress=lambda line: None, enabled_by="build_table")
    doors = registry()
    doors["sixth"] = dataclasses.replace(SIXTH, settings=(DoorSetting("build_table", True),), tables=(table,))
    try:
        app = await start_app(tmp_path / "gatehouse.db", sysop={"socket": str(tmp_path / "sysop.sock")})
        config = tmp_path / "gatehouse.toml"
        config.write_text(f'[sysop]\nsocket = "{app.config.sysop.socket}"\n')
        console = Console(config)
        try:
            await console.expect("Sysop console")
            text = await console.expect("Sixth table: ready", timeout=20)
            assert "Sixth table: ready" in text.splitlines()[21]
            assert path.read_text() == "table"
        finally:
            await console.close()
            await app.stop()
    finally:
        del doors["sixth"]
