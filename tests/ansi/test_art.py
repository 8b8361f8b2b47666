from __future__ import annotations

import struct
from importlib import resources
from pathlib import Path

from ansi.art import AnsiInterpreter, Sauce, art_bytes, load_ans, parse_sauce
from ansi.canvas import Canvas, Cell
from ansi.render import DiffRenderer
from tests.ansi.screens import normalized, visible

TITLE = Path(str(resources.files("server").joinpath("art/title.ans")))   # an editable install


def run(data: bytes | str, w: int = 20, h: int = 5) -> tuple[Canvas, AnsiInterpreter]:
    c = Canvas(w, h)
    it = AnsiInterpreter(c)
    it.feed(data)
    return c, it


def test_title_sauce():
    data = TITLE.read_bytes()
    s = parse_sauce(data)
    assert s is not None
    assert (s.title, s.author, s.group) == ("Gatehouse title screen", "Gatehouse", "Gatehouse BBS")
    assert (s.datatype, s.filetype, s.width) == (1, 1, 80)
    assert 1 <= s.height <= 22 and len(s.date) == 8 and s.date.isdigit()
    assert data[s.data_end] == 0x1A and s.file_size == s.data_end
    assert s.comments and "Gatehouse" in s.comments[0]


def test_title_art_loads_as_a_busy_colourful_screen():
    canvas, sauce = load_ans(TITLE)
    assert (canvas.width, canvas.height) == (80, sauce.height)
    text = "\n".join(canvas.lines())
    assert "telnet door games" in text.replace("   ", "|").replace(" ", "").replace("|", " ")
    assert {"█", "▓", "▒", "░", "▄", "▀"} <= set(text)
    assert len({c.fg for c in canvas}) >= 6
    assert all(canvas.get(79, y).char == " " for y in range(canvas.height))


def test_crafted_sauce_with_comments_and_flags():
    body = b"\x1b[1;31mHi\x1b[0m\r\n"
    record = struct.pack("<5s2s35s20s20s8sIBBHHHHBB22s", b"SAUCE", b"00",
                         b"Test".ljust(35), b"Me".ljust(20), b"Grp".ljust(20),
                         b"19960412", len(body), 1, 1, 132, 2, 0, 0, 2,
                         0b10101, b"IBM VGA50".ljust(22, b"\0"))
    comnt = b"COMNT" + b"first line".ljust(64) + b"second".ljust(64)
    data = body + b"\x1a" + comnt + record
    s = parse_sauce(data)
    assert (s.title, s.author, s.group, s.date) == ("Test", "Me", "Grp", "19960412")
    assert (s.width, s.height, s.file_size) == (132, 2, len(body))
    assert s.comments == ["first line", "second"]
    assert s.ice_colors and s.letter_spacing == 2 and s.aspect_ratio == 2
    assert s.tinfos == "IBM VGA50"
    assert art_bytes(data) == body
    assert Sauce(**{**s.__dict__}).to_bytes() == data[len(body):]


def test_no_sauce():
    assert parse_sauce(b"plain text") is None
    assert parse_sauce(b"x" * 200) is None
    assert art_bytes(b"art\x1agarbage") == b"art"


def test_hand_written_sequences():
    c, it = run(b"\x1b[2;3H\x1b[1;33;44mAB")
    assert c.get(2, 1) == Cell("A", 11, 4) and c.get(3, 1) == Cell("B", 11, 4)
    it.feed(b"\x1b[0m\x1b[2DC")                       # back two, overwrite A
    assert c.get(2, 1) == Cell("C", 7, 0)
    it.feed(b"\x1b[BD\x1b[2AE")                       # down one, up two
    assert c.get(3, 2).char == "D" and c.get(4, 0).char == "E"
    it.feed(b"\r\n\x1b[5Cx\x08y")                     # CR LF, CUF, BS
    assert c.row_text(1)[5] == "y"
    it.feed(b"\x1b[s\x1b[5;1Hz\x1b[uw")              # save / restore
    assert c.get(0, 4).char == "z" and c.get(6, 1).char == "w"
    it.feed(b"\x1b[41m\x1b[2;4H\x1b[K")               # EL with red background
    assert c.row_text(1) == "  C" + " " * 17 and c.get(10, 1).bg == 1
    it.feed(b"\x1b[0m\x1b[2J")
    assert all(cell == Cell() for cell in c) and (it.x, it.y) == (0, 0)


def test_glyphs_wrap_and_sub():
    c, it = run(b"\x03\x04\x05\x06" + b"x" * 16 + b"yz\x1a ignored", 20, 3)
    assert c.row_text(0) == "♥♦♣♠" + "x" * 16
    assert c.row_text(1).startswith("yz ") and "ignored" not in "".join(c.lines())


def test_deferred_wrap_with_crlf_after_full_row():
    c, _ = run(b"a" * 20 + b"\r\nb", 20, 3)
    assert c.row_text(0) == "a" * 20 and c.row_text(1)[0] == "b"


def test_scrolls_at_the_bottom():
    c, _ = run(b"one\r\ntwo\r\nthree", 10, 2)
    assert c.lines() == ["two       ", "three     "]


def test_sgr_details():
    c, _ = run(b"\x1b[1;5;35ma\x1b[22mb\x1b[25mc\x1b[7md\x1b[0;94me", 10, 1)
    assert [c.get(x, 0) for x in range(5)] == [
        Cell("a", 13, 0, True), Cell("b", 5, 0, True), Cell("c", 5, 0),
        Cell("d", 0, 5), Cell("e", 12, 0)]


def test_utf8_input():
    c = Canvas(10, 1)
    it = AnsiInterpreter(c, "utf8")
    data = "é♥".encode()
    it.feed(data[:1])
    it.feed(data[1:])
    assert c.row_text(0).startswith("é♥")


def test_renderer_draws_the_title_exactly():
    canvas, _ = load_ans(TITLE)
    screen = Canvas(80, 24)
    screen.blit(canvas)
    for cs in ("cp437", "utf8"):
        seen = Canvas(80, 24)
        AnsiInterpreter(seen, cs).feed(DiffRenderer(charset=cs).render(screen))
        assert normalized(seen) == visible(screen, cs)


def test_a_sauce_that_says_65535_columns_gives_art_of_a_sane_width():
    """SAUCE's width is a 16-bit field: a damaged or hostile record saying
    65535 columns is cut to ``MAX_WIDTH`` (the art drawn where it falls)."""
    from ansi.art import MAX_WIDTH, parse_ans
    data = b"\x1b[1;31mHELLO" + Sauce(tinfo1=65535, tinfo2=3).to_bytes()
    art, sauce = parse_ans(data)
    assert sauce is not None and sauce.width == 65535
    assert art.width == MAX_WIDTH and art.height == 3
    assert art.row_text(0).startswith("HELLO")
