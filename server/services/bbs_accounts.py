"""Who a BBS may hand over by RLogin, checked before the handshake is
acknowledged. A BBS-handed caller is a separate kind of account ("bbs"):
it can never become a telnet caller's account, the sysop or the computer,
and its name is validated like any handle (reserved names refused, no
look-alike of an existing handle). A sysop may require a shared secret per
BBS: ``rlogin.secrets = ["10.0.0.5=s3cret", ...]`` (address or network =
secret); the BBS sends it in the RLogin field that does not carry the
caller's name (the client-user when ``name_field = "server_user"``).
"""
from __future__ import annotations

import hmac
import ipaddress
from typing import TYPE_CHECKING

from server.net.rlogin import RloginError, RloginHandshake, bbs_handle, normalize_tag
from server.services.handles import RESERVED, valid_handle
from server.services.store import AccountKind, Store

if TYPE_CHECKING:
    from server.config import Config

__all__ = ["parse_secrets", "secret_for", "check_secret", "bbs_refusal", "admit_bbs_caller"]


def parse_secrets(entries: list[str]) -> list[tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, str]]:
    """``["10.0.0.5=s3cret"]`` -> [(network, secret)]; ValueError (naming the
    entry) if one is malformed."""
    out = []
    for entry in entries:
        where, sep, secret = entry.partition("=")
        if not sep or not secret:
            raise ValueError(f"rlogin.secrets: {entry!r} is not ADDRESS=SECRET")
        try:
            out.append((ipaddress.ip_network(where.strip(), strict=False), secret))
        except ValueError:
            raise ValueError(f"rlogin.secrets: {where!r} is not an IP address or network") from None
    return out


def secret_for(entries: list[str], address: str) -> str | None:
    """The secret required from ``address`` (most specific entry), or None."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return None
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    matches = [(net.prefixlen, secret) for net, secret in parse_secrets(entries)
               if ip.version == net.version and ip in net]
    return max(matches)[1] if matches else None


def check_secret(entries: list[str], address: str, hs: RloginHandshake,
                 name_field: str) -> str | None:
    """A reason to refuse if ``address`` must send a secret and did not."""
    wanted = secret_for(entries, address)
    if wanted is None:
        return None
    sent = hs.client_user if name_field == "server_user" else hs.server_user
    if hmac.compare_digest(sent.encode(), wanted.encode()):
        return None
    return "wrong or missing RLogin secret"


async def admit_bbs_caller(store: Store, cfg: Config, address: str, hs: RloginHandshake) -> str:
    """The handle of the caller a BBS hands over in ``hs``; RloginError
    (with the reason) if they may not come in."""
    handle = bbs_handle(hs.caller_name(cfg.rlogin_name_field), cfg.rlogin_tag)
    reason = (check_secret(cfg.rlogin_secrets, address, hs, cfg.rlogin_name_field)
              or await bbs_refusal(store, cfg, handle))
    if reason:
        raise RloginError(reason)
    return handle


async def bbs_refusal(store: Store, cfg: Config, handle: str) -> str | None:
    """Why the BBS caller ``handle`` (already tagged) may not come in, or None."""
    reason = valid_handle(handle, cfg.sysop_name)
    if reason:
        return f"{handle!r}: {reason}"
    tag = normalize_tag(cfg.rlogin_tag)
    core = handle[len(tag):] if tag and handle.startswith(tag) else handle
    if core.strip().casefold() in RESERVED | {cfg.sysop_name.casefold()}:
        return f"{handle!r}: that name is reserved"
    user = await store.get_user(handle)
    if user is not None:
        if user.kind != AccountKind.BBS:
            return (f"{handle!r} is the name of a {user.kind} account here, not a BBS caller "
                    "(set rlogin.tag so BBS callers get names of their own)")
        return None
    other = await store.lookalike(handle)
    if other is not None:
        return f"{handle!r} looks too much like the existing handle {other!r}"
    return None
