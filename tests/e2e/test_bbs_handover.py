"""A BBS hands its callers to Gatehouse: RLogin (with an allow-list) and door
mode (DOOR32.SYS), both ending in the same lobby as telnet callers."""
import asyncio
import socket

import pyte

from ansi.cp437 import decode_cp437
from server.net.door32 import parse_door32
from server.net.door_bridge import run_door
from server.net.rlogin import build_handshake

from .harness import Caller, db_rows, start_app

DROP = """2
{handle}
38400
Vertrauen BBS
42
Bob Jones
Bobby
50
90
1
3
"""


class Screen:
    """A pyte screen fed with CP437 bytes from a stream."""

    def __init__(self, reader):
        self.screen = pyte.Screen(80, 24)
        self.stream = pyte.Stream(self.screen)
        self.task = asyncio.create_task(self._pump(reader))

    async def _pump(self, reader):
        while data := await reader.read(4096):
            self.stream.feed(decode_cp437(data))

    async def expect(self, text, timeout=30.0):
        for _ in range(int(timeout / 0.05)):
            shown = "\n".join(self.screen.display)
            if text in shown:
                return shown
            await asyncio.sleep(0.05)
        raise AssertionError(f"{text!r} never appeared:\n" + "\n".join(self.screen.display))


async def test_rlogin_caller_lands_in_the_lobby_under_the_bbs_tag(tmp_path):
    app = await start_app(tmp_path / "g.db", rlogin={"enabled": True, "port": 0, "tag": "VRT"})
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", app.rlogin_port)
        writer.write(build_handshake("vertrauen", "Bobby", "ansi-bbs/38400"))
        assert await reader.readexactly(1) == b"\0"
        screen = Screen(reader)
        text = await screen.expect("Who's online")
        assert "[VRT]Bobby" in text
        telnet = await Caller.connect(app.port)
        await telnet.login("Alice")
        await telnet.expect("[VRT]Bobby")            # one lobby for everybody
        await telnet.close()
        writer.close()
    finally:
        await app.stop()


async def test_rlogin_from_an_address_not_allowed_is_refused(tmp_path, caplog):
    app = await start_app(tmp_path / "g.db", rlogin={"enabled": True, "port": 0, "allow": ["10.9.9.9"]})
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", app.rlogin_port)
        writer.write(build_handshake("bbs", "Mallory", "ansi/9600"))
        reply = await asyncio.wait_for(reader.read(200), 5)
        assert b"may not use RLogin" in reply
        try:                                           # the server hangs up: no session
            while reply:
                reply = await asyncio.wait_for(reader.read(200), 30)
        except ConnectionResetError:
            pass
        assert not db_rows(app, "SELECT handle FROM users WHERE handle LIKE '%Mallory%'")
        assert any("refused" in r.getMessage() for r in caplog.records)
    finally:
        await app.stop()


async def test_door_mode_bridges_a_bbs_caller_into_the_lobby(tmp_path):
    app = await start_app(tmp_path / "g.db", rlogin={"enabled": True, "port": 0, "tag": "VRT"})
    try:
        bbs_side, caller_side = socket.socketpair()
        drop = parse_door32(DROP.format(handle=bbs_side.fileno()))
        door_reader, door_writer = await asyncio.open_connection(sock=bbs_side)
        caller_reader, caller_writer = await asyncio.open_connection(sock=caller_side)
        door = asyncio.create_task(run_door(drop, "127.0.0.1", app.rlogin_port,
                                            door_reader, door_writer, tag="VRT"))
        screen = Screen(caller_reader)
        text = await screen.expect("Who's online")
        assert "[VRT]Bobby" in text
        caller_writer.write(b"gy")                 # goodbye (y confirms): back to the BBS
        await asyncio.wait_for(door, 10)
        assert door.result() == 0
        caller_writer.close()
    finally:
        await app.stop()
