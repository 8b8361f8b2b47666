"""What makes Gatehouse part of a BBS's community (issue 58), as callers and
the sysop see it: the lobby chat's memory. Only screens, the database and
the log are read."""
from __future__ import annotations

import logging

import pytest

from tests.server.sysop_harness import Console

from .harness import ENTER, Caller, start_app


@pytest.fixture
async def board(tmp_path):
    """(app, the sysop console's settings file)."""
    app = await start_app(tmp_path / "gatehouse.db", sysop_socket=str(tmp_path / "sysop.sock"),
                          chat_lines_per_10s=1000)
    config = tmp_path / "gatehouse.toml"
    config.write_text(f'[sysop]\nsocket = "{tmp_path / "sysop.sock"}"\n')
    yield app, config
    await app.stop()


async def test_a_caller_who_arrives_sees_the_last_lobby_lines_until_the_sysop_clears_them(board, caplog):
    app, config = board
    caplog.set_level(logging.INFO, logger="gatehouse")
    alice = await Caller.connect(app.port)
    await alice.login("Alice")
    alice.send("c")
    await alice.expect("Say:")
    for n in range(1, 26):                     # more than the 20 kept
        alice.send(f"line {n:02d}" + ENTER)
        await alice.expect(f"Alice: line {n:02d}")
    bob = await Caller.connect(app.port)
    await bob.login("Bob")
    text = await bob.expect("Alice: line 25")
    assert "Alice: line 19" in text             # the pane's last lines
    console = Console(config)
    try:
        await console.expect("Sysop console")
        console.send("e")
        await console.expect("Lobby chat cleared")
        await bob.expect_gone("Alice: line 25")      # an open lobby's pane is cleared too
        carol = await Caller.connect(app.port)
        await carol.login("Carol")
        alice.send("after the clear" + ENTER)
        text = await carol.expect("Alice: after the clear")
        assert "line 25" not in text
        assert any("lobby chat cleared by Sysop" in r.getMessage() for r in caplog.records)
        await carol.close()
    finally:
        await console.close()
    await alice.close()
    await bob.close()
