"""A caller who drops mid-game: the other is told, the game waits, the
dropped caller resumes it after logging in again, or forfeits after the
grace time."""
import json
import sqlite3

from .harness import ENTER, Caller, game_status, moves_of, start_app, towers_move, wait_until
from .test_two_callers import alice_challenges_bob, two_in_lobby


async def bob_calls_back(app) -> tuple[Caller, str]:
    """Bob, who dropped mid-game, logs in again: offered his game back."""
    bob = await Caller.connect(app.port, term="ansi-bbs")
    await bob.expect("Handle")
    bob.send("Bob" + ENTER)
    await bob.expect("Password:")
    bob.send("secret1" + ENTER)
    return bob, await bob.expect("unfinished game of Towers against Alice")


async def test_drop_suspends_and_login_offers_resume(app):
    alice, bob = await two_in_lobby(app)
    game_id = await alice_challenges_bob(app, alice, bob)
    await towers_move(alice, app, game_id, pick=-1)
    await towers_move(bob, app, game_id, pick=-1)
    moves = len(moves_of(app, game_id))
    await bob.close()
    text = await alice.expect("Bob left: the game is suspended")
    assert "Waiting for Bob to return" in text
    await alice.settle()
    assert alice.text().count("Bob left") == 1          # in the log, not also in a banner
    bob, text = await bob_calls_back(app)
    assert f"({moves} moves so far)" in text
    bob.send("y")
    await bob.expect("Alice to move")
    await alice.expect("Bob is back")
    assert len(moves_of(app, game_id)) == moves
    await alice.settle()
    assert alice.text().count("Bob is back") == 1
    await towers_move(alice, app, game_id, pick=-1)
    await bob.expect("Your turn")
    await alice.close()
    await bob.close()


async def test_a_caller_who_stays_away_forfeits_with_the_reason_recorded(tmp_path):
    app = await start_app(tmp_path / "g.db", server={"forfeit_minutes": 0.02})   # 1.2 seconds
    try:
        alice, bob = await two_in_lobby(app)
        game_id = await alice_challenges_bob(app, alice, bob)
        await bob.close()
        await alice.expect("Bob left")
        text = await alice.expect("GAME OVER", timeout=30)
        assert "GAME OVER: you won" in text and "did not return" in text
        (outcome,), = sqlite3.connect(app.config.store.database).execute(
            "SELECT outcome FROM games WHERE id=?", (game_id,))
        data = json.loads(outcome)
        assert data["termination"] == "forfeit" and data["winner"] == 0
        assert "Bob left and did not return within" in data["reason"]
        await alice.close()
    finally:
        await app.stop()


async def test_resign_asks_first_then_ends_the_game(app):
    alice, bob = await two_in_lobby(app)
    game_id = await alice_challenges_bob(app, alice, bob)
    bob.send("Q")
    await bob.expect("Resign this game? (y/n)")
    bob.send("n")
    await bob.expect("You play on.")
    assert game_status(app, game_id) == "active"
    bob.send("Q")
    await bob.expect("Resign this game?")
    bob.send("y")
    text = await alice.expect("GAME OVER")
    assert "GAME OVER: you won" in text and "Bob resigned" in text
    await wait_until(lambda: game_status(app, game_id) == "finished", what="the game over")
    await alice.close()
    await bob.close()


async def back_at_the_resume_question(app, handle: str) -> Caller:
    """``handle`` calls again and logs in: the question whether to resume."""
    caller = await Caller.connect(app.port)
    await caller.expect("Handle")
    caller.send(handle + ENTER)
    await caller.expect("Password:")
    caller.send("secret1" + ENTER)
    await caller.expect("Resume it now? (y/n)")
    return caller


async def test_a_game_declined_at_login_can_be_resumed_from_the_lobby(app):
    alice, bob = await two_in_lobby(app)
    await alice_challenges_bob(app, alice, bob)
    await bob.close()
    await alice.expect("Bob left")
    bob = await back_at_the_resume_question(app, "Bob")
    bob.send("n")
    await bob.expect("u resume")
    bob.send("u")
    await bob.expect("unfinished game of Towers against Alice")
    bob.send("y")
    await bob.expect("Alice to move")
    await alice.expect("Bob is back")
    await alice.close()
    await bob.close()


async def test_a_game_that_ended_while_the_resume_question_was_open_is_not_resumed(app):
    alice, bob = await two_in_lobby(app)
    game_id = await alice_challenges_bob(app, alice, bob)
    await bob.close()
    await alice.expect("Bob left")
    bob = await back_at_the_resume_question(app, "Bob")
    alice.send("Q")                       # meanwhile Alice gives the game up
    await alice.expect("Resign this game?")
    alice.send("y")
    await alice.expect("GAME OVER")
    await wait_until(lambda: game_status(app, game_id) == "finished", what="the game over")
    await bob.expect(f"Game {game_id} (Towers) is over: Alice resigned.")     # told where he is
    bob.send("y")
    text = await bob.expect("Who's online")
    assert "went wrong" not in text and "Towers against Alice" not in text
    await alice.close()
    await bob.close()


async def test_a_draw_offered_before_a_drop_still_waits_for_the_answer(app):
    alice, bob = await two_in_lobby(app)
    game_id = await alice_challenges_bob(app, alice, bob)
    alice.send("=")
    await bob.expect("Alice offers a draw: press = to accept.")
    await bob.close()
    await alice.expect("Bob left: the game is suspended")
    bob, _text = await bob_calls_back(app)
    bob.send("y")
    await bob.expect("Alice offers a draw: press = to accept.")       # the offer stands
    bob.send("=")
    await bob.expect("GAME OVER")
    await wait_until(lambda: game_status(app, game_id) == "finished", what="the draw recorded")
    (outcome,), = sqlite3.connect(app.config.store.database).execute(
        "SELECT outcome FROM games WHERE id=?", (game_id,))
    assert json.loads(outcome)["termination"] == "agreed draw"
    await alice.close()
    await bob.close()
