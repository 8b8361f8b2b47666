"""A caller plays a whole game of Towers against the computer, by keys."""
import sqlite3

from doors.towers.rules import Move, Place

from .harness import DOWN, ENTER, RIGHT, Caller, arrows_between, door_digit, session_of, wait_until


async def play_my_turn(caller, session, match, me: int) -> None:
    ui = session.screens[-1].ui
    action = match.state.legal_actions(me)[0]
    before = len(match.state.history)
    if isinstance(action, Place):
        caller.send(arrows_between(ui.cursor_sq, action.square, 8) + ENTER)
    else:
        assert isinstance(action, Move)
        caller.send(arrows_between(ui.cursor_sq, action.origin, 8) + ENTER)
        await wait_until(lambda: ui.selected == action.origin, what="selection")
        caller.send(arrows_between(action.origin, action.target, 8) + ENTER)
    await wait_until(lambda: len(match.state.history) > before, what="my move applied")


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
    await caller.expect("Your move")
    session = session_of(app, "Alice")
    match = session.screens[-1].match
    assert match.seats[1].kind == "bot"
    while not match.ended:
        await wait_until(lambda: match.ended or 0 in match.state.to_move(),
                         what=f"my turn ({match.state.to_move()}, {len(match.state.history)} moves, {match._bot_tasks})")
        if match.ended:
            break
        await play_my_turn(caller, session, match, 0)
    text = await caller.expect("GAME OVER")
    score = match.outcome.score
    assert f"{score[0]}-{score[1]}" in text
    await caller.close()
    db = sqlite3.connect(app.config.database)
    (status, outcome), = db.execute("SELECT status, outcome FROM games WHERE id=?", (match.id,))
    assert status == "finished" and '"termination": "rules"' in outcome
    moves = db.execute("SELECT COUNT(*) FROM moves WHERE game_id=?", (match.id,)).fetchone()[0]
    assert moves == len(match.state.history) >= 16
