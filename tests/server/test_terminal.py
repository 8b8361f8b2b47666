"""Key decoding from a byte stream, as real telnet clients send it."""
import pyte
from hypothesis import given, settings
from hypothesis import strategies as st

from ansi import keys as K
from ansi.render import CHARSET_PROBE, charset_from_probe
from ansi.widgets import LineInput
from server.net.terminal import PAUSE, RESUME, KeyDecoder, charset_for_term, charset_is_sure, is_bbs_term


def keys(data: bytes, now: float = 0.0) -> list[str]:
    return KeyDecoder().feed(data, now)


def test_enter_in_all_its_forms_is_one_key():
    for data in (b"\r", b"\r\n", b"\r\x00", b"\n", b"\n\r", b"\r\n\x00"):
        assert keys(data) == [K.ENTER], data
    assert keys(b"a\r\nb\r\x00c\nd\n\re") == ["a", K.ENTER, "b", K.ENTER, "c", K.ENTER, "d", K.ENTER, "e"]


def test_enter_pressed_twice_is_two_enters_in_every_line_ending():
    for eol in (b"\r", b"\n", b"\r\n", b"\r\x00", b"\n\r"):
        assert keys(eol * 2) == [K.ENTER, K.ENTER], eol
    assert keys(b"\r\r\n") == [K.ENTER, K.ENTER]      # CR, then CR LF


def test_a_two_byte_line_ending_split_across_reads_is_still_one_enter():
    for first, second in ((b"x\r", b"\ny"), (b"x\r", b"\x00y"), (b"x\n", b"\ry")):
        dec = KeyDecoder()
        assert dec.feed(first, 0) == ["x", K.ENTER]
        assert dec.feed(second, 0) == ["y"]


def test_arrows_in_both_forms_and_split_reads():
    assert keys(b"\x1b[A\x1bOB\x1b[C\x1bOD") == [K.UP, K.DOWN, K.RIGHT, K.LEFT]
    dec = KeyDecoder()
    assert dec.feed(b"\x1b", 0) == []
    assert dec.feed(b"[", 0.01) == []
    assert dec.feed(b"A", 0.02) == [K.UP]


def test_lone_escape_is_recognised_after_a_short_wait():
    dec = KeyDecoder()
    assert dec.feed(b"\x1b", 0.0) == []
    assert dec.flush(0.1) == []
    assert dec.flush(1.0) == [K.ESC]
    assert dec.pending_deadline() is None


def test_escape_then_letter_and_double_escape():
    assert keys(b"\x1bx") == [K.ESC, "x"]
    assert keys(b"\x1b\x1b[A") == [K.ESC, K.UP]


def test_backspace_delete_and_tilde_keys():
    assert keys(b"\x08\x7f\x1b[3~\x1b[5~\x1b[6~\x1b[1~\x1b[4~") == [
        K.BACKSPACE, K.DELETE, K.DELETE, K.PGUP, K.PGDN, K.HOME, K.END]


def test_del_is_backspace_on_the_xterm_family_and_delete_on_bbs_terminals():
    """PuTTY, xterm and Linux telnet send DEL for Backspace (their Delete key
    is ESC [ 3 ~): typing ``helo``, Left, Backspace gives ``heo``."""
    for term, expected in (("xterm", "heo"), ("putty", "heo"), ("vt100", "heo"), ("linux", "heo"),
                           ("ansi-bbs", "hel"), ("syncterm", "hel"), ("ansi-utf8", "hel")):
        line = LineInput(20)
        for key in KeyDecoder(charset_for_term(term), del_is_delete=is_bbs_term(term)).feed(b"helo\x1b[D\x7f"):
            line.handle(key)
        assert line.text == expected, term


def test_the_linux_consoles_function_keys_are_never_arrows():
    assert keys(b"\x1b[[A\x1b[[B\x1b[[C\x1b[[D\x1b[[Ex") == [K.F1, "x"]


