"""Password guessing is slowed and seen: back-off per account and per
address (growing, capped, never a permanent lock), every failed login
logged with the address and the handle, and a count on the sysop console."""
import logging

from server.services.login_guard import LoginGuard
from tests.server.sysop_harness import Console

from .harness import ENTER, Caller, start_app, wait_until


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def test_backoff_doubles_is_capped_and_clears_on_success():
    clock = Clock()
    guard = LoginGuard(clock)
    assert guard.wait_for("10.0.0.1", "Alice") == 0
    waits = []
    for _ in range(10):
        guard.failed("10.0.0.1", "Alice")
        waits.append(guard.wait_for("10.0.0.2", "alice"))     # the account, from elsewhere
    assert waits[:4] == [1, 2, 4, 8]
    assert max(waits) == LoginGuard.ACCOUNT_CAP               # the real user waits a minute at most
    assert guard.wait_for("10.0.0.1", "Bob") == 512           # the guessing address: any account
    clock.now += LoginGuard.ACCOUNT_CAP
    assert guard.wait_for("10.0.0.2", "Alice") == 0           # not a permanent lock
    guard.failed("10.0.0.2", "Alice")
    guard.succeeded("10.0.0.2", "Alice")
    assert guard.wait_for("10.0.0.3", "Alice") == 0
    clock.now += LoginGuard.FORGET
    assert guard.wait_for("10.0.0.1", "Bob") == 0             # forgotten in time
    assert guard.failures_total == 11


async def fail(caller: Caller, handle: str, password: str = "wrong-one") -> None:
    await caller.expect("Handle")
    caller.send(handle + ENTER)
    await caller.expect("Password:")
    caller.send(password + ENTER)


async def test_reconnecting_does_not_reset_the_backoff(tmp_path, caplog):
    caplog.set_level(logging.WARNING, logger="gatehouse.login")
    app = await start_app(tmp_path / "g.db", sysop_socket=str(tmp_path / "sysop.sock"))
    clock = Clock()
    app.login_guard.clock = clock
    app.login_guard.BASE = 1.0       # as in production (the harness makes it 0.01)
    try:
        alice = await Caller.connect(app.port)
        await alice.login("Alice", "right-pw")
        await alice.close()
        await wait_until(lambda: app.find_session("Alice") is None, what="Alice gone")
        mallory = await Caller.connect(app.port)
        await fail(mallory, "alice")
        await mallory.expect("Wrong password.")
        await mallory.close()
        # a new connection gets no fresh guesses: even the right password waits
        again = await Caller.connect(app.port)
        await fail(again, "Alice", "right-pw")
        await again.expect("Too many failed logins: try again in 1 s.")
        clock.now += 1
        again.send("Alice" + ENTER)
        await again.expect("Password:")
        again.send("wrong-two" + ENTER)
        await again.expect("Wrong password.")
        again.send("Alice" + ENTER)
        await again.expect("Password:")
        again.send("right-pw" + ENTER)
        await again.expect("try again in 2 s.")
        clock.now += 2
        again.send("Alice" + ENTER)
        await again.expect("Password:")
        again.send("right-pw" + ENTER)
        await again.expect("Who's online")                   # the real user gets in
        await again.close()
        failures = [r.getMessage() for r in caplog.records if "failed login" in r.getMessage()]
        assert len(failures) == 2
        assert all("'Alice'" in m and "127.0.0.1" in m for m in failures)
        config = tmp_path / "gatehouse.toml"
        config.write_text(f'[sysop]\nsocket = "{app.config.sysop_socket}"\n')
        console = Console(config)
        try:
            await console.expect("Failed logins: 2 (2 in the last hour)")
        finally:
            await console.close()
    finally:
        await app.stop()


async def test_the_title_screen_is_not_a_place_to_stay(tmp_path):
    """A connection that never logs in is let go (it holds a node and one of
    its address's connections): [limits] title_seconds, 60 by default."""
    from server.config import Config
    assert Config().title_seconds == 60
    app = await start_app(tmp_path / "g.db", title_seconds=1.0)
    try:
        idle = await Caller.connect(app.port)
        await idle.expect("Handle")
        idle.send("Slo")                                     # typing does not extend it
        await idle.expect("You took too long to log in. Goodbye.")
        await wait_until(lambda: idle.closed, what="the line hung up")
        await wait_until(lambda: not app.sessions, what="the node freed")
        await idle.close()
    finally:
        await app.stop()
