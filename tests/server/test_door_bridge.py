"""Door mode tests: a fake Gatehouse RLogin server and a socketpair for the BBS's caller socket."""
from __future__ import annotations

import asyncio
import os
import socket
import threading

from server.net import door_bridge
from server.net.door32 import DropFile
from server.net.door_bridge import TelnetFilter, client_user_for, run_door, terminal_for
from server.net.rlogin import HANDSHAKE_ACK, RloginHandshake, RloginInputFilter, WindowSize, read_handshake

IAC_NAWS_132x50 = b"\xff\xfa\x1f\x00\x84\x00\x32\xff\xf0"


def make_drop(**kw) -> DropFile:
    base = dict(comm_type=2, comm_handle=5, baud=38400, bbs_name="Vertrauen", user_record=1,
                real_name="Rick Greer", handle="DarkRider", security=50, minutes_left=60,
                emulation=1, node=2)
    base.update(kw)
    return DropFile(**base)


class FakeGatehouse:
    """Records the RLogin handshake, ACKs, then echoes (mode "echo"), or refuses."""

    def __init__(self, mode: str = "echo") -> None:
        self.mode = mode
        self.handshakes: list[RloginHandshake] = []
        self.received = bytearray()
        self.sizes: list[WindowSize] = []
        self.writers: list[asyncio.StreamWriter] = []
        self.tasks: list[asyncio.Task] = []
        self.eof = asyncio.Event()

    async def handle(self, reader, writer):
        self.tasks.append(asyncio.current_task())
        self.writers.append(writer)
        self.handshakes.append(await read_handshake(reader, timeout=2))
        if self.mode == "refuse":
            writer.write(b"Access denied: not on allow list\r\n")
            writer.close()
            return
        writer.write(HANDSHAKE_ACK)
        filt = RloginInputFilter()
        while data := await reader.read(1024):
            clean, size = filt.feed(data)
            if size:
                self.sizes.append(size)
            self.received += clean
            if clean:
                writer.write(clean)
                await writer.drain()
        self.eof.set()
        writer.close()

    async def __aenter__(self):
        self.server = await asyncio.start_server(self.handle, "127.0.0.1", 0)
        self.port = self.server.sockets[0].getsockname()[1]
        return self

    async def __aexit__(self, *exc):
        for w in self.writers:
            w.close()
        await asyncio.wait_for(asyncio.gather(*self.tasks, return_exceptions=True), 2)
        self.server.close()
        await self.server.wait_closed()


async def socketpair_streams():
    """(caller side streams for the test, door side streams for run_door)."""
    bbs_side, door_side = socket.socketpair()
    caller = await asyncio.open_connection(sock=bbs_side)
    door = await asyncio.open_connection(sock=door_side)
    return caller, door


async def read_until(reader: asyncio.StreamReader, needle: bytes, timeout: float = 2) -> bytes:
    buf = b""
    async with asyncio.timeout(timeout):
        while needle not in buf:
            chunk = await reader.read(1024)
            if not chunk:
                break
            buf += chunk
    return buf


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# --- pieces ------------------------------------------------------------------

def test_terminal_and_client_user():
    assert terminal_for(make_drop()) == "ansi-bbs/38400"
    assert terminal_for(make_drop(emulation=0, baud=0)) == "dumb-bbs/38400"   # ASCII: no ANSI, CP437 keys
    assert terminal_for(make_drop(emulation=0, baud=0), "utf8") == "dumb-utf8/38400"
    assert terminal_for(make_drop(), "utf8") == "ansi-utf8/38400"
    assert terminal_for(make_drop(emulation=4, baud=115200)) == "ansi-bbs/115200"
    assert client_user_for(make_drop(), "VRT") == "[VRT]"
    assert client_user_for(make_drop(), None) == "Vertrauen"
    assert client_user_for(make_drop(bbs_name=""), "") == "BBS"


def test_telnet_filter():
    f = TelnetFilter()
    assert f.feed(b"a\xff\xffb\r\0c\r\nd") == (b"a\xffb\rc\r\nd", None)
    assert f.feed(b"\xff\xfb\x01x\xff\xf1y") == (b"xy", None)          # WILL ECHO, NOP
    out, naws = b"", None
    for byte in b"k" + IAC_NAWS_132x50 + b"z":                        # split byte by byte
        clean, got = f.feed(bytes([byte]))
        out += clean
        naws = got or naws
    assert out == b"kz" and naws == (132, 50)
    assert f.feed(b"\xff\xfa\x1f\x00\xff\xff\x00\x19\xff\xf0") == (b"", (255, 25))  # escaped 255
    assert f.feed(b"p\xff\xfa\x1f\x00\xff\xf0q") == (b"pq", None)      # a malformed NAWS is dropped


