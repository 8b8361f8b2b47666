"""Stratego between two telnet callers: simultaneous setup with interleaved
keys, a scripted game to a flag capture, and the hidden-information
property checked on what each caller's terminal actually received."""
import json
import re

from doors.stratego.pieces import parse_square, square_name

from .harness import (
    DOWN,
    ENTER,
    LEFT,
    RIGHT,
    UP,
    active_game,
    db_rows,
    door_digit,
    menu_number,
    moves_of,
    start_app,
    wait_until,
)
from .test_two_callers import two_in_lobby

# 40 rank keys each, in each player's reading order (top row of their screen first)
RED = "9955556666" "7777888889" "9999912334" "44SBBBBBBF"     # rows 4, 3, 2, 1
BLUE = "F955556666" "7777888889" "9999912334" "44SBBBBBB9"    # rows 7, 8, 9, 10
# the same public picture, other hidden ranks behind Blue's unmoved pieces
BLUE_PERMUTED = "F955556666" "7777888889" "9999921334" "44BSBBBBB9"


def cursor_on(caller) -> int:
    """The square the caller's screen says the cursor is on."""
    found = re.search(r"Cursor ([A-J]\d{1,2})", caller.text())
    assert found is not None, caller.text()
    return parse_square(found.group(1))


def keys_between(me: int, src: int, dst: int) -> str:
    """Arrow keys from square ``src`` to ``dst`` on the screen of player
    ``me`` (Red, 0, sees row 1 at the bottom; Blue sees it at the top)."""
    def display_row(sq: int) -> int:
        return 9 - sq // 10 if me == 0 else sq // 10
    drow = display_row(dst) - display_row(src)
    dcol = dst % 10 - src % 10
    return (DOWN if drow > 0 else UP) * abs(drow) + (RIGHT if dcol > 0 else LEFT) * abs(dcol)


async def move_by_keys(app, caller, me: int, game_id: int, frm: int, to: int) -> None:
    """Select ``frm`` and move it to ``to`` with arrows and Enter, as the
    caller's screen shows the cursor; returns once the record holds it."""
    before = len(moves_of(app, game_id))
    caller.send(keys_between(me, cursor_on(caller), frm) + ENTER)
    await caller.expect(f"Selected {square_name(frm)}")
    caller.send(keys_between(me, frm, to) + ENTER)
    await wait_until(lambda: len(moves_of(app, game_id)) > before, what=f"move {frm}-{to}")


def arrows(ui, square: int) -> str:
    """Keys taking the caller's cursor to ``square`` on their own screen."""
    drow = ui.display_row(square) - ui.display_row(ui.cur)
    dcol = square % 10 - ui.cur % 10
    return (DOWN if drow > 0 else UP) * abs(drow) + (RIGHT if dcol > 0 else LEFT) * abs(dcol)


def snapshot(caller):
    """Every cell of the caller's screen with its colours."""
    return tuple(tuple((c.data, c.fg, c.bg, c.bold, c.reverse) for c in
                       (caller.screen.buffer[y][x] for x in range(80))) for y in range(24))


def counts(mine: int | str, theirs: int | str) -> str:
    """The setup panel's progress line as one caller sees it."""
    def shown(n: int | str) -> str:
        return n if isinstance(n, str) else f"{n}/40"
    return f"You: {shown(mine):<6} Opponent: {shown(theirs)}"


async def step(callers, action, expect):
    """Do one thing, then wait until each screen shows what the step leads
    to (``expect``: one text per caller); returns the bytes each got."""
    marks = [len(c.received) for c in callers]
    await action()
    for c, text in zip(callers, expect, strict=True):
        await c.expect(text)
    return [bytes(c.received[m:]) for c, m in zip(callers, marks, strict=True)]


async def stratego_challenge_accepted(app):
    """Alice challenges Bob to Stratego from the lobby with its default
    options and Bob accepts: (red, blue, the game's id), both at setup."""
    red, blue = await two_in_lobby(app)
    red.send("p" + door_digit("Stratego"))
    await red.expect("choose your opponent")
    red.send(DOWN * (menu_number(red, "Bob") - 1) + ENTER)
    await red.expect("Scout strike")
    red.send(DOWN * 2 + ENTER)
    await blue.expect("Alice challenges you to Stratego")
    blue.send("y")
    await red.expect("Both players move now")
    await blue.expect("Both players move now")
    game = active_game(app, "Alice")
    assert game is not None
    return red, blue, game[0]


