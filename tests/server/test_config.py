"""Configuration: embedded defaults, gatehouse.toml, flags."""
import pytest

from server.config import Config, ConfigError, load_config


def test_defaults_without_a_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    cfg = load_config()
    assert (cfg.host, cfg.port, cfg.database) == ("127.0.0.1", 2323, "data/gatehouse.db")
    assert cfg.forfeit_minutes == 10 and cfg.idle_minutes == 15


def test_file_then_flags(tmp_path):
    path = tmp_path / "g.toml"
    path.write_text('[server]\nport = 4000\nforfeit_minutes = 2\n[store]\ndatabase = "x.db"\n')
    cfg = load_config(path, port=5000)
    assert cfg.port == 5000 and cfg.forfeit_minutes == 2.0 and cfg.database == "x.db"


@pytest.mark.parametrize("text, words", [
    ("[server]\nport = 'abc'\n", "server.port must be a number"),
    ("[nope]\nx = 1\n", "unknown section [nope]"),
    ("[server]\nbogus = 1\n", "unknown setting server.bogus"),
    ("[server\n", "g.toml"),
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


def test_web_seat_settings_and_the_flag_that_turns_it_on(tmp_path, capsys):
    path = tmp_path / "g.toml"
    path.write_text('[web]\nenabled = true\nport = 8080\ntrusted_proxies = ["10.0.0.0/8"]\n')
    cfg = load_config(path)
    assert (cfg.web_enabled, cfg.web_host, cfg.web_port) == (True, "127.0.0.1", 8080)
    assert cfg.web_trusted_proxies == ["10.0.0.0/8"]
    assert load_config(tmp_path / "g.toml", web_port=9000).web_port == 9000
    default = Config()
    assert default.web_enabled is False and default.web_trusted_proxies == ["127.0.0.1", "::1"]
