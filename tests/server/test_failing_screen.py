"""A screen that raises is reported to its caller and the session goes on.
(The bug is planted in the server's own screen object, so this is not an
end-to-end test: those only use the wire.)"""
from __future__ import annotations

import pytest

from tests.e2e.harness import ENTER, start_app
from tests.e2e.test_two_callers import two_in_lobby
from tests.server.inside import session_of


@pytest.fixture
async def app(tmp_path):
    app = await start_app(tmp_path / "gatehouse.db")
    yield app
    await app.stop()


async def test_a_failing_screen_is_reported_and_the_session_goes_on(app):
    alice, bob = await two_in_lobby(app)
    lobby = session_of(app, "Alice").screens[-1]

    async def broken(key):
        raise RuntimeError("a bug in a screen")
    lobby.on_key = broken
    alice.send("x")
    await alice.expect("Sorry, that went wrong")
    del lobby.on_key                       # the bug is fixed: the same session carries on
    alice.send("c")
    await alice.expect("Say:")
    alice.send("after the bug" + ENTER)
    await bob.expect("Alice: after the bug")
    await alice.close()
    await bob.close()
