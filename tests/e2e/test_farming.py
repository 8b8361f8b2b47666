"""Farming a rating does not work: two accounts from one address, the
second accepting the first's challenge and resigning at once, again and
again. The winner's rating stays as it was and the game-over screen says
why the game was not rated."""
import re
import sqlite3

from .harness import DOWN, ENTER, ESC, RIGHT, Caller, door_digit


async def challenge(challenger: Caller, target: Caller, name: str, target_name: str) -> None:
    challenger.send("p")
    await challenger.expect("Choose a door")
    challenger.send(door_digit("Towers"))
    await challenger.expect(f". {target_name}")
    number = int(re.search(rf"(\d+)\. {target_name}", challenger.text()).group(1))
    challenger.send(DOWN * (number - 1) + ENTER)
    await challenger.expect("Who places first")
    challenger.send(RIGHT)              # the challenger places first
    challenger.send(DOWN * 2 + ENTER)
    await target.expect(f"{name} challenges you to Towers")
    target.send("y")
    await challenger.expect("Your turn")


def rating_of(db, key: str, door: str = "towers") -> float | None:
    con = sqlite3.connect(db)
    row = con.execute("SELECT rating FROM ratings WHERE player=? AND door=?", (key, door)).fetchone()
    con.close()
    return None if row is None else float(row[0])


async def test_an_instant_resignation_from_a_second_account_rates_nothing(app, tmp_path):
    db = tmp_path / "gatehouse.db"
    alice = await Caller.connect(app.port)
    await alice.login("Alice")
    bob = await Caller.connect(app.port)            # the same address: 127.0.0.1
    await bob.login("Bob")
    await alice.expect("Bob")
    for _game in range(3):
        await challenge(alice, bob, "Alice", "Bob")
        bob.send("Q")
        await bob.expect("Resign this game?")
        bob.send("y")
        text = await alice.expect("Not rated:")
        flat = " ".join(text.split())
        assert "Bob resigned" in flat and "Not rated: a side made fewer than 2 moves" in flat
        await bob.expect("Not rated:")
        assert rating_of(db, "alice") is None and rating_of(db, "bob") is None
        alice.send(ESC)
        bob.send(ESC)
        await alice.expect("Who's online")
        await bob.expect("Who's online")
        alice.send("z")                 # any key clears the last game's result line
        bob.send("z")
    con = sqlite3.connect(db)
    rows = con.execute("SELECT rated, why FROM game_ratings ORDER BY game_id").fetchall()
    con.close()
    assert rows == [(0, "a side made fewer than 2 moves")] * 3


def game_on_disk(db):
    """The newest game, replayed from its stored moves."""
    import json

    from doors import registry
    from doors._core.game import replay
    con = sqlite3.connect(db)
    gid, door, options = con.execute("SELECT id, door, options FROM games ORDER BY id DESC").fetchone()
    moves = [(int(p), str(a)) for p, a in
             con.execute("SELECT player, action FROM moves WHERE game_id=? ORDER BY ply", (gid,))]
    con.close()
    return replay(registry()[door].state_class, json.loads(options), moves), len(moves)


async def place(caller: Caller, db, player: int, cursor: int) -> int:
    """Place one tower on a free square (the cursor starts at ``cursor``);
    waits until it is stored; returns where the cursor is now."""
    from .harness import arrows_between, wait_until
    await wait_until(lambda: player in game_on_disk(db)[0].to_move(), what="our turn, as stored")
    await caller.expect("Your turn")                 # and as the screen shows it
    state, stored = game_on_disk(db)
    target = state.legal_actions(player)[0].square
    caller.send(arrows_between(cursor, target, 8) + ENTER)
    await wait_until(lambda: game_on_disk(db)[1] > stored, what="the tower stored")
    return target


async def two_moves_each_then_resign(db, alice: Caller, other: Caller, other_name: str) -> str:
    await challenge(alice, other, "Alice", other_name)
    cursors = [3 * 8 + 3, 3 * 8 + 3]                 # d4: where a cursor starts
    for _ in range(2):
        cursors[0] = await place(alice, db, 0, cursors[0])
        cursors[1] = await place(other, db, 1, cursors[1])
    other.send("Q")
    await other.expect("Resign this game?")
    other.send("y")
    text = " ".join((await alice.expect(f"{other_name} resigned")).split())
    alice.send(ESC)
    other.send(ESC)
    await alice.expect("Who's online")
    await other.expect("Who's online")
    alice.send("z")
    other.send("z")
    return text


async def test_accounts_from_one_address_do_not_rate_each_other_others_do(app, tmp_path):
    db = tmp_path / "gatehouse.db"
    alice = await Caller.connect(app.port)
    await alice.login("Alice")
    bob = await Caller.connect(app.port)                       # 127.0.0.1, as Alice
    await bob.login("Bob")
    carol = await Caller.connect(app.port, source="127.0.0.2")  # another address
    await carol.login("Carol")
    await alice.expect("Carol")
    text = await two_moves_each_then_resign(db, alice, bob, "Bob")
    assert "Not rated: both accounts used one address in the last 30 days" in text
    assert rating_of(db, "alice") is None
    text = await two_moves_each_then_resign(db, alice, carol, "Carol")
    assert "Your rating: 1500 ->" in text and "Not rated" not in text
    assert rating_of(db, "alice") > 1500 > rating_of(db, "carol")
