"""RLogin handshake, allow-list, handle and window-size tests."""
from __future__ import annotations

import asyncio
import select
import socket
import struct

import pytest

from server.net.rlogin import (
    HANDSHAKE_ACK,
    RloginError,
    RloginHandshake,
    RloginInputFilter,
    WindowSize,
    bbs_handle,
    build_handshake,
    is_allowed,
    normalize_tag,
    read_handshake,
    request_window_size,
    sanitize_handle,
    window_message,
)


def feed(data: bytes, eof: bool = True) -> asyncio.StreamReader:
    reader = asyncio.StreamReader()
    reader.feed_data(data)
    if eof:
        reader.feed_eof()
    return reader


# --- handshake ---------------------------------------------------------------

async def test_handshake_good():
    hs = await read_handshake(feed(b"\0pw\0[TAG]Alice\0ansi-bbs/38400\0"))
    assert hs == RloginHandshake("pw", "[TAG]Alice", "ansi-bbs", 38400)
    assert hs.caller_name() == "[TAG]Alice"
    assert hs.caller_name("client_user") == "pw"
    assert HANDSHAKE_ACK == b"\0"


async def test_handshake_leaves_following_bytes_in_stream():
    reader = feed(b"\0a\0bob\0ansi/9600\0hello")
    hs = await read_handshake(reader)
    assert hs.server_user == "bob"
    assert await reader.read() == b"hello"


async def test_handshake_empty_client_and_no_speed():
    hs = await read_handshake(feed(b"\0\0Bob\0xtrn=gatehouse\0"))
    assert hs == RloginHandshake("", "Bob", "xtrn=gatehouse", 0)
    with pytest.raises(RloginError, match="client-user"):
        hs.caller_name("client_user")
    with pytest.raises(ValueError):
        hs.caller_name("nickname")


async def test_an_alias_in_8_bit_letters_is_read_as_utf8_or_else_cp437():
    for wire in (b"\0a\0J\x94rg\0ansi-bbs/1\0", b"\0a\0J\xc3\xb6rg\0ansi-bbs/1\0"):
        assert (await read_handshake(feed(wire))).server_user == "Jörg"


async def test_build_handshake_round_trip():
    wire = build_handshake("[GH]", "Jörg\x07 the Bold", "ansi-bbs/38400")
    assert wire == b"\0[GH]\0Jorg the Bold\0ansi-bbs/38400\0"
    hs = await read_handshake(feed(wire))
    assert hs.server_user == "Jorg the Bold"


@pytest.mark.parametrize("wire, reason", [
    (b"xa\0b\0ansi/1\0", "start with a NUL"),
    (b"\0a\0b\x07\0ansi/1\0", "server-user contains a non-printable byte 0x07"),
    (b"\0a\0b\0ansi\xff/1\0", "terminal/speed contains a non-printable"),
    (b"\0a\0J\xc2\x85rg\0ansi/1\0", "server-user contains a control character"),
    (b"\0a\0b\0ansi/fast\0", "speed must be a number"),
    (b"\0a\0b", "closed during handshake"),
    (b"", "closed during handshake"),
])
async def test_handshake_bad(wire, reason):
    with pytest.raises(RloginError, match=reason):
        await read_handshake(feed(wire))


@pytest.mark.parametrize("field", [0, 1, 2])
async def test_handshake_oversized_field(field):
    parts = [b"a", b"b", b"ansi/1"]
    parts[field] = b"x" * 65
    with pytest.raises(RloginError, match="longer than 64 bytes"):
        await read_handshake(feed(b"\0" + b"\0".join(parts) + b"\0"))


async def test_handshake_64_byte_fields_ok():
    wire = b"\0" + b"\0".join([b"c" * 64, b"s" * 64, b"t" * 58 + b"/38400"]) + b"\0"
    hs = await read_handshake(feed(wire))
    assert len(hs.client_user) == 64 and hs.speed == 38400


async def test_handshake_oversized_stops_reading_early():
    reader = feed(b"\0" + b"x" * 100_000, eof=False)
    with pytest.raises(RloginError, match="longer than 64"):
        await read_handshake(reader)
    assert len(await reader.read(200_000)) > 99_000  # the rest was never consumed


async def test_handshake_timeout_silent_client():
    with pytest.raises(RloginError, match="timed out after 0.05s"):
        await read_handshake(feed(b"", eof=False), timeout=0.05)


async def test_handshake_timeout_slow_client():
    with pytest.raises(RloginError, match="timed out"):
        await read_handshake(feed(b"\0alice\0bo", eof=False), timeout=0.05)


async def test_handshake_over_real_socket_and_ack():
    got: list[RloginHandshake] = []

    async def handle(reader, writer):
        got.append(await read_handshake(reader, timeout=2))
        writer.write(HANDSHAKE_ACK)
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    async with server:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(build_handshake("pw", "Carol", "ansi-bbs/38400"))
        assert await reader.read(10) == b"\0"
        writer.close()
    assert got == [RloginHandshake("pw", "Carol", "ansi-bbs", 38400)]


# --- allow-list --------------------------------------------------------------

ALLOW = ["127.0.0.1", "10.0.0.0/8", "::1", "2001:db8::/32"]


@pytest.mark.parametrize("addr, ok", [
    ("127.0.0.1", True), ("127.0.0.2", False), ("10.200.3.4", True), ("11.0.0.1", False),
    ("::1", True), ("::2", False), ("2001:db8:1::5", True), ("2001:db9::1", False),
    ("::ffff:10.1.2.3", True), ("::ffff:192.168.1.1", False), ("fe80::1%eth0", False),
    ("not-an-ip", False), ("", False),
])
def test_allow_list(addr, ok):
    assert is_allowed(addr, ALLOW) is ok


