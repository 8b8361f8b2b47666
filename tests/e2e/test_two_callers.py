"""Two callers meet in the lobby, chat, and play Towers to the end."""
import json
import time

from .harness import (
    DOWN,
    ENTER,
    ESC,
    RIGHT,
    Caller,
    active_game,
    db_rows,
    door_digit,
    game_state,
    game_status,
    menu_number,
    moves_of,
    start_app,
    towers_move,
    wait_until,
)


async def two_in_lobby(app):
    alice = await Caller.connect(app.port)
    await alice.login("Alice")
    bob = await Caller.connect(app.port, term="ansi-bbs")   # a BBS terminal: CP437
    await bob.login("Bob")
    await alice.expect("Bob")
    return alice, bob


async def alice_sends_challenge(alice, bob, first_right: int = 1) -> None:
    """Alice challenges Bob to Towers from the lobby; Bob sees it."""
    alice.send("p")
    await alice.expect("Choose a door")
    alice.send(door_digit("Towers"))
    await alice.expect("choose your opponent")
    alice.send(DOWN * (menu_number(alice, "Bob") - 1) + ENTER)
    await alice.expect("Who places first")
    alice.send(RIGHT * first_right)     # random -> challenger places first
    alice.send(DOWN * 2 + ENTER)        # first, games, send
    await alice.expect("Waiting for Bob")
    await bob.expect("Alice challenges you to Towers")


async def alice_challenges_bob(app, alice, bob, first_right: int = 1):
    await alice_sends_challenge(alice, bob, first_right)
    bob.send("y")
    await bob.expect("Towers")
    await alice.expect("Your turn")
    game = active_game(app, "Alice")
    assert game is not None and game[1] == "Bob"
    return game[0]


async def test_lobby_shows_who_is_online_and_lobby_chat_reaches_the_other(app):
    alice, bob = await two_in_lobby(app)
    text = await bob.expect("Alice")
    assert "lobby" in text and "Towers" in text
    alice.send("c")
    await alice.expect("Say:")
    alice.send("hello bob" + ENTER)
    await bob.expect("Alice: hello bob")
    await alice.close()
    await bob.close()


async def test_the_lobby_changes_around_a_caller_typing_on_the_chat_line(app):
    """Most keys change only the lobby's bottom line, and the rest of the
    screen is kept from the frame before: it must still change when someone
    logs on, chats or challenges, and the half-typed line must stay."""
    alice = await Caller.connect(app.port)
    await alice.login("Alice")
    alice.send("c" + "hal")
    await alice.expect("Say: hal")
    bob = await Caller.connect(app.port, term="ansi-bbs")
    await bob.login("Bob")
    await wait_until(lambda: "Bob" in alice.text() and alice.line(23).startswith("Say: hal"))
    bob.send("c" + "hi all" + ENTER)
    await alice.expect("Bob: hi all")
    assert alice.line(23).startswith("Say: hal")
    alice.send("f" + ENTER)
    await bob.expect("Alice: half")
    await alice.expect("Alice: half")
    bob.send(ENTER + "p" + door_digit("Towers"))        # (an empty line closes Bob's chat line)
    await bob.expect("choose your opponent")
    bob.send(DOWN + ENTER + DOWN * 2 + ENTER)
    await alice.expect("Bob challenges you")
    await alice.close()
    await bob.close()


async def test_a_declined_challenge_is_reported_to_the_challenger(app):
    alice, bob = await two_in_lobby(app)
    alice.send("p" + door_digit("Towers"))
    await alice.expect("choose your opponent")
    alice.send(DOWN + ENTER + DOWN * 2 + ENTER)
    await bob.expect("Alice challenges you")
    bob.send("n")
    await alice.expect("Bob declined your challenge")
    await alice.close()
    await bob.close()


