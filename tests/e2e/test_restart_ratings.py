"""A restart that settles a game whose last move is on record but not its
end (a record from an older release) rates it from the players' real
ratings: the rating book is read before the games are restored."""
import random
import sqlite3

import pytest

from doors import registry
from server.services.glicko2 import Rating, rate_game
from server.services.store import NewRating, RatingWrite, Store

from .harness import start_app


async def test_a_game_settled_at_start_is_rated_from_the_players_ratings(tmp_path):
    db = tmp_path / "gatehouse.db"
    store = await Store(db).open()
    first = await store.create_game("towers", {}, ("Alice", "Bob"))
    await store.finish_game(first, {"winner": 0, "termination": "resign", "reason": "Bob resigned"},
                            rating=RatingWrite(True, (1500.0, 1500.0), (1900.0, 1300.0), (
                                NewRating("alice", "towers", "Alice", 1900.0, 60.0, 0.06),
                                NewRating("bob", "towers", "Bob", 1300.0, 60.0, 0.06))))
    info = registry()["towers"]
    state = info.state_class.from_options(info.resolve_options({"first": 0}))
    game = await store.create_game("towers", state.options, ("Alice", "Bob"))
    pick = random.Random(1)
    while state.outcome() is None:         # every move stored, the end not
        player = state.to_move()[0]
        action = pick.choice(state.legal_actions(player))
        state.apply(player, action)
        await store.add_move(game, len(state.history), player, state.action_to_str(action))
    await store.close()
    outcome = state.outcome()
    assert outcome is not None and outcome.winner is not None

    app = await start_app(db)
    await app.stop()
    con = sqlite3.connect(db)
    status = con.execute("SELECT status FROM games WHERE id = ?", (game,)).fetchone()[0]
    rated, before0, before1 = con.execute(
        "SELECT rated, before0, before1 FROM game_ratings WHERE game_id = ?", (game,)).fetchone()
    now = dict(con.execute("SELECT player, rating FROM ratings WHERE door = 'towers'").fetchall())
    con.close()
    assert status == "finished" and rated == 1
    assert (before0, before1) == (1900.0, 1300.0)
    alice, bob = rate_game(Rating(1900.0, 60.0, 0.06), Rating(1300.0, 60.0, 0.06),
                           1.0 if outcome.winner == 0 else 0.0)
    assert now == pytest.approx({"alice": alice.rating, "bob": bob.rating})
