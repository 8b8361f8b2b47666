"""Start-up checks: settings that are well typed but unusable, and the one-line
message every fatal start-up error ends as (what, which file or setting,
what to do), so ``gatehouse serve`` exits at once instead of hanging."""
from __future__ import annotations

import contextlib
import ipaddress
import stat
from collections.abc import AsyncIterator
from pathlib import Path

from server.config import Config, ConfigError

__all__ = ["StartupError", "check_settings", "exposed_secrets", "listening"]


class StartupError(Exception):
    """A fatal start-up problem; ``str(err)`` is the one line to print."""


def check_settings(cfg: Config, source: str = "") -> Config:
    """Raise ConfigError (one line) for settings that are well typed and in
    range (the loader checks that) but still unusable; returns ``cfg``."""
    where = f"{source}: " if source else ""
    if cfg.door.charset not in ("", "cp437", "utf8"):
        raise ConfigError(f"{where}door.charset = {cfg.door.charset!r}: set it to \"cp437\" "
                          "or \"utf8\" (or leave it out: CP437, as DOOR32.SYS callers use)")
    if not cfg.rlogin.allow and cfg.rlogin.enabled:
        raise ConfigError(f"{where}rlogin.allow is empty: list the BBS addresses allowed to "
                          "use RLogin (for example [\"127.0.0.1\"])")
    for entry in cfg.rlogin.allow:
        try:
            ipaddress.ip_network(entry.partition("=")[0].strip(), strict=False)
        except ValueError:
            raise ConfigError(f"{where}rlogin.allow: {entry!r} is not an IP address or network "
                              "(write \"10.0.0.5\", \"10.0.0.0/24\" or \"10.0.0.5=TAG\")") from None
    for entry in cfg.web.trusted_proxies:
        try:
            ipaddress.ip_network(entry.strip(), strict=False)
        except ValueError:
            raise ConfigError(f"{where}web.trusted_proxies: {entry!r} is not an IP address or network "
                              "(write \"127.0.0.1\" or \"10.0.0.0/24\")") from None
    for entry in cfg.web.origins:
        if not entry.strip().lower().startswith(("http://", "https://")):
            raise ConfigError(f"{where}web.origins: {entry!r} is not a page's origin "
                              "(write \"https://bbs.example.org\")")
    from server.services.bbs_accounts import open_without_secret, parse_secrets
    try:
        parse_secrets(cfg.rlogin.secrets)
    except ValueError as exc:
        raise ConfigError(f"{where}{exc} (write \"10.0.0.5=the-secret\" or "
                          "\"10.0.0.5=the-secret=TAG\")") from None
    open_entries = open_without_secret(cfg.rlogin.allow, cfg.rlogin.secrets) if cfg.rlogin.enabled else []
    if open_entries:
        raise ConfigError(f"{where}rlogin.allow: {', '.join(open_entries)} holds addresses that no "
                          "rlogin.secrets entry covers, and they would be handed over with no "
                          "secret: add a secret for each, or narrow rlogin.allow")
    if cfg.rlogin.name_field not in ("server_user", "client_user"):
        raise ConfigError(f"{where}rlogin.name_field = {cfg.rlogin.name_field!r}: "
                          "use \"server_user\" or \"client_user\"")
    return cfg


def exposed_secrets(path: Path | None, cfg: Config) -> str | None:
    """A warning when the settings file at ``path`` holds a secret (the
    BBSes' RLogin secrets) and every local user may read it: any of them
    could then hand a caller over under any BBS caller's name."""
    if path is None or not cfg.rlogin.secrets:
        return None
    try:
        mode = path.stat().st_mode
    except OSError:
        return None
    if not mode & stat.S_IROTH:
        return None
    return (f"{path} holds [rlogin] secrets and every local user can read it (mode "
            f"{stat.S_IMODE(mode):04o}): give it to a group of the server's and the BBS's users "
            "and chmod 0640 (deploy/README.md, Install)")


@contextlib.asynccontextmanager
async def listening(what: str, section: str, host: str, port: int) -> AsyncIterator[None]:
    """Turn a failure to listen into one StartupError line."""
    try:
        yield
    except (OSError, OverflowError, ValueError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        raise StartupError(f"cannot listen for {what} on {host} port {port} ({reason}): "
                           f"change [{section}] host/port or stop the program using it") from None
