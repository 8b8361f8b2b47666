"""The browser seat without a browser: a WebSocket client speaks the page's
protocol to the real server and reads its screen through pyte. The browser
caller is a caller like any other (login, lobby, chat, doors, pause,
resize), gets UTF-8 (CP437 art mapped to Unicode), and bad input of any
kind hurts nobody."""
import asyncio
import gzip
import json
import urllib.request

import pytest
from websockets.exceptions import InvalidStatus

from .harness import (
    DOWN,
    ENTER,
    ESC,
    RIGHT,
    Caller,
    active_game,
    charset_of,
    db_rows,
    door_digit,
    game_state,
    game_status,
    start_app,
    steady,
    towers_move,
    wait_until,
)
from .web_harness import WebCaller


@pytest.fixture
async def app(tmp_path):
    app = await start_app(tmp_path / "gatehouse.db", web={"enabled": True, "port": 0})
    yield app
    await app.stop()


def http_get(port: int, path: str, gzip_ok: bool = False,
             etag: str | None = None) -> tuple[int, dict[str, str], bytes]:
    headers = {"Accept-Encoding": "gzip"} if gzip_ok else {}
    if etag:
        headers["If-None-Match"] = etag
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as reply:
            return reply.status, dict(reply.headers), reply.read()
    except urllib.error.HTTPError as err:
        return err.code, dict(err.headers), err.read()


async def test_the_page_and_its_terminal_are_served(app):
    status, headers, body = await asyncio.to_thread(http_get, app.web_port, "/")
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    page = body.decode()
    assert '<script src="vendor/xterm.js">' in page and '<script src="seat.js">' in page
    assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]
    status, headers, body = await asyncio.to_thread(http_get, app.web_port, "/vendor/xterm.js", True)
    assert status == 200 and headers.get("Content-Encoding") == "gzip"
    assert b"Terminal" in gzip.decompress(body)
    status, _, body = await asyncio.to_thread(http_get, app.web_port, "/vendor/xterm.js",
                                              etag=headers["ETag"])
    assert status == 304 and body == b""                   # the browser's copy is current
    status, _, body = await asyncio.to_thread(http_get, app.web_port, "/vendor/LICENSE-xterm")
    assert status == 200 and b"The xterm.js authors" in body
    for path in ("/nope", "/../server/web.py", "/vendor/../seat.js", "/ws"):
        status, _, _ = await asyncio.to_thread(http_get, app.web_port, path)
        assert status == 404, path


async def test_browser_caller_registers_chats_with_telnet_and_plays_towers_to_the_end(app):
    web = await WebCaller.connect_web(app.web_port)
    await web.login("Webby")
    telnet = await Caller.connect(app.port)
    await telnet.login("Tel")
    telnet.send("c")
    await telnet.expect("Say:")
    telnet.send("hello browser" + ENTER)
    await web.expect("Tel: hello browser")
    web.send("c")
    await web.expect("Say:")
    web.send("hi \x1b[2Jtelnet\x07\x00" + ENTER)   # keys: the escape and controls do nothing
    await telnet.expect("Webby: hi telnet ")
    web.send("\x1b")
    await web.expect_gone("Say:")
    await telnet.close()
    web.send("p")
    await web.expect("Choose a door")
    web.send(door_digit("Towers"))
    await web.expect("choose your opponent")
    web.send("1")
    await web.expect("Who places first")
    web.send(RIGHT + DOWN * 3 + ENTER)           # the challenger places first
    await web.expect("Your turn")
    game = active_game(app, "Webby")
    assert game is not None
    game_id = game[0]

    def my_turn_or_over() -> bool:
        return game_status(app, game_id) != "active" or 0 in game_state(app, game_id).to_move()

    while game_status(app, game_id) == "active":
        await wait_until(my_turn_or_over, what="my turn")
        if game_status(app, game_id) == "active":
            await towers_move(web, app, game_id)
    text = await web.expect("GAME OVER")
    (status, outcome), = db_rows(app, "SELECT status, outcome FROM games WHERE id = ?", game_id)
    score = json.loads(outcome)["score"]
    assert f"{score[0]}-{score[1]}" in text
    assert status == "finished"
    await web.close()


