from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ansi.canvas import Canvas
from ansi.moves import sgr
from ansi.render import DiffRenderer, minimal_diff_cost
from tests.ansi.screens import Emulators, visible

W, H = 80, 24
CHARS = " .#█▒░♥♣☺─│Aé日→"

cell_op = st.tuples(st.just("put"), st.integers(0, W - 1), st.integers(0, H - 1),
                    st.sampled_from(CHARS), st.integers(0, 15), st.integers(0, 7),
                    st.booleans())
fill_op = st.tuples(st.just("fill"), st.integers(0, W - 1), st.integers(0, H - 1),
                    st.integers(1, 80), st.integers(1, 24), st.sampled_from(" ▒"),
                    st.integers(0, 15), st.integers(0, 7))
text_op = st.tuples(st.just("text"), st.integers(0, W - 1), st.integers(0, H - 1),
                    st.text(CHARS, max_size=30), st.integers(0, 15), st.integers(0, 7))
frame = st.tuples(st.lists(st.one_of(cell_op, cell_op, fill_op, text_op), max_size=12),
                  st.one_of(st.none(), st.tuples(st.integers(0, W - 1), st.integers(0, H - 1))),
                  st.booleans())


def apply(canvas: Canvas, ops) -> None:
    for op in ops:
        if op[0] == "put":
            canvas.put(*op[1:])
        elif op[0] == "fill":
            _, x, y, w, h, ch, fg, bg = op
            canvas.fill(x, y, w, h, ch, fg, bg)
        else:
            canvas.text(*op[1:])


@pytest.mark.parametrize("charset", ["cp437", "utf8"])
@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(frames=st.lists(frame, min_size=1, max_size=8))
@pytest.mark.parametrize("told", [W, 0])
def test_round_trip_through_two_emulators(charset, told, frames):
    """An 80x24 terminal, whose width the renderer is told or not (no NAWS)."""
    r = DiffRenderer(W, H, charset)
    r.set_screen_width(told)
    emu = Emulators(W, H, charset)
    canvas = Canvas(W, H)
    for ops, cursor, invalidate in frames:
        apply(canvas, ops)
        if invalidate:
            r.invalidate()
        emu.feed(r.render(canvas, cursor))
        want = visible(canvas, charset)
        assert emu.ours_canvas() == want
        assert emu.pyte_canvas() == want
        assert emu.pyte_canvas(onlcr=True) == want      # LF turned into CR LF: the same
        s = emu.screen
        if cursor is not None:
            assert (emu.onlcr_screen.cursor.x, emu.onlcr_screen.cursor.y) == cursor
        if cursor is not None:
            assert (s.cursor.x, s.cursor.y) == cursor
            assert (emu.interp.x, emu.interp.y) == cursor
            assert not s.cursor.hidden
        elif charset == "utf8":
            assert s.cursor.hidden
        else:
            assert (s.cursor.x, s.cursor.y) == (W - 1, H - 1)


snap_frame = st.tuples(st.booleans(), st.lists(st.one_of(cell_op, fill_op, text_op), max_size=6), st.booleans())


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(frames=st.lists(snap_frame, min_size=1, max_size=10))
def test_round_trip_with_drawings_kept_and_restored(frames):
    """A screen that keeps its drawing (``snapshot``) and draws on a copy of
    it later (``restore``), as the lobby does: the renderer skips the rows it
    knows it sent, and the screen still shows every frame exactly."""
    r = DiffRenderer(W, H, "utf8")
    emu = Emulators(W, H, "utf8")
    canvas, kept = Canvas(W, H), None
    for restore, ops, take in frames:
        if restore and kept is not None:
            canvas = Canvas(W, H)
            canvas.restore(kept)
        apply(canvas, ops)
        if take:
            kept = canvas.snapshot(like=kept)
        emu.feed(r.render(canvas))
        want = visible(canvas, "utf8")
        assert emu.ours_canvas() == want
        assert emu.pyte_canvas() == want


