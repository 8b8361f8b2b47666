"""Awari's computer-vs-computer watching and auto finish; Stone Towers
against the computer to the end; each as a telnet caller sees it."""
import time

from doors.stone_towers.rules import PASS

from .harness import DOWN, ENTER, LEFT, RIGHT, UP, Caller, challenge_computer, door_digit, session_of, wait_until


async def test_watch_the_computer_play_awari_against_itself(app):
    caller = await Caller.connect(app.port)
    await caller.login("Wanda")
    caller.send("p" + door_digit("Awari"))
    await caller.expect("choose your opponent")
    screen = session_of(app, "Wanda").screens[-1]
    caller.send(DOWN * screen.opponents.index("Watch the computer play itself") + ENTER)
    text = await caller.expect("Player 2 level")
    assert "Awari: the computer plays itself - options" in text and "against" not in text
    assert "ENTER starts the game" in text
    # each side its own level: player 1 at 2, player 2 at 4; ENTER starts from that line
    caller.send(DOWN + LEFT + DOWN + RIGHT)
    await caller.expect(r"Player 2 level\s+< 4 ", regex=True)
    caller.send(ENTER)
    await wait_until(lambda: hasattr(session_of(app, "Wanda").screens[-1], "match"))
    match = session_of(app, "Wanda").screens[-1].match
    assert match.seat_of(session_of(app, "Wanda")) is None and all(s.kind == "bot" for s in match.seats)
    assert [(s.name, s.level) for s in match.seats] == [("Computer 1 (2)", 2), ("Computer 2 (4)", 4)]
    text = await caller.expect("along the mover's row")
    assert "your row" not in text and "your home" not in text
    text = await caller.expect("GAME OVER", timeout=60)
    winner = match.outcome.winner
    assert (f"GAME OVER: Computer {winner + 1} ({(2, 4)[winner]}) won" in text if winner is not None
            else "GAME OVER: a draw" in text)
    caller.send(ENTER)
    await caller.expect("Who's online")
    await caller.close()


async def test_awari_auto_finish_lets_the_computer_end_the_game(app):
    caller = await Caller.connect(app.port)
    await caller.login("Otto")
    match = await challenge_computer(caller, app, "Otto", "Awari")
    await caller.expect("Your move")
    caller.send("a")
    text = await caller.expect("GAME OVER", timeout=60)
    assert match.autoplay and match.ended
    assert len(match.state.history) > 1 and "Computer (3)" in text
    await caller.close()


async def test_stone_towers_against_the_computer_to_the_end(app):
    caller = await Caller.connect(app.port)
    await caller.login("Sten")
    # the options: size, then turns: three steps left, 20 -> 5
    match = await challenge_computer(caller, app, "Sten", "Stone Towers", DOWN + "\x1b[D" * 3)
    await caller.expect("Your move")
    assert match.state.options["turns"] == 5
    ui = session_of(app, "Sten").screens[-1].ui
    while not match.ended:
        await wait_until(lambda: match.ended or 0 in match.state.to_move(), timeout=20)
        if match.ended:
            break
        # the screen has had the computer's turn (a key during its cascade only skips it)
        await wait_until(lambda: ui.seen_ply == match.state.ply and ui.frame_due(time.monotonic()) is None,
                         what="the computer's turn shown")
        before = len(match.state.history)
        legal = match.state.legal_actions(0)
        if legal != [PASS]:     # the cursor to a square the rules allow, as a person would
            row, col = divmod(legal[0], match.state.size)
            caller.send((DOWN if row > ui.cy else UP) * abs(row - ui.cy)
                        + (RIGHT if col > ui.cx else LEFT) * abs(col - ui.cx))
        caller.send(ENTER)      # build or fortify under the cursor (or pass)
        await wait_until(lambda before=before: len(match.state.history) > before, what="my turn played")
    text = await caller.expect("GAME OVER", timeout=20)
    squares = match.outcome.score
    assert f"{squares[0]}-{squares[1]}" in text
    await caller.close()
