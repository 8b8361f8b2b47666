"""Sessions that end leave nothing behind: after many callers drop at random
points (mid-negotiation, at the title screen, in the lobby, mid-game), no
Session, Terminal or telnet protocol object stays reachable."""
import asyncio
import gc
import random

from server.session import Session
from server.telnet import _Protocol

from .harness import Caller, challenge_computer, start_app, wait_until


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
        await challenge_computer(caller, app, handle, "Towers")
    finally:
        await caller.close()


async def test_dropped_sessions_are_freed(tmp_path):
    app = await start_app(tmp_path / "g.db", max_per_ip=50)
    try:
        await churn(app)
    finally:
        await app.stop()


async def churn(app) -> None:
    rng = random.Random(13)
    assert live(Session) == 0
    for batch in range(4):
        await asyncio.gather(*(one_caller(app, batch * 10 + i, rng) for i in range(10)))
    await wait_until(lambda: not app.sessions, what="every node freed")
    # games against the computer are left running (suspended), but hold no session
    await wait_until(lambda: live(Session) == 0, timeout=10, what="no live Session objects")
    await wait_until(lambda: live(_Protocol) == 0, timeout=10, what="no live telnet protocols")
