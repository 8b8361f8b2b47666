"""Stratego between two telnet callers, as they see it (issue 16.7-16.9):
the cursor stays where a piece is placed unless A switches stepping on;
ENTER on a Bomb or a lake says why; a resignation reveals both armies on
both screens with the result in the header; a caller who comes back is
offered the game with its play moves counted (not the setup) and is not
shown the last strike again."""
from __future__ import annotations

from .harness import DOWN, ENTER, Caller, door_digit, session_of, start_app, wait_until
from .test_stratego import BLUE, RED, arrows
from .test_two_callers import two_in_lobby

HIDDEN = "■"
DELETE = "\x7f"          # what the DELETE key (or ^?) sends


def board_cells(caller: Caller) -> str:
    """What the board's cells show on the caller's screen (rows 2-11)."""
    return "".join(line[4:34] for line in caller.screen.display[2:12])


async def stratego_in_play(app):
    """Alice (Red) and Bob (Blue) set up by keys, as the seed's help says,
    and start playing. Returns (match, red, blue)."""
    red, blue = await two_in_lobby(app)
    red.send("p" + door_digit("Stratego"))
    await red.expect("choose your opponent")
    opponents = session_of(app, "Alice").screens[-1].opponents
    red.send(DOWN * opponents.index("Bob") + ENTER)
    await red.expect("Scout strike")
    red.send(DOWN * 2 + ENTER)
    await blue.expect("Alice challenges you to Stratego")
    blue.send("y")
    await red.expect("Both players move now")
    match = session_of(app, "Alice").screens[-1].match
    # the cursor stays on the square where a piece was placed
    await red.expect("A: after placing, cursor stays put")
    red.send("9")
    await wait_until(lambda: len(match.state.history) == 1, what="the first placement")
    red.send("9")
    await red.expect("That square is taken: DELETE removes its piece.")
    red.send(DELETE)
    await wait_until(lambda: len(match.state.history) == 2, what="the piece removed")
    # A switches stepping on: then the 40 rank keys fill the rows in reading order
    for caller, keys in ((red, RED), (blue, BLUE)):
        caller.send("A")
        await caller.expect("A: after placing, cursor steps on")
        caller.send(keys)
    await wait_until(lambda: match.state.remaining(0) == match.state.remaining(1)
                     and not any(match.state.remaining(0).values()), what="both setups placed")
    for caller in (red, blue):
        caller.send(ENTER)
        await caller.expect("Ready? y/n")
        caller.send("y")
    await wait_until(lambda: match.state.to_move() == (0,), what="play begins")
    await red.expect("Your move")
    return match, red, blue


async def test_a_resignation_reveals_both_armies_on_both_screens(tmp_path):
    app = await start_app(tmp_path / "g.db")
    try:
        match, red, blue = await stratego_in_play(app)
        for caller in (red, blue):
            await caller.settle(0.05)
            cells = board_cells(caller)
            assert cells.count(HIDDEN) == 40 and cells.count("F") == 1 and cells.count("B") == 6
        red.send("Q")
        await red.expect("Resign this game? (y/n)")
        red.send("y")
        for caller in (red, blue):
            text = await caller.expect("GAME OVER: Blue wins")     # the door's own header
            assert "GAME OVER: Bob wins (Alice resigned)" in text  # the status line
            await wait_until(lambda c=caller: HIDDEN not in board_cells(c), what="the reveal")
            cells = board_cells(caller)
            assert cells.count("F") == 2 and cells.count("B") == 12 and cells.count("S") == 2
            assert "Your move" not in caller.text() and "to move" not in caller.text()
        await red.close()
        await blue.close()
    finally:
        await app.stop()


async def test_refusals_say_why_and_a_returning_caller_gets_play_moves_and_no_old_strike(tmp_path):
    # a long reveal: replayed on return, the strike would still be on screen
    app = await start_app(tmp_path / "g.db", stratego={"reveal_seconds": 60.0})
    try:
        match, red, blue = await stratego_in_play(app)
        ui = session_of(app, "Alice").screens[-1].ui
        red.send(arrows(ui, 3) + ENTER)                  # D1: one of Red's bombs
        await red.expect("That is a Bomb: bombs never move. Choose another piece.")
        red.send(arrows(ui, 42) + ENTER)                 # C5: a lake
        await red.expect("That is a lake: no piece may stand or move there.")
        # the scout on B4 runs up to B7 and strikes Blue's scout: both go
        red.send(arrows(ui, 31) + ENTER)
        await wait_until(lambda: ui.selected == 31, what="scout selected")
        red.send(arrows(ui, 61) + ENTER)
        for caller in (red, blue):
            text = await caller.expect("STRIKE! B4xB7")
            assert "Red Scout (9) on Blue Scout (9)" in text
        setup_actions = len(match.state.history) - 1
        assert setup_actions == 2 + 80 + 2          # a place and a remove, 80 placed, 2 readies
        await red.close()
        await blue.expect("Alice left: the game is suspended")
        red = await Caller.connect(app.port)
        await red.expect("Handle")
        red.send("Alice" + ENTER)
        await red.expect("Password:")
        red.send("secret1" + ENTER)
        text = await red.expect("unfinished game of Stratego against Bob")
        assert "(1 move so far)" in text
        red.send("y")
        text = await red.expect("Last strike: B4xB7")
        await red.settle(0.2)
        text = red.text()
        assert "STRIKE!" not in text and "Last strike: B4xB7" in text
        assert "Moves played: 1" in text and "Bob to move" in text
        await blue.expect("Alice is back")
        await red.close()
        await blue.close()
    finally:
        await app.stop()
