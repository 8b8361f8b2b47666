"""The guide's door (docs/NEW-DOOR.md), checked: its rules keep the game
protocol's promises, its keys make moves, its bot plays the winning line,
and a server it is registered with offers it and plays it to the end, seen
only through the caller's screen and the database file."""
from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest

from doors import registry
from doors._core.conformance import check_door
from doors._core.door import Submit
from tests.e2e.harness import Caller, start_app, start_vs_computer, wait_until

from . import INFO
from .ai import make_bot
from .rules import NimState
from .view import NimUI

GUIDE = Path(__file__).resolve().parents[3] / "docs" / "NEW-DOOR.md"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_games_keep_the_protocols_promises(seed):
    state = check_door(INFO, seed)
    assert state.is_terminal() and state.pile == 0


def test_a_digit_takes_that_many_stones_and_anything_else_is_ignored():
    state = NimState({"pile": 2})
    ui = NimUI(0, ("Alice", "Bob"), state.options)
    ui.update(state.observation(0), None, 0.0)
    assert ui.on_key("2", 0.0) == Submit(2)
    assert ui.on_key("x", 0.0) is None
    assert ui.on_key("3", 0.0) is None and "1 to 3" in ui.message


def test_the_strong_bot_always_leaves_a_multiple_of_four():
    bot = make_bot(2, seed=7)
    for pile in (5, 6, 7, 9, 10, 11, 21):
        state = NimState({"pile": pile})
        assert (pile - bot.choose(state.observation(1), 0)) % 4 == 0


def test_every_code_block_of_the_guide_is_in_the_door():
    """The guide shows the door's own code: each block is a piece of one
    of its files, word for word."""
    sources = "\n".join(path.read_text() for path in Path(__file__).parent.glob("*.py"))
    blocks = re.findall(r"```python\n(.*?)```", GUIDE.read_text(), re.S)
    assert len(blocks) >= 4
    for block in blocks:
        assert block.strip() in sources, f"the guide's snippet is not the door's code:\n{block}"


@pytest.fixture
def nim_registered():
    doors = registry()
    doors["nim"] = INFO
    yield INFO
    del doors["nim"]


def finished_games(db: Path) -> list[tuple[str, str, str, str, int]]:
    """(door, players, status, winner) of each game that ended, from the database file."""
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as con:
        rows = con.execute("SELECT door, player0, player1, status, outcome FROM games"
                           " WHERE status != 'active'").fetchall()
    return [(*row[:4], json.loads(row[4])["winner"]) for row in rows]


def stones_left(caller: Caller) -> int:
    found = re.search(r"Stones left: *(\d+)", caller.text())
    assert found is not None, caller.text()
    return int(found.group(1))


async def test_a_server_offers_it_and_a_caller_plays_it_to_the_end(nim_registered, tmp_path):
    db = tmp_path / "gatehouse.db"
    app = await start_app(db)
    try:
        alice = await Caller.connect(app.port)
        await alice.login("Alice")
        await alice.expect("Nim")                         # the lobby's door list
        _game, level = await start_vs_computer(alice, app, "Alice", "Nim")
        assert level == 2                                 # the door's default level
        await alice.expect("Stones left")
        for _ in range(30):                               # 15 stones: at most 15 turns each
            if finished_games(db):
                break
            text = alice.text()
            left = int(re.search(r"Stones left: *(\d+)", text).group(1))
            alice.send("1")
            await wait_until(lambda left=left: finished_games(db) or
                             f"Stones left: {left - 1:2d}" not in alice.text() and
                             f"Stones left: {left:2d}" not in alice.text(),
                             what="a move by each side")

        await alice.close()
    finally:
        await app.stop()
