"""A caller plays Awari against the computer to the end, by digit keys."""
import sqlite3
import time

from .harness import Caller, challenge_computer, session_of, wait_until


async def test_awari_game_to_the_end_against_the_computer(app):
    caller = await Caller.connect(app.port)
    await caller.login("Ada")
    match = await challenge_computer(caller, app, "Ada", "Awari")
    text = await caller.expect("Your move")
    assert "You" in text and "Computer (3)" in text and "1-6 sow that hole" in text
    ui = session_of(app, "Ada").screens[-1].ui
    while not match.ended:
        await wait_until(lambda: match.ended or 0 in match.state.to_move(), timeout=20, what="my turn")
        if match.ended:
            break
        await wait_until(lambda: ui.frame_due(time.monotonic()) is None, what="sowing shown")
        before = len(match.state.history)
        hole = match.state.legal_actions(0)[0]
        caller.send(str(hole))
        await wait_until(lambda before=before: len(match.state.history) > before, what="my sowing")
    text = await caller.expect("GAME OVER", timeout=20)
    home = match.outcome.score
    assert f"{home[0]}-{home[1]}" in text
    rows = sqlite3.connect(app.config.store.database).execute(
        "SELECT COUNT(*) FROM moves WHERE game_id=?", (match.id,)).fetchone()
    assert rows[0] == len(match.state.history)
    await caller.close()
