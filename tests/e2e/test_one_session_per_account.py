"""One account, one node: callers racing to log in as one account get one
session."""
import asyncio

from .harness import ENTER, Caller, wait_until

TAKEN = "Zed is already logged in on another node."


async def typed_password(caller: Caller, handle: str, password: str = "secret1") -> None:
    """Up to the password prompt (the password itself is sent by the test)."""
    await caller.expect("Handle")
    caller.send(handle + ENTER)
    await caller.expect("Password:")


async def test_callers_racing_for_one_account_get_one_session(app):
    first = await Caller.connect(app.port)
    await first.login("Zed")
    await first.close()
    await wait_until(lambda: app.find_session("Zed") is None, what="Zed gone")
    callers = [await Caller.connect(app.port) for _ in range(4)]
    await asyncio.gather(*(typed_password(c, "Zed") for c in callers))
    for caller in callers:              # all at once: the checks run side by side
        caller.send("secret1" + ENTER)

    def arrived(caller: Caller) -> bool:
        return "Who's online" in caller.text() or TAKEN in caller.text()

    await wait_until(lambda: all(arrived(c) for c in callers), what="every caller answered")
    inside = [c for c in callers if "Who's online" in c.text()]
    assert len(inside) == 1
    for caller in callers:
        if caller is not inside[0]:
            assert TAKEN in caller.text() and "Handle" in caller.text()
    who = [line for line in inside[0].text().splitlines() if "Zed" in line and "lobby" in line]
    assert len(who) == 1
    for caller in callers:
        await caller.close()

