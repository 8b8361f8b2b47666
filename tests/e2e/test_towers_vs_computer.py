"""A caller plays a whole game of Towers against the computer, by keys."""
import json

from .harness import (
    DOWN,
    ENTER,
    RIGHT,
    Caller,
    active_game,
    db_rows,
    door_digit,
    game_state,
    game_status,
    moves_of,
    towers_move,
    wait_until,
)


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
    game = active_game(app, "Alice")
    assert game is not None and game[1].startswith("computer:")
    game_id = game[0]

    def my_turn_or_over() -> bool:
        return game_status(app, game_id) != "active" or 0 in game_state(app, game_id).to_move()

    while game_status(app, game_id) == "active":
        await wait_until(my_turn_or_over, what=f"my turn ({len(moves_of(app, game_id))} moves)")
        if game_status(app, game_id) != "active":
            break
        await towers_move(caller, app, game_id)
    text = await caller.expect("GAME OVER")
    (status, outcome), = db_rows(app, "SELECT status, outcome FROM games WHERE id = ?", game_id)
    assert status == "finished" and json.loads(outcome)["termination"] == "rules"
    score = json.loads(outcome)["score"]
    assert f"{score[0]}-{score[1]}" in text
    final = game_state(app, game_id)
    assert final.is_terminal() and list(final.outcome().score) == score    # the record replays to it
    assert len(moves_of(app, game_id)) >= 16
    await caller.close()