# --- run_door ----------------------------------------------------------------

async def test_bridge_handshake_and_bytes_both_ways():
    async with FakeGatehouse() as gh:
        (c_reader, c_writer), (d_reader, d_writer) = await socketpair_streams()
        door = asyncio.create_task(run_door(make_drop(), "127.0.0.1", gh.port, d_reader, d_writer,
                                            tag="VRT"))
        c_writer.write(b"hello \xff\xff" + IAC_NAWS_132x50 + b"world\r\0")
        echoed = await read_until(c_reader, b"world\r")
        assert echoed == b"hello \xff\xffworld\r"        # 0xff doubled again towards the caller
        assert gh.handshakes == [RloginHandshake("[VRT]", "DarkRider", "ansi-bbs;minutes=60;quoted", 38400)]
        assert bytes(gh.received) == b"hello \xffworld\r"   # IAC/NAWS stripped, CR NUL -> CR
        assert gh.sizes == [WindowSize(50, 132, 0, 0)]
        c_writer.close()                                 # caller hangs up
        assert await asyncio.wait_for(door, 2) == 0
        await asyncio.wait_for(gh.eof.wait(), 2)
        d_writer.close()


async def test_server_closing_returns_caller_to_bbs():
    async with FakeGatehouse() as gh:
        (c_reader, c_writer), (d_reader, d_writer) = await socketpair_streams()
        door = asyncio.create_task(run_door(make_drop(), "127.0.0.1", gh.port, d_reader, d_writer))
        c_writer.write(b"ping")
        assert await read_until(c_reader, b"ping") == b"ping"
        gh.writers[0].close()                            # the game ends the session
        assert await asyncio.wait_for(door, 2) == 0
        assert b"Returning to Vertrauen..." in await read_until(c_reader, b"...")
        assert gh.handshakes[0].client_user == "Vertrauen"
        d_writer.close()
        c_writer.close()


async def test_local_mode_passes_bytes_untouched():
    async with FakeGatehouse() as gh:
        (c_reader, c_writer), (d_reader, d_writer) = await socketpair_streams()
        drop = make_drop(comm_type=0, comm_handle=-1, emulation=1)
        door = asyncio.create_task(run_door(drop, "127.0.0.1", gh.port, d_reader, d_writer))
        c_writer.write(b"\xff\xfa\x1f!")
        assert await read_until(c_reader, b"!") == b"\xff\xfa\x1f!"
        assert gh.handshakes[0].terminal_type == "ansi-bbs"       # CP437, locked by the server
        c_writer.close()
        assert await asyncio.wait_for(door, 2) == 0
        d_writer.close()


async def test_server_unreachable_tells_caller():
    (c_reader, c_writer), (d_reader, d_writer) = await socketpair_streams()
    port = free_port()
    assert await run_door(make_drop(), "127.0.0.1", port, d_reader, d_writer, timeout=2) == 2
    d_writer.close()
    msg = await read_until(c_reader, b"later.")
    assert f"not reachable right now (127.0.0.1:{port})".encode() in msg
    assert msg.startswith(b"\r\n") and msg.endswith(b"\r\n") and msg.isascii()
    c_writer.close()


async def test_server_refusal_is_shown():
    async with FakeGatehouse(mode="refuse") as gh:
        (c_reader, c_writer), (d_reader, d_writer) = await socketpair_streams()
        assert await run_door(make_drop(), "127.0.0.1", gh.port, d_reader, d_writer) == 2
        d_writer.close()
        msg = await read_until(c_reader, b"list")
        assert b"refused the connection: Access denied: not on allow list" in msg
        c_writer.close()


