"""Who a BBS may hand over by RLogin, checked before the handshake is
acknowledged. A BBS-handed caller is a separate kind of account ("bbs"):
it can never become a telnet caller's account, the sysop or the computer,
and its name is validated like any handle (reserved names refused, no
look-alike of an existing handle). A sysop may require a shared secret per
BBS: ``rlogin.secrets = ["10.0.0.5=s3cret", ...]`` (address or network =
secret); the BBS sends it in the RLogin field that does not carry the
caller's name (the client-user when ``name_field = "server_user"``).

One hub, many BBSes: a secrets entry may end in ``=TAG``
(``"10.0.0.5=s3cret=MYS"``), and so may an allow entry (``"10.0.0.6=SBBS"``);
a caller is tagged by the BBS that sent them: the tag of the secret they
sent, else of the most specific allow entry with a tag, else
``rlogin.tag``. A name that already carries that tag is not tagged twice;
one that carries another BBS's tag is refused (``bbs_tag``).

A BBS caller's account is keyed by the full alias (``alias_key``), not by
the handle shown here, which is cut to 20 characters and cleaned: two
aliases that share their first 14 characters, or differ only in characters
the handle cannot show, stay two accounts (``bbs_account``). Telnet (RLogin
from a BBS) and door mode both come in here.
"""
from __future__ import annotations

import contextlib
import hmac
import ipaddress
import logging
import socket
import sqlite3
from collections.abc import Sequence
from typing import TYPE_CHECKING

from server.net.rlogin import (
    HANDLE_MAX,
    RloginError,
    RloginHandshake,
    bbs_handle,
    normalize_tag,
)
from server.services.handles import RESERVED, valid_handle
from server.services.store import AccountKind, Store, UserRow, WriteFailed

if TYPE_CHECKING:
    from server.config import Config

__all__ = ["parse_secrets", "secret_for", "open_without_secret", "check_secret", "bbs_refusal",
           "admit_bbs_caller", "bbs_tag", "bbs_tags",
           "alias_key", "bbs_account"]

log = logging.getLogger("gatehouse.bbs")


Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def parse_secrets(entries: Sequence[str]) -> list[tuple[Network, str, str]]:
    """``["10.0.0.5=s3cret=MYS"]`` -> [(network, secret, tag)] (tag ``""``
    when the entry has none); ValueError (naming the entry) if one is malformed."""
    out = []
    for entry in entries:
        where, sep, rest = entry.partition("=")
        secret, _, tag = rest.partition("=")
        if not sep or not secret:
            raise ValueError(f"rlogin.secrets: {entry!r} is not ADDRESS=SECRET or ADDRESS=SECRET=TAG")
        try:
            out.append((ipaddress.ip_network(where.strip(), strict=False), secret, tag.strip()))
        except ValueError:
            raise ValueError(f"rlogin.secrets: {where!r} is not an IP address or network") from None
    return out


def open_without_secret(allow: Sequence[str], entries: Sequence[str]) -> list[str]:
    """The ``allow`` entries holding addresses that no secret in
    ``entries`` covers (each as written), when any secret is set: such an
    address is handed over with no secret at all. [] when there are no
    secrets, or every allowed address has one."""
    secrets = [net for net, _secret, _tag in parse_secrets(entries)]
    if not secrets:
        return []
    out = []
    for entry in allow:
        left = [ipaddress.ip_network(entry.partition("=")[0].strip(), strict=False)]
        for net in secrets:
            rest: list[ipaddress.IPv4Network | ipaddress.IPv6Network] = []
            for part in left:
                if part.version != net.version or not part.overlaps(net):
                    rest.append(part)
                elif not part.subnet_of(net):      # type: ignore[arg-type]
                    rest.extend(part.address_exclude(net))   # type: ignore[arg-type]
            left = rest
        if left:
            out.append(entry.strip())
    return out