shared_frame = st.tuples(st.lists(st.one_of(cell_op, fill_op, text_op), max_size=6),
                         st.lists(st.one_of(cell_op, text_op), max_size=3),
                         st.one_of(st.none(), st.tuples(st.integers(0, W - 1), st.integers(0, H - 1))))


@pytest.mark.parametrize("charset", ["cp437", "utf8"])
@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(frames=st.lists(shared_frame, min_size=1, max_size=8))
def test_callers_sharing_rows_each_see_their_own_screen(charset, frames):
    """Three callers draw the same rows (as every lobby draws its who-list),
    the second with a few cells of its own and the third with no cursor: the
    bytes of a shared row's change are worked out once for all of them, and
    each caller's screen still shows exactly its own frame."""
    renderers = [DiffRenderer(W, H, charset) for _ in range(3)]
    emus = [Emulators(W, H, charset) for _ in range(3)]
    canvases = [Canvas(W, H) for _ in range(3)]
    for common, own, cursor in frames:
        for i, (r, emu, canvas) in enumerate(zip(renderers, emus, canvases, strict=True)):
            apply(canvas, common)
            if i == 1:
                apply(canvas, own)
            shown = Canvas(W, H)
            shown.restore(canvas.snapshot())      # shared rows, as the lobby's are
            emu.feed(r.render(shown, cursor if i < 2 else None))
            want = visible(shown, charset)
            assert emu.ours_canvas() == want
            assert emu.pyte_canvas() == want


def busy_canvas(seed: int = 1) -> Canvas:
    rnd = random.Random(seed)
    c = Canvas(W, H)
    for y in range(H):
        for x in range(W):
            c.put(x, y, rnd.choice("▒░█#. "), rnd.randrange(16), rnd.randrange(8))
    return c


def test_first_render_and_after_invalidate_repaint_fully():
    r = DiffRenderer()
    c = busy_canvas()
    first = r.render(c)
    assert first.startswith(b"\x1b[0m\x1b[2J\x1b[H")
    assert r.render(c) == b""
    r.invalidate()
    again = r.render(c)
    assert again == first
    assert r.full(c) == first
    assert r.frames == 4 and r.bytes_sent == 3 * len(first)


def test_resize_and_charset_change_repaint():
    r = DiffRenderer()
    c = Canvas(80, 24)
    c.text(0, 0, "♥ hi")
    assert b"\x03 hi" in r.render(c)
    r.charset = "utf8"
    out = r.render(c)
    assert out.startswith(b"\x1b[0m\x1b[2J\x1b[H") and "♥ hi".encode() in out
    r.resize(40, 10)
    emu = Emulators(40, 10, "utf8")
    emu.feed(r.render(c))
    assert emu.pyte_canvas().row_text(0).startswith("♥ hi")


def test_unchanged_frame_costs_nothing():
    for cs in ("cp437", "utf8"):
        r = DiffRenderer(charset=cs)
        c = busy_canvas()
        r.render(c)
        assert r.render(c) == b""
        assert r.render(c.copy()) == b""


@pytest.mark.parametrize("seed", range(30))
def test_one_changed_cell_is_cheap(seed):
    rnd = random.Random(seed)
    c = Canvas(W, H)
    c.fill(0, 0, W, H, ".", 7, 0)
    for cs, park in (("utf8", 0), ("cp437", 8)):
        r = DiffRenderer(charset=cs)
        r.render(c)
        x, y = rnd.randrange(W - 1), rnd.randrange(H)
        c.put(x, y, "#", 7, 0)                 # same colours as around it
        assert len(r.render(c)) <= 10 + park
        c.put(x, y, "#", 14, 0)                # a new colour: + its SGR
        assert len(r.render(c)) <= 10 + 6 + park
        c.put(x, y, ".", 7, 0)