async def play_scripted_game(app, blue_setup: str):
    """Returns Red's (snapshot, bytes) after each step before the flag strike,
    the game's id, and both callers."""
    red, blue, _game_id = await stratego_challenge_accepted(app)
    game = active_game(app, "Alice")
    assert game is not None and game[1] == "Bob"
    game_id = game[0]
    callers = (red, blue)
    seen = []

    def typing(caller, key: str):
        async def action() -> None:
            caller.send(key)
        return action

    for caller in callers:                   # the cursor steps on after each piece
        caller.send("A")
        await caller.expect("cursor steps on")
    for i in range(40):                      # interleaved: one key each, in turn
        got = await step(callers, typing(red, RED[i]), (counts(i + 1, i), counts(i, i + 1)))
        seen.append((snapshot(red), got[0]))
        got = await step(callers, typing(blue, blue_setup[i]), (counts(i + 1, i + 1), counts(i + 1, i + 1)))
        seen.append((snapshot(red), got[0]))
    await step(callers, typing(red, ENTER), ("Ready? y/n", counts(40, 40)))
    got = await step(callers, typing(red, "y"), (counts("READY", 40), counts(40, "READY")))
    seen.append((snapshot(red), got[0]))
    await step(callers, typing(blue, ENTER), (counts("READY", 40), "Ready? y/n"))
    got = await step(callers, typing(blue, "y"), ("Your move", "Red to move"))
    seen.append((snapshot(red), got[0]))

    async def move(player, frm, to):
        await move_by_keys(app, callers[player], player, game_id, frm, to)

    got = await step(callers, lambda: move(0, 31, 41), ("Last move: Red B4-B5",) * 2)
    seen.append((snapshot(red), got[0]))
    got = await step(callers, lambda: move(1, 69, 59), ("Last move: Blue J7-J6",) * 2)
    seen.append((snapshot(red), got[0]))
    return seen, game_id, red, blue


async def test_setup_play_flag_capture_and_hidden_ranks_never_reach_the_other_caller(tmp_path):
    """Two games identical in everything Red may know, different in Blue's
    hidden ranks: Red's terminal gets the very same bytes and screens. The
    second game then goes on to the flag capture."""
    runs = []
    for blue_setup in (BLUE_PERMUTED, BLUE):
        app = await start_app(tmp_path / f"g{len(runs)}.db", stratego={"reveal_seconds": 0.5})
        try:
            seen, game_id, red, blue = await play_scripted_game(app, blue_setup)
            runs.append(seen)
            if blue_setup is BLUE:
                await finish_with_flag_capture(app, game_id, red, blue)
            await red.close()
            await blue.close()
        finally:
            await app.stop()
    first, second = runs
    assert len(first) == len(second) == 80 + 2 + 2
    for i, ((shot_a, bytes_a), (shot_b, bytes_b)) in enumerate(zip(first, second, strict=True)):
        assert shot_a == shot_b, f"Red's screen differs at step {i}"
        assert bytes_a == bytes_b, f"Red received different bytes at step {i}"


async def finish_with_flag_capture(app, game_id, red, blue):
    assert "Your move" in red.text()
    bombs_before = sum(line.count("B") for line in red.screen.display[:20])
    await red.expect("Bob: J7-J6")
    red.send(keys_between(0, cursor_on(red), 30) + ENTER)    # the scout runs up column A ...
    await red.expect("Selected A4")
    red.send(keys_between(0, 30, 60) + ENTER)                # ... and strikes the flag
    for caller, result in ((red, "you won"), (blue, "you lost")):
        text = await caller.expect(f"GAME OVER: {result}")
        assert "Game over." in text and "flag" in text.lower()    # the door's panel, the reason's row
    await wait_until(lambda: db_rows(app, "SELECT status FROM games WHERE id = ?", game_id) == [("finished",)],
                     what="the game recorded")
    (outcome,), = db_rows(app, "SELECT outcome FROM games WHERE id = ?", game_id)
    assert "flag" in json.loads(outcome)["reason"].lower()
    assert len(moves_of(app, game_id)) == 80 + 2 + 3        # placements, readies, three moves
    # after the game both see the whole board: Blue's six bombs now show on Red's screen
    def bombs_shown() -> int:
        return sum(line.count("B") for line in red.screen.display[:20])
    await wait_until(lambda: bombs_shown() == bombs_before + 6, what="Blue's bombs shown")
    assert sum(line.count("B") for line in red.screen.display[:20]) == bombs_before + 6