async def test_full_game_between_two_callers_with_chat_redraw_and_pause(app):
    alice, bob = await two_in_lobby(app)
    game_id = await alice_challenges_bob(app, alice, bob)
    callers = {0: alice, 1: bob}
    await bob.expect("Alice to move")
    # chat mid-game: the board stays on screen
    bob.send("c")
    await bob.expect("Say:")
    bob.send("good luck" + ENTER + ESC)
    text = await alice.expect("Bob: good luck")
    assert "TOWERS" in text and " 8 │" in text      # the board is still there
    # CTRL-S holds Bob's output while Alice moves; CTRL-Q sends the screen as it is now
    bob.send(b"\x13")
    bob.send("c" + "ready" + ENTER + ESC)          # typed after CTRL-S: Alice seeing it, the server had both
    await alice.expect("Bob: ready")
    await bob.settle()
    held = len(bob.received)
    await towers_move(alice, app, game_id, pick=-1)
    await alice.expect("Bob to move")              # Bob's turn is drawn for both (and held for Bob)
    assert len(bob.received) == held, "output was sent while paused"
    bob.send(b"\x11")
    await bob.expect("Your turn")
    # redraw: r repaints everything
    before = len(bob.received)
    bob.send("r")
    await wait_until(lambda: len(bob.received) - before > 1000, what="the whole screen repainted")
    assert len(bob.received) - before > 1000
    # play on to the end
    played = 1
    while game_status(app, game_id) == "active":
        movers = game_state(app, game_id).to_move()
        if not movers:
            break
        await towers_move(callers[movers[0]], app, game_id)
        played += 1
    await wait_until(lambda: game_status(app, game_id) == "finished", what="the game recorded as finished")
    (outcome,), = db_rows(app, "SELECT outcome FROM games WHERE id = ?", game_id)
    score = json.loads(outcome)["score"]
    for caller in (alice, bob):
        text = await caller.expect("GAME OVER")
        assert f"{score[0]}-{score[1]}" in text
    assert db_rows(app, "SELECT player0, player1, status FROM games") == [("Alice", "Bob", "finished")]
    assert len(moves_of(app, game_id)) == played
    await alice.close()
    await bob.close()


async def test_a_lobby_redrawn_in_parts_shows_what_a_fresh_lobby_shows(tmp_path):
    """The lobby redraws only the parts of its screen that changed (the
    clock's minute touches the header, a log-on the who-list, a challenge its
    line). Whatever happened before, the screen must match what a caller who
    has just logged on sees (who-list, doors, chat, challenge lines)."""
    # the server's wall clock stands still but for the jump below: a real
    # minute turning over mid-test would make the screens differ by it
    start, later = time.time(), [0.0]
    app = await start_app(tmp_path / "gatehouse.db", wall=lambda: start + later[0])
    try:
        await redrawn_in_parts(app, start, later)
    finally:
        await app.stop()


async def redrawn_in_parts(app, start: float, later: list[float]) -> None:
    alice, bob = await two_in_lobby(app)
    alice.send("c" + "first" + ENTER)
    await bob.expect("Alice: first")
    bob.send("p" + door_digit("Towers"))                       # Bob challenges Alice, then withdraws
    await bob.expect("choose your opponent")
    bob.send(DOWN + ENTER + DOWN * 2 + ENTER)
    await alice.expect("Bob challenges you")
    await bob.expect("Waiting for Alice")
    bob.send("x")
    await alice.expect_gone("challenges you")
    later[0] = 3 * 3600.0                                      # three hours on: the header's clock
    alice.send("second" + ENTER)                               # (her chat line is still open)
    shown = time.strftime("%H:%M", time.localtime(start + later[0]))
    await alice.expect("Alice: second")
    await wait_until(lambda: shown in alice.line(0), what="the new time in Alice's header")
    carol = await Caller.connect(app.port)
    await carol.login("Carol")
    await alice.expect("Carol")
    await bob.expect("Carol")
    await carol.expect("Alice: second")
    for caller in (alice, bob):
        await wait_until(lambda caller=caller: caller.screen.display[1:23] == carol.screen.display[1:23],
                         what="the same lobby as Carol's")
    assert shown in carol.line(0) and shown in bob.line(0)
    for caller in (alice, bob, carol):
        await caller.close()