def test_syncterm_keys():
    """What SyncTERM sends for Home, End, PgUp, PgDn, Insert, Delete and Backspace."""
    assert keys(b"\x1b[H\x1b[K\x1b[V\x1b[U\x1b[@\x7f\x08") == [
        K.HOME, K.END, K.PGUP, K.PGDN, K.INSERT, K.DELETE, K.BACKSPACE]


def test_flow_control_bytes_become_pause_and_resume():
    assert keys(b"\x13a\x11") == [PAUSE, "a", RESUME]


def test_garbage_and_other_controls_are_ignored():
    assert keys(b"\x00\x01\x02\x05\x1b[99;99;99Zok") == ["o", "k"]


def test_an_overlong_sequence_is_dropped_whole_even_split_across_reads():
    assert keys(b"\x1b[" + b"1;" * 40 + b"qok") == ["o", "k"]
    assert keys(b"x\x1b[" + b"0" * 30 + b"24;" + b"0" * 30 + b"4Ry") == ["x", "y"]
    d = KeyDecoder("utf8")
    assert d.feed(b"\x1b[" + b"1;" * 20) == []
    assert d.feed(b"1;" * 20) == []
    assert d.feed(b"5~a\x1b[A") == ["a", K.UP]
    assert d.cursor_reports == []


def test_utf8_split_across_reads():
    dec = KeyDecoder("utf8")
    data = "é".encode()
    assert dec.feed(data[:1], 0) == []
    assert dec.feed(data[1:], 0) == ["é"]


def test_cp437_input_decodes_high_bytes():
    assert KeyDecoder("cp437").feed(bytes([0x82]), 0) == ["é"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.binary(max_size=12), max_size=20))
def test_any_bytes_decode_without_error_into_known_keys(chunks):
    dec = KeyDecoder()
    out = []
    for i, chunk in enumerate(chunks):
        out += dec.feed(chunk, i * 0.01)
    out += dec.flush(100.0)
    named = {K.UP, K.DOWN, K.LEFT, K.RIGHT, K.ENTER, K.ESC, K.BACKSPACE, K.DELETE, K.TAB,
             K.HOME, K.END, K.PGUP, K.PGDN, K.INSERT, K.CTRL_L, K.CTRL_C, K.CTRL_D, K.F1,
             PAUSE, RESUME}
    for key in out:
        assert key in named or (len(key) == 1 and key.isprintable())


def test_charset_from_terminal_type():
    for term in ("ANSI", "ansi-bbs", "PCANSI", "syncterm", "NetRunner"):
        assert charset_for_term(term) == "cp437", term
    for term in ("xterm", "xterm-256color", "linux", "screen", "tmux-256color", "putty", "vt100", "", None):
        assert charset_for_term(term) == "utf8", term



def test_types_that_say_their_charset_and_types_that_are_probed():
    for term in ("ANSI", "ansi-bbs", "syncterm", "xterm", "xterm-256color", "rxvt-unicode", "linux", "putty"):
        assert charset_is_sure(term), term
    for term in ("screen", "screen-256color", "tmux-256color", "vt100", "vt220", "dumb", "unknown", "", None,
                 "network", "some-odd-terminal"):
        assert not charset_is_sure(term), term


def test_cursor_reports_are_swallowed_never_keys():
    d = KeyDecoder("utf8")
    assert d.feed(b"a\x1b[24;4Rb") == ["a", "b"]
    assert d.cursor_reports == [(24, 4)]
    assert d.feed(b"\x1b[3") == []                  # split over reads
    assert d.feed(b";2R\r") == [K.ENTER]
    assert d.cursor_reports == [(24, 4), (3, 2)]
    d = KeyDecoder("cp437")
    assert d.feed(b"\x1b[1;4Rx\x1b[A") == ["x", K.UP]
    assert d.cursor_reports == [(1, 4)]