async def test_cp437_art_reaches_the_browser_as_the_same_glyphs_in_utf8(app):
    bbs = await Caller.connect(app.port, term="ansi-bbs")     # gets CP437 bytes
    web = await WebCaller.connect_web(app.web_port)           # gets UTF-8 (strictly decoded)
    for caller in (bbs, web):
        await caller.expect("Handle")
        await caller.settle()
    assert bbs.charset == "cp437"
    art = [line for line in web.screen.display[:20] if "█" in line or "▓" in line]
    assert len(art) >= 5
    assert web.screen.display[:20] == bbs.screen.display[:20]
    assert "charset utf8" in web.text()
    # each is welcomed to games the way it came: the browser seat is no telnet
    assert "Welcome to Gatehouse: two-player door games in your browser." in web.line(20)
    assert "Welcome to Gatehouse: two-player door games by telnet." in bbs.line(20)
    # an account made on a CP437 terminal still gets UTF-8 in the browser
    watcher = await Caller.connect(app.port)
    await watcher.login("Watcher")
    await bbs.login("Ansi")
    assert charset_of(app, "Ansi") == "cp437"
    await watcher.expect("Ansi")
    await bbs.close()
    await watcher.expect_gone("Ansi", timeout=30)              # the CP437 call has ended
    await web.login("Ansi", new=False)
    assert "─" in web.text() or "═" in web.text() or "│" in web.text()   # drawn as UTF-8 glyphs
    await watcher.close()
    await web.close()


async def test_resize_and_pause_reach_the_session(app):
    web = await WebCaller.connect_web(app.web_port)
    await web.login("Sizer")
    web.resize(60, 20)
    await web.expect("Your window is 60x20. Gatehouse needs at least 80x24")
    web.resize(80, 24)                                 # what the page sends when it fits
    await web.expect("Who's online")
    await web.settle()                                 # at 80x24 the whole screen, as a repaint draws it
    seen = steady(web.screen.display)     # the clock may turn meanwhile
    before = len(web.received)
    web.send(b"\x0c")
    await wait_until(lambda: len(web.received) > before, what="the repaint")
    await web.settle()
    assert steady(web.screen.display) == seen
    other = await Caller.connect(app.port)
    await other.login("Talker")
    await web.expect("Talker")
    web.send(b"\x13")                                  # CTRL-S: hold the screen
    web.send("c" + "holding" + ENTER + ESC)            # typed after it: seen by Talker, CTRL-S was read
    await other.expect("Sizer: holding")
    other.send("c")
    await other.expect("Say:")
    other.send("while you were paused" + ENTER)
    await other.expect("Talker: while you were paused")
    await web.settle()
    assert "while you were paused" not in web.text()
    web.send(b"\x11")                                  # CTRL-Q: the current screen at once
    await web.expect("Talker: while you were paused")
    await other.close()
    await web.close()


async def test_bad_messages_hurt_nobody_and_oversized_ones_end_only_their_own_call(app):
    web = await WebCaller.connect_web(app.web_port)
    await web.login("Rough")
    bystander = await Caller.connect(app.port)
    await bystander.login("Calm")
    web.send("c" + "z" * 300 + ENTER)                  # a long pasted line: cut to the chat's length
    await web.expect("Rough: zzzz")
    await bystander.expect("Rough: zzzz")
    web.send(ESC)
    await wait_until(lambda: "Say:" not in web.text(), what="the chat line closed")
    for junk in ('{"cols": -5, "rows": 10}', '{"cols": 99999, "rows": 24}', '{"cols": "80"}',
                 "not json", "[1, 2]", '{"cols": 80.5, "rows": 24}', "x" * 5000,
                 b"\x00\x01\x02\x05\x06\x0b\x0e\x13\x1f", bytes(range(128, 256)),
                 b"\x1b[" + b"9" * 3000):
        web.send_raw(junk)
    web.send(b"\x1b\x1b\x11")                          # the junk held a CTRL-S
    bystander.send("c")
    await bystander.expect("Say:")
    bystander.send("after the junk" + ENTER)
    await web.expect("Calm: after the junk")           # Rough's screen goes on (not held, not broken)
    web.send_raw(b"y" * (64 * 1024 + 1))               # over the message limit
    await wait_until(lambda: web.closed, what="the oversized call to end")
    assert web.close_code == 1009                      # "message too big"
    await bystander.expect_gone("Rough" + " " * 10, timeout=30)   # gone from the who list
    # a 12 KiB paste: past the typing rate's burst its keys are dropped; nobody else waits for it
    paste = await WebCaller.connect_web(app.web_port)
    await paste.login("Paster")
    paste.send("c" + "z" * (12 << 10) + ENTER)
    await paste.expect("Say: zzzz")
    bystander.send("while the paste came" + ENTER)
    await bystander.expect("Calm: while the paste came")
    # a 1 MiB paste is more than anyone pastes: told and ended, the others go on
    paste.send("z" * (1 << 20))
    await paste.expect("Too much input. Goodbye.")
    await wait_until(lambda: paste.closed, what="the paster's call to end")
    bystander.send("after the big paste" + ENTER)      # (its chat line is still open)
    await bystander.expect("Calm: after the big paste")
    await paste.close()
    # a flood of messages that are no keys (size reports, read at once) is told and ended
    flood = await WebCaller.connect_web(app.web_port)
    await flood.login("Flood")
    report = json.dumps({"cols": 80, "rows": 24}).ljust(199)
    for _ in range(2000):
        flood.send_raw(report)
    await flood.expect("Too much input. Goodbye.")
    await wait_until(lambda: flood.closed, what="the flooding call to end")
    bystander.send("fine here" + ENTER)
    await bystander.expect("Calm: fine here")
    await web.close()
    await bystander.close()


