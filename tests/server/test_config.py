"""Configuration: embedded defaults, gatehouse.toml, flags."""
import pytest

from server.config import Config, ConfigError, load_config


def test_defaults_without_a_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    cfg = load_config()
    assert (cfg.server.host, cfg.server.port) == ("127.0.0.1", 2323)
    # no settings file (make serve in a checkout): the state directory is ./data
    assert cfg.paths.state_dir == str(tmp_path / "data")
    assert cfg.store.database == str(tmp_path / "data" / "gatehouse.db")
    assert cfg.sysop.socket == str(tmp_path / "data" / "sysop.sock")
    assert cfg.server.forfeit_minutes == 10 and cfg.server.idle_minutes == 15


def test_file_then_flags(tmp_path):
    path = tmp_path / "g.toml"
    path.write_text('[server]\nport = 4000\nforfeit_minutes = 2\n[store]\ndatabase = "x.db"\n')
    cfg = load_config(path, {"server": {"port": 5000}})
    assert cfg.server.port == 5000 and cfg.server.forfeit_minutes == 2.0
    assert cfg.store.database == str(tmp_path / "data" / "x.db")


def test_relative_paths_follow_the_settings_file_not_the_current_folder(tmp_path, monkeypatch):
    etc = tmp_path / "etc"
    etc.mkdir()
    path = etc / "gatehouse.toml"
    path.write_text('[paths]\nstate_dir = "state"\n[store]\ndatabase = "db/g.db"\n'
                    '[sysop]\nsocket = "console.sock"\n')
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    cfg = load_config("../etc/gatehouse.toml")
    assert cfg.paths.state_dir == str(etc / "state")
    assert cfg.store.database == str(etc / "state" / "db" / "g.db")
    assert cfg.sysop.socket == str(etc / "state" / "console.sock")
    assert cfg.door_folder("kingdom") == etc / "state" / "kingdom"


def test_absolute_state_dir_and_flags_from_the_current_folder(tmp_path, monkeypatch):
    path = tmp_path / "g.toml"
    path.write_text(f'[paths]\nstate_dir = "{tmp_path / "var"}"\n')
    monkeypatch.chdir(tmp_path)
    cfg = load_config(path, {"store": {"database": "mine.db"}})
    assert cfg.paths.state_dir == str(tmp_path / "var")
    assert cfg.store.database == str(tmp_path / "mine.db")       # a flag: the caller's folder
    assert cfg.sysop.socket == str(tmp_path / "var" / "sysop.sock")


def test_door_settings_are_the_door_section():
    from server.config import Config
    assert Config().door_settings("awari") == {"build_endgame": True, "endgame_stones": 16}
    assert Config().door_settings("kingdom") == {}


@pytest.mark.parametrize("text, words", [
    ("[server]\nport = 'abc'\n", "server.port must be a number"),
    ("[nope]\nx = 1\n", "unknown section [nope]"),
    ("[server]\nbogus = 1\n", "unknown setting server.bogus"),
    ("[server\n", "g.toml"),
    ("[door]\nmax_drop_age_hours = 12\n",
     "unknown setting door.max_drop_age_hours: it is now door.max_drop_age_minutes (default 2)"),
])
def test_bad_files_are_refused_with_a_reason(tmp_path, text, words):
    path = tmp_path / "g.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert words in str(err.value)


def test_example_config_in_deploy_matches_the_defaults():
    from pathlib import Path
    example = Path(__file__).resolve().parents[2] / "deploy" / "gatehouse.toml.example"
    assert example.exists()
    cfg = load_config(example)
    assert cfg.server.port == 2323 and cfg.rlogin.enabled is False
    assert cfg.paths.state_dir == "/var/lib/gatehouse"
    assert cfg.store.database == "/var/lib/gatehouse/gatehouse.db"
    assert cfg.sysop.socket == "/var/lib/gatehouse/sysop.sock"


def test_web_seat_settings_and_the_flag_that_turns_it_on(tmp_path, capsys):
    path = tmp_path / "g.toml"
    path.write_text('[web]\nenabled = true\nport = 8080\ntrusted_proxies = ["10.0.0.0/8"]\n')
    cfg = load_config(path)
    assert (cfg.web.enabled, cfg.web.host, cfg.web.port) == (True, "127.0.0.1", 8080)
    assert cfg.web.trusted_proxies == ("10.0.0.0/8",)
    assert load_config(tmp_path / "g.toml", {"web": {"port": 9000}}).web.port == 9000
    default = Config()
    assert default.web.enabled is False and default.web.trusted_proxies == () and default.web.origins == ()



@pytest.mark.parametrize("text, words", [
    ("[door]\ncharset = \"latin1\"\n", "door.charset = 'latin1': set it to \"cp437\" or \"utf8\""),
    ("[door]\nmax_drop_age_minutes = 0\n", "door.max_drop_age_minutes = 0.0 is out of range"),
    ("[door]\nmax_drop_age_minutes = 720\n", "door.max_drop_age_minutes = 720.0 is out of range"),
])
def test_door_settings_out_of_range(tmp_path, text, words):
    from server.startup import check_settings
    path = tmp_path / "g.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as err:
        check_settings(load_config(path))
    assert words in str(err.value)


def test_tests_build_settings_as_the_server_does():
    """A program's tables go through the same checks as a settings file."""
    cfg = Config().with_tables({"rlogin": {"enabled": True, "allow": ["10.0.0.5"]},
                                "awari": {"endgame_stones": 12}, "timing": {"bot_min_delay": 0}},
                               source="test")
    assert cfg.rlogin.enabled and cfg.rlogin.allow == ("10.0.0.5",)
    assert cfg.door_settings("awari")["endgame_stones"] == 12 and cfg.timing.bot_min_delay == 0.0
    assert Config().rlogin.enabled is False      # the original is untouched (frozen)
    for tables, words in (({"rlogin": {"enable": True}}, "test: unknown setting rlogin.enable"),
                          ({"server": {"port": "80"}}, "test: server.port must be a number"),
                          ({"server": {"port": 1.5}}, "test: server.port must be a whole number"),
                          ({"awari": {"endgame_stones": 40}}, "test: awari.endgame_stones = 40"),
                          ({"rlogin": True}, "test: rlogin must be a section")):
        with pytest.raises(ConfigError) as err:
            Config().with_tables(tables, source="test")
        assert words in str(err.value)


def test_a_settings_file_cannot_set_the_test_timings(tmp_path):
    path = tmp_path / "g.toml"
    path.write_text("[timing]\nbot_min_delay = 0\n")
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert f"{path}: unknown section [timing]" in str(err.value)
