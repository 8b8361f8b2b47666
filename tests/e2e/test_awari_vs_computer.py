"""A caller plays Awari against the computer to the end, by digit keys."""
import json

from .harness import Caller, db_rows, game_state, game_status, moves_of, start_vs_computer, wait_until


async def test_awari_game_to_the_end_against_the_computer(app):
    caller = await Caller.connect(app.port)
    await caller.login("Ada")
    game_id, level = await start_vs_computer(caller, app, "Ada", "Awari")
    text = await caller.expect("Your move")
    assert "You" in text and f"Computer ({level})" in text and "1-6 sow that hole" in text

    def my_turn_or_over() -> bool:
        return game_status(app, game_id) != "active" or 0 in game_state(app, game_id).to_move()

    while game_status(app, game_id) == "active":
        await wait_until(my_turn_or_over, what="my turn")
        if game_status(app, game_id) != "active":
            break
        await caller.expect("Your move", timeout=30)
        before = len(moves_of(app, game_id))
        hole = game_state(app, game_id).legal_actions(0)[0]
        # a key while a sowing is still shown only ends the animation: "x" does that, if need
        # be; typed again if the screen had not yet had the computer's move (refused, harmlessly)
        for _attempt in range(6):
            caller.send("x" + str(hole))
            try:
                await wait_until(lambda before=before: len(moves_of(app, game_id)) > before, timeout=5,
                                 what="my sowing")
                break
            except AssertionError:
                continue
        else:
            raise AssertionError(f"my sowing of hole {hole} was never played:\n{caller.text()}")
    text = await caller.expect("GAME OVER", timeout=30)
    (outcome,), = db_rows(app, "SELECT outcome FROM games WHERE id = ?", game_id)
    home = json.loads(outcome)["score"]
    assert f"{home[0]}-{home[1]}" in text
    final = game_state(app, game_id)
    assert final.is_terminal() and list(final.outcome().score) == home    # the record replays to it
    await caller.close()