def test_no_sgr_when_colours_do_not_change():
    r = DiffRenderer(charset="utf8")
    c = Canvas()
    c.text(5, 5, "ab", 12, 4)
    out = r.render(c)
    assert out.count(b"m") == 2                     # the reset, then 1;34;44
    c.text(5, 5, "xy", 12, 4)
    out = r.render(c)
    assert b"m" not in out and b"xy" in out
    c.text(5, 5, "xy", 12, 1)                      # background only
    assert b"\x1b[41mxy" in r.render(c)


def test_bold_and_blink_off_need_a_reset():
    assert sgr((15, 0, False), (7, 0, False)) == "\x1b[0m"
    assert sgr((15, 2, False), (3, 2, False)) == "\x1b[0;33;42m"
    assert sgr((3, 0, True), (3, 0, False)) == "\x1b[0;33m"
    assert sgr((7, 0, False), (15, 0, False)) == "\x1b[1m"
    assert sgr((7, 0, False), (7, 0, True)) == "\x1b[5m"
    assert sgr((1, 4, False), (7, 0, False)) == "\x1b[0m"          # shorter than 37;40
    assert sgr(None, (7, 0, False)) == "\x1b[0m"
    assert sgr((2, 3, False), (2, 3, False)) == ""


def test_last_cell_never_scrolls_the_screen():
    c = Canvas()
    c.fill(char="X", fg=2, bg=1)
    for cs in ("cp437", "utf8"):
        emu = Emulators(W, H, cs)
        emu.feed(DiffRenderer(charset=cs).render(c))
        seen = emu.pyte_canvas()
        assert seen.row_text(0) == "X" * W
        assert seen.row_text(H - 1) == "X" * (W - 1) + " "
        assert seen.get(W - 1, H - 1).bg == 1
        assert emu.ours_canvas() == seen


def test_blank_tail_uses_erase_line():
    r = DiffRenderer()
    c = busy_canvas()
    r.render(c)
    c.fill(10, 3, W - 10, 1, " ", 7, 0)
    out = r.render(c)
    assert b"\x1b[K" in out and len(out) < 30


def test_small_gaps_are_reprinted_not_jumped():
    r = DiffRenderer(charset="utf8")
    c = Canvas()
    c.text(0, 2, "abcdef")
    r.render(c)
    c.text(0, 2, "aBcDef")
    out = r.render(c)
    assert out == b"\raBcD"            # CR and re-print 'a' beats ESC[3;2H


def test_a_line_of_words_goes_out_as_one_run():
    """Words in one colour over a blank row: the unchanged blanks between
    them are printed with the words (shorter than a move), so the line is
    one piece of text after one SGR."""
    r = DiffRenderer(charset="cp437")
    c = Canvas()
    r.render(c)
    c.text(6, 23, "(ENTER sends; ESC closes)", 8)
    out = r.render(c)
    assert out.count(b"\x1b[") == 3          # the move there, one SGR, the cursor parked
    assert b"(ENTER sends; ESC closes)" in out


def test_a_gap_wider_than_its_move_is_jumped():
    """A gap whose UTF-8 cells cost more bytes than ESC[nC is moved over."""
    r = DiffRenderer(charset="utf8")
    c = Canvas()
    c.text(0, 2, "a" + "█" * 2 + "b")
    r.render(c)
    c.text(0, 2, "A" + "█" * 2 + "B")
    out = r.render(c)
    assert out.startswith(b"\x1b[3HA\x1b[2CB") or out.startswith(b"\rA\x1b[2CB"), out


def test_renderer_close_to_minimal_diff_cost():
    base = busy_canvas(2)
    for seed in range(10):
        rnd = random.Random(seed)
        new = base.copy()
        for _ in range(rnd.randrange(1, 40)):
            new.put(rnd.randrange(W), rnd.randrange(H), rnd.choice("@*"), rnd.randrange(16), rnd.randrange(8))
        r = DiffRenderer(charset="utf8")
        r.render(base)
        # the baseline's first SGR is free; the renderer pays for it
        assert len(r.render(new)) <= minimal_diff_cost(base, new, "utf8") + 12
    assert minimal_diff_cost(base, base.copy(), "cp437") == 0


