"""Transactions on the shared store are isolated: one that fails changes
nothing and takes no other transaction's writes with it; one that succeeds
is on disk whole."""
import asyncio
import sqlite3

from server.services.store import Store


async def _two_at_once(store: Store, round_: int) -> tuple[bool, bool]:
    """A good transaction (two rows) and a failing one (a row, then a
    statement that fails) at once; (good lost a row, bad left a row)."""
    good = [("INSERT INTO games(door, options, player0, player1, created) VALUES (?,?,?,?,?)",
             ("towers", "{}", f"good{round_}a", "x", 0.0)),
            ("INSERT INTO games(door, options, player0, player1, created) VALUES (?,?,?,?,?)",
             ("towers", "{}", f"good{round_}b", "x", 0.0))]
    bad = [("INSERT INTO games(door, options, player0, player1, created) VALUES (?,?,?,?,?)",
            ("towers", "{}", f"bad{round_}", "x", 0.0)),
           ("INSERT INTO no_such_table VALUES (1)", ())]
    if round_ % 2:        # half the rounds start the failing one first
        results = list(reversed(await asyncio.gather(
            store.transaction(bad), store.transaction(good), return_exceptions=True)))
    else:
        results = await asyncio.gather(store.transaction(good), store.transaction(bad),
                                       return_exceptions=True)
    assert not isinstance(results[0], BaseException)
    assert isinstance(results[1], sqlite3.Error)
    con = sqlite3.connect(store.path)
    names = {row[0] for row in con.execute("SELECT player0 FROM games")}
    con.close()
    return ({f"good{round_}a", f"good{round_}b"} - names != set(), f"bad{round_}" in names)


async def test_a_failing_transaction_neither_stays_nor_undoes_another(tmp_path):
    store = await Store(tmp_path / "g.db").open()
    try:
        lost = left = 0
        for round_ in range(20):
            good_lost, bad_left = await _two_at_once(store, round_)
            lost += good_lost
            left += bad_left
    finally:
        await store.close()
    assert (lost, left) == (0, 0), f"{lost}/20 good transactions lost, {left}/20 bad ones left a row"
