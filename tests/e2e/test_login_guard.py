"""Password guessing is slowed and seen: back-off per account and per
address (growing, capped, never a permanent lock), every failed login
logged with the address and the handle, and a count on the sysop console."""
import logging
import re
import time

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


def test_the_account_wait_does_not_bind_where_it_logged_in_before():
    """Guessing once a minute from ever new addresses would keep an account
    waiting for good: at an address it has logged in from, it does not."""
    clock = Clock()
    guard = LoginGuard(clock)
    guard.succeeded("10.0.0.1", "Alice")                      # home
    guard.succeeded("2001:db8:1:2::10", "Alice")              # the phone
    for n in range(20):                                        # one guess a minute, a new address each
        clock.now += 60
        guard.failed(f"198.51.100.{n}", "alice")
    assert guard.wait_for("203.0.113.9", "Alice") == LoginGuard.ACCOUNT_CAP   # a stranger waits
    assert guard.wait_for("10.0.0.1", "Alice") == 0           # at home: at once
    assert guard.wait_for("2001:db8:1:2:aaaa::77", "Alice") == 0    # the phone's /64, a new address in it
    assert guard.wait_for("2001:db8:1:3::10", "Alice") > 0    # another /64 is a stranger
    guard.failed("10.0.0.1", "Alice")                          # home guesses wrong: its own back-off
    assert guard.wait_for("10.0.0.1", "Alice") == LoginGuard.BASE
    for n in range(LoginGuard.KNOWN_PER_ACCOUNT):              # the newest addresses are kept
        guard.succeeded(f"192.0.2.{n}", "Alice")
    guard.failed("192.0.2.200", "Alice")
    assert guard.wait_for("192.0.2.0", "Alice") == 0
    assert guard.wait_for("2001:db8:1:2::10", "Alice") > 0    # pushed out by eight newer ones


def test_an_ipv6_caller_counts_as_its_64():
    clock = Clock()
    guard = LoginGuard(clock)
    for n in range(6):
        guard.failed(f"2001:db8:5:6::{n + 1:x}", f"user{n}")
    assert guard.wait_for("2001:db8:5:6:ffff::1", "Zed") == 32  # six failures from one /64
    assert guard.wait_for("::ffff:192.0.2.7", "Zed") == 0
    guard.failed("::ffff:192.0.2.7", "Zed")
    assert guard.wait_for("192.0.2.7", "Yan") == 1              # a mapped IPv4 is the IPv4


async def fail(caller: Caller, handle: str, password: str = "wrong-one") -> None:
    await caller.expect("Handle")
    caller.send(handle + ENTER)
    await caller.expect("Password:")
    caller.send(password + ENTER)


async def try_password(caller: Caller, handle: str, password: str, until: str, timeout: float = 30.0) -> str:
    """Type ``handle`` and ``password`` again and again (each time the
    screen has settled on "try again in N s") until ``until`` shows: what
    a caller does who waits out the back-off. Returns the first refusal
    seen, if any ("" if none)."""
    refusal = ""
    deadline = time.monotonic() + timeout
    while True:
        caller.send(handle + ENTER)
        await caller.expect("Password:")
        caller.send(password + ENTER)
        await caller.expect_gone("Password:")
        await caller.settle()
        text = caller.text()
        if until in text:
            return refusal
        found = re.search(r"Too many failed logins: try again in \d+ s\.", text)
        assert found is not None, text
        refusal = refusal or found.group(0)
        assert time.monotonic() < deadline, f"{until!r} never came; screen:\n{text}"


async def test_reconnecting_does_not_reset_the_backoff(tmp_path, caplog):
    caplog.set_level(logging.WARNING, logger="gatehouse.login")
    # a base of 3 s (production's is 1; the harness makes it 0.01): long
    # enough that a loaded machine reconnects well within it
    app = await start_app(tmp_path / "g.db", sysop={"socket": str(tmp_path / "sysop.sock")},
                          timing={"login_fail_delay": 3.0})
    try:
        alice = await Caller.connect(app.port)
        await alice.login("Alice", "right-pw")
        await alice.log_off()
        mallory = await Caller.connect(app.port)
        await fail(mallory, "alice")
        await wait_until(lambda: any("failed login" in r.getMessage() for r in caplog.records),
                         what="the guess logged")
        await mallory.close()               # hangs up while the screen makes it wait, and calls again
        # a new connection gets no fresh guesses: even the right password waits
        again = await Caller.connect(app.port)
        await fail(again, "Alice", "right-pw")
        text = await again.expect(r"Too many failed logins: try again in [123] s\.", regex=True)
        assert "Password:" not in text
        # once the wait has passed the password is checked again; a wrong one doubles the
        # wait, so the right one is still refused after the screen's own pause (one base)
        await try_password(again, "Alice", "wrong-two", "Wrong password.")
        assert await try_password(again, "Alice", "right-pw", "Who's online", timeout=60)
        await again.close()                                   # the real user got in
        failures = [r.getMessage() for r in caplog.records if "failed login" in r.getMessage()]
        assert len(failures) == 2
        assert all("'Alice'" in m and "127.0.0.1" in m for m in failures)
        config = tmp_path / "gatehouse.toml"
        config.write_text(f'[sysop]\nsocket = "{app.config.sysop.socket}"\n')
        console = Console(config)
        try:
            await console.expect("Failed logins: 2 (2 in the last hour)")
        finally:
            await console.close()
    finally:
        await app.stop()


