"""Server settings: embedded defaults, an optional gatehouse.toml, then flags.

One frozen dataclass per TOML section (``ServerSettings`` is ``[server]``
...), each door's own section (named by its key) from the door's declared
settings, and one loader, :func:`apply_tables`, that turns section tables
(from the file, from flags, from a test) into a new :class:`Config`,
refusing an unknown section or key, a value of the wrong type or out of
range with one line naming the source, section and key. Every setting and
its default is documented in deploy/gatehouse.toml.example.

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
import math
import os
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, overload

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

    from doors._core.door import DoorInfo

__all__ = ["Config", "load_config", "settings_file", "ConfigError", "Tables", "Setting", "DoorValue", "ServerSettings",
           "PathSettings",
           "StoreSettings", "SysopSettings", "RloginSettings", "WebSettings", "LimitSettings",
           "DoorSettings", "TimingSettings"]

Tables = Mapping[str, Mapping[str, object]]     # section -> {key: value}, as in the TOML file
DoorValue = bool | float | str                   # a door's setting, once checked (DoorSetting.default)
Setting = DoorValue | tuple[str, ...]             # any setting, once checked
T = TypeVar("T")


class ConfigError(ValueError):
    pass


def _setting(default: T, low: float | None = None, high: float | None = None,
             low_ok: bool = True) -> T:
    """A field with its default and, for a number, its allowed range
    (``low_ok``: whether ``low`` itself is allowed)."""
    meta = {} if low is None else {"range": (low, high, low_ok)}
    return dataclasses.field(default=default, metadata=meta)


@dataclasses.dataclass(frozen=True)
class ServerSettings:
    """``[server]``: the telnet listener and the length of calls."""
    host: str = "127.0.0.1"
    port: int = _setting(2323, 0, 65535)
    max_sessions: int = _setting(2000, 1, 1_000_000)
    max_per_ip: int = _setting(8, 1, 1_000_000)
    idle_minutes: float = _setting(15.0, 0, 10_000, low_ok=False)
    forfeit_minutes: float = _setting(10.0, 0, 100_000, low_ok=False)
    telnet_timeout_minutes: float = _setting(60.0, 0, 100_000, low_ok=False)
    connect_maxwait: float = _setting(2.0, 0, 60)
    computer_workers: int = _setting(2, 1, 64)   # worker processes the computer players think in
    shutdown_grace_seconds: float = _setting(3.0, 0, 60)   # to read the shutdown line before the line closes

    @property
    def idle_seconds(self) -> float:
        return self.idle_minutes * 60

    @property
    def forfeit_seconds(self) -> float:
        return self.forfeit_minutes * 60


@dataclasses.dataclass(frozen=True)
class PathSettings:
    """``[paths]``: where everything the server writes lives."""
    state_dir: str = "data"


@dataclasses.dataclass(frozen=True)
class StoreSettings:
    """``[store]``: the SQLite database (relative: in the state directory)."""
    database: str = "gatehouse.db"


@dataclasses.dataclass(frozen=True)
class SysopSettings:
    """``[sysop]``: the console's socket and the sysop's name."""
    socket: str = "sysop.sock"
    name: str = "Sysop"


@dataclasses.dataclass(frozen=True)
class RloginSettings:
    """``[rlogin]``: the listener BBSes hand callers over on."""
    enabled: bool = False
    host: str = "127.0.0.1"
    port: int = _setting(2513, 0, 65535)
    allow: tuple[str, ...] = ("127.0.0.1", "::1")
    tag: str = ""
    name_field: str = "server_user"
    secrets: tuple[str, ...] = ()          # "ADDRESS=SECRET"


@dataclasses.dataclass(frozen=True)
class WebSettings:
    """``[web]``: the browser seat."""
    enabled: bool = False
    host: str = "127.0.0.1"
    port: int = _setting(8023, 0, 65535)
    trusted_proxies: tuple[str, ...] = ()    # proxies whose X-Forwarded-For is believed: none
    origins: tuple[str, ...] = ()            # pages that may open a seat (none: only its own)


@dataclasses.dataclass(frozen=True)
class LimitSettings:
    """``[limits]``: kept per account and per address, across sessions."""
    chat_lines_per_10s: int = _setting(5, 1, 1000)         # lines one account may chat in 10 s
    challenges_per_minute: int = _setting(5, 1, 1000)      # challenges one caller may make in a minute
    new_accounts_per_hour: int = _setting(3, 1, 100_000)   # telnet accounts one address may register
    title_seconds: float = _setting(60.0, 10, 3600)        # at the title screen before the line is freed


@dataclasses.dataclass(frozen=True)
class DoorSettings:
    """``[door]``: door mode, ``gatehouse door`` run by a BBS per caller."""
    server_host: str = "127.0.0.1"
    rlogin_port: int = _setting(2513, 1, 65535)
    max_drop_age_minutes: float = _setting(2.0, 0, 60, low_ok=False)  # older: a past caller's file
    charset: str = ""                       # "" = from the drop file (CP437); "cp437" / "utf8"
    honour_time_left: bool = True           # the call ends when DOOR32.SYS's minutes left run out


@dataclasses.dataclass(frozen=True)
class TimingSettings:
    """Delays that tests and benchmarks shorten; not a section of the file."""
    bot_min_delay: float = 0.4        # seconds a computer move is held back so it can be seen
    login_fail_delay: float = 1.0     # base delay after a failed login (doubles)
    clock_check_seconds: float = 60.0   # how often by-turns clocks are checked for a loss on time
    minute_seconds: float = 60.0      # a minute of a caller's time left on their BBS
    store_busy_seconds: float = 5.0   # a write waits this long on another program's lock, then retries


# section name -> its dataclass (the Config field of the same name)
_SECTIONS: dict[str, type] = {
    "server": ServerSettings, "paths": PathSettings, "store": StoreSettings,
    "sysop": SysopSettings, "rlogin": RloginSettings, "web": WebSettings,
    "limits": LimitSettings, "door": DoorSettings,
}
_CODE_ONLY = {"timing": TimingSettings}    # sections a program may set, never a file

_RENAMED = {
    "door.max_drop_age_hours": (": it is now door.max_drop_age_minutes (default 2), since a "
                                "BBS writes the drop file just before it runs the door"),
}


# every door's section also takes the server's time per move in a live game
# (minutes; 0: no clock), with this default and range
MOVE_MINUTES = 5.0
MOVE_MINUTES_RANGE = (0.0, 1440.0, True)


def _door_defaults() -> dict[str, dict[str, DoorValue]]:
    from doors import registry
    return {key: {"move_minutes": MOVE_MINUTES, **info.setting_defaults()} for key, info in registry().items()}


@dataclasses.dataclass(frozen=True)
class Config:
    """Every setting, by section. Build one with :func:`load_config` (the
    server and every command) or ``Config().with_tables(...)`` (tests: the
    same checks as a settings file)."""
    server: ServerSettings = dataclasses.field(default_factory=ServerSettings)
    paths: PathSettings = dataclasses.field(default_factory=PathSettings)
    store: StoreSettings = dataclasses.field(default_factory=StoreSettings)
    sysop: SysopSettings = dataclasses.field(default_factory=SysopSettings)
    rlogin: RloginSettings = dataclasses.field(default_factory=RloginSettings)
    web: WebSettings = dataclasses.field(default_factory=WebSettings)
    limits: LimitSettings = dataclasses.field(default_factory=LimitSettings)
    door: DoorSettings = dataclasses.field(default_factory=DoorSettings)
    timing: TimingSettings = dataclasses.field(default_factory=TimingSettings)
    # [<door key>]: each door's own settings (DoorInfo.settings), by door
    doors: Mapping[str, Mapping[str, DoorValue]] = dataclasses.field(default_factory=_door_defaults)

    def door_folder(self, key: str) -> Path:
        """A door's own folder in the state directory."""
        return Path(self.paths.state_dir) / key

    def bound_doors(self) -> dict[str, DoorInfo]:
        """Every door as this server runs it: bound to its own folder and
        settings (``DoorInfo.state_folder``), in lobby order."""
        from doors import registry
        return {key: info.state_folder(self.door_folder(key), self.door_settings(key))
                if info.state_folder is not None else info for key, info in registry().items()}

    def door_settings(self, door: str) -> Mapping[str, DoorValue]:
        return self.doors.get(door, {})

    def move_seconds(self, door: str) -> float:
        """A live game's time per move in ``door`` (``[<door>] move_minutes``; 0: no clock)."""
        minutes = self.door_settings(door).get("move_minutes", MOVE_MINUTES)
        return float(minutes if isinstance(minutes, (int, float)) else MOVE_MINUTES) * 60

    def with_tables(self, tables: Tables, source: str = "settings", ranges: bool = True) -> Config:
        """This Config with ``tables`` applied (see :func:`apply_tables`);
        ``ranges=False`` lets a test go below a sysop's allowed range (a
        title screen of one second), never past a type or an unknown key."""
        return apply_tables(self, tables, source, code=True, ranges=ranges)


