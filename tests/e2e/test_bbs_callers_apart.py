"""Callers handed over by one BBS share its network address, and are still
callers apart: each has their own chat budget, and the sysop's "ban with
address" on one of them bans that account, not the BBS's address (which
would shut out every caller of that BBS and anyone else there)."""
import asyncio

from server.net.rlogin import build_handshake
from tests.server.sysop_harness import Console

from .harness import DOWN, ENTER, Caller, start_app, wait_until
from .test_bbs_handover import Screen


async def bbs_caller(app, name: str) -> tuple[Screen, asyncio.StreamWriter]:
    reader, writer = await asyncio.open_connection("127.0.0.1", app.rlogin_port)
    writer.write(build_handshake("vertrauen", name, "ansi-bbs/38400"))
    assert await reader.readexactly(1) == b"\0"
    screen = Screen(reader)
    await screen.expect("Who's online")
    return screen, writer


async def test_each_caller_of_one_bbs_has_their_own_chat_and_ban(tmp_path):
    app = await start_app(tmp_path / "gatehouse.db", rlogin={"enabled": True, "port": 0, "tag": "VRT"})
    writers = []
    try:
        screens = {}
        for name in ("Alice", "Carol", "Dan"):
            screens[name], writer = await bbs_caller(app, name)
            writers.append(writer)
        lines = app.config.limits.chat_lines_per_10s
        for name, writer in zip(("Alice", "Carol"), writers, strict=False):
            writer.write(b"c")
            await screens[name].expect("Say:")
            for n in range(lines):             # each their own full budget
                writer.write(f"{name} {n}\r".encode())
                await screens[name].expect(f"[VRT]{name}: {name} {n}")
        writers[2].write(b"c")
        await screens["Dan"].expect("Say:")
        writers[2].write(b"hello from Dan\r")
        await screens["Dan"].expect("[VRT]Dan: hello from Dan")
        assert "too much chat from your address" not in await screens["Alice"].expect("[VRT]Dan: hello")

        config = tmp_path / "gatehouse.toml"
        config.write_text(f'[sysop]\nsocket = "{app.config.sysop.socket}"\n')
        console = Console(config)
        try:
            await console.expect("Sysop console")
            console.send("A")
            text = await console.expect("Accounts (")
            rows = [line.split()[0] for line in text.splitlines()[3:] if line.strip()]
            console.send(DOWN * rows.index("[VRT]Alice") + "B" + ENTER)
            await console.expect("[VRT]Alice is banned.")
            await console.expect("Their BBS's address was not banned")
        finally:
            await console.close()
        await wait_until(lambda: app.find_session("[VRT]Alice") is None, what="Alice sent off")
        assert app.find_session("[VRT]Carol") is not None
        _screen, writer = await bbs_caller(app, "Erin")     # another caller of that BBS
        writers.append(writer)
        bobby = await Caller.connect(app.port)              # and a telnet caller from there
        await bobby.login("Bobby")
        await bobby.close()
    finally:
        for writer in writers:
            writer.close()
        await app.stop()
