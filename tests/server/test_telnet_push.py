"""The telnet front hands a caller's input to its session as it arrives
(``_PushReader``): nothing typed before the session listens is lost, the
end comes once, and a failing session never breaks telnetlib3's protocol."""
from __future__ import annotations

import logging

from server.net.telnet import _PushReader


def test_input_before_listening_is_handed_over_then_each_piece_as_it_comes():
    reader = _PushReader()
    reader.feed_data(b"ab")                  # typed ahead, while the line was negotiated
    got: list[bytes] = []
    ended: list[bool] = []
    reader.listen(got.append, lambda: ended.append(True))
    reader.feed_data(b"c")
    reader.feed_data(b"")
    assert got == [b"ab", b"c"] and not ended
    reader.feed_eof()
    reader.feed_eof()
    assert ended == [True]
    reader.feed_data(b"late")                # after the end: back to the buffer, not the session
    assert got == [b"ab", b"c"]


def test_an_end_before_listening_is_told_at_once():
    reader = _PushReader()
    reader.feed_data(b"q")
    reader.feed_eof()
    got: list[bytes] = []
    ended: list[bool] = []
    reader.listen(got.append, lambda: ended.append(True))
    assert got == [b"q"] and ended == [True]


def test_a_connection_reset_ends_the_session_too():
    """telnetlib3 tells a reset (not a clean close) with ``set_exception``."""
    reader = _PushReader()
    ended: list[bool] = []
    reader.listen(lambda data: None, lambda: ended.append(True))
    reader.set_exception(ConnectionResetError("reset by peer"))
    assert ended == [True]
    early = _PushReader()
    early.set_exception(ConnectionResetError("reset before the session listened"))
    early.listen(lambda data: None, lambda: ended.append(True))
    assert ended == [True, True]


def test_a_session_that_fails_on_input_is_logged_not_raised(caplog):
    reader = _PushReader()

    def broken(data: bytes) -> None:
        raise RuntimeError("screen bug")

    reader.listen(broken, lambda: None)
    with caplog.at_level(logging.ERROR, logger="gatehouse.telnet"):
        reader.feed_data(b"x")
    assert "handing a caller's input" in caplog.text
