"""A caller plays a whole game of Towers against the computer, by keys."""
import sqlite3

from .harness import DOWN, ENTER, RIGHT, Caller, door_digit, play_towers_move, session_of, wait_until


async def test_full_game_against_the_computer_is_played_and_recorded(app):
    caller = await Caller.connect(app.port)
    await caller.login("Alice")
    caller.send("p")
    await caller.expect("Choose a door")
    caller.send(door_digit("Towers"))
    await caller.expect("choose your opponent")
    caller.send("1")
    await caller.expect("Who places first")
    caller.send(RIGHT)          # random -> challenger
    caller.send(DOWN * 3 + ENTER)
    await caller.expect("Your turn")
    session = session_of(app, "Alice")
    match = session.screens[-1].match
    assert match.seats[1].kind == "bot"
    while not match.ended:
        await wait_until(lambda: match.ended or 0 in match.state.to_move(),
                         what=f"my turn ({match.state.to_move()}, {len(match.state.history)} moves, "
                              f"{match._bots})")
        if match.ended:
            break
        await play_towers_move(caller, session, match, 0)
    text = await caller.expect("GAME OVER")
    score = match.outcome.score
    assert f"{score[0]}-{score[1]}" in text
    await caller.close()
    db = sqlite3.connect(app.config.store.database)
    (status, outcome), = db.execute("SELECT status, outcome FROM games WHERE id=?", (match.id,))
    assert status == "finished" and '"termination": "rules"' in outcome
    moves = db.execute("SELECT COUNT(*) FROM moves WHERE game_id=?", (match.id,)).fetchone()[0]
    assert moves == len(match.state.history) >= 16
