"""Configuration: embedded defaults, gatehouse.toml, flags."""
import pytest

from server.config import Config, ConfigError, load_config


def test_defaults_without_a_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    cfg = load_config()
    assert (cfg.host, cfg.port) == ("127.0.0.1", 2323)
    # no settings file (make serve in a checkout): the state directory is ./data
    assert cfg.state_dir == str(tmp_path / "data")
    assert cfg.database == str(tmp_path / "data" / "gatehouse.db")
    assert cfg.sysop_socket == str(tmp_path / "data" / "sysop.sock")
    assert cfg.forfeit_minutes == 10 and cfg.idle_minutes == 15


def test_file_then_flags(tmp_path):
    path = tmp_path / "g.toml"
    path.write_text('[server]\nport = 4000\nforfeit_minutes = 2\n[store]\ndatabase = "x.db"\n')
    cfg = load_config(path, port=5000)
    assert cfg.port == 5000 and cfg.forfeit_minutes == 2.0
    assert cfg.database == str(tmp_path / "data" / "x.db")


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
    assert cfg.state_dir == str(etc / "state")
    assert cfg.database == str(etc / "state" / "db" / "g.db")
    assert cfg.sysop_socket == str(etc / "state" / "console.sock")
    assert cfg.door_folder("kingdom") == etc / "state" / "kingdom"


def test_absolute_state_dir_and_flags_from_the_current_folder(tmp_path, monkeypatch):
    path = tmp_path / "g.toml"
    path.write_text(f'[paths]\nstate_dir = "{tmp_path / "var"}"\n')
    monkeypatch.chdir(tmp_path)
    cfg = load_config(path, database="mine.db")
    assert cfg.state_dir == str(tmp_path / "var")
    assert cfg.database == str(tmp_path / "mine.db")       # a flag: the caller's folder
    assert cfg.sysop_socket == str(tmp_path / "var" / "sysop.sock")


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
    assert cfg.port == 2323 and cfg.rlogin_enabled is False
    assert cfg.state_dir == "/var/lib/gatehouse"
    assert cfg.database == "/var/lib/gatehouse/gatehouse.db"
    assert cfg.sysop_socket == "/var/lib/gatehouse/sysop.sock"


def test_web_seat_settings_and_the_flag_that_turns_it_on(tmp_path, capsys):
    path = tmp_path / "g.toml"
    path.write_text('[web]\nenabled = true\nport = 8080\ntrusted_proxies = ["10.0.0.0/8"]\n')
    cfg = load_config(path)
    assert (cfg.web_enabled, cfg.web_host, cfg.web_port) == (True, "127.0.0.1", 8080)
    assert cfg.web_trusted_proxies == ["10.0.0.0/8"]
    assert load_config(tmp_path / "g.toml", web_port=9000).web_port == 9000
    default = Config()
    assert default.web_enabled is False and default.web_trusted_proxies == [] and default.web_origins == []



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
