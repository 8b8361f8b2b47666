"""RLogin (RFC 1282) listener pieces: handshake, allow-list, handles, window size.

Off by default (``[rlogin] enabled = false``).  A BBS connects, sends
``\\0client-user\\0server-user\\0terminal/speed\\0`` and gets ``\\0`` back.

Which field carries the caller's name (``rlogin.name_field``):

* Synchronet ``exec/rlogin.js`` (v2): ``-c``/``-s`` set client/server-user;
  with no options it sends client-user = alias, server-user = real name
  (swapped by mode ``TG_RLOGINSWAP``); ``-p``/``-h`` send server-user = alias
  and client-user = (hashed) password, "as expected by Synchronet" -- i.e.
  Synchronet's own RLogin server and door servers built on it (DoorParty,
  gOLD mINE) read the user name from server-user.
* Mystic ``IR`` (outbound RLogin) menu command: ``/user=`` is the
  server-user (door servers document ``/user=[TAG]@USER@``), ``/pass=``
  the client-user.

So the default is ``name_field = "server_user"``; the client-user is then
a password/tag the server may ignore.
"""
from __future__ import annotations

import asyncio
import hashlib
import ipaddress
import os
import socket
import struct
import unicodedata
import urllib.parse
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from ansi.cp437 import decode_cp437

