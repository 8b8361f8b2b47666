"""A draw offered in a game by turns waits for the other side's next call,
over a restart of the server: the offer is kept with the game, and a move
answers it (the record forgets it with the move)."""
from doors import registry
from server.services.seats import Seat, SeatKind

from .harness import ENTER, Caller, db_rows, game_status, registered, start_app, towers_move, wait_until

OFFERS = "SELECT kind, player FROM game_offers WHERE game_id = ?"


async def open_by_turns_game(caller: Caller) -> None:
    caller.send("t")
    await caller.expect("My games by turns", timeout=60)
    caller.send(ENTER)
    await caller.expect("Towers")


async def alice_offers_a_draw_by_turns(app, first: int = 0) -> int:
    """Alice on, a Towers game by turns with Bob (``first`` to move), her
    draw offer made and stored, and her line closed: the game's id."""
    alice = await Caller.connect(app.port)
    await alice.login("Alice")
    info = registry()["towers"]
    seats = [Seat(0, SeatKind.HUMAN, "Alice"), Seat(1, SeatKind.HUMAN, "Bob")]
    match = await app.matches.create(info, info.resolve_options({"first": first}), seats, 86400.0)
    await open_by_turns_game(alice)
    alice.send("=")
    await alice.expect("Draw offered.")
    assert db_rows(app, OFFERS, match.id) == [("draw", 0)]
    await alice.close()
    return match.id


async def test_a_draw_offer_by_turns_outlasts_a_restart_and_is_accepted(tmp_path):
    db = tmp_path / "gatehouse.db"
    app = await start_app(db)
    try:
        await registered(app, "Bob")
        game_id = await alice_offers_a_draw_by_turns(app)
    finally:
        await app.stop()

    app = await start_app(db)                        # restart
    try:
        bob = await Caller.connect(app.port)
        await bob.login("Bob", new=False)
        await open_by_turns_game(bob)
        await bob.expect("Alice offers a draw: press = to accept.")
        bob.send("=")
        await bob.expect("GAME OVER")
        await wait_until(lambda: game_status(app, game_id) == "finished", what="the draw recorded")
        (outcome,), = db_rows(app, "SELECT outcome FROM games WHERE id = ?", game_id)
        assert '"agreed draw"' in outcome
        assert db_rows(app, OFFERS, game_id) == []
        await bob.close()
    finally:
        await app.stop()


async def test_a_move_answers_a_draw_offer_by_turns_for_good(tmp_path):
    db = tmp_path / "gatehouse.db"
    app = await start_app(db)
    try:
        game_id = await alice_offers_a_draw_by_turns(app, first=1)
        bob = await Caller.connect(app.port)
        await bob.login("Bob")
        await open_by_turns_game(bob)
        await bob.expect("Alice offers a draw: press = to accept.")
        await towers_move(bob, app, game_id)                  # Bob plays on instead
        await wait_until(lambda: db_rows(app, OFFERS, game_id) == [], what="the offer answered on disk")
        await bob.close()
    finally:
        await app.stop()

    app = await start_app(db)                        # restart: the offer does not come back
    try:
        bob = await Caller.connect(app.port)
        await bob.login("Bob", new=False)
        await open_by_turns_game(bob)
        text = await bob.expect("Towers")
        assert "offers a draw" not in text
        bob.send("=")
        await bob.expect("Draw offered.")              # an offer of his own, not an agreement
        assert game_status(app, game_id) == "active"
        await bob.close()
    finally:
        await app.stop()