async def test_guessing_from_ever_new_addresses_does_not_lock_the_user_out_at_home(tmp_path):
    """Wrong guesses, each from a new address, keep the account's wait
    growing; the real user, calling from where they logged in before, gets
    in at once, while the right password from a stranger's address waits."""
    app = await start_app(tmp_path / "g.db", timing={"login_fail_delay": 1.0})
    try:
        home = await Caller.connect(app.port, source="127.0.0.1")
        await home.login("Hank", "right-pw")
        await home.log_off()
        for n in range(2, 6):        # each guess waits out the account's wait (1, 2, 4 s)
            mallory = await Caller.connect(app.port, source=f"127.0.0.{n}")
            await mallory.expect("Handle")
            await try_password(mallory, "hank", "wrong-one", "Wrong password.")
            await mallory.close()
        stranger = await Caller.connect(app.port, source="127.0.0.9")
        await fail(stranger, "Hank", "right-pw")
        text = await stranger.expect("Too many failed logins: try again in")
        found = re.search(r"try again in (\d+) s\.", text)
        assert found is not None, text
        # four failures: 8 s (three would make it 4), less the last guess's own pause (1 s)
        # and the time the stranger took to call
        assert 4 < int(found.group(1)) <= 8, text
        await stranger.close()
        again = await Caller.connect(app.port, source="127.0.0.1")
        await again.login("Hank", "right-pw", new=False)     # the lobby, at once
        assert "try again" not in again.text()
        await again.close()
    finally:
        await app.stop()


async def test_the_title_screen_is_not_a_place_to_stay(tmp_path):
    """A connection that never logs in is let go (it holds a node and one of
    its address's connections): [limits] title_seconds, 60 by default."""
    from server.config import Config
    assert Config().limits.title_seconds == 60
    app = await start_app(tmp_path / "g.db", limits={"title_seconds": 3.0})
    try:
        idle = await Caller.connect(app.port)
        await idle.expect("Handle")
        idle.send("Slo")
        await idle.expect("Still there? The line is freed in 2 s unless you type.")   # warned first
        idle.send("w")                                       # a key starts the time again
        await wait_until(lambda: "Still there?" not in idle.text(), what="the warning gone")
        await idle.expect("Still there?")
        await idle.expect("You took too long to log in. Goodbye.")
        await wait_until(lambda: idle.closed, what="the line hung up (the node freed)")
        await idle.close()
    finally:
        await app.stop()


async def test_a_restart_keeps_where_a_caller_logged_in_from(tmp_path, caplog):
    """Known addresses are in the database: after a restart a stranger's
    wrong guess makes the account wait, but not its owner at home."""
    db = tmp_path / "g.db"
    app = await start_app(db)
    try:
        home = await Caller.connect(app.port, source="127.0.0.2")
        await home.login("Hank", "right-pw")
        await home.log_off()
    finally:
        await app.stop()
    app = await start_app(db, timing={"login_fail_delay": 60.0})      # as long as production's cap
    try:
        caplog.set_level(logging.WARNING, logger="gatehouse.login")
        stranger = await Caller.connect(app.port, source="127.0.0.9")
        await fail(stranger, "Hank")                                # (then waits out the delay)
        await wait_until(lambda: any("failed login for 'Hank' from 127.0.0.9" in r.getMessage()
                                     for r in caplog.records), what="the guess logged")
        elsewhere = await Caller.connect(app.port, source="127.0.0.3")
        await fail(elsewhere, "Hank", "right-pw")
        await elsewhere.expect("Too many failed logins")           # a new address waits
        await elsewhere.close()
        home = await Caller.connect(app.port, source="127.0.0.2")
        await home.login("Hank", "right-pw", new=False)            # home gets in at once
        await home.close()
        await stranger.close()
    finally:
        await app.stop()
