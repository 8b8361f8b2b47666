"""Unicode <-> CP437, for art files and for callers' terminals.

CP437 is the IBM PC character set BBS terminals (SyncTERM, NetRunner) draw
with. Bytes 0x20-0xFF follow Python's ``cp437`` codec except 0x7F, which is
the house glyph ⌂; bytes 0x01-0x1F are the smileys, card suits, arrows...
that the PC shows for them.

Three uses, three functions:

* ``encode_cp437`` / ``decode_cp437``: files (``.ans`` art). Every glyph
  gets its own byte; decoding treats the few control codes an ANSI
  interpreter acts on (``FILE_CONTROLS``: BS, TAB, LF, CR, SUB, ESC) as
  controls and the other low bytes as glyphs.
* ``encode(text, charset)``: what goes on the wire to a caller, "cp437" or
  "utf8". Every character becomes something that advances the cursor by
  exactly one column, so the renderer can track it: glyphs whose CP437 byte
  a terminal would act on (bell, backspace, tab, LF, CR, SO/SI, SUB, ESC,
  DEL; and 0xFF, telnet's IAC) are sent as a look-alike
  (``WIRE_SUBSTITUTES``); the card suits 0x03-0x06 are sent as they are
  (SyncTERM and NetRunner show them). In UTF-8, wide,
  combining or unassigned characters become '?' (by ``unicodedata`` and,
  when installed, ``wcwidth``: a character either thinks is not one column
  wide is not sent).
"""
from __future__ import annotations

import unicodedata
from collections.abc import Callable
from functools import lru_cache

_wcwidth: Callable[[str], int] | None
try:                      # installed with blessed; newer Unicode width data
    from wcwidth import wcwidth as _wcwidth
except ImportError:       # pragma: no cover
    _wcwidth = None

__all__ = ["GLYPHS_LOW", "FILE_CONTROLS", "WIRE_SUBSTITUTES", "encode_cp437",
           "decode_cp437", "encode", "encode_char", "wire_char", "CHARSETS"]

CHARSETS = ("cp437", "utf8")

#: The glyphs of bytes 0x00-0x1F (0x00 shows as a blank).
GLYPHS_LOW = " ☺☻♥♦♣♠•◘○◙♂♀♪♫☼►◄↕‼¶§▬↨↑↓→←∟↔▲▼"
HOUSE = "⌂"  # 0x7F

#: Low bytes that ``decode_cp437`` reads as controls rather than glyphs.
FILE_CONTROLS = frozenset({0x08, 0x09, 0x0A, 0x0D, 0x1A, 0x1B})

#: Glyphs never sent as their own CP437 byte, and what is sent instead.
WIRE_SUBSTITUTES = {
    "•": "∙",   # 0x07 BEL
    "◘": "█",   # 0x08 BS
    "○": "o",   # 0x09 TAB
    "◙": "█",   # 0x0A LF
    "♀": "+",   # 0x0C FF
    "♪": "?",   # 0x0D CR
    "♫": "?",   # 0x0E SO
    "☼": "*",   # 0x0F SI
    "→": "►",   # 0x1A SUB
    "←": "◄",   # 0x1B ESC
    "…": "~",   # not in CP437: the mark of a shortened name
    "⌂": "^",   # 0x7F DEL
    "\u00a0": " ",  # 0xFF, telnet's IAC
}

# combining marks, format, surrogate, private and unassigned characters
_NOT_ONE_COLUMN = frozenset({"Mn", "Mc", "Me", "Cf", "Cs", "Co", "Cn"})

_DECODE: list[str] = list(GLYPHS_LOW) + list(bytes(range(0x20, 0x100)).decode("cp437"))
_DECODE[0x7F] = HOUSE
_ENCODE: dict[str, int] = {}
for _i, _ch in enumerate(_DECODE):
    _ENCODE.setdefault(_ch, _i)
_ENCODE[" "] = 0x20
_ENCODE["\x00"] = 0x00
for _i in FILE_CONTROLS | {0x07, 0x0C}:   # controls written into files as such
    _ENCODE[chr(_i)] = _i


def encode_cp437(text: str) -> bytes:
    """``text`` as CP437 bytes; glyphs of 0x01-0x1F and ⌂ get their bytes,
    control characters pass through, anything unmappable becomes '?'."""
    get = _ENCODE.get
    return bytes(get(ch, 0x3F) for ch in text)


def decode_cp437(data: bytes, controls: frozenset[int] = FILE_CONTROLS) -> str:
    """CP437 bytes as text; bytes in ``controls`` stay control characters,
    the other low bytes become their glyphs."""
    return "".join(chr(b) if b in controls else _DECODE[b] for b in data)


@lru_cache(maxsize=4096)
def wire_char(ch: str, charset: str) -> str:
    """The one-column character actually sent for ``ch``."""
    if charset == "cp437":
        ch = WIRE_SUBSTITUTES.get(ch, ch)
        code = _ENCODE.get(ch)
        if code is None or (code < 0x20 and ch == chr(code)) or code == 0x7F:
            return "?" if ch != "\x00" else " "
        return ch
    if charset == "utf8":
        if (not ch.isprintable()
                or unicodedata.category(ch) in _NOT_ONE_COLUMN
                or unicodedata.east_asian_width(ch) in ("W", "F")
                or 0x1160 <= ord(ch) <= 0x11FF or 0xD7B0 <= ord(ch) <= 0xD7FF
                or (_wcwidth is not None and _wcwidth(ch) != 1)):
            return "?"
        return ch
    raise ValueError(f"unknown charset {charset!r}")


@lru_cache(maxsize=4096)
def encode_char(ch: str, charset: str) -> bytes:
    """The bytes sent for one cell character."""
    w = wire_char(ch, charset)
    return bytes([_ENCODE[w]]) if charset == "cp437" else w.encode("utf-8")


def encode(text: str, charset: str) -> bytes:
    """``text`` as wire bytes for ``charset`` ("cp437" or "utf8"); each
    character takes one screen column. Never raises on odd characters."""
    if charset not in CHARSETS:
        raise ValueError(f"unknown charset {charset!r}")
    return b"".join(encode_char(ch, charset) for ch in text)
