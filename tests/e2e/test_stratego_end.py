"""Stratego between two telnet callers, as they see it (issue 16.7-16.9):
the cursor stays where a piece is placed unless A switches stepping on;
ENTER on a Bomb or a lake says why; a resignation reveals both armies on
both screens with the result in the header; a caller who comes back is
offered the game with its play moves counted (not the setup) and is not
shown the last strike again."""
from __future__ import annotations

from .harness import ENTER, Caller, moves_of, start_app, wait_until
from .test_stratego import BLUE, RED, counts, cursor_on, keys_between, stratego_challenge_accepted

HIDDEN = "■"
DELETE = "\x7f"          # what the DELETE key (or ^?) sends


def board_cells(caller: Caller) -> str:
    """What the board's cells show on the caller's screen (rows 2-11)."""
    return "".join(line[4:34] for line in caller.screen.display[2:12])


async def stratego_in_play(app):
    """Alice (Red) and Bob (Blue) set up by keys, as the seed's help says,
    and start playing. Returns (the game's id, red, blue)."""
    red, blue, game_id = await stratego_challenge_accepted(app)
    # the cursor stays on the square where a piece was placed
    await red.expect("A: after placing, cursor stays put")
    # each step waits for Red's screen to show the last one, not only for the
    # record: the keys are read against what the screen shows, which the
    # match updates after it stores the move
    red.send("9")
    await wait_until(lambda: len(moves_of(app, game_id)) == 1, what="the first placement")
    await red.expect(counts(1, 0))
    red.send("9")
    await red.expect("That square is taken: DELETE removes its piece.")
    red.send(DELETE)
    await wait_until(lambda: len(moves_of(app, game_id)) == 2, what="the piece removed")
    await red.expect(counts(0, 0))
    # A switches stepping on: then the 40 rank keys fill the rows in reading order
    for caller, keys in ((red, RED), (blue, BLUE)):
        caller.send("A")
        await caller.expect("A: after placing, cursor steps on")
        caller.send(keys)
    await red.expect(counts(40, 40))
    await blue.expect(counts(40, 40))
    for caller in (red, blue):
        caller.send(ENTER)
        await caller.expect("Ready? y/n")
        caller.send("y")
    await red.expect("Your move")
    await blue.expect("Red to move")
    return game_id, red, blue


async def test_a_resignation_reveals_both_armies_on_both_screens(tmp_path):
    app = await start_app(tmp_path / "g.db")
    try:
        _game_id, red, blue = await stratego_in_play(app)
        for caller in (red, blue):
            await wait_until(lambda c=caller: board_cells(c).count(HIDDEN) == 40, what="the other army hidden")
            cells = board_cells(caller)
            assert cells.count(HIDDEN) == 40 and cells.count("F") == 1 and cells.count("B") == 6
        red.send("Q")
        await red.expect("Resign this game? (y/n)")
        red.send("y")
        for caller, result in ((red, "you lost"), (blue, "you won")):
            text = await caller.expect(f"GAME OVER: {result}")     # the header: the result once
            assert "Alice resigned." in text and text.count("resigned") == 1   # the reason's row
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
        game_id, red, blue = await stratego_in_play(app)
        red.send(keys_between(0, cursor_on(red), 3) + ENTER)     # D1: one of Red's bombs
        await red.expect("That is a Bomb: bombs never move. Choose another piece.")
        red.send(keys_between(0, 3, 42) + ENTER)                 # C5: a lake
        await red.expect("That is a lake: no piece may stand or move there.")
        # the scout on B4 runs up to B7 and strikes Blue's scout: both go
        red.send(keys_between(0, 42, 31) + ENTER)
        await red.expect("Selected B4")
        red.send(keys_between(0, 31, 61) + ENTER)
        for caller in (red, blue):
            text = await caller.expect("STRIKE! B4xB7")
            assert "Red Scout (9) on Blue Scout (9)" in text
        await wait_until(lambda: len(moves_of(app, game_id)) == 2 + 80 + 2 + 1, what="the strike recorded")
        setup_actions = len(moves_of(app, game_id)) - 1
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
