"""Awari's computer-vs-computer watching and auto finish; Stone Towers
against the computer to the end; each as a telnet caller sees it."""
import json
import re

from doors.stone_towers.rules import PASS

from .harness import (
    DOWN,
    ENTER,
    ESC,
    LEFT,
    RIGHT,
    UP,
    Caller,
    db_rows,
    door_digit,
    game_state,
    game_status,
    menu_number,
    moves_of,
    start_vs_computer,
    wait_until,
    wait_while_moving,
)


async def test_watch_the_computer_play_awari_against_itself(app):
    caller = await Caller.connect(app.port)
    await caller.login("Wanda")
    caller.send("p" + door_digit("Awari"))
    await caller.expect("choose your opponent")
    caller.send(DOWN * (menu_number(caller, "Watch the computer play itself") - 1) + ENTER)
    text = await caller.expect("Player 2 level")
    assert "Awari: the computer plays itself - options" in text and "against" not in text
    assert "ENTER starts the game" in text
    # each side its own level: player 1 at 2, player 2 at 4; ENTER starts from that line
    caller.send(DOWN + LEFT + DOWN + RIGHT)
    await caller.expect(r"Player 2 level\s+< 4 ", regex=True)
    caller.send(ENTER)
    await wait_until(lambda: bool(db_rows(app, "SELECT id FROM games")), what="the game in the database")
    (game_id, door, seats), = db_rows(app, "SELECT id, door, player0 || ' ' || player1 FROM games")
    assert door == "awari" and seats == "computer:2 computer:4"       # Wanda has no seat
    text = await caller.expect("along the mover's row")
    assert "Computer 1 (2)" in text and "Computer 2 (4)" in text
    assert "your row" not in text and "your home" not in text
    await wait_while_moving(app, game_id, lambda: "GAME OVER" in caller.text(), what="the end on screen")
    text = caller.text()
    await wait_until(lambda: game_status(app, game_id) == "finished", what="the game recorded")
    (outcome,), = db_rows(app, "SELECT outcome FROM games WHERE id = ?", game_id)
    winner = json.loads(outcome)["winner"]
    assert (f"GAME OVER: Computer {winner + 1} ({(2, 4)[winner]}) won" in text if winner is not None
            else "GAME OVER: a draw" in text)
    caller.send(ENTER)
    await caller.expect("Who's online")
    await caller.close()


async def test_awari_auto_finish_lets_the_computer_end_the_game(app):
    caller = await Caller.connect(app.port)
    await caller.login("Otto")
    game_id, level = await start_vs_computer(caller, app, "Otto", "Awari")
    await caller.expect("Your move")
    caller.send("a")
    await wait_while_moving(app, game_id, lambda: "GAME OVER" in caller.text(), what="the end on screen")
    text = caller.text()
    await wait_until(lambda: game_status(app, game_id) == "finished", what="the game recorded")
    moves = moves_of(app, game_id)
    assert len(moves) > 1 and f"Computer ({level})" in text
    assert {player for player, _ in moves} == {0, 1}     # the computer played Otto's side too
    await caller.close()


async def test_stone_towers_against_the_computer_to_the_end(app):
    caller = await Caller.connect(app.port)
    await caller.login("Sten")
    # the options: size, then turns: three steps left, 20 -> 5
    game_id, _level = await start_vs_computer(caller, app, "Sten", "Stone Towers", DOWN + "\x1b[D" * 3)
    await caller.expect("Your move")
    (options,), = db_rows(app, "SELECT options FROM games WHERE id = ?", game_id)
    assert json.loads(options)["turns"] == 5

    def my_turn_or_over() -> bool:
        return game_status(app, game_id) != "active" or 0 in game_state(app, game_id).to_move()

    while game_status(app, game_id) == "active":
        await wait_until(my_turn_or_over, timeout=30, what="my turn")
        if game_status(app, game_id) != "active":
            break
        state = game_state(app, game_id)
        before = len(state.history)
        legal = state.legal_actions(0)
        # "x" only skips the computer's cascade if it is still shown; "h" puts the
        # cursor in the centre; then the arrows to a square the rules allow
        keys = "xh"
        if legal != [PASS]:
            row, col = divmod(legal[0], state.size)
            centre = state.size // 2
            keys += (DOWN if row > centre else UP) * abs(row - centre) + \
                (RIGHT if col > centre else LEFT) * abs(col - centre)
        # build or fortify under the cursor (or pass); typed again if the screen had
        # not yet had the computer's turn (then the keys were refused, harmlessly)
        for _attempt in range(6):
            caller.send(keys + ENTER)
            try:
                await wait_until(lambda before=before: len(moves_of(app, game_id)) > before, timeout=5,
                                 what="my turn played")
                break
            except AssertionError:
                continue
        else:
            raise AssertionError(f"my turn {legal[0]} was never played:\n{caller.text()}")
    text = await caller.expect("GAME OVER", timeout=30)
    (outcome,), = db_rows(app, "SELECT outcome FROM games WHERE id = ?", game_id)
    squares = json.loads(outcome)["score"]
    assert f"{squares[0]}-{squares[1]}" in text
    await caller.close()


async def test_watching_the_computer_play_stratego_shows_a_header_neither_cut_nor_glued(app):
    caller = await Caller.connect(app.port)
    await caller.login("Wes")
    caller.send("p" + door_digit("Stratego"))
    await caller.expect("choose your opponent")
    caller.send(DOWN * (menu_number(caller, "Watch the computer play itself") - 1) + ENTER)
    await caller.expect("Player 2 level")
    caller.send(ENTER)
    text = await caller.expect("SETUP: the armies")       # a watcher places nothing
    assert "place your" not in text
    await wait_until(lambda: " to move" in caller.line(0), timeout=60, what="the play")
    await caller.settle()
    header = caller.line(0)
    # the two names (shortened with an ellipsis, never cut), then a gap, then whose move
    found = re.match(r"STRATEGO +Computer 1\S*( \(\d\))? vs Computer 2\S*( \(\d\))?( {2,})(Red|Blue) to move ",
                     header)
    assert found is not None, header
    assert "…" in header or "(" in header, header         # a name is whole, or says it is shortened
    caller.send(ESC)
    await caller.expect("Who's online")
    await caller.close()