def test_erasing_the_row_after_a_full_width_row_moves_there_first():
    """After printing the last column the cursor may still be on that row
    (deferred wrap): an erase must not rely on the wrap having happened."""
    import pyte

    from ansi.canvas import Canvas
    from ansi.render import DiffRenderer
    first, second = Canvas(80, 24), Canvas(80, 24)
    for y in range(24):
        first.text(0, y, "#" * 80)
    second.text(0, 11, "-" * 80)
    renderer = DiffRenderer(80, 24, "utf8")
    screen = pyte.Screen(80, 24)
    stream = pyte.ByteStream(screen)
    for canvas in (first, second):
        stream.feed(renderer.render(canvas))
    assert screen.display[11] == "-" * 80
    assert screen.display[12].strip() == "" and screen.display[13].strip() == ""


def test_moving_down_never_relies_on_a_bare_lf():
    """The bytes of a move down and to the left: CR LF then right, not LF
    then left relative to the column the renderer assumes (that put the
    board's file letters in column 0 on clients that turn LF into CR LF)."""
    r = DiffRenderer(charset="cp437")
    c = Canvas()
    r.render(c)
    c.text(30, 10, "a")
    c.text(3, 11, "b")
    assert r.render(c) == b"\x1b[11;31Ha\r\n   b\x1b[24;80H"     # blanks re-printed
    c.text(31, 12, "c")       # straight down: CUD, no LF at all
    c.text(32, 13, "d")
    assert r.render(c) == b"\x1b[13;32Hc\x1b[Bd\x1b[24;80H"
    c.text(0, 14, "e")        # from a column 0: LF alone is safe
    c.text(0, 15, "f")
    assert r.render(c) == b"\x1b[15He\r\nf\x1b[24;80H"
    c.text(30, 16, "g")
    c.text(12, 17, "h")
    assert r.render(c) == b"\x1b[17;31Hg\r\n\x1b[12Ch\x1b[24;80H"


def test_a_bare_lf_is_only_sent_from_column_zero():
    """Whatever the screens, the renderer sends LF only with the cursor in
    column 0, so LF and CR LF put it in the same place."""
    for seed in range(20):
        r = DiffRenderer(charset="utf8")
        emu = Emulators(W, H, "utf8")
        for step in range(4):
            c = busy_canvas(seed * 10 + step) if step % 2 else Canvas(W, H)
            rnd = random.Random(seed + step)
            for _ in range(30):
                c.text(rnd.randrange(W), rnd.randrange(H), rnd.choice(["ab", "x", "  z"]), rnd.randrange(16))
            out = r.render(c, (rnd.randrange(W), rnd.randrange(H)))
            *before, last = out.split(b"\n")
            for chunk in before:
                emu.feed(chunk)
                assert emu.screen.cursor.x == 0      # the LF that follows is sent from column 0
                emu.feed(b"\n")
            emu.feed(last)
            assert emu.pyte_canvas(onlcr=True) == emu.pyte_canvas() == visible(c, "utf8")


def test_a_new_screen_never_costs_more_than_a_repaint():
    """A door's first screen replacing the lobby: the difference or a clear
    and repaint, whichever is shorter (and right either way)."""
    lobby = Canvas()
    lobby.fill(0, 0, W, H, "X", 15, 4)
    door = Canvas()
    door.text(10, 5, "a board")
    r = DiffRenderer(charset="cp437")
    emu = Emulators(W, H, "cp437")
    emu.feed(r.render(lobby))
    out = r.render(door)
    assert out == DiffRenderer(charset="cp437").full(door)
    assert out.startswith(b"\x1b[0m\x1b[2J\x1b[H")
    emu.feed(out)
    assert emu.pyte_canvas() == visible(door, "cp437")
    # and a small change still goes as a difference
    door.text(10, 5, "A")
    assert r.render(door) == b"\x1b[6;11HA\x1b[24;80H"
    for seed in range(10):
        a, b = busy_canvas(seed), busy_canvas(seed + 100)
        for cs in ("cp437", "utf8"):
            r = DiffRenderer(charset=cs)
            r.render(a)
            assert len(r.render(b)) <= len(DiffRenderer(charset=cs).full(b))