def _ip(address: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return None
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    return ip


def _closest(entries: list[tuple[Network, str, str]], address: str) -> list[tuple[str, str]]:
    """(secret, tag) of the most specific entries holding ``address``."""
    ip = _ip(address)
    if ip is None:
        return []
    inside = [(net.prefixlen, secret, tag) for net, secret, tag in entries
              if ip.version == net.version and ip in net]
    best = max((length for length, _s, _t in inside), default=-1)
    return [(secret, tag) for length, secret, tag in inside if length == best]


def secret_for(entries: Sequence[str], address: str) -> str | None:
    """The secret to send to ``address`` (the most specific entry; the first
    of several), or None. A host name (``localhost``) is looked up: the
    first of its addresses that has a secret."""
    parsed = parse_secrets(entries)
    addresses = [address] if _ip(address) is not None else _resolved(address)
    for one in addresses:
        closest = _closest(parsed, one)
        if closest:
            return closest[0][0]
    return None


def _resolved(host: str) -> list[str]:
    """The addresses of ``host`` (a name), or [] if it has none."""
    try:
        found = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        return []
    return list(dict.fromkeys(str(info[4][0]) for info in found))


def check_secret(entries: Sequence[str], address: str, hs: RloginHandshake,
                 name_field: str) -> str | None:
    """A reason to refuse if ``address`` must send a secret and did not."""
    return _secret_tag(entries, address, hs, name_field)[0]


def _secret_tag(entries: Sequence[str], address: str, hs: RloginHandshake,
                name_field: str) -> tuple[str | None, str]:
    """(reason to refuse or None, the tag of the secret sent or "")."""
    closest = _closest(parse_secrets(entries), address)
    if not closest:
        return None, ""
    sent = (hs.client_user if name_field == "server_user" else hs.server_user).encode()
    for secret, tag in closest:
        if hmac.compare_digest(sent, secret.encode()):
            return None, tag
    return "wrong or missing RLogin secret", ""


def _allow_tag(allow: Sequence[str], address: str) -> str:
    entries = []
    for entry in allow:
        where, _, tag = entry.partition("=")
        if tag.strip():
            with contextlib.suppress(ValueError):
                entries.append((ipaddress.ip_network(where.strip(), strict=False), "", tag.strip()))
    closest = _closest(entries, address)
    return closest[0][1] if closest else ""


def bbs_tags(cfg: Config) -> list[str]:
    """Every BBS tag configured (normalized, ``[MYS]``), in the settings' order."""
    raw = [cfg.rlogin.tag] + [tag for _n, _s, tag in parse_secrets(cfg.rlogin.secrets)]
    raw += [entry.partition("=")[2] for entry in cfg.rlogin.allow]
    tags = [normalize_tag(t) for t in raw]
    return list(dict.fromkeys(t for t in tags if t))


def bbs_tag(cfg: Config, address: str, hs: RloginHandshake) -> str:
    """The tag of the BBS at ``address`` that sent ``hs``; RloginError if its
    secret is wrong or the caller's name carries another BBS's tag."""
    reason, tag = _secret_tag(cfg.rlogin.secrets, address, hs, cfg.rlogin.name_field)
    if reason:
        raise RloginError(reason)
    own = normalize_tag(tag or _allow_tag(cfg.rlogin.allow, address) or cfg.rlogin.tag)
    alias = hs.alias(cfg.rlogin.name_field).strip().casefold()
    for other in bbs_tags(cfg):
        if other != own and alias.startswith(other.casefold()):
            raise RloginError(f"the caller's name {alias!r} carries {other}, another BBS's tag "
                              f"(callers from this BBS are tagged {own or 'with nothing'})")
    return own


async def admit_bbs_caller(store: Store, cfg: Config, address: str, hs: RloginHandshake) -> str:
    """The handle of the caller a BBS hands over in ``hs``; RloginError
    (with the reason) if they may not come in."""
    tag = bbs_tag(cfg, address, hs)
    alias = hs.alias(cfg.rlogin.name_field)
    try:
        return await bbs_account(store, cfg, alias, tag)
    except WriteFailed as exc:
        raise RloginError(f"cannot save a new account now ({exc.why}); "
                          "please try again later.") from None


def alias_key(alias: str, tag: str | None) -> str:
    """What identifies a BBS caller: the tag and the full alias as the BBS
    sent it (case-insensitive, as BBS user names are), before any shortening
    or cleaning for display."""
    prefix = normalize_tag(tag)
    name = alias.strip()
    if prefix and name.casefold().startswith(prefix.casefold()):   # the BBS already tagged it
        name = name[len(prefix):].strip()
    return f"{prefix.casefold()}\t{name.casefold()}"


def _with_suffix(handle: str, n: int) -> str:
    """``[TAG]averylongalias`` -> ``[TAG]averylongali-2``: still at most 20 characters."""
    end = f"-{n}"
    return handle[:HANDLE_MAX - len(end)].rstrip() + end


async def bbs_account(store: Store, cfg: Config, alias: str, tag: str | None = None) -> str:
    """The handle of the account for the BBS caller ``alias`` (full, unshortened),
    made on the first call. Two aliases never share an account: when the
    shortened, cleaned handle of a new alias is another BBS caller's, it gets
    a number (``-2``, ``-3``...). RloginError if the alias gives no usable handle.
    ``tag``: the caller's BBS's (default ``rlogin.tag``)."""
    tag = cfg.rlogin.tag if tag is None else tag
    key = alias_key(alias, tag)
    for _attempt in range(3):            # another call may take a handle meanwhile
        user = await store.get_bbs_user(key)
        if user is not None:
            return user.handle
        base = bbs_handle(alias, tag)
        reason = bbs_refusal(cfg, base, tag)
        if reason:
            raise RloginError(reason)
        for n in range(1, 100):
            handle = base if n == 1 else _with_suffix(base, n)
            taken = await _taken(store, handle, first=n == 1)
            if taken == "legacy":          # made before alias keys: the first caller claims it
                if await store.claim_bbs_key(_must(await store.get_user(handle)).id, key):
                    return handle
                continue
            if taken:
                continue
            try:
                await store.create_user(handle, b"", b"", None, kind=AccountKind.BBS, bbs_key=key)
            except sqlite3.IntegrityError:
                break                      # someone else got there: look again
            log.info("BBS caller %r is %s here", alias, handle)
            return handle
        else:
            raise RloginError(f"{base!r}: no free handle for this caller")
    raise RloginError(f"{alias!r}: could not make an account (busy), please call again")


def _must(user: UserRow | None) -> UserRow:
    assert user is not None
    return user


async def _taken(store: Store, handle: str, first: bool) -> str | bool:
    """False if ``handle`` is free for a new BBS caller; "legacy" for a BBS
    account with no alias key; True if another BBS caller has it or looks
    like it. A telnet, sysop or reserved account with (or looking like) the
    caller's own handle refuses the caller instead, with the reason."""
    user = await store.get_user(handle)
    if user is not None:
        if user.kind != AccountKind.BBS and not first:
            return True                   # a numbered handle that happens to be taken
        if user.kind != AccountKind.BBS:
            raise RloginError(f"{handle!r} is the name of a {user.kind} account here, not a BBS "
                              "caller (set rlogin.tag so BBS callers get names of their own)")
        if first and not await store.has_bbs_key(user.id):
            return "legacy"
        return True
    other = await store.lookalike(handle)
    if other is not None:
        other_user = await store.get_user(other)
        if first and (other_user is None or other_user.kind != AccountKind.BBS):
            raise RloginError(f"{handle!r} looks too much like the existing handle {other!r}")
        return True
    return False


def bbs_refusal(cfg: Config, handle: str, tag: str | None = None) -> str | None:
    """Why ``handle`` (a BBS caller's, already tagged with ``tag``, default
    ``rlogin.tag``) is no name at all, or None."""
    reason = valid_handle(handle, cfg.sysop.name)
    if reason:
        return f"{handle!r}: {reason}"
    tag = normalize_tag(cfg.rlogin.tag if tag is None else tag)
    core = handle[len(tag):] if tag and handle.startswith(tag) else handle
    if core.strip().casefold() in RESERVED | {cfg.sysop.name.casefold()}:
        return f"{handle!r}: that name is reserved"
    return None