async def test_server_silent_after_handshake_times_out():
    async def silent(reader, writer):
        await reader.read()                              # never answers; ends when the door hangs up
        writer.close()

    server = await asyncio.start_server(silent, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    async with server:
        (c_reader, c_writer), (d_reader, d_writer) = await socketpair_streams()
        assert await run_door(make_drop(), "127.0.0.1", port, d_reader, d_writer, timeout=0.2) == 2
        d_writer.close()
        assert b"did not answer" in await read_until(c_reader, b"later.")
        c_writer.close()


# --- main(): the real inherited-socket path ----------------------------------

def write_drop(path, handle: int, **changes) -> None:
    lines = ["2", str(handle), "38400", "Vertrauen", "1", "Rick Greer", "DarkRider",
             "50", "60", "1", "2"]
    for n, value in changes.items():
        lines[int(n[1:]) - 1] = value
    path.write_text("\r\n".join(lines) + "\r\n")


def recv_all(sock: socket.socket, timeout: float = 3) -> bytes:
    sock.settimeout(timeout)
    buf = b""
    while chunk := sock.recv(4096):
        buf += chunk
    return buf


def test_main_bad_drop_file_message_reaches_caller_socket(tmp_path, capsys):
    bbs_side, door_side = socket.socketpair()
    path = tmp_path / "door32.sys"
    write_drop(path, door_side.fileno(), l3="fast")
    assert door_bridge.main(str(path), "127.0.0.1", free_port()) == 1
    door_side.close()
    msg = recv_all(bbs_side)
    bbs_side.close()
    assert (b"Sorry, this game cannot start: the BBS's note about you for this door "
            b"(its drop file) could not be read.\r\n") in msg
    assert msg.isascii()
    assert "door32.sys line 3: baud rate must be a number" in capsys.readouterr().err


def test_main_missing_file_message_on_stdout_and_stderr(tmp_path, capsys):
    assert door_bridge.main(str(tmp_path / "DOOR32.SYS"), "127.0.0.1", free_port()) == 1
    out = capsys.readouterr()
    assert f"drop file not found: {tmp_path}" in out.err           # the log has the path
    assert "Sorry, this game cannot start: the BBS did not leave" in out.out
    assert str(tmp_path) not in out.out and "DOOR32" not in out.out   # the caller does not
    assert "\r\n" in out.out


def test_main_stale_file(tmp_path, capsys):
    import time
    path = tmp_path / "DOOR32.SYS"
    write_drop(path, 99)
    old = time.time() - 5 * 60
    os.utime(path, (old, old))
    assert door_bridge.main(str(path), "127.0.0.1", free_port(), max_age_minutes=2) == 1
    out = capsys.readouterr()
    assert "stale" in out.err
    assert "is old, so it may be someone else's" in out.out


def test_main_bridges_inherited_socket(tmp_path):
    """End to end: the door takes ownership of a real fd, as a BBS would pass it."""
    received: list[bytes] = []
    ready = threading.Event()
    port_box: list[int] = []

    async def serve():
        finished = asyncio.Event()

        async def handle(reader, writer):
            hs = await read_handshake(reader, timeout=2)
            writer.write(HANDSHAKE_ACK + f"Welcome {hs.server_user}\r\n".encode())
            received.append(await reader.read(100))
            writer.close()
            finished.set()

        server = await asyncio.start_server(handle, "127.0.0.1", 0)
        port_box.append(server.sockets[0].getsockname()[1])
        ready.set()
        async with server:
            await asyncio.wait_for(finished.wait(), 5)

    server_thread = threading.Thread(target=asyncio.run, args=(serve(),), daemon=True)
    server_thread.start()
    assert ready.wait(2)
    bbs_side, door_side = socket.socketpair()
    path = tmp_path / "door32.sys"
    fd = door_side.detach()                               # the door now owns this fd
    bbs_copy = os.dup(fd)                                 # ...and the BBS keeps its own
    write_drop(path, fd)
    result: list[int] = []
    door_thread = threading.Thread(
        target=lambda: result.append(door_bridge.main(str(path), "127.0.0.1", port_box[0])))
    door_thread.start()
    bbs_side.settimeout(3)
    greeting = b""
    while b"\r\n" not in greeting:
        greeting += bbs_side.recv(100)
    assert greeting == b"Welcome DarkRider\r\n"
    bbs_side.sendall(b"q")
    door_thread.join(3)
    server_thread.join(3)
    assert result == [0]
    assert received == [b"q"]
    assert os.get_blocking(bbs_copy)                      # the BBS's copy is left blocking
    os.close(bbs_copy)
    # EOF after the goodbye proves the door closed its handle too.
    assert recv_all(bbs_side).endswith(b"Returning to Vertrauen...\r\n")
    bbs_side.close()


def test_main_rejects_serial(tmp_path, capsys):
    path = tmp_path / "DOOR32.SYS"
    write_drop(path, 1, l1="1")
    assert door_bridge.main(str(path), "127.0.0.1", free_port()) == 1
    assert "serial connections (comm type 1) are not supported" in capsys.readouterr().err


def test_the_callers_time_left_rides_in_the_terminal_field():
    from server.net.rlogin import RloginHandshake
    assert terminal_for(make_drop(minutes_left=12), time_left=True) == "ansi-bbs;minutes=12/38400"
    assert terminal_for(make_drop(minutes_left=0), time_left=True) == "ansi-bbs/38400"   # no limit
    assert terminal_for(make_drop(minutes_left=-1), time_left=True) == "ansi-bbs/38400"  # (unlimited)
    assert terminal_for(make_drop(minutes_left=12), time_left=False) == "ansi-bbs/38400"
    hs = RloginHandshake("bbs", "Gus", "ansi-bbs;minutes=12", 38400)
    assert (hs.terminal_type, hs.minutes_left) == ("ansi-bbs", 12)
    assert RloginHandshake("bbs", "Gus", "ansi-bbs;minutes=lots", 0).minutes_left is None


async def test_a_bbs_name_with_escape_codes_reaches_the_caller_as_text():
    async with FakeGatehouse() as gh:
        (c_reader, c_writer), (d_reader, d_writer) = await socketpair_streams()
        drop = make_drop(bbs_name="Evil\x1b[2J\x1b]0;pwned\x07BBS")
        door = asyncio.create_task(run_door(drop, "127.0.0.1", gh.port, d_reader, d_writer))
        c_writer.write(b"ping")
        assert await read_until(c_reader, b"ping") == b"ping"
        gh.writers[0].close()
        assert await asyncio.wait_for(door, 2) == 0
        said = await read_until(c_reader, b"...")
        assert b"Returning to Evil[2J]0;pwnedBBS..." in said
        assert b"\x1b" not in said and b"\x07" not in said
        d_writer.close()
        c_writer.close()


def test_two_long_names_in_another_alphabet_stay_two_callers():
    """Door mode reads DOOR32.SYS as CP437: a Cyrillic (CP866) name comes
    through as a string of box and accented characters that quotes to far
    more than the RLogin field holds. Cut short, two names that start alike
    would be one account; each still fits and stays apart."""
    from server.net.rlogin import MAX_FIELD, alias_field, quote_alias, unquote_alias
    from server.services.bbs_accounts import alias_key
    one = "Александр Иванов".encode("cp866").decode("cp437")
    two = "Александр Ильин".encode("cp866").decode("cp437")
    fields = [alias_field(name) for name in (one, two)]
    assert all(len(field) <= MAX_FIELD and field.isascii() for field in fields)
    assert len(quote_alias(one)) > MAX_FIELD              # (so the cut is the case here)
    assert alias_key(unquote_alias(fields[0]), "[V]") != alias_key(unquote_alias(fields[1]), "[V]")
    assert alias_field(one) == fields[0]                  # the same caller next time
    assert alias_field("DarkRider") == "DarkRider"         # a short name as before


def test_main_a_comm_handle_too_big_for_a_descriptor_is_one_clear_line(tmp_path, capsys):
    path = tmp_path / "door32.sys"
    write_drop(path, 0, l2="99999999999999999999")
    assert door_bridge.main(str(path), "127.0.0.1", free_port()) == 1
    err = capsys.readouterr().err
    assert "door32.sys line 2: comm handle must be" in err and "Traceback" not in err
    write_drop(path, 0, l2="99999999999999999999", l3="fast")
    assert door_bridge.main(str(path), "127.0.0.1", free_port()) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.count("gatehouse door:") == 1


def test_a_speed_or_time_left_beyond_the_field_is_not_sent_as_is():
    term = terminal_for(make_drop(baud=10_000_000_000, minutes_left=10_000_000), time_left=True)
    terminal, speed = term.rsplit("/", 1)
    assert speed == "38400" and RloginHandshake("", "", terminal, 38400).minutes_left == 999_999