@pytest.mark.parametrize("charset", ["cp437", "utf8"])
@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(frames=st.lists(frame, min_size=1, max_size=6))
@pytest.mark.parametrize("told", [132, 0])
def test_round_trip_on_a_terminal_wider_than_the_canvas(charset, told, frames):
    """A 132x37 caller (a BBS's pseudo-terminal, a wide PuTTY), whose width
    the renderer is told or not (no NAWS): writing column 80 does not wrap
    there, so the 80x24 screen must not lean on it. It shows in the
    top-left corner, the rest of the terminal stays blank."""
    r = DiffRenderer(W, H, charset)
    r.set_screen_width(told)
    emu = Emulators(132, 37, charset)
    canvas = Canvas(W, H)
    for ops, cursor, invalidate in frames:
        apply(canvas, ops)
        if invalidate:
            r.invalidate()
        emu.feed(r.render(canvas, cursor))
        shown = emu.pyte_canvas()
        corner = Canvas(W, H)
        for y in range(H):
            for x in range(W):
                corner.cells[y * W + x] = shown.get(x, y)
        assert corner == visible(canvas, charset)
        assert all(shown.get(x, y).char == " " for y in range(37) for x in range(132)
                   if x >= W or y >= H)
        if cursor is not None:
            assert (emu.screen.cursor.x, emu.screen.cursor.y) == cursor


def test_a_narrower_width_keeps_the_wrap_and_an_unknown_one_never_leans_on_it():
    r = DiffRenderer(W, H, "cp437")
    for cols in (40, 80):
        r.set_screen_width(cols)
        assert r.screen_width == W
    r.set_screen_width(132)
    assert r.screen_width == 132
    r.set_screen_width(0)
    assert r.screen_width == 0


rows_frame = st.tuples(st.lists(st.one_of(cell_op, fill_op, text_op), max_size=6), st.booleans())


@pytest.mark.parametrize("charset", ["cp437", "utf8"])
@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(frames=st.lists(rows_frame, min_size=1, max_size=8))
def test_changed_rows_alone_show_what_the_whole_canvas_does(charset, frames):
    """A screen that knows which of its rows changed (the lobby's clock)
    hands the renderer those rows alone (``render_rows``): the caller's
    screen shows exactly the frame the whole canvas would have shown."""
    r = DiffRenderer(W, H, charset)
    emu = Emulators(W, H, charset)
    canvas = Canvas(W, H)
    emu.feed(r.render(canvas))
    rows = canvas.snapshot()
    for ops, by_rows in frames:
        apply(canvas, ops)
        new = canvas.snapshot(like=rows)
        if by_rows:
            data = r.render_rows({y: (rows[y], new[y]) for y in range(H) if new[y] is not rows[y]})
            assert data is not None
        else:
            shown = Canvas(W, H)
            shown.restore(new)
            data = r.render(shown)
        emu.feed(data)
        rows = new
        want = visible(canvas, charset)
        assert emu.ours_canvas() == want
        assert emu.pyte_canvas() == want


def test_changed_rows_are_refused_when_the_screen_holds_others():
    """``render_rows`` names the rows it replaces: when the last frame had
    other rows there (or the renderer must repaint), nothing is sent."""
    r = DiffRenderer(W, H)
    first = busy_canvas(1)
    rows = first.snapshot()
    assert r.render_rows({0: (rows[0], rows[1])}) is None          # nothing sent yet: a repaint is due
    r.render(first)
    frames = r.frames
    assert r.render_rows({3: (rows[2], rows[3])}) is None          # row 3 is not rows[2]
    assert r.render_rows({3: (rows[3], rows[3][:10])}) is None     # a row of another width
    assert r.frames == frames
    assert r.render_rows({3: (rows[3], rows[4])})                  # the real one: sent
