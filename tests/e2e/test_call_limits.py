"""[server] telnet_timeout_minutes is a cap on a telnet call's length, not
an idle rule: a caller who keeps typing is warned a minute before and then
told goodbye. (A minute is shortened here: [timing] minute_seconds.)"""
import time

from .harness import Caller, start_app, wait_until


async def test_a_telnet_call_ends_at_the_cap_with_a_warning_and_a_goodbye(tmp_path):
    app = await start_app(tmp_path / "g.db", server={"telnet_timeout_minutes": 3},
                          timing={"minute_seconds": 3.0})          # a 9 s call
    try:
        caller = await Caller.connect(app.port)
        started = time.monotonic()
        await caller.login("Busy")
        while "This call ends in 1 minute" not in caller.text():
            assert time.monotonic() - started < 30, caller.text()
            caller.send("\x0c")                    # keys keep coming: no idle logoff here
            await caller.settle()
        assert time.monotonic() - started >= 5.5    # the warning came a minute (3 s) before the end
        text = await caller.expect("This call has reached the sysop's limit of 3 minutes. Goodbye.",
                                   timeout=30)
        assert "Goodbye" in text
        await wait_until(lambda: caller.closed, what="the line hung up")
        await caller.close()
    finally:
        await app.stop()
