"""RLogin hands over BBS callers only: a BBS caller is an account of its own
kind that can never be a telnet caller's account, the sysop or the computer;
a telnet caller cannot take a BBS caller's name; a BBS may be required to
send a shared secret; look-alike handles are refused."""
import asyncio
import sqlite3

from server.net.rlogin import build_handshake

from .harness import ENTER, Caller, account, start_app, user_exists, wait_until
from .test_bbs_handover import Screen


async def rlogin_lobby(app, name: str, client_user: str = "bbs"):
    reader, writer = await asyncio.open_connection("127.0.0.1", app.rlogin_port)
    writer.write(build_handshake(client_user, name, "ansi-bbs/38400"))
    assert await reader.readexactly(1) == b"\0"
    screen = Screen(reader)
    return screen, writer


async def refused(app, name: str, client_user: str = "bbs") -> str:
    reader, writer = await asyncio.open_connection("127.0.0.1", app.rlogin_port)
    writer.write(build_handshake(client_user, name, "ansi-bbs/38400"))
    reply = (await asyncio.wait_for(reader.read(), 10)).decode("ascii", "replace")
    writer.close()
    assert reply.startswith("\0Gatehouse: "), reply
    return reply


async def test_rlogin_cannot_impersonate_telnet_callers_sysop_or_computer(tmp_path):
    app = await start_app(tmp_path / "g.db", rlogin={"enabled": True, "port": 0})  # no tag
    try:
        alice = await Caller.connect(app.port)
        await alice.login("Alice")
        await alice.close()
        await asyncio.sleep(0)
        reply = await refused(app, "Alice")
        assert "not a BBS caller" in reply and "rlogin.tag" in reply
        for name in ("Sysop", "Computer", "sysop", "Guest"):
            assert "reserved" in await refused(app, name)
        watcher = await Caller.connect(app.port)             # nobody got in as Alice
        await watcher.login("Walt")
        assert "Alice" not in await watcher.expect("Walt")
        await watcher.close()
        for name in ("Alice", "Sysop", "Computer"):
            user = account(app, name)
            assert user is None or user[1] != "bbs"
    finally:
        await app.stop()


async def test_tagged_reserved_name_refused(tmp_path):
    app = await start_app(tmp_path / "g.db", rlogin={"enabled": True, "port": 0, "tag": "VRT"})
    try:
        assert "reserved" in await refused(app, "Sysop")
        assert "reserved" in await refused(app, "computer")
    finally:
        await app.stop()


async def test_a_bbs_callers_name_is_never_a_telnet_account(tmp_path):
    app = await start_app(tmp_path / "g.db", rlogin={"enabled": True, "port": 0, "tag": "VRT"})
    try:
        screen, writer = await rlogin_lobby(app, "Bob")
        await screen.expect("Who's online")
        writer.close()
        await wait_until(lambda: account(app, "[VRT]Bob") == ("[VRT]Bob", "bbs"), what="the BBS account saved")
        eve = await Caller.connect(app.port)
        await eve.expect("Handle")
        eve.send("[VRT]Bob" + ENTER)
        await eve.expect("belongs to a caller from a BBS")
        eve.send("[XYZ]Eve" + ENTER)                  # registering a tag ahead of a BBS
        await eve.expect("kept for callers from BBSes")
        assert not user_exists(app, "[XYZ]Eve")
        await eve.close()
    finally:
        await app.stop()


async def test_bbs_must_send_its_shared_secret(tmp_path):
    app = await start_app(tmp_path / "g.db", rlogin={"enabled": True, "port": 0, "tag": "VRT",
                                                                   "secrets": ["127.0.0.0/8=door-s3cret"]})
    try:
        assert "secret" in await refused(app, "Bob", client_user="wrong")
        assert "secret" in await refused(app, "Bob", client_user="")
        assert not user_exists(app, "[VRT]Bob")
        screen, writer = await rlogin_lobby(app, "Bob", client_user="door-s3cret")
        assert "[VRT]Bob" in await screen.expect("Who's online")
        writer.close()
    finally:
        await app.stop()


async def test_lookalike_handles_refused(tmp_path):
    app = await start_app(tmp_path / "g.db", rlogin={"enabled": True, "port": 0})
    try:
        alice = await Caller.connect(app.port)
        await alice.login("Alice")
        await alice.close()
        mallory = await Caller.connect(app.port)
        await mallory.expect("Handle")
        for fake in ("AIice", "A1ice", "a1Ice"):
            mallory.send(fake + ENTER)
            await mallory.expect("looks too much like Alice")
            assert not user_exists(app, fake)
        mallory.send("B0b" + ENTER)
        await mallory.expect("Register?")
        await mallory.close()
        assert "looks too much like" in await refused(app, "AI1ce")
    finally:
        await app.stop()


