"""The contract between Gatehouse's telnet front and telnetlib3: every name
the front uses, public or (in ``server.net.telnetlib3_seam``) not, with the
behaviour it relies on. On a telnetlib3 upgrade that breaks one, this test
fails and says which, before any caller loses a key."""
from __future__ import annotations

import asyncio
import inspect
from importlib.metadata import version

import pytest
import telnetlib3
import telnetlib3.stream_writer
from telnetlib3.server import Server, TelnetServer
from telnetlib3.stream_reader import TelnetReader
from telnetlib3.stream_writer import TelnetWriter

from server.net.telnetlib3_seam import bound_subnegotiation, stop_listening, take_held

UPGRADE = "telnetlib3 {}: {} (see server/net/telnetlib3_seam.py and server/net/telnet.py)"


def broken(what: str) -> str:
    return UPGRADE.format(version("telnetlib3"), what)


def test_a_readers_held_input_is_taken_whole_and_only_once():
    reader = TelnetReader()
    reader.feed_data(b"typed ")
    reader.feed_data(b"ahead")
    assert take_held(reader) == b"typed ahead", broken("take_held no longer sees the reader's buffer")
    assert take_held(reader) == b"", broken("take_held does not empty the reader's buffer")


def test_taking_the_held_input_leaves_the_reader_consistent():
    reader = TelnetReader()
    reader.feed_data(b"x")
    take_held(reader)
    reader.feed_data(b"yz")

    async def read() -> bytes:
        return await reader.read(10)

    assert asyncio.run(read()) == b"yz", broken("read after take_held returns stale bytes")
    reader.feed_eof()
    assert reader.at_eof(), broken("at_eof is not true once the input ended and nothing is held")


def test_the_reader_tells_its_end_and_a_reset_publicly():
    reader = TelnetReader()
    assert not reader.at_eof() and reader.exception() is None
    reader.set_exception(ConnectionResetError("reset"))
    assert isinstance(reader.exception(), ConnectionResetError), broken("reader.exception() changed")


def test_create_server_takes_the_factories_the_front_passes():
    params = inspect.signature(telnetlib3.create_server).parameters
    for name in ("host", "port", "shell", "protocol_factory", "encoding", "connect_maxwait",
                 "timeout", "term", "cols", "rows"):
        assert name in params, broken(f"create_server has no {name!r} argument")
    server_params = inspect.signature(TelnetServer.__init__).parameters
    for name in ("reader_factory", "writer_factory"):
        assert name in server_params, broken(f"TelnetServer takes no {name!r}")


def test_the_server_and_protocol_hooks_the_front_overrides_exist():
    for name in ("sockets", "clients", "wait_for_client", "close"):
        assert hasattr(Server, name), broken(f"Server has no {name!r}")
    for name in ("connection_made", "data_received", "connection_lost", "on_naws"):
        assert hasattr(TelnetServer, name), broken(f"TelnetServer has no {name!r}")
    for name in ("feed_byte", "set_ext_callback", "get_extra_info", "protocol", "transport"):
        assert hasattr(TelnetWriter, name), broken(f"TelnetWriter has no {name!r}")


def test_the_subnegotiation_bound_is_the_one_telnetlib3_reads():
    assert isinstance(getattr(telnetlib3.stream_writer, "_MAX_SUBNEGOTIATION", None), int), \
        broken("stream_writer._MAX_SUBNEGOTIATION is gone: bound_subnegotiation does nothing")
    before = telnetlib3.stream_writer._MAX_SUBNEGOTIATION
    try:
        bound_subnegotiation(99)
        assert telnetlib3.stream_writer._MAX_SUBNEGOTIATION == 99
    finally:
        telnetlib3.stream_writer._MAX_SUBNEGOTIATION = before


async def test_stop_listening_closes_the_socket_and_keeps_the_callers():
    async def shell(reader, writer):
        await reader.read(1)

    server = await telnetlib3.create_server(host="127.0.0.1", port=0, shell=shell, encoding=False,
                                            connect_maxwait=0.05)
    try:
        port = server.sockets[0].getsockname()[1]
        _reader, writer = await asyncio.open_connection("127.0.0.1", port)
        await asyncio.wait_for(server.wait_for_client(), 30)
        stop_listening(server)
        assert not server.is_serving(), broken("stop_listening left the socket listening")
        assert server.clients, broken("stop_listening closed the callers too")
        with pytest.raises(OSError):
            await asyncio.open_connection("127.0.0.1", port)
        writer.close()
    finally:
        server.close()


@pytest.mark.parametrize("name", ["feed_data", "feed_eof", "set_exception", "read", "at_eof", "exception"])
def test_the_reader_methods_the_push_reader_uses_exist(name):
    assert callable(getattr(TelnetReader, name, None)), broken(f"TelnetReader has no {name!r}")


async def test_a_listening_server_shows_its_sockets_and_forgets_closed_clients():
    """Through the public face: the bound sockets, ``clients`` pruned of a
    connection once it closed, and ``wait_for_client`` handing each one over."""
    connected = asyncio.Event()

    async def shell(reader, writer):
        connected.set()
        writer.close()

    server = await telnetlib3.create_server(host="127.0.0.1", port=0, shell=shell, encoding=False,
                                            connect_maxwait=0.05)
    try:
        port = server.sockets[0].getsockname()[1]
        _reader, writer = await asyncio.open_connection("127.0.0.1", port)
        handed = await asyncio.wait_for(server.wait_for_client(), 30)
        assert isinstance(handed, TelnetServer), broken("wait_for_client no longer hands the protocol")
        await asyncio.wait_for(connected.wait(), 30)
        writer.close()
        for _ in range(3000):
            if not server.clients:
                break
            await asyncio.sleep(0.01)
        assert server.clients == [], broken("Server.clients keeps a closed connection")
    finally:
        server.close()
        await server.wait_closed()
