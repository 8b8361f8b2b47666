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
    computer_workers: int = 2        # worker processes the computer players think in
    shutdown_grace_seconds: float = 3.0   # callers read the shutdown line this long before the sockets close
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
    # [web]
    web_enabled: bool = False
    web_host: str = "127.0.0.1"
    web_port: int = 8023
    web_trusted_proxies: list[str] = dataclasses.field(default_factory=list)  # whose X-Forwarded-For counts
    web_origins: list[str] = dataclasses.field(default_factory=list)   # pages that may open a seat ([]: its own)
    # [limits]: kept per account and per address, across sessions
    chat_lines_per_10s: int = 5          # lines one account may chat in 10 s (lobby and games)
    challenges_per_minute: int = 5       # challenges one caller may make in a minute
    new_accounts_per_hour: int = 3       # telnet accounts one address may register in an hour
    title_seconds: float = 60.0          # time at the title screen before the line is freed
    # [door]
    door_server_host: str = "127.0.0.1"
    door_rlogin_port: int = 2513
    door_max_drop_age_minutes: float = 2.0       # a drop file older than this is a past caller's
    door_charset: str = ""                        # "" = from the drop file (CP437); "cp437" / "utf8"
    # [<door key>]: each door's own settings (DoorInfo.settings), by door
    doors: dict[str, dict[str, Any]] = dataclasses.field(default_factory=lambda: _door_defaults())
    # tests and benchmarks
    bot_min_delay: float = 0.4       # seconds a computer move is held back so it can be seen
    login_fail_delay: float = 1.0    # base delay after a failed login (doubles)
    clock_check_seconds: float = 60.0   # how often by-turns clocks are checked for a loss on time

    def door_folder(self, key: str) -> Path:
        """A door's own folder in the state directory."""
        return Path(self.state_dir) / key

    @property
    def idle_seconds(self) -> float:
        return self.idle_minutes * 60

    @property
    def forfeit_seconds(self) -> float:
        return self.forfeit_minutes * 60

    def door_settings(self, door: str) -> dict[str, Any]:
        return self.doors.get(door, {})

    def set_flat(self, name: str, value: Any) -> None:
        """Set a field, or a door setting by its flat name ``<door>_<key>``
        (as flags and tests name them: ``<door>_<setting>``)."""
        if name in _FIELDS:
            setattr(self, name, value)
            return
        for door, settings in self.doors.items():
            key = name.removeprefix(door + "_")
            if key != name and key in settings:
                settings[key] = value
                return
        raise TypeError(f"Config has no setting {name!r}")


_FIELDS = frozenset(f.name for f in dataclasses.fields(Config))
_dataclass_init = Config.__init__


def _config_init(self: Config, **values: Any) -> None:
    """The dataclass's constructor, plus door settings by their flat names."""
    flat = {name: values.pop(name) for name in list(values) if name not in _FIELDS}
    _dataclass_init(self, **values)
    for name, value in flat.items():
        self.set_flat(name, value)


Config.__init__ = _config_init  # type: ignore[method-assign, assignment]


def _door_defaults() -> dict[str, dict[str, Any]]:
    from doors import registry
    return {key: info.setting_defaults() for key, info in registry().items() if info.settings}


# toml section -> {toml key: Config field}
_SECTIONS: dict[str, dict[str, str]] = {
    "server": {k: k for k in ("host", "port", "max_sessions", "max_per_ip", "idle_minutes",
                              "forfeit_minutes", "telnet_timeout_minutes", "connect_maxwait",
                              "computer_workers", "shutdown_grace_seconds")},
    "paths": {"state_dir": "state_dir"},
    "store": {"database": "database"},
    "sysop": {"socket": "sysop_socket", "name": "sysop_name"},
    "rlogin": {"enabled": "rlogin_enabled", "host": "rlogin_host", "port": "rlogin_port",
               "allow": "rlogin_allow", "tag": "rlogin_tag", "name_field": "rlogin_name_field",
               "secrets": "rlogin_secrets"},
    "web": {"enabled": "web_enabled", "host": "web_host", "port": "web_port",
            "trusted_proxies": "web_trusted_proxies", "origins": "web_origins"},
    "limits": {k: k for k in ("chat_lines_per_10s", "challenges_per_minute", "new_accounts_per_hour",
                              "title_seconds")},
    "door": {"server_host": "door_server_host", "rlogin_port": "door_rlogin_port",
             "max_drop_age_minutes": "door_max_drop_age_minutes", "charset": "door_charset"},
}


_RENAMED = {
    "door.max_drop_age_hours": (": it is now door.max_drop_age_minutes (default 2), since a "
                                "BBS writes the drop file just before it runs the door"),
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
            if section in cfg.doors and isinstance(table, dict):
                _door_section(cfg.doors[section], section, table, candidate)
                continue
            fields = _SECTIONS.get(section)
            if fields is None or not isinstance(table, dict):
                raise ConfigError(f"{candidate}: unknown section [{section}]")
            for key, value in table.items():
                if key not in fields:
                    hint = _RENAMED.get(f"{section}.{key}", "")
                    raise ConfigError(f"{candidate}: unknown setting {section}.{key}{hint}")
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
            cfg.set_flat(field, value)
    return cfg


def _door_section(settings: dict[str, Any], section: str, table: dict[str, Any], source: Path) -> None:
    for key, value in table.items():
        if key not in settings:
            raise ConfigError(f"{source}: unknown setting {section}.{key}")
        settings[key] = _coerce(f"{section}.{key}", value, settings[key])
