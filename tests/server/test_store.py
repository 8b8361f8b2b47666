"""The sqlite record: schema, users, games and moves survive a reopen."""
import sqlite3

from server.services.schema import MIGRATIONS
from server.services.store import Store, check_password, hash_password


async def test_schema_is_versioned_and_reopening_does_not_migrate_twice(tmp_path):
    db = tmp_path / "g.db"
    store = await Store(db).open()
    assert await store.schema_version() == len(MIGRATIONS)
    await store.close()
    store = await Store(db).open()
    assert await store.schema_version() == len(MIGRATIONS)
    await store.close()
    mode = sqlite3.connect(db).execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"


async def test_passwords_are_salted_scrypt_hashes_only(tmp_path):
    store = await Store(tmp_path / "g.db").open()
    salt, digest = hash_password("hunter22")
    await store.create_user("Alice", salt, digest)
    await store.close()
    raw = sqlite3.connect(tmp_path / "g.db").execute("SELECT * FROM users").fetchall()
    assert b"hunter22" not in repr(raw).encode() and "hunter22" not in repr(raw)
    salt2, digest2 = hash_password("hunter22")
    assert salt2 != salt and digest2 != digest
    assert check_password("hunter22", salt, digest)
    assert not check_password("hunter23", salt, digest)


async def test_handles_are_unique_ignoring_case(tmp_path):
    store = await Store(tmp_path / "g.db").open()
    salt, digest = hash_password("x" * 8)
    await store.create_user("Alice", salt, digest)
    assert (await store.get_user("ALICE")).handle == "Alice"
    try:
        await store.create_user("alice", salt, digest)
    except sqlite3.IntegrityError:
        pass
    else:
        raise AssertionError("a second Alice was accepted")
    await store.close()


async def test_each_move_is_on_disk_when_add_move_returns(tmp_path):
    store = await Store(tmp_path / "g.db").open()
    gid = await store.create_game("towers", {"first": 0}, ("Alice", "computer:3"))
    await store.add_move(gid, 1, 0, "a1")
    # another connection (as after a crash) sees it at once
    rows = sqlite3.connect(tmp_path / "g.db").execute(
        "SELECT ply, player, action FROM moves WHERE game_id=?", (gid,)).fetchall()
    assert rows == [(1, 0, "a1")]
    game = await store.get_game(gid)
    assert game.status == "active" and game.players == ("Alice", "computer:3") and game.moves == 1
    await store.finish_game(gid, {"winner": 0, "termination": "rules", "reason": "done", "score": [3, 1]})
    assert (await store.list_games("finished"))[0].outcome["reason"] == "done"
    await store.close()


async def test_saved_setups_per_user_and_door(tmp_path):
    store = await Store(tmp_path / "g.db").open()
    salt, digest = hash_password("x" * 8)
    user = await store.create_user("Alice", salt, digest)
    await store.save_setup(user.id, "stratego", "wall", "data1")
    await store.save_setup(user.id, "stratego", "wall", "data2")
    assert await store.setup_names(user.id, "stratego") == ["wall"]
    assert await store.load_setup(user.id, "stratego", "wall") == "data2"
    assert await store.load_setup(user.id, "stratego", "nope") is None
    await store.close()


def make_v1_database(path) -> None:
    """A database as Gatehouse made it before account kinds (schema 1), with
    the rows the RLogin hole created: Sysop and Computer, and a telnet Alice."""
    con = sqlite3.connect(path)
    con.executescript(f"BEGIN;{MIGRATIONS[0]};PRAGMA user_version=1;COMMIT;")
    salt, digest = hash_password("alicepw")
    for handle in ("Alice", "Sysop", "Computer", "[VRT]Bob"):
        con.execute("INSERT INTO users(handle, handle_key, pw_salt, pw_hash, charset, created,"
                    " last_login) VALUES (?,?,?,?,?,?,?)",
                    (handle, handle.casefold(), salt, digest, "utf8", 1.0, 1.0))
    con.execute("INSERT INTO games(door, options, player0, player1, created)"
                " VALUES ('towers', '{}', 'Alice', 'computer:1', 1.0)")
    con.execute("INSERT INTO moves(game_id, ply, player, action, at) VALUES (1, 1, 0, 'a1', 1.0)")
    con.commit()
    con.close()


async def test_migration_from_schema_1_keeps_everything_and_sets_kinds(tmp_path):
    db = tmp_path / "old.db"
    make_v1_database(db)
    store = await Store(db).open()
    try:
        assert await store.schema_version() == len(MIGRATIONS)
        alice = await store.get_user("alice")
        assert alice.handle == "Alice" and alice.kind == "telnet"
        assert check_password("alicepw", alice.pw_salt, alice.pw_hash)
        assert (await store.get_user("Sysop")).kind == "sysop"
        assert (await store.get_user("Computer")).kind == "reserved"
        assert await store.moves(1) == [(0, "a1")]
        assert await store.lookalike("AIice") == "Alice"
        assert await store.lookalike("A1ice") == "Alice"
        assert await store.lookalike("C0mputer") == "Computer"
        assert await store.lookalike("Alicia") is None
    finally:
        await store.close()