def test_allow_list_empty_and_bad_entry():
    assert not is_allowed("127.0.0.1", [])
    assert is_allowed("192.168.5.9", ["192.168.5.0/255.255.255.0"])
    with pytest.raises(ValueError, match="'localhost' is not an IP"):
        is_allowed("127.0.0.1", ["localhost"])


# --- handles -----------------------------------------------------------------

@pytest.mark.parametrize("name, tag, handle", [
    ("Alice", "GH", "[GH]Alice"),
    ("Alice", "[GH]", "[GH]Alice"),
    ("Alice", None, "Alice"),
    ("Alice", "", "Alice"),
    ("[GH]Alice", "GH", "[GH]Alice"),          # BBS already tagged it
    ("Dark  Lord\t99", None, "Dark Lord 99"),
    ("bob@home!", None, "bob_home_"),
    ("Jörg", "DE", "[DE]Jorg"),
    ("A\x1b[31mB", None, "A[31mB"),       # ESC stripped, [ allowed
    ("x" * 30, None, "x" * 20),
    ("Averyverylongname123", "ABC", "[ABC]Averyverylongna"),
    ("Al", None, "Al"),
])
def test_bbs_handle(name, tag, handle):
    assert bbs_handle(name, tag) == handle
    assert 2 <= len(handle) <= 20


@pytest.mark.parametrize("name", ["", "   ", "\x00\x01", "A"])
def test_bbs_handle_unusable(name):
    with pytest.raises(RloginError, match="no usable handle"):
        bbs_handle(name, None)


def test_sanitize_and_tag_rules():
    assert sanitize_handle("  spaced  out  ") == "spaced out"
    assert sanitize_handle("ok_-.[]") == "ok_-.[]"
    assert normalize_tag(" [A B] ") == "[AB]"
    assert normalize_tag("TOOLONGTAGXX") == "[TOOLONGT]"
    assert normalize_tag(None) == ""


# --- window size -------------------------------------------------------------

def test_filter_plain_data_passes():
    f = RloginInputFilter()
    assert f.feed(b"hello \xff world") == (b"hello \xff world", None)


def test_filter_extracts_window_size():
    f = RloginInputFilter()
    msg = window_message(WindowSize(24, 80, 640, 480))
    assert msg == b"\xff\xffss" + struct.pack(">4H", 24, 80, 640, 480)
    assert f.feed(b"ab" + msg + b"cd") == (b"abcd", WindowSize(24, 80, 640, 480))


def test_filter_split_across_reads_byte_by_byte():
    f = RloginInputFilter()
    data = b"x" + window_message(WindowSize(50, 132, 0, 0)) + b"y"
    out, sizes = b"", []
    for i in range(len(data)):
        clean, size = f.feed(data[i:i + 1])
        out += clean
        if size:
            sizes.append(size)
    assert out == b"xy" and sizes == [WindowSize(50, 132, 0, 0)]


def test_filter_two_messages_last_wins_and_false_prefix():
    f = RloginInputFilter()
    data = window_message(WindowSize(1, 2, 3, 4)) + b"\xff\xffsX" + window_message(WindowSize(5, 6, 7, 8))
    assert f.feed(data) == (b"\xff\xffsX", WindowSize(5, 6, 7, 8))


def test_filter_holds_partial_prefix_then_flush():
    f = RloginInputFilter()
    assert f.feed(b"abc\xff") == (b"abc", None)
    assert f.pending == b"\xff"
    assert f.feed(b"z") == (b"\xffz", None)
    assert f.feed(b"\xff\xff") == (b"", None)
    assert f.flush() == b"\xff\xff" and f.pending == b""


async def test_request_window_size_sends_urgent_byte():
    accepted: asyncio.Future = asyncio.get_running_loop().create_future()

    async def handle(reader, writer):
        accepted.set_result(request_window_size(writer))
        await asyncio.sleep(0.5)
        writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    async with server:
        client = socket.create_connection(("127.0.0.1", port))
        try:
            assert await asyncio.wait_for(accepted, 2) is True
            _, _, exc = await asyncio.to_thread(select.select, [], [], [client], 2)
            assert exc, "no urgent data signalled"
            assert client.recv(1, socket.MSG_OOB) == b"\x80"
        finally:
            client.close()


def test_request_window_size_without_socket():
    class NoSock:
        def get_extra_info(self, name):
            return None
    assert request_window_size(NoSock()) is False


def test_allowed_addresses_without_a_secret_are_named_when_any_secret_is_set():
    from server.services.bbs_accounts import open_without_secret
    assert open_without_secret(["127.0.0.0/8"], ["127.0.0.1=s"]) == ["127.0.0.0/8"]
    assert open_without_secret(["127.0.0.1", "::1"], ["127.0.0.1=s"]) == ["::1"]
    assert open_without_secret(["127.0.0.0/8"], ["127.0.0.0/9=a", "127.128.0.0/9=b"]) == []
    assert open_without_secret(["10.0.0.5", "10.0.0.0/24"], ["10.0.0.0/16=s"]) == []
    assert open_without_secret(["10.0.0.0/8"], []) == []          # no secrets: nothing to cover


def test_door_mode_finds_its_secret_for_a_server_named_localhost():
    """``[door] server_host = "localhost"``: the secret kept for the loopback
    address is the one sent (a name is looked up), not none at all."""
    from server.services.bbs_accounts import secret_for
    entries = ["127.0.0.1=s3cret", "::1=s3cret6"]
    assert secret_for(entries, "127.0.0.1") == "s3cret"
    assert secret_for(entries, "localhost") in ("s3cret", "s3cret6")
    assert secret_for(entries, "10.0.0.9") is None
