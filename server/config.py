"""Server settings: embedded defaults, an optional gatehouse.toml, then flags.

Every setting and its default is documented in deploy/gatehouse.toml.example.

Paths: everything the server writes lives in one state directory
(``[paths] state_dir``, default ``data``). A relative ``state_dir`` is taken
from the settings file's folder (from the current folder only when there is
no settings file, as with ``make serve`` in a checkout); a relative database
or sysop socket path is taken from the state directory. Paths given as
command-line flags are taken from the current folder, as usual for flags.
After ``load_config`` every path in the Config is absolute.
"""
from __future__ import annotations

import dataclasses
import os
import tomllib
from pathlib import Path
from typing import Any

__all__ = ["Config", "load_config", "ConfigError"]


class ConfigError(ValueError):
    pass


@dataclasses.dataclass
class Config:
    # [server]
    host: str = "127.0.0.1"
    port: int = 2323
    max_sessions: int = 2000
    max_per_ip: int = 8
    idle_minutes: float = 15.0
    forfeit_minutes: float = 10.0
    telnet_timeout_minutes: float = 60.0
    connect_maxwait: float = 2.0
    # [paths]
    state_dir: str = "data"
    # [store]
    database: str = "gatehouse.db"
    # [sysop]
    sysop_socket: str = "sysop.sock"
    sysop_name: str = "Sysop"
    # [rlogin]
    rlogin_enabled: bool = False
    rlogin_host: str = "127.0.0.1"
    rlogin_port: int = 2513
    rlogin_allow: list[str] = dataclasses.field(default_factory=lambda: ["127.0.0.1", "::1"])
    rlogin_tag: str = ""
    rlogin_name_field: str = "server_user"
    rlogin_secrets: list[str] = dataclasses.field(default_factory=list)  # "ADDRESS=SECRET"
    # [door]
    door_server_host: str = "127.0.0.1"
    door_rlogin_port: int = 2513
    door_max_drop_age_hours: float = 12.0
    # [stratego]
    stratego_reveal_seconds: float = 3.0
    # [awari]
    awari_build_endgame: bool = True   # build the endgame table at start if missing
    awari_endgame_stones: int = 16     # positions with up to this many stones in the rows
    # tests and benchmarks
    bot_min_delay: float = 0.4       # seconds a computer move is held back so it can be seen
    login_fail_delay: float = 1.0    # base delay after a failed login (doubles)

    def door_settings(self, key: str) -> dict[str, Any]:
        """The [<key>] section of the settings, as toml names (a door's own)."""
        return {name: getattr(self, field) for name, field in _SECTIONS.get(key, {}).items()}

    def door_folder(self, key: str) -> Path:
        """A door's own folder in the state directory."""
        return Path(self.state_dir) / key

    @property
    def idle_seconds(self) -> float:
        return self.idle_minutes * 60

    @property
    def forfeit_seconds(self) -> float:
        return self.forfeit_minutes * 60


# toml section -> {toml key: Config field}
_SECTIONS: dict[str, dict[str, str]] = {
    "server": {k: k for k in ("host", "port", "max_sessions", "max_per_ip", "idle_minutes",
                              "forfeit_minutes", "telnet_timeout_minutes", "connect_maxwait")},
    "paths": {"state_dir": "state_dir"},
    "store": {"database": "database"},
    "sysop": {"socket": "sysop_socket", "name": "sysop_name"},
    "rlogin": {"enabled": "rlogin_enabled", "host": "rlogin_host", "port": "rlogin_port",
               "allow": "rlogin_allow", "tag": "rlogin_tag", "name_field": "rlogin_name_field",
               "secrets": "rlogin_secrets"},
    "door": {"server_host": "door_server_host", "rlogin_port": "door_rlogin_port",
             "max_drop_age_hours": "door_max_drop_age_hours"},
    "stratego": {"reveal_seconds": "stratego_reveal_seconds"},
    "awari": {"build_endgame": "awari_build_endgame", "endgame_stones": "awari_endgame_stones"},
}


def _coerce(name: str, value: Any, default: Any) -> Any:
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise ConfigError(f"{name} must be true or false")
        return value
    if isinstance(default, (int, float)) and not isinstance(default, bool):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ConfigError(f"{name} must be a number")
        return type(default)(value) if isinstance(default, float) else int(value)
    if isinstance(default, list):
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ConfigError(f"{name} must be a list of strings")
        return list(value)
    if not isinstance(value, str):
        raise ConfigError(f"{name} must be a string")
    return value


_PATHS = ("state_dir", "database", "sysop_socket")


def load_config(path: str | Path | None = None, **overrides: Any) -> Config:
    """Defaults, then ``path`` (or ./gatehouse.toml if it exists), then
    the non-None ``overrides`` (command-line flags); paths made absolute
    as the module doc says."""
    cfg = Config()
    base = Path.cwd()
    candidate = Path(path) if path else Path("gatehouse.toml")
    if path and not candidate.exists():
        raise ConfigError(f"{candidate}: no such configuration file")
    if candidate.exists():
        try:
            data = tomllib.loads(candidate.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{candidate}: {exc}") from exc
        except UnicodeDecodeError as exc:
            raise ConfigError(f"{candidate}: not UTF-8 text (byte {exc.start}): "
                              "save the settings file as UTF-8") from None
        except OSError as exc:
            raise ConfigError(f"{candidate}: cannot read the settings file "
                              f"({exc.strerror or exc}): check its path and permissions") from None
        for section, table in data.items():
            fields = _SECTIONS.get(section)
            if fields is None or not isinstance(table, dict):
                raise ConfigError(f"{candidate}: unknown section [{section}]")
            for key, value in table.items():
                if key not in fields:
                    raise ConfigError(f"{candidate}: unknown setting {section}.{key}")
                field = fields[key]
                setattr(cfg, field, _coerce(f"{section}.{key}", value, getattr(cfg, field)))
        base = candidate.resolve().parent
    state = Path(os.path.abspath(base / Path(cfg.state_dir).expanduser()))
    cfg.state_dir = str(state)
    for field in ("database", "sysop_socket"):
        if getattr(cfg, field) != ":memory:":
            setattr(cfg, field, os.path.abspath(state / Path(getattr(cfg, field)).expanduser()))
    for field, value in overrides.items():
        if value is not None:
            if field in _PATHS and value != ":memory:":
                value = os.path.abspath(Path(value).expanduser())
            setattr(cfg, field, value)
    return cfg