@overload
def _coerce(where: str, value: object, default: DoorValue, limits: tuple[float, float, bool] | None,
            ranges: bool = True) -> DoorValue: ...
@overload
def _coerce(where: str, value: object, default: Setting, limits: tuple[float, float, bool] | None,
            ranges: bool = True) -> Setting: ...
def _coerce(where: str, value: object, default: Setting, limits: tuple[float, float, bool] | None,
            ranges: bool = True) -> Setting:
    """``value`` as the type of ``default``, or ConfigError naming ``where``."""
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise ConfigError(f"{where} must be true or false")
        return value
    if isinstance(default, (int, float)):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ConfigError(f"{where} must be a number")
        if isinstance(default, int) and isinstance(value, float) and not value.is_integer():
            raise ConfigError(f"{where} must be a whole number")
        value = float(value) if isinstance(default, float) else int(value)
        if limits is not None and ranges:
            _check_range(where, value, *limits)
        return value
    if isinstance(default, tuple):
        if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
            raise ConfigError(f"{where} must be a list of strings")
        return tuple(value)
    if not isinstance(value, str):
        raise ConfigError(f"{where} must be a string")
    return value


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def _check_range(where: str, value: float, low: float, high: float, low_ok: bool) -> None:
    if not math.isfinite(value) or value > high or value < low or (value == low and not low_ok):
        bound = f"{'at least' if low_ok else 'more than'} {_num(low)} and at most {_num(high)}"
        raise ConfigError(f"{where} = {value!r} is out of range: set it to {bound}")