async def test_per_address_cap_counts_the_caller_behind_a_trusted_proxy(tmp_path):
    app = await start_app(tmp_path / "gatehouse.db",
                          web={"enabled": True, "port": 0, "trusted_proxies": ["127.0.0.1"]},
                          server={"max_per_ip": 2})
    try:
        via_proxy = {"X-Forwarded-For": "198.51.100.7, 203.0.113.9"}
        first = await WebCaller.connect_web(app.web_port, headers=via_proxy)
        second = await WebCaller.connect_web(app.web_port, headers=via_proxy)
        for caller in (first, second):
            await caller.expect("Handle")
        # counted as the address the trusted proxy saw (the last), not one it was told of
        third = await WebCaller.connect_web(app.web_port, headers={"X-Forwarded-For": "203.0.113.9"})
        await third.expect("Too many connections from your address.")
        await wait_until(lambda: third.closed, what="the refused call to end")
        other = await WebCaller.connect_web(app.web_port, headers={"X-Forwarded-For": "203.0.113.10"})
        await other.expect("Handle")
        for caller in (first, second, third, other):
            await caller.close()
    finally:
        await app.stop()
    # a proxy that is not trusted (none is, by default) cannot choose the address it is counted as
    app = await start_app(tmp_path / "gatehouse.db", web={"enabled": True, "port": 0},
                          server={"max_per_ip": 1})
    try:
        direct = await WebCaller.connect_web(app.web_port, headers={"X-Forwarded-For": "192.0.2.1"})
        await direct.expect("Handle")
        # another "address" from the same place is the same address: 127.0.0.1, one call
        other = await WebCaller.connect_web(app.web_port, headers={"X-Forwarded-For": "192.0.2.2"})
        await other.expect("Too many connections from your address.")
        for caller in (direct, other):
            await caller.close()
    finally:
        await app.stop()


async def test_a_server_shutdown_says_goodbye_in_the_browser_too(tmp_path):
    app = await start_app(tmp_path / "gatehouse.db", web={"enabled": True, "port": 0})
    web = await WebCaller.connect_web(app.web_port)
    await web.login("Late")
    await app.stop()
    await web.expect("Gatehouse is shutting down for maintenance")
    await wait_until(lambda: web.closed, what="the call to end")
    await web.close()


async def test_a_page_from_another_site_cannot_open_a_seat_and_the_seats_own_page_can(tmp_path):
    app = await start_app(tmp_path / "gatehouse.db", web={"enabled": True, "port": 0})
    own = f"http://127.0.0.1:{app.web_port}"
    try:
        for origin in ("https://evil.example", "null", f"http://127.0.0.1:{app.web_port + 1}"):
            with pytest.raises(InvalidStatus) as refused:
                await WebCaller.connect_web(app.web_port, headers={"Origin": origin})
            assert refused.value.response.status_code == 403
        web = await WebCaller.connect_web(app.web_port, headers={"Origin": own})
        await web.expect("Handle")
        await web.close()
    finally:
        await app.stop()
    # the sysop lists the pages (the seat behind a proxy with its own name): only those
    app = await start_app(tmp_path / "gatehouse.db",
                          web={"enabled": True, "port": 0, "origins": ["https://bbs.example.org"]})
    try:
        listed = await WebCaller.connect_web(app.web_port, headers={"Origin": "https://bbs.example.org"})
        await listed.expect("Handle")
        await listed.close()
        for origin in ("https://evil.example", f"http://127.0.0.1:{app.web_port}"):
            with pytest.raises(InvalidStatus):
                await WebCaller.connect_web(app.web_port, headers={"Origin": origin})
    finally:
        await app.stop()
