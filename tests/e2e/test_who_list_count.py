"""The who-list names the first eight callers and counts the rest: a caller
beyond them changes only the count, and a lobby that redraws that line
alone shows what a caller who has just logged on sees."""
import pytest

from .harness import Caller, start_app, wait_until


@pytest.fixture
async def app(tmp_path):
    app = await start_app(tmp_path / "gatehouse.db", server={"max_per_ip": 20})
    yield app
    await app.stop()


async def test_the_count_of_callers_beyond_the_first_eight_follows_logins_and_logoffs(app):
    callers = []
    for i in range(9):
        caller = await Caller.connect(app.port)
        await caller.login(f"Caller{i}")
        callers.append(caller)
    first = callers[0]
    await first.expect("and 1 more", timeout=30)
    named = first.screen.display[3:11]
    late = await Caller.connect(app.port)
    await late.login("Latecomer")
    await late.expect("and 2 more", timeout=30)
    await first.expect("and 2 more", timeout=30)
    assert first.screen.display[3:11] == named                 # the eight named did not change
    assert "Latecomer" not in first.text()
    await wait_until(lambda: first.screen.display[1:12] == late.screen.display[1:12],
                     what="the first caller's who-list as the latecomer's")
    await callers[8].close()
    await first.expect("and 1 more", timeout=30)
    await late.expect("and 1 more", timeout=30)
    assert first.line(11).startswith("└") and first.line(11).rstrip().endswith("┘")
    for caller in [*callers[:8], late]:
        await caller.close()
