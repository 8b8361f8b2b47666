"""Ratings: which games count, what a game does to the ratings, the
computer's anchors, and the migration from the schema before ratings."""
import asyncio
import dataclasses
import sqlite3

import pytest

from doors import registry
from doors._core.game import Outcome, Termination
from server.services import schema as schema_module
from server.services import store as store_module
from server.services.glicko2 import Game, Rating, rate, rate_game
from server.services.ratings import GameFacts, RatingBook, computer_anchor
from server.services.schema import MIGRATIONS
from server.services.store import NewRating, RatingWrite, Store, hash_password


async def finished(store, door, players, winner, termination=Termination.RULES, reason="done"):
    gid = await store.create_game(door, {}, players)
    await store.finish_game(gid, Outcome(winner, termination, reason).to_json())
    return gid


@pytest.fixture
async def book(tmp_path):
    store = await Store(tmp_path / "r.db").open()
    book = RatingBook(store)
    await book.load()
    yield book
    await store.close()


async def test_a_game_between_two_callers_moves_both_ratings(book):
    gid = await finished(book.store, "towers", ("Alice", "Bob"), 0)
    result = await book.record(gid)
    alice, bob = rate_game(Rating(), Rating(), 1.0)
    assert result.rated and result.before == (1500.0, 1500.0)
    assert result.after == pytest.approx((alice.rating, bob.rating))
    assert book.get("alice", "towers").rating == pytest.approx(alice.rating) and alice.rating > 1500
    assert book.get("BOB", "towers").rating == pytest.approx(bob.rating) and bob.rating < 1500
    assert book.get("Alice", "awari") is None            # one rating per door
    assert result.describe(0) == f"1500 -> {alice.rating:.0f} (+{round(alice.rating) - 1500})"
    # rated once: recording again gives the same record, nothing moves
    again = await book.record(gid)
    assert again == result and book.get("alice", "towers").rating == pytest.approx(alice.rating)
    # the next game starts from the new ratings
    gid2 = await finished(book.store, "towers", ("Bob", "Alice"), None, Termination.AGREED_DRAW)
    second = await book.record(gid2)
    bob2, alice2 = rate_game(bob, alice, 0.5)
    assert second.after == pytest.approx((bob2.rating, alice2.rating))


async def test_a_game_against_the_computer_moves_only_the_caller(book):
    gid = await finished(book.store, "towers", ("computer:5", "Alice"), 0)
    result = await book.record(gid)
    expected = rate(Rating(), [Game(Rating(1800.0, 50.0, 0.06), 0.0)])
    assert result.rated and result.before == (None, 1500.0)
    assert result.after[1] == pytest.approx(expected.rating)
    assert result.describe(0) == ""
    assert book.of_label("computer:5", "towers") == computer_anchor("towers", 5)   # unmoved


def test_a_door_without_a_measured_ladder_spans_1000_to_1800_evenly(monkeypatch):
    for door in ("towers", "stone_towers"):                  # as if they declared no ladder
        monkeypatch.setitem(registry(), door, dataclasses.replace(registry()[door], anchors=()))
    assert [computer_anchor("towers", n).rating for n in range(1, 6)] == [1000, 1200, 1400, 1600, 1800]
    assert [computer_anchor("stone_towers", n).rating for n in range(1, 4)] == [1000, 1400, 1800]
    assert computer_anchor("stone_towers", 3).deviation == 50


@pytest.mark.parametrize("door", sorted(d for d, info in registry().items() if info.anchors))
def test_a_door_with_a_measured_ladder_holds_the_ratings_it_declares(door):
    info = registry()[door]
    low, high = info.levels
    assert [computer_anchor(door, n).rating for n in range(low, high + 1)] == list(info.anchors)
    assert computer_anchor(door, high + 3).rating == info.anchors[-1]      # out of range: the nearest
    assert computer_anchor(door, high).deviation == 50


def test_the_doors_with_a_level_ladder_declare_its_anchors():
    measured = {d for d, info in registry().items() if info.anchors}
    assert {"stratego", "awari", "stone_towers"} <= measured        # docs/LADDERS.md


@pytest.mark.parametrize("door", sorted(registry()))
def test_the_computer_anchors_rise_with_the_level(door):
    info = registry()[door]
    low, high = info.levels
    assert info.anchors == () or len(info.anchors) == high - low + 1     # one per level, or none
    ratings = [computer_anchor(door, n).rating for n in range(low, high + 1)]
    assert ratings[0] == 1000
    assert all(a < b for a, b in zip(ratings, ratings[1:], strict=False))


