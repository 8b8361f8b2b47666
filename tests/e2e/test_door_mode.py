"""Door mode as a BBS runs it: who the caller becomes (full aliases never
share an account), which charset they get (the door's, locked), what size
they are drawn at (the pseudo-terminal's), and what a broken setup prints."""
import asyncio
import fcntl
import os
import pty
import re
import socket
import sqlite3
import struct
import subprocess
import sys
import termios
import time

import pyte

from ansi.cp437 import decode_cp437
from server.net.door32 import parse_door32
from server.net.door_bridge import run_door
from server.net.rlogin import build_handshake
from server.services.store import AccountKind

from .harness import charset_of, db_rows, start_app, wait_until
from .test_bbs_handover import Screen

DROP = "{comm}\n{handle}\n38400\nVertrauen BBS\n42\nReal Name\n{alias}\n50\n90\n1\n3\n"
BOX_UTF8 = "─".encode()              # what a UTF-8 frame is made of
BOX_CP437 = b"\xc4"                  # the same line in CP437


class DoorCaller:
    """A BBS caller handed to Gatehouse through door mode (``run_door`` on a
    socket pair, as a BBS passes its socket), read through pyte."""

    def __init__(self, app, alias: str, charset: str = "cp437", name_field: str = "server_user"):
        self.app = app
        self.alias = alias
        self.charset = charset
        self.name_field = name_field
        self.raw = bytearray()
        self.screen = pyte.Screen(80, 24)
        self.stream = pyte.Stream(self.screen)

    async def start(self) -> "DoorCaller":
        bbs_side, caller_side = socket.socketpair()
        drop = parse_door32(DROP.format(comm=2, handle=bbs_side.fileno(), alias=self.alias))
        door_reader, door_writer = await asyncio.open_connection(sock=bbs_side)
        reader, self.writer = await asyncio.open_connection(sock=caller_side)
        self.door = asyncio.create_task(run_door(drop, "127.0.0.1", self.app.rlogin_port,
                                                 door_reader, door_writer, tag="VRT",
                                                 charset=self.charset, name_field=self.name_field))
        self.pump = asyncio.create_task(self._pump(reader))
        return self

    async def _pump(self, reader) -> None:
        while data := await reader.read(4096):
            self.raw += data
            self.stream.feed(data.decode("utf-8", "replace") if self.charset == "utf8"
                             else decode_cp437(data))

    def text(self) -> str:
        return "\n".join(self.screen.display)

    async def expect(self, text: str, timeout: float = 8.0) -> str:
        deadline = time.monotonic() + timeout
        while text not in self.text():
            if time.monotonic() > deadline:
                raise AssertionError(f"{text!r} never appeared:\n{self.text()}")
            await asyncio.sleep(0.02)
        return self.text()

    async def goodbye(self) -> None:
        self.writer.write(b"g")
        await self.expect("Back to the BBS? (y/n)")
        self.writer.write(b"y")
        assert await asyncio.wait_for(self.door, 10) == 0
        self.writer.close()


def bbs_users(app) -> list[str]:
    """The BBS callers' accounts in the database file, oldest first."""
    return [row[0] for row in db_rows(app, "SELECT handle FROM users WHERE kind = ? ORDER BY id",
                                      AccountKind.BBS.value)]


async def test_aliases_sharing_their_first_14_characters_stay_two_accounts(tmp_path):
    app = await start_app(tmp_path / "g.db", rlogin={"enabled": True, "port": 0, "tag": "VRT"})
    try:
        first = await DoorCaller(app, "Thunderstruck Alpha1").start()
        second = await DoorCaller(app, "Thunderstruck Alpha2").start()
        text = await second.expect("Who's online")
        await second.expect("[VRT]Thunderstruck-2")
        await first.expect("[VRT]Thunderstruck A")        # both on at once, under two names
        assert "[VRT]Thunderstruck A" in text or "[VRT]Thunderstruck A" in second.text()
        await first.goodbye()
        await second.goodbye()
        again = await DoorCaller(app, "thunderstruck alpha2").start()   # BBS names ignore case
        await again.expect("[VRT]Thunderstruck-2")
        await again.goodbye()
        assert bbs_users(app) == ["[VRT]Thunderstruck A", "[VRT]Thunderstruck-2"]
    finally:
        await app.stop()