def _apply_section(current: DataclassInstance, section: str, table: Mapping[str, object], source: str,
                   ranges: bool) -> DataclassInstance:
    fields = {f.name: f for f in dataclasses.fields(current)}
    changes: dict[str, Setting] = {}
    for key, value in table.items():
        if key not in fields:
            hint = _RENAMED.get(f"{section}.{key}", "")
            raise ConfigError(f"{source}: unknown setting {section}.{key}{hint}")
        changes[key] = _coerce(f"{source}: {section}.{key}", value, getattr(current, key),
                               fields[key].metadata.get("range"), ranges)
    return dataclasses.replace(current, **changes)


def _apply_door(settings: Mapping[str, DoorValue], section: str, table: Mapping[str, object],
                source: str, ranges: bool) -> dict[str, DoorValue]:
    from doors import registry
    specs = {spec.key: spec for spec in registry()[section].settings}
    new = dict(settings)
    for key, value in table.items():
        if key not in new:
            raise ConfigError(f"{source}: unknown setting {section}.{key}")
        spec = specs.get(key)
        limits = None if spec is None or spec.low is None else (
            spec.low, math.inf if spec.high is None else spec.high, spec.low_ok)
        if key == "move_minutes" and spec is None:
            limits = MOVE_MINUTES_RANGE
        new[key] = _coerce(f"{source}: {section}.{key}", value, new[key], limits, ranges)
    return new