QUOTED = "quoted"         # door mode's terminal parameter: the name field is quote_alias's
HANDSHAKE_ACK = b"\0"
REFUSAL = b"Gatehouse: "     # after the NUL, then a reason and CR LF: the caller is refused
WINDOW_REQUEST = b"\x80"  # sent by the server as TCP urgent data
WINDOW_COOKIE = b"\xff\xffss"
MAX_FIELD = 64
MAX_TOTAL = 256
NAME_FIELDS = ("server_user", "client_user")
HANDLE_MIN, HANDLE_MAX = 2, 20
_HANDLE_CHARS = frozenset(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 _-.[]")
_FIELD_NAMES = ("client-user", "server-user", "terminal/speed")


class RloginError(Exception):
    """A refused RLogin connection; ``str(err)`` is the reason."""


@dataclass(frozen=True)
class RloginHandshake:
    client_user: str
    server_user: str
    terminal: str
    speed: int

    @property
    def minutes_left(self) -> int | None:
        """The caller's minutes left on their BBS, when door mode sends them
        (``ansi-bbs;minutes=12/38400``: DOOR32.SYS line 9), else None."""
        for param in self.terminal.split(";")[1:]:
            name, _, value = param.partition("=")
            if name == "minutes" and value.isdecimal() and len(value) <= 6:
                return int(value)
        return None

    @property
    def terminal_type(self) -> str:
        """The terminal type without door mode's parameters."""
        return self.terminal.split(";")[0]

    @property
    def quoted(self) -> bool:
        """Whether the caller's name is ``quote_alias``'s (door mode says so,
        ``ansi-bbs;quoted/38400``); a BBS's own RLogin sends it as it is."""
        return QUOTED in self.terminal.split(";")[1:]

    def alias(self, name_field: str = "server_user") -> str:
        """The caller's name as the BBS knows it: unquoted only if door mode
        quoted it (``Al%69ce`` from a BBS is that name, not ``Alice``)."""
        name = self.caller_name(name_field)
        return unquote_alias(name) if self.quoted else name

    def caller_name(self, name_field: str = "server_user") -> str:
        """The raw caller name from the configured field (not sanitised)."""
        if name_field not in NAME_FIELDS:
            raise ValueError(f"rlogin.name_field must be one of {NAME_FIELDS}, got {name_field!r}")
        name = str(getattr(self, name_field))
        if not name.strip():
            raise RloginError(f"{name_field.replace('_', '-')} (the caller's name) is empty")
        return name


class WindowSize(NamedTuple):
    rows: int
    cols: int
    xpixels: int
    ypixels: int


async def read_handshake(reader: asyncio.StreamReader, timeout: float = 10) -> RloginHandshake:
    """Read and validate the client's handshake; raise RloginError on anything odd."""
    try:
        async with asyncio.timeout(timeout):
            return await _read_handshake(reader)
    except TimeoutError:
        raise RloginError(f"handshake timed out after {timeout:g}s") from None


async def _read_byte(reader: asyncio.StreamReader) -> int:
    try:
        return (await reader.readexactly(1))[0]
    except asyncio.IncompleteReadError:
        raise RloginError("connection closed during handshake") from None


async def _read_handshake(reader: asyncio.StreamReader) -> RloginHandshake:
    if await _read_byte(reader) != 0:
        raise RloginError("handshake must start with a NUL byte")
    total = 1
    fields: list[str] = []
    for name in _FIELD_NAMES:
        buf = bytearray()
        while (b := await _read_byte(reader)) != 0:
            # a BBS sends an alias as it keeps it: 8-bit (CP437 or UTF-8) letters are welcome
            if b < 0x20 or b == 0x7F or (b > 0x7F and name == "terminal/speed"):
                raise RloginError(f"{name} contains a non-printable byte 0x{b:02x}")
            buf.append(b)
            if len(buf) > MAX_FIELD:
                raise RloginError(f"{name} is longer than {MAX_FIELD} bytes")
        total += len(buf) + 1
        if total > MAX_TOTAL:
            raise RloginError(f"handshake is longer than {MAX_TOTAL} bytes")
        text = _text(bytes(buf))
        if any(unicodedata.category(c) == "Cc" for c in text):         # (C1 controls in UTF-8)
            raise RloginError(f"{name} contains a control character")
        fields.append(text)
    client, server, term = fields
    terminal, speed = _split_terminal(term)
    return RloginHandshake(client, server, terminal, speed)


def _text(field: bytes) -> str:
    """A handshake field as text: UTF-8 if it reads as that, else CP437 (the
    BBS world's own); a name's control characters never get this far."""
    try:
        return field.decode("utf-8")
    except UnicodeDecodeError:
        return decode_cp437(field)


def _split_terminal(term: str) -> tuple[str, int]:
    if "/" not in term:
        return term, 0
    terminal, speed = term.rsplit("/", 1)
    if not speed:
        return terminal, 0
    if not speed.isdecimal() or len(speed) > 9:
        raise RloginError(f"terminal speed must be a number, got {speed!r}")
    return terminal, int(speed)


def build_handshake(client_user: str, server_user: str, terminal: str) -> bytes:
    """The client side: ``\\0client\\0server\\0terminal/speed\\0`` (fields ASCII-cleaned, ≤ 64)."""
    parts = [_ascii_field(f) for f in (client_user, server_user, terminal)]
    return b"\0" + b"\0".join(parts) + b"\0"


def _ascii_field(text: str) -> bytes:
    text = _fold(text)
    return "".join(c for c in text if " " <= c <= "~")[:MAX_FIELD].encode("ascii")


def _fold(text: str) -> str:
    """Strip accents (Jörg -> Jorg) so names survive the ASCII-only rules."""
    return "".join(c for c in unicodedata.normalize("NFKD", text)
                   if not unicodedata.combining(c))


# --- allow-list --------------------------------------------------------------

@lru_cache(maxsize=64)
def _networks(allow: tuple[str, ...]) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    nets = []
    for entry in allow:
        try:
            nets.append(ipaddress.ip_network(entry.partition("=")[0].strip(), strict=False))
        except ValueError:
            raise ValueError(f"rlogin.allow: {entry!r} is not an IP address or network") from None
    return tuple(nets)


def is_allowed(address: str, allow_list: Sequence[str]) -> bool:
    """True if ``address`` is inside any allow-list entry (addresses or CIDR
    networks, each perhaps with ``=TAG``, its BBS's tag).

    IPv4-mapped IPv6 peers (``::ffff:10.0.0.1``) are matched as IPv4; a bad
    entry raises ValueError (a config error), a bad address is simply refused.
    """
    nets = _networks(tuple(allow_list))
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return any(ip in net for net in nets)


# --- handles -----------------------------------------------------------------

def sanitize_handle(raw: str, max_len: int = HANDLE_MAX) -> str:
    """Fold accents, drop control chars, replace other bad chars with ``_``.

    Whitespace runs collapse to one space; the result is trimmed to
    ``max_len``.  May return "" -- callers check the minimum length.
    """
    out: list[str] = []
    for c in _fold(raw):
        if c.isspace():
            c = " "
        elif not c.isprintable():
            continue
        elif c not in _HANDLE_CHARS:
            c = "_"
        if c == " " and (not out or out[-1] == " "):
            continue
        out.append(c)
    return "".join(out)[:max_len].strip()


_ALIAS_SAFE = "".join(chr(c) for c in range(0x20, 0x7F) if chr(c) != "%")


def quote_alias(alias: str) -> str:
    """An alias for the ASCII-only RLogin field with nothing lost: characters
    outside printable ASCII, and ``%``, as ``%XX`` (UTF-8), so ``Jörg`` and
    ``Jorg`` (or ``bad\x01name`` and ``badname``) stay apart. Door mode sends it."""
    return urllib.parse.quote(alias, safe=_ALIAS_SAFE)


def alias_field(alias: str) -> str:
    """``quote_alias`` cut to fit the handshake's field: a quoted alias too
    long for it (a name in another alphabet quotes to up to nine characters
    a letter) keeps its start and ends in ``~`` and a digest of the whole
    alias, so two long names that start alike stay two callers."""
    quoted = quote_alias(alias)
    if len(quoted) <= MAX_FIELD:
        return quoted
    digest = hashlib.sha256(alias.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    head = quoted[:MAX_FIELD - len(digest) - 1]
    cut = head.find("%", len(head) - 2)       # never half a %XX
    return (head if cut < 0 else head[:cut]) + "~" + digest


def unquote_alias(field: str) -> str:
    """The alias ``quote_alias`` sent (a plain name comes back unchanged)."""
    return urllib.parse.unquote(field, errors="replace")


def normalize_tag(tag: str | None) -> str:
    """``"ABC"``/``"[ABC]"`` -> ``"[ABC]"``; empty/None -> ``""``."""
    inner = sanitize_handle((tag or "").replace("[", "").replace("]", "").replace(" ", ""), 8)
    return f"[{inner}]" if inner else ""


def bbs_handle(name: str, tag: str | None) -> str:
    """The Gatehouse handle for a BBS caller: ``[TAG]name`` (2-20 chars)."""
    prefix = normalize_tag(tag)
    core = sanitize_handle(name)
    if prefix and core.startswith(prefix):  # the BBS already tagged it
        core = core[len(prefix):].strip()
    handle = (prefix + core)[:HANDLE_MAX].rstrip()
    if not core or len(handle) < HANDLE_MIN:
        raise RloginError(f"caller name {name!r} gives no usable handle")
    return handle


# --- window size -------------------------------------------------------------

def request_window_size(writer: asyncio.StreamWriter) -> bool:
    """Ask the client for its window size (urgent byte 0x80); False if not possible.

    Call after the ACK has been drained, or the urgent byte may overtake it.
    """
    sock = writer.get_extra_info("socket")
    if sock is None:
        return False
    try:
        with socket.socket(fileno=os.dup(sock.fileno())) as dup:
            dup.setblocking(False)
            dup.send(WINDOW_REQUEST, socket.MSG_OOB)
        return True
    except OSError:
        return False


def window_message(size: WindowSize) -> bytes:
    """The client's in-band window-size control message."""
    return WINDOW_COOKIE + struct.pack(">4H", *size)


class RloginInputFilter:
    """Strips ``\\xff\\xffss`` + 8-byte window-size messages from client input.

    ``feed(data) -> (clean_bytes, new_size | None)``; a message split across
    reads is held back until complete (see ``pending``/``flush``).
    """

    def __init__(self) -> None:
        self._pending = b""

    @property
    def pending(self) -> bytes:
        return self._pending

    def flush(self) -> bytes:
        """Give back held bytes (e.g. a lone trailing 0xff at EOF)."""
        data, self._pending = self._pending, b""
        return data

    def feed(self, data: bytes) -> tuple[bytes, WindowSize | None]:
        buf, self._pending = self._pending + data, b""
        out = bytearray()
        size: WindowSize | None = None
        i = 0
        while True:
            at = buf.find(WINDOW_COOKIE, i)
            if at < 0:
                keep = next((k for k in (3, 2, 1)
                             if len(buf) - k >= i and buf.endswith(WINDOW_COOKIE[:k])), 0)
                out += buf[i:len(buf) - keep]
                self._pending = buf[len(buf) - keep:]
                break
            out += buf[i:at]
            if len(buf) - at < 12:
                self._pending = buf[at:]
                break
            size = WindowSize(*struct.unpack(">4H", buf[at + 4:at + 12]))
            i = at + 12
        return bytes(out), size