async def test_door_mode_sends_the_secret(tmp_path):
    import socket

    from server.net.door32 import parse_door32
    from server.net.door_bridge import run_door

    from .test_bbs_handover import DROP
    app = await start_app(tmp_path / "g.db", rlogin={"enabled": True, "port": 0, "tag": "VRT",
                                                                   "secrets": ["127.0.0.1=door-s3cret"]})
    try:
        cases = ((None, "Bobby", "secret", 2), ("door-s3cret", "Sysop", "reserved", 2),
                 ("door-s3cret", "Bobby", "Who's online", 0))
        for secret, alias, expected, status in cases:
            bbs_side, caller_side = socket.socketpair()
            drop = parse_door32(DROP.format(handle=bbs_side.fileno()).replace("Bobby", alias))
            door_reader, door_writer = await asyncio.open_connection(sock=bbs_side)
            caller_reader, caller_writer = await asyncio.open_connection(sock=caller_side)
            door = asyncio.create_task(run_door(drop, "127.0.0.1", app.rlogin_port, door_reader,
                                                door_writer, tag="VRT", secret=secret))
            screen = Screen(caller_reader)
            await screen.expect(expected)
            if status == 0:
                caller_writer.write(b"gy")                 # goodbye (y confirms): back to the BBS
            # a refused call exits 2, as the sysop guide says; a finished one 0
            assert await asyncio.wait_for(door, 10) == status, (alias, secret)
            door_writer.close()
            caller_writer.close()
    finally:
        await app.stop()


async def test_a_new_bbs_caller_the_disk_cannot_record_is_told_why(tmp_path):
    """Another program holds the database past the retry time: the BBS's
    caller reads why the call ends, and comes in once it lets go."""
    app = await start_app(tmp_path / "g.db", rlogin={"enabled": True, "port": 0, "tag": "VRT"},
                          timing={"store_busy_seconds": 0.05})
    app.store.RETRY_FOR = 0.5          # a lock held longer than this is a failed write
    try:
        other = sqlite3.connect(app.config.store.database, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        try:
            reply = await refused(app, "Zed")
        finally:
            other.execute("COMMIT")
            other.close()
        assert "cannot save a new account now" in reply and "try again later" in reply
        assert not user_exists(app, "[VRT]Zed")
        screen, writer = await rlogin_lobby(app, "Zed")
        await screen.expect("Who's online")
        assert account(app, "[VRT]Zed") is not None
        writer.close()
    finally:
        await app.stop()


async def test_an_alias_in_8_bit_letters_gets_in_as_door_mode_would_take_it(tmp_path):
    """A BBS sends its caller's alias as it keeps it: `Jörg` in CP437 (0x94)
    or in UTF-8. Either gets in, under the same account as door mode's."""
    app = await start_app(tmp_path / "g.db", rlogin={"enabled": True, "port": 0, "tag": "VRT"})
    try:
        for alias in ("Jörg".encode("cp437"), "Jörg".encode()):
            reader, writer = await asyncio.open_connection("127.0.0.1", app.rlogin_port)
            writer.write(b"\0bbs\0" + alias + b"\0ansi-bbs/38400\0")
            assert await reader.readexactly(1) == b"\0"
            screen = Screen(reader)
            text = await screen.expect("Who's online")
            assert "[VRT]Jorg" in text, text
            writer.close()
            await wait_until(lambda: app.find_session("[VRT]Jorg") is None, what="the line closed")
        assert account(app, "[VRT]Jorg") == ("[VRT]Jorg", "bbs")
        with sqlite3.connect(tmp_path / "g.db") as con:              # one caller, one account
            assert con.execute("SELECT COUNT(*) FROM users WHERE kind = 'bbs'").fetchone() == (1,)
    finally:
        await app.stop()


async def test_a_bbs_name_with_a_percent_code_is_its_own_account(tmp_path):
    """A BBS's own RLogin sends its caller's name as it is: `Al%69ce` is a
    caller of that name, not Alice (only door mode quotes names, and says so)."""
    app = await start_app(tmp_path / "g.db", rlogin={"enabled": True, "port": 0, "tag": "VRT"})
    try:
        for alias, shown in (("Alice", "[VRT]Alice · node"), ("Al%69ce", "[VRT]Al_69ce · node")):
            reader, writer = await asyncio.open_connection("127.0.0.1", app.rlogin_port)
            writer.write(build_handshake("mybbs", alias, "ansi-bbs/38400"))
            assert await reader.readexactly(1) == b"\0"
            screen = Screen(reader)
            await screen.expect(shown)
            writer.close()
        with sqlite3.connect(tmp_path / "g.db") as con:
            handles = sorted(h for (h,) in con.execute("SELECT handle FROM users WHERE kind = 'bbs'"))
        assert handles == ["[VRT]Al_69ce", "[VRT]Alice"]
    finally:
        await app.stop()