async def test_resigned_and_forfeited_games_count_aborted_ones_do_not(book):
    resigned = await finished(book.store, "awari", ("Alice", "Bob"), 1, Termination.RESIGN)
    forfeited = await finished(book.store, "awari", ("Carol", "Dave"), 0, Termination.FORFEIT)
    aborted = await finished(book.store, "awari", ("Erin", "Frank"), None, Termination.ABORTED)
    self_play = await finished(book.store, "awari", ("Gina", "gina"), 0)
    assert (await book.record(resigned)).rated and book.get("Bob", "awari").rating > 1500
    assert (await book.record(forfeited)).rated and book.get("Dave", "awari").rating < 1500
    assert not (await book.record(aborted)).rated
    assert not (await book.record(self_play)).rated
    assert book.get("Erin", "awari") is None and book.get("Frank", "awari") is None
    assert book.get("Gina", "awari") is None


async def test_an_unfinished_game_is_not_rated(book):
    gid = await book.store.create_game("towers", {}, ("Alice", "Bob"))
    assert await book.record(gid) is None and book.get("Alice", "towers") is None


async def make_schema_2_database(path) -> None:
    """A database as the release before ratings made it (schema 2: its own
    migrations run by its own Store), with callers and finished games."""
    saved = schema_module.MIGRATIONS[:]
    schema_module.MIGRATIONS[:] = saved[:2]
    try:
        store = await Store(path).open()
        assert await store.schema_version() == 2
        salt, digest = hash_password("pw")
        for handle in ("Alice", "Bob"):             # the users table as schema 2 has it
            await store.db.execute(
                "INSERT INTO users(handle, handle_key, pw_salt, pw_hash, charset, created,"
                " last_login, kind, skeleton) VALUES (?,?,?,?,NULL,0,0,'telnet',?)",
                (handle, store_module.handle_key(handle), salt, digest,
                 store_module.handle_skeleton(handle)))
        await store.db.commit()
        await finished(store, "towers", ("Alice", "Bob"), 0)
        await finished(store, "towers", ("Alice", "computer:1"), None, Termination.ABORTED)
        await store.create_game("towers", {}, ("Bob", "Alice"))        # still being played
        await store.close()
    finally:
        schema_module.MIGRATIONS[:] = saved


async def test_migration_from_schema_2_rates_the_games_already_played(tmp_path):
    db = tmp_path / "v2.db"
    await make_schema_2_database(db)
    with sqlite3.connect(db) as con:
        assert con.execute("PRAGMA user_version").fetchone()[0] == 2
    store = await Store(db).open()
    try:
        assert await store.schema_version() == len(MIGRATIONS) >= 3
        assert (await store.get_user("alice")).handle == "Alice"
        assert [g.status for g in await store.list_games()] == ["active", "finished", "finished"]
        book = RatingBook(store)
        await book.load()                                   # the start of the server
        alice, bob = rate_game(Rating(), Rating(), 1.0)
        assert book.get("Alice", "towers").rating == pytest.approx(alice.rating)
        assert book.get("Bob", "towers").rating == pytest.approx(bob.rating)
        assert not (await book.record(2)).rated             # the aborted one
        assert await book.catch_up() == 0                   # nothing is rated twice
    finally:
        await store.close()


async def test_a_game_ending_while_the_book_reloads_is_rated_from_the_players_rating(tmp_path):
    """A rename on the console reloads the book; a game that ends meanwhile
    is rated from Alice's 1900, not from a new player's 1500."""
    store = await Store(tmp_path / "g.db").open()
    try:
        book = RatingBook(store)
        first = await store.create_game("towers", {}, ("Alice", "computer:3"))
        await store.finish_game(first, {"winner": 0, "termination": "normal", "reason": "x"}, rating=RatingWrite(
            True, new=(NewRating("alice", "towers", "Alice", 1900.0, 60.0, 0.06),)))
        await book.load()
        game_id = await store.create_game("towers", {}, ("Alice", "computer:3"))
        facts = GameFacts(game_id, "towers", ("Alice", "computer:3"),
                          {"winner": 0, "termination": "normal", "reason": "x"}, (10, 10))

        async def write(change: RatingWrite) -> None:
            await store.finish_game(game_id, facts.outcome, rating=change)
        reload = asyncio.create_task(book.load())
        await asyncio.sleep(0)                       # the reload has begun
        assert book.get("Alice", "towers") is not None                      # never read half filled
        result = await book.finish(facts, write)
        await reload
        assert result.before is not None and result.before[0] == pytest.approx(1900.0)
        assert book.get("Alice", "towers").rating > 1900.0
    finally:
        await store.close()