def _probe_through(screen: pyte.Screen, charset: str) -> int | None:
    """Feed the probe to an emulator decoding ``charset``; the column it
    answers (None: it did not answer)."""
    answers: list[str] = []
    screen.write_process_input = answers.append
    if charset == "utf8":
        pyte.ByteStream(screen).feed(CHARSET_PROBE)
    else:
        pyte.Stream(screen).feed(CHARSET_PROBE.decode("cp437"))
    if not answers:
        return None
    reply = KeyDecoder()
    assert reply.feed(answers[0].encode()) == []
    return reply.cursor_reports[0][1]


def test_the_probe_tells_utf8_from_cp437_terminals():
    for charset in ("utf8", "cp437"):
        screen = pyte.Screen(80, 24)
        screen.cursor_position(5, 30)              # wherever the cursor was
        column = _probe_through(screen, charset)
        assert column == {"utf8": 2, "cp437": 4}[charset]
        assert charset_from_probe(column) == charset
    assert charset_from_probe(1) is None and charset_from_probe(3) is None
    # the probe's bytes are all >= 0xA0 after the ESC-free lead: no 8-bit terminal sees C1 controls in them
    assert all(b >= 0xA0 for b in CHARSET_PROBE[1:4])


def test_typing_rate_lets_a_pasted_line_through_and_drops_a_flood():
    from server.net.flood import TypingRate
    rate = TypingRate()
    assert rate.take(200, now=rate.stamp) == 200          # a pasted chat line, whole
    assert rate.take(10_000, now=rate.stamp) == int(TypingRate.BURST) - 200   # the rest of a flood is dropped
    assert rate.take(5, now=rate.stamp) == 0
    assert rate.take(1000, now=rate.stamp + 1.0) == int(TypingRate.RATE)   # refilled at RATE a second


def test_input_rate_allows_a_paste_and_refuses_a_flood():
    from server.net.flood import InputRate
    rate = InputRate()
    assert rate.allow(10_000, now=rate.stamp)                       # a big paste
    assert not rate.allow(int(InputRate.BURST), now=rate.stamp)     # then a burst beyond it
    again = InputRate()
    t0 = again.stamp
    assert all(again.allow(1024, now=t0 + i * 0.3) for i in range(200))   # 3.3 KiB/s for a minute
    flood = InputRate()
    t0 = flood.stamp
    assert not all(flood.allow(1024, now=t0 + i * 0.1) for i in range(200))   # 10 KiB/s is a flood


class _Line:
    """A caller's line as the terminal sees it: ``stuck`` bytes wait in the
    transport until the test lets them go."""

    cols, rows = 80, 24

    def __init__(self) -> None:
        import asyncio
        self.sent: list[bytes] = []
        self.stuck = 0
        self.free = asyncio.Event()

    def write(self, data: bytes) -> None:
        self.sent.append(data)

    def backlog(self) -> int:
        return self.stuck

    async def drain(self) -> None:
        await self.free.wait()
        self.stuck = 0

    def is_closing(self) -> bool:
        return False


def _frame(text: str):
    from ansi.canvas import Canvas
    canvas = Canvas(80, 24)
    canvas.text(0, 0, text)
    return canvas


def _screen(line: _Line) -> str:
    screen = pyte.Screen(80, 24)
    pyte.Stream(screen).feed(b"".join(line.sent).decode("utf-8"))
    return screen.display[0].rstrip()


async def test_a_slow_line_gets_the_latest_screen_not_every_stale_one():
    import asyncio

    from server.net.terminal import Terminal
    line = _Line()
    term = Terminal(line, "utf8")  # type: ignore[arg-type]
    term.show(_frame("one"))
    term.show(_frame("two"))                    # the line takes it at once: sent at once
    assert len(line.sent) == 2 and _screen(line) == "two"
    line.stuck = 5000                           # now the line backs up
    term.show(_frame("three"))
    for n in range(50):                         # a busy lobby while the caller's line is full
        term.show(_frame(f"stale {n}"))
    assert len(line.sent) == 3 and _screen(line) == "three"
    line.free.set()                             # the line drains: only the latest frame follows
    while len(line.sent) < 4:
        await asyncio.sleep(0)
    for _ in range(5):
        await asyncio.sleep(0)
    assert len(line.sent) == 4 and _screen(line) == "stale 49"
