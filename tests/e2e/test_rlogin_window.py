"""A caller's own RLogin client (RFC 1282: SyncTERM, PuTTY, BSD rlogin) is
asked for its window size by the urgent byte 0x80 after the handshake; the
size it answers in band is the one the screens are drawn for. A client
that never answers keeps 80x24."""
import asyncio
import select
import socket

from server.net.rlogin import WindowSize, build_handshake, window_message

from .harness import start_app
from .test_bbs_handover import Screen


def asked_for_the_window(port: int, handshake: bytes) -> socket.socket:
    """Connect, shake hands, and wait for the server's urgent request."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    sock.sendall(handshake)
    assert sock.recv(1) == b"\0"
    _r, _w, urgent = select.select([], [], [sock], 30)
    assert urgent, "the server never asked for the window size"
    assert sock.recv(1, socket.MSG_OOB) == b"\x80"
    return sock


async def test_an_rlogin_client_is_asked_its_window_size_and_its_answer_is_used(tmp_path):
    app = await start_app(tmp_path / "g.db", rlogin={"enabled": True, "port": 0, "tag": "VRT"})
    try:
        sock = await asyncio.to_thread(asked_for_the_window, app.rlogin_port,
                                       build_handshake("syncterm", "Bobby", "ansi-bbs/38400"))
        sock.sendall(window_message(WindowSize(rows=20, cols=60, xpixels=0, ypixels=0)))
        sock.setblocking(False)
        reader, writer = await asyncio.open_connection(sock=sock)
        screen = Screen(reader)
        await screen.expect("Your window is 60x20. Gatehouse needs at least 80x24")
        writer.write(window_message(WindowSize(rows=25, cols=80, xpixels=0, ypixels=0)))
        text = await screen.expect("Who's online")
        assert "[VRT]Bobby" in text
        writer.close()
    finally:
        await app.stop()


async def test_an_rlogin_client_that_never_answers_is_drawn_for_80x24(tmp_path):
    app = await start_app(tmp_path / "g.db", rlogin={"enabled": True, "port": 0, "tag": "VRT"})
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", app.rlogin_port)
        writer.write(build_handshake("bbs", "Carla", "ansi-bbs/38400"))
        assert await reader.readexactly(1) == b"\0"
        screen = Screen(reader)
        text = await screen.expect("Who's online")
        assert "[VRT]Carla" in text and "\x80" not in text and "Ç" not in text
        writer.close()
    finally:
        await app.stop()
