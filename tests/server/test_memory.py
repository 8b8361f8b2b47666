"""Sessions that end leave nothing behind: after many callers drop at random
points (mid-negotiation, at the title screen, in the lobby, mid-game; by
telnet and by RLogin), no Session or telnet protocol object stays reachable."""
import asyncio
import gc
import random

from server.net.rlogin import build_handshake
from server.net.telnet import _Protocol
from server.screens.session import Session
from tests.e2e.harness import Caller, start_app, start_vs_computer, wait_until


def live(kind) -> int:
    gc.collect()
    return sum(1 for o in gc.get_objects() if isinstance(o, kind))


async def one_caller(app, n: int, rng: random.Random) -> None:
    caller = await Caller.connect(app.port)
    try:
        stage = rng.randrange(4)
        if stage == 0:
            return                          # drop as soon as connected
        await caller.expect("Handle")
        if stage == 1:
            caller.send("Some")             # half a handle typed
            return
        handle = f"Mem{n}"
        await caller.login(handle)
        if stage == 2:
            return
        await start_vs_computer(caller, app, handle, "Towers")
    finally:
        await caller.close()


async def bbs_caller(app, n: int, rng: random.Random) -> None:
    """A caller handed over by RLogin, dropped before or after the lobby."""
    reader, writer = await asyncio.open_connection("127.0.0.1", app.rlogin_port)
    try:
        writer.write(build_handshake("bbs", f"Bbs{n}", "ansi-bbs/38400"))
        assert await reader.readexactly(1) == b"\0"
        if rng.random() < 0.5:
            seen = b""
            while b"Who's online" not in seen:
                data = await reader.read(65536)
                assert data, "closed before the lobby"
                seen = seen[-100:] + data
    finally:
        writer.close()


async def test_dropped_sessions_are_freed(tmp_path):
    app = await start_app(tmp_path / "g.db", server={"max_per_ip": 50}, rlogin={"enabled": True, "port": 0})
    try:
        await churn(app)
    finally:
        await app.stop()


async def churn(app) -> None:
    rng = random.Random(13)
    assert live(Session) == 0
    for batch in range(4):
        await asyncio.gather(*(one_caller(app, batch * 10 + i, rng) for i in range(10)),
                             *(bbs_caller(app, batch * 5 + i, rng) for i in range(5)))
    await wait_until(lambda: not app.sessions, what="every node freed")
    # games against the computer are left running (suspended), but hold no session
    await wait_until(lambda: live(Session) == 0, timeout=10, what="no live Session objects")
    await wait_until(lambda: live(_Protocol) == 0, timeout=10, what="no live telnet protocols")
