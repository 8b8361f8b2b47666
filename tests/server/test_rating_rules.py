"""Rated games mean something: a game's end and its rating are stored
together from the match's facts; a game too short, between accounts seen
at one address, or a pair's fourth game in a day is not rated (and says
why); the hall of fame lists callers with 5 rated games."""
import sqlite3

import pytest

from doors._core.game import Outcome, Termination
from server.services.glicko2 import Rating, rate_game
from server.services.ratings import GameFacts, RatingBook
from server.services.records import MIN_RATED_GAMES, hall_of_fame
from server.services.store import Store, hash_password


@pytest.fixture
async def book(tmp_path):
    store = await Store(tmp_path / "r.db").open()
    book = RatingBook(store)
    await book.load()
    yield book
    await store.close()


async def end(book, players, winner=0, moves=(2, 2), door="towers"):
    """A game ended as a match ends it: result and ratings in one commit."""
    gid = await book.store.create_game(door, {}, players)
    outcome = Outcome(winner, Termination.RESIGN if winner is not None else Termination.AGREED_DRAW,
                      "resigned").to_json()

    async def write(change):
        await book.store.finish_game(gid, outcome, rating=change)
    return await book.finish(GameFacts(gid, door, players, outcome, moves), write)


async def login(store, handle, address):
    user = await store.get_user(handle)
    if user is None:
        salt, digest = hash_password("pw")
        user = await store.create_user(handle, salt, digest)
    await store.touch_login(user.id, address)


async def test_a_rated_end_is_one_record_with_both_changes(book):
    result = await end(book, ("Alice", "Bob"))
    alice, bob = rate_game(Rating(), Rating(), 1.0)
    assert result.rated and result.after == pytest.approx((alice.rating, bob.rating))
    con = sqlite3.connect(book.store.path)
    assert con.execute("SELECT status FROM games").fetchone() == ("finished",)
    assert con.execute("SELECT rated, why FROM game_ratings").fetchone() == (1, None)
    assert con.execute("SELECT COUNT(*) FROM ratings").fetchone() == (2,)


async def test_a_side_with_fewer_than_two_moves_is_not_rated(book):
    result = await end(book, ("Alice", "Bob"), moves=(2, 1))
    assert not result.rated and result.why == "a side made fewer than 2 moves"
    assert book.get("Alice", "towers") is None
    result = await end(book, ("Alice", "computer:3"), moves=(1, 1))
    assert not result.rated and book.get("Alice", "towers") is None


async def test_accounts_seen_at_one_address_do_not_rate_each_other(book):
    await login(book.store, "Alice", "10.0.0.1")
    await login(book.store, "Bob", "10.0.0.2")
    await login(book.store, "Mallory", "10.0.0.1")
    await login(book.store, "Eve", "2001:db8:1:2::/64")
    await login(book.store, "Trent", "2001:db8:1:2::/64")
    assert (await end(book, ("Alice", "Bob"))).rated
    shared = await end(book, ("Mallory", "Alice"))
    assert not shared.rated
    assert shared.why == "both accounts used one address in the last 30 days"
    assert not (await end(book, ("Eve", "Trent"))).rated
    assert (await end(book, ("Mallory", "computer:2"))).rated       # the computer is not farmed


async def test_an_old_shared_address_no_longer_counts(book):
    await login(book.store, "Alice", "10.0.0.1")
    await login(book.store, "Bob", "10.0.0.1")
    con = sqlite3.connect(book.store.path)
    con.execute("UPDATE address_logins SET at = at - 31 * 86400 WHERE player = 'bob'")
    con.commit()
    con.close()
    assert (await end(book, ("Alice", "Bob"))).rated


async def test_the_same_pair_counts_three_rated_games_a_day(book):
    results = [await end(book, ("Alice", "Bob") if n % 2 else ("Bob", "Alice")) for n in range(5)]
    assert [r.rated for r in results] == [True, True, True, False, False]
    assert results[3].why == "the same two callers had 3 rated games in 24 hours"
    assert (await end(book, ("Alice", "Carol"))).rated               # another pair still counts


async def test_the_hall_lists_callers_with_five_rated_games(book):
    for n in range(MIN_RATED_GAMES):
        await end(book, ("Alice", f"computer:{1 + n % 5}"))
    for _ in range(MIN_RATED_GAMES - 1):
        await end(book, ("Bob", "computer:1"))
    await end(book, ("Carol", "computer:1"), moves=(1, 1))           # unrated: never counts
    hall = await hall_of_fame(book.store, "towers", me="Bob")
    assert [h for h, _r, _d in hall.top_rated] == ["Alice"]
    assert hall.most_games == [("Alice", MIN_RATED_GAMES)]
    assert [h for h, _n in hall.longest_streaks] == ["Alice"]
    assert hall.mine.wins == MIN_RATED_GAMES - 1                      # Bob's own record is all there


async def test_a_game_the_computer_finished_for_the_caller_is_not_rated(book):
    gid = await book.store.create_game("awari", {}, ("Alice", "computer:4"))
    outcome = Outcome(0, Termination.RULES, "19 stones in a home").to_json()

    async def write(change):
        await book.store.finish_game(gid, outcome, rating=change)
    result = await book.finish(GameFacts(gid, "awari", ("Alice", "computer:4"), outcome, (12, 12),
                                         computer_finished=True), write)
    assert not result.rated and result.why == "the computer finished the game for the caller"
    assert book.get("Alice", "awari") is None


async def test_a_renamed_account_still_counts_as_seen_at_its_address(book):
    await login(book.store, "Alice", "10.0.0.1")
    await login(book.store, "Mallory", "10.0.0.1")
    await book.store.rename_account("Mallory", "mallory", "Marvin", "marvin", "marvin")
    shared = await end(book, ("Marvin", "Alice"))
    assert not shared.rated and shared.why == "both accounts used one address in the last 30 days"