async def test_door_mode_follows_a_server_that_reads_the_name_from_client_user(tmp_path):
    """``[rlogin] name_field = "client_user"`` on the same settings: door mode
    puts the alias there, so each caller is their own account (not the
    BBS's tag for everybody, nor refused)."""
    app = await start_app(tmp_path / "g.db", rlogin={"enabled": True, "port": 0, "tag": "VRT",
                                                   "name_field": "client_user"})
    try:
        alice = await DoorCaller(app, "Alice", name_field="client_user").start()
        await alice.expect("[VRT]Alice · node")
        bob = await DoorCaller(app, "Bob", name_field="client_user").start()
        await bob.expect("[VRT]Bob · node")
        await alice.goodbye()
        await bob.goodbye()
        assert bbs_users(app) == ["[VRT]Alice", "[VRT]Bob"]
    finally:
        await app.stop()


async def test_aliases_that_clean_up_to_one_handle_stay_two_accounts(tmp_path):
    """``bad\\x01name<>`` and ``badname??`` both show as ``badname__``: the
    full alias (sent escaped by door mode) keeps them apart."""
    app = await start_app(tmp_path / "g.db", rlogin={"enabled": True, "port": 0, "tag": "VRT"})
    try:
        one = await DoorCaller(app, "bad\x01name<>").start()
        await one.expect("[VRT]badname__")
        two = await DoorCaller(app, "badname??").start()
        await two.expect("[VRT]badname__-2")
        three = await DoorCaller(app, "badname<>").start()    # no control character: a third
        await three.expect("[VRT]badname__-3")
        for caller in (one, two, three):
            await caller.goodbye()
        back = await DoorCaller(app, "bad\x01name<>").start()
        text = await back.expect("Who's online")
        assert "[VRT]badname__-" not in text and "[VRT]badname__" in text
        await back.goodbye()
        assert len(bbs_users(app)) == 3
    finally:
        await app.stop()


async def test_rlogin_and_door_mode_share_one_account_per_alias(tmp_path):
    app = await start_app(tmp_path / "g.db", rlogin={"enabled": True, "port": 0, "tag": "VRT"})
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", app.rlogin_port)
        writer.write(build_handshake("vrt", "Thunderstruck Alpha1", "ansi-bbs/38400"))
        assert await reader.readexactly(1) == b"\0"
        await Screen(reader).expect("[VRT]Thunderstruck A")       # in the lobby, by that name
        door = await DoorCaller(app, "Thunderstruck Alpha2").start()
        await door.expect("[VRT]Thunderstruck-2")
        await door.goodbye()
        writer.close()
    finally:
        await app.stop()


async def test_a_saved_utf8_choice_does_not_reach_a_door_caller(tmp_path):
    """Under ENiGMA½ (abracadabra decodes door output as CP437) a UTF-8 frame
    would be double-encoded: the door's CP437 holds, whatever the caller saved."""
    app = await start_app(tmp_path / "g.db", rlogin={"enabled": True, "port": 0, "tag": "VRT"})
    try:
        caller = await DoorCaller(app, "Bobby").start()
        await caller.expect("Who's online")
        await caller.goodbye()
        with sqlite3.connect(app.config.store.database, timeout=30) as con:   # chosen on some earlier call
            con.execute("UPDATE users SET charset = 'utf8' WHERE handle = '[VRT]Bobby'")

        caller = await DoorCaller(app, "Bobby").start()
        await caller.expect("Who's online")
        assert BOX_CP437 in caller.raw and BOX_UTF8 not in caller.raw
        caller.writer.write(b"s")
        await caller.expect("Set by your BBS for this call.")
        caller.writer.write(b"2")                          # try UTF-8 anyway
        await caller.expect("cp437 for this call: your BBS sets it (see its terminal settings).")
        assert charset_of(app, "[VRT]Bobby") == "utf8"     # not overwritten
        caller.writer.write(b"\x1b")
        await caller.expect("Who's online")
        assert BOX_UTF8 not in caller.raw                  # still CP437
        await caller.goodbye()
    finally:
        await app.stop()


async def test_door_charset_flag_locks_utf8(tmp_path):
    app = await start_app(tmp_path / "g.db", rlogin={"enabled": True, "port": 0, "tag": "VRT"})
    try:
        caller = await DoorCaller(app, "Bobby", charset="utf8").start()
        await caller.expect("Who's online")
        assert BOX_UTF8 in caller.raw
        await caller.goodbye()
    finally:
        await app.stop()


