from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from wcwidth import wcswidth

from ansi.cp437 import FILE_CONTROLS, GLYPHS_LOW, decode_cp437, encode, encode_cp437

WIRE_CONTROLS = {0x00, 0x07, 0x08, 0x09, 0x0A, 0x0C, 0x0D, 0x0E, 0x0F, 0x1A,
                 0x1B, 0x7F, 0xFF}


def test_every_byte_round_trips_through_its_glyph():
    text = decode_cp437(bytes(range(1, 256)), controls=frozenset())
    assert len(set(text)) == 255 and " " in text
    assert encode_cp437(text) == bytes(range(1, 256))
    assert decode_cp437(b"\x00") == " "


def test_low_glyphs_and_house():
    assert decode_cp437(bytes(range(1, 32)), controls=frozenset()) == GLYPHS_LOW[1:]
    assert encode_cp437("☺☻♥♦♣♠•◘○◙♂♀♪♫☼►◄↕‼¶§▬↨↑↓→←∟↔▲▼") == bytes(range(1, 32))
    assert encode_cp437("⌂") == b"\x7f"
    assert decode_cp437(b"\x7f") == "⌂"


def test_blocks_and_box_drawing():
    assert encode_cp437("█▓▒░▀▄╔═╗") == bytes([0xDB, 0xB2, 0xB1, 0xB0, 0xDF, 0xDC, 0xC9, 0xCD, 0xBB])
    assert decode_cp437(bytes([0xC4, 0xB3, 0xDA])) == "─│┌"


def test_art_controls_stay_controls():
    assert decode_cp437(b"\x1b[1;31m\x03\r\n\t\x1a") == "\x1b[1;31m♥\r\n\t\x1a"
    assert decode_cp437(b"\x08") == "\b" and 0x08 in FILE_CONTROLS
    assert encode_cp437("\x1b[0m\r\n") == b"\x1b[0m\r\n"


def test_unmappable_characters_become_question_marks():
    assert encode_cp437("a€日😀b") == b"a???b"
    assert encode("€日", "cp437") == b"??"


@given(st.text(st.characters(blacklist_characters="\x00")))
def test_file_round_trip_of_mappable_text(text):
    data = encode_cp437(text)
    assert len(data) == len(text)
    back = decode_cp437(data, controls=frozenset())
    for a, b, byte in zip(text, back, data, strict=True):
        assert a == b or byte == 0x3F or ord(a) < 0x20
    assert encode_cp437(back) == data


@settings(max_examples=200)
@given(st.text())
def test_wire_cp437_is_one_safe_byte_per_character(text):
    data = encode(text, "cp437")
    assert len(data) == len(text)
    assert not WIRE_CONTROLS & set(data)


@settings(max_examples=200)
@given(st.text())
def test_wire_utf8_is_one_column_per_character(text):
    data = encode(text, "utf8").decode("utf-8")
    assert len(data) == len(text)
    assert wcswidth(data) == len(text)


def test_wire_keeps_card_suits_and_substitutes_controls():
    assert encode("♥♦♣♠", "cp437") == b"\x03\x04\x05\x06"
    assert encode("←→♪", "cp437") == b"\x11\x10?"
    assert encode("♥←", "utf8") == "♥←".encode()


def test_unknown_charset():
    with pytest.raises(ValueError):
        encode("x", "latin1")
