"""Start-up checks: settings whose values are out of range, and the one-line
message every fatal start-up error ends as (what, which file or setting,
what to do), so ``gatehouse serve`` exits at once instead of hanging."""
from __future__ import annotations

import contextlib
import ipaddress
import math
from collections.abc import AsyncIterator

from doors import registry
from server.config import Config, ConfigError

__all__ = ["StartupError", "check_settings", "listening"]


class StartupError(Exception):
    """A fatal start-up problem; ``str(err)`` is the one line to print."""


# Config field -> (toml name, lowest, highest, whether the lowest is allowed)
_RANGES: dict[str, tuple[str, float, float, bool]] = {
    "port": ("server.port", 0, 65535, True),
    "max_sessions": ("server.max_sessions", 1, 1_000_000, True),
    "max_per_ip": ("server.max_per_ip", 1, 1_000_000, True),
    "computer_workers": ("server.computer_workers", 1, 64, True),
    "shutdown_grace_seconds": ("server.shutdown_grace_seconds", 0, 60, True),
    "chat_lines_per_10s": ("limits.chat_lines_per_10s", 1, 1000, True),
    "challenges_per_minute": ("limits.challenges_per_minute", 1, 1000, True),
    "new_accounts_per_hour": ("limits.new_accounts_per_hour", 1, 100_000, True),
    "title_seconds": ("limits.title_seconds", 10, 3600, True),
    "idle_minutes": ("server.idle_minutes", 0, 10_000, False),
    "forfeit_minutes": ("server.forfeit_minutes", 0, 100_000, False),
    "telnet_timeout_minutes": ("server.telnet_timeout_minutes", 0, 100_000, False),
    "connect_maxwait": ("server.connect_maxwait", 0, 60, True),
    "rlogin_port": ("rlogin.port", 0, 65535, True),
    "web_port": ("web.port", 0, 65535, True),
    "door_rlogin_port": ("door.rlogin_port", 1, 65535, True),
    "door_max_drop_age_minutes": ("door.max_drop_age_minutes", 0, 60, False),
}


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def check_settings(cfg: Config, source: str = "") -> Config:
    """Raise ConfigError (one line) for a setting out of range; returns ``cfg``."""
    where = f"{source}: " if source else ""
    ranges = [(name, getattr(cfg, field), low, high, low_ok)
              for field, (name, low, high, low_ok) in _RANGES.items()]
    for key, info in registry().items():      # each door's own settings
        for spec in info.settings:
            if spec.low is not None and spec.high is not None:
                ranges.append((f"{key}.{spec.key}", cfg.door_settings(key).get(spec.key),
                               spec.low, spec.high, spec.low_ok))
    for name, value, low, high, low_ok in ranges:
        bad = (not isinstance(value, (int, float)) or isinstance(value, bool)
               or (isinstance(value, float) and not math.isfinite(value))
               or value > high or value < low or (value == low and not low_ok))
        if bad:
            bound = (f"{'at least' if low_ok else 'more than'} {_num(low)} "
                     f"and at most {_num(high)}")
            raise ConfigError(f"{where}{name} = {value!r} is out of range: set it to {bound}")
    if cfg.door_charset not in ("", "cp437", "utf8"):
        raise ConfigError(f"{where}door.charset = {cfg.door_charset!r}: set it to \"cp437\" "
                          "or \"utf8\" (or leave it out: CP437, as DOOR32.SYS callers use)")
    if not cfg.rlogin_allow and cfg.rlogin_enabled:
        raise ConfigError(f"{where}rlogin.allow is empty: list the BBS addresses allowed to "
                          "use RLogin (for example [\"127.0.0.1\"])")
    for entry in cfg.rlogin_allow:
        try:
            ipaddress.ip_network(entry.strip(), strict=False)
        except ValueError:
            raise ConfigError(f"{where}rlogin.allow: {entry!r} is not an IP address or network "
                              "(write \"10.0.0.5\" or \"10.0.0.0/24\")") from None
    for entry in cfg.web_trusted_proxies:
        try:
            ipaddress.ip_network(entry.strip(), strict=False)
        except ValueError:
            raise ConfigError(f"{where}web.trusted_proxies: {entry!r} is not an IP address or network "
                              "(write \"127.0.0.1\" or \"10.0.0.0/24\")") from None
    for entry in cfg.web_origins:
        if not entry.strip().lower().startswith(("http://", "https://")):
            raise ConfigError(f"{where}web.origins: {entry!r} is not a page's origin "
                              "(write \"https://bbs.example.org\")")
    from server.services.bbs_accounts import open_without_secret, parse_secrets
    try:
        parse_secrets(cfg.rlogin_secrets)
    except ValueError as exc:
        raise ConfigError(f"{where}{exc} (write \"10.0.0.5=the-secret\")") from None
    open_entries = open_without_secret(cfg.rlogin_allow, cfg.rlogin_secrets) if cfg.rlogin_enabled else []
    if open_entries:
        raise ConfigError(f"{where}rlogin.allow: {', '.join(open_entries)} holds addresses that no "
                          "rlogin.secrets entry covers, and they would be handed over with no "
                          "secret: add a secret for each, or narrow rlogin.allow")
    if cfg.rlogin_name_field not in ("server_user", "client_user"):
        raise ConfigError(f"{where}rlogin.name_field = {cfg.rlogin_name_field!r}: "
                          "use \"server_user\" or \"client_user\"")
    return cfg


@contextlib.asynccontextmanager
async def listening(what: str, section: str, host: str, port: int) -> AsyncIterator[None]:
    """Turn a failure to listen into one StartupError line."""
    try:
        yield
    except (OSError, OverflowError, ValueError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        raise StartupError(f"cannot listen for {what} on {host} port {port} ({reason}): "
                           f"change [{section}] host/port or stop the program using it") from None