def _config(tmp_path, rlogin_port: int) -> str:
    path = tmp_path / "door.toml"
    path.write_text(f'[rlogin]\nenabled = true\ntag = "VRT"\n\n[door]\nrlogin_port = {rlogin_port}\n')
    return str(path)


def _drop(tmp_path, alias: str = "Bobby", comm: int = 0, handle: int = -1) -> str:
    path = tmp_path / "door32.sys"
    path.write_text(DROP.format(comm=comm, handle=handle, alias=alias))
    return str(path)


def _set_size(fd: int, rows: int, cols: int) -> None:
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("4H", rows, cols, 0, 0))


def _controlling_tty() -> None:
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


async def test_stdio_door_on_a_pty_is_drawn_at_the_callers_size(tmp_path):
    """ENiGMA½ runs a stdio door in a pseudo-terminal of the caller's size:
    a 132x37 caller is drawn at 132x37, and a resize (SIGWINCH) follows."""
    app = await start_app(tmp_path / "g.db", rlogin={"enabled": True, "port": 0, "tag": "VRT"})
    master, slave = pty.openpty()
    _set_size(slave, 37, 132)
    proc = subprocess.Popen(
        [sys.executable, "-m", "server.cli", "door", "--stdio", _drop(tmp_path),
         "--config", _config(tmp_path, app.rlogin_port)],
        stdin=slave, stdout=slave, stderr=subprocess.PIPE, preexec_fn=_controlling_tty)
    os.close(slave)
    os.set_blocking(master, False)
    screen = pyte.Screen(132, 37)
    stream = pyte.Stream(screen)

    def drain() -> bool:
        try:
            while data := os.read(master, 65536):
                stream.feed(decode_cp437(data))
        except (BlockingIOError, OSError):
            pass
        return True

    try:
        await wait_until(lambda: drain() and "Who's online" in screen.display[1],
                         what="the lobby on the pty (drawn: the size is big enough)")
        # the 80x24 screen in the corner of the 132x37 one, nothing wrapped onto the wrong row
        assert "GATEHOUSE" in screen.display[0] and "Who's online" not in screen.display[0]
        assert screen.display[0][80:].strip() == "" and screen.display[1][80:].strip() == ""
        _set_size(master, 20, 60)                           # the caller resizes: too small
        await wait_until(lambda: drain() and "Your window is 60x20" in "\n".join(screen.display),
                         what="the new size after SIGWINCH")
        screen.reset()
        _set_size(master, 30, 100)                          # and big enough again
        await wait_until(lambda: drain() and "Who's online" in "\n".join(screen.display),
                         what="the lobby at 100x30")
        os.write(master, b"gy")
        await wait_until(lambda: drain() and proc.poll() is not None, what="the door to end")
        assert proc.returncode == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        os.close(master)
        await app.stop()


def test_stdio_door_with_stdin_at_dev_null_says_one_line(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "server.cli", "door", "--stdio", _drop(tmp_path),
         "--config", _config(tmp_path, 1)],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        "gatehouse door: --stdio needs the caller on standard input, but it is /dev/null, "
        "not a terminal, pipe or socket"]
    assert "Traceback" not in result.stderr + result.stdout


def test_stale_drop_file_is_refused_before_anyone_is_logged_in(tmp_path):
    """The previous caller's file on this node (the BBS did not write a new
    one): the door refuses it, the caller reads a sentence without a path."""
    path = _drop(tmp_path, alias="PreviousCaller")
    old = time.time() - 10 * 60
    os.utime(path, (old, old))
    read_end, write_end = os.pipe()
    result = subprocess.run(
        [sys.executable, "-m", "server.cli", "door", "--stdio", path,
         "--config", _config(tmp_path, 1)],
        stdin=read_end, capture_output=True, timeout=60)
    os.close(read_end)
    os.close(write_end)
    assert result.returncode == 1
    assert b"is old, so it may be someone else's" in result.stdout
    assert str(tmp_path).encode() not in result.stdout
    # 10 minutes old when the test set it, and older by the door's start-up
    # (a loaded machine can take seconds: 10.1 minutes)
    assert re.search(rb"stale: written 10\.\d minutes ago", result.stderr), result.stderr
    assert b"PreviousCaller" not in result.stdout