def apply_tables(cfg: Config, tables: Tables, source: str, code: bool = False,
                 ranges: bool = True) -> Config:
    """``cfg`` with each ``[section] key = value`` of ``tables`` set, checked
    as a settings file is: an unknown section or key, a value of the wrong
    type or out of range raises ConfigError naming ``source``, the section
    and the key. ``code``: also the sections only a program sets (timing);
    ``ranges``: whether numbers must be in their allowed range."""
    # the sections' new values by field name, loosely typed: dataclasses.replace
    # takes each by name (every one is its field's own settings dataclass)
    changes: dict[str, Any] = {}
    doors = dict(cfg.doors)
    known = {**_SECTIONS, **(_CODE_ONLY if code else {})}
    for section, table in tables.items():
        if not isinstance(table, Mapping):
            raise ConfigError(f"{source}: {section} must be a section ([{section}]), not a value")
        if section in doors:
            doors[section] = _apply_door(doors[section], section, table, source, ranges)
        elif section in known:
            current = changes.get(section, getattr(cfg, section))
            changes[section] = _apply_section(current, section, table, source, ranges)
        else:
            raise ConfigError(f"{source}: unknown section [{section}]")
    return dataclasses.replace(cfg, doors=doors, **changes)


def _read_file(candidate: Path) -> Tables:
    try:
        return tomllib.loads(candidate.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{candidate}: {exc}") from exc
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{candidate}: not UTF-8 text (byte {exc.start}): "
                          "save the settings file as UTF-8") from None
    except OSError as exc:
        raise ConfigError(f"{candidate}: cannot read the settings file "
                          f"({exc.strerror or exc}): check its path and permissions") from None


def _absolute(path: str, base: Path) -> str:
    return path if path == ":memory:" else os.path.abspath(base / Path(path).expanduser())


def settings_file(path: str | Path | None = None) -> Path | None:
    """The settings file ``load_config(path)`` reads, if there is one."""
    candidate = Path(path) if path else Path("gatehouse.toml")
    return candidate if candidate.exists() else None


def load_config(path: str | Path | None = None, flags: Tables | None = None) -> Config:
    """Defaults, then ``path`` (or ./gatehouse.toml if it exists), then
    ``flags`` (section tables from the command line); paths made absolute
    as the module doc says."""
    cfg = Config()
    base = Path.cwd()
    candidate = Path(path) if path else Path("gatehouse.toml")
    if path and not candidate.exists():
        raise ConfigError(f"{candidate}: no such configuration file")
    if candidate.exists():
        cfg = apply_tables(cfg, _read_file(candidate), str(candidate))
        base = candidate.resolve().parent
    state = Path(_absolute(cfg.paths.state_dir, base))
    cfg = dataclasses.replace(
        cfg, paths=PathSettings(str(state)),
        store=StoreSettings(_absolute(cfg.store.database, state)),
        sysop=dataclasses.replace(cfg.sysop, socket=_absolute(cfg.sysop.socket, state)))
    if flags:
        cfg = apply_tables(cfg, flags, "command line")
        here = Path.cwd()      # paths given as flags: from the current folder
        if "database" in flags.get("store", {}):
            cfg = dataclasses.replace(cfg, store=StoreSettings(_absolute(cfg.store.database, here)))
        if "socket" in flags.get("sysop", {}):
            cfg = dataclasses.replace(cfg, sysop=dataclasses.replace(
                cfg.sysop, socket=_absolute(cfg.sysop.socket, here)))
    return cfg
