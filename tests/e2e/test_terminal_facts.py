"""Terminal facts: charset by terminal type, window size, idle timer,
connection caps, settings remembered per user."""
import struct

from .harness import ENTER, Caller, session_of, start_app, wait_until


async def test_bbs_terminals_get_cp437_bytes_and_others_utf8(app):
    bbs = await Caller.connect(app.port, term="syncterm")
    xterm = await Caller.connect(app.port, term="xterm-256color")
    for caller in (bbs, xterm):
        await caller.login("Cp" + caller.charset)
        await caller.expect("╔═ Lobby chat")
    assert bytes([0xC9, 0xCD]) in bbs.received            # ╔═ in CP437
    assert "╔═".encode() not in bbs.received
    assert "╔═".encode() in xterm.received
    assert "╔═ Lobby chat" in bbs.text() and "╔═ Lobby chat" in xterm.text()
    await bbs.close()
    await xterm.close()


async def test_charset_switch_in_settings_is_remembered_for_the_next_call(app):
    caller = await Caller.connect(app.port, term="xterm")
    await caller.login("Dora")
    caller.send("s")
    await caller.expect("Character set")
    caller.send("1")
    await caller.expect("Character set: cp437. Saved")
    await caller.close()
    again = await Caller.connect(app.port, term="xterm")
    again.charset = "cp437"        # this caller reads CP437 from now on
    await again.expect("Handle")
    again.send("Dora" + ENTER)
    await again.expect("Password:")
    again.send("secret1" + ENTER)
    await again.expect("Who's online")
    assert session_of(app, "Dora").charset == "cp437"
    await again.close()


async def test_a_small_window_gets_a_clear_message_and_a_resize_brings_the_screen(app):
    caller = await Caller.connect(app.port, cols=60, rows=20)
    caller.screen.resize(20, 60)
    await caller.expect("Your window is 60x20. Gatehouse needs at least 80x24")
    # the caller's window grows: the client sends a new NAWS report
    caller.writer.send_iac(b"\xff\xfa\x1f" + struct.pack(">HH", 80, 24) + b"\xff\xf0")
    caller.screen.resize(24, 80)
    await caller.expect("Handle")
    await caller.close()


async def test_idle_callers_are_warned_then_logged_off(tmp_path):
    app = await start_app(tmp_path / "g.db", server={"idle_minutes": 1.05})     # 63 s: warned at 3 s
    try:
        caller = await Caller.connect(app.port)
        await caller.login("Idler")
        session = session_of(app, "Idler")
        session.last_key -= 62.0                   # as if idle for a minute
        session.send(__import__("server.services.events", fromlist=["Tick"]).Tick())
        await caller.expect("You will be logged off in 60 s for idling", timeout=5)
        session.last_key -= 10.0
        await caller.expect("You were idle too long", timeout=12)
        await wait_until(lambda: app.find_session("Idler") is None, what="the session gone")
        assert app.find_session("Idler") is None
    finally:
        await app.stop()


async def test_connections_per_address_are_capped(tmp_path):
    app = await start_app(tmp_path / "g.db", server={"max_per_ip": 2})
    try:
        first = await Caller.connect(app.port)
        second = await Caller.connect(app.port)
        await first.expect("Handle")
        await second.expect("Handle")
        third = await Caller.connect(app.port)
        await third.expect("Too many connections from your address.")
        for caller in (first, second, third):
            await caller.close()
    finally:
        await app.stop()
