"""Stratego between two telnet callers: simultaneous setup with interleaved
keys, a scripted game to a flag capture, and the hidden-information
property checked on what each caller's terminal actually received."""
from .harness import DOWN, ENTER, LEFT, RIGHT, UP, door_digit, session_of, start_app, wait_until
from .test_two_callers import two_in_lobby

# 40 rank keys each, in each player's reading order (top row of their screen first)
RED = "9955556666" "7777888889" "9999912334" "44SBBBBBBF"     # rows 4, 3, 2, 1
BLUE = "F955556666" "7777888889" "9999912334" "44SBBBBBB9"    # rows 7, 8, 9, 10
# the same public picture, other hidden ranks behind Blue's unmoved pieces
BLUE_PERMUTED = "F955556666" "7777888889" "9999921334" "44BSBBBBB9"


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


async def play_scripted_game(app, blue_setup: str):
    """Returns Red's (snapshot, bytes) after each step before the flag strike,
    the match, and both callers."""
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
    await blue.expect("Both players move now")
    match = session_of(app, "Alice").screens[-1].match
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
    await wait_until(lambda: match.state.to_move() == (0,), what="play begins")
    ui = {0: session_of(app, "Alice").screens[-1].ui, 1: session_of(app, "Bob").screens[-1].ui}

    async def move(player, frm, to):
        caller = callers[player]
        before = len(match.state.history)
        caller.send(arrows(ui[player], frm) + ENTER)
        await wait_until(lambda: ui[player].selected == frm, what="selected")
        caller.send(arrows(ui[player], to) + ENTER)
        await wait_until(lambda: len(match.state.history) > before, what=f"move {frm}-{to}")

    got = await step(callers, lambda: move(0, 31, 41), ("Last move: Red B4-B5",) * 2)
    seen.append((snapshot(red), got[0]))
    got = await step(callers, lambda: move(1, 69, 59), ("Last move: Blue J7-J6",) * 2)
    seen.append((snapshot(red), got[0]))
    return seen, match, red, blue


async def test_setup_play_flag_capture_and_hidden_ranks_never_reach_the_other_caller(tmp_path):
    """Two games identical in everything Red may know, different in Blue's
    hidden ranks: Red's terminal gets the very same bytes and screens. The
    second game then goes on to the flag capture."""
    runs = []
    for blue_setup in (BLUE_PERMUTED, BLUE):
        app = await start_app(tmp_path / f"g{len(runs)}.db", stratego={"reveal_seconds": 0.5})
        try:
            seen, match, red, blue = await play_scripted_game(app, blue_setup)
            runs.append(seen)
            if blue_setup is BLUE:
                await finish_with_flag_capture(app, match, red, blue)
            await red.close()
            await blue.close()
        finally:
            await app.stop()
    first, second = runs
    assert len(first) == len(second) == 80 + 2 + 2
    for i, ((shot_a, bytes_a), (shot_b, bytes_b)) in enumerate(zip(first, second, strict=True)):
        assert shot_a == shot_b, f"Red's screen differs at step {i}"
        assert bytes_a == bytes_b, f"Red received different bytes at step {i}"


async def finish_with_flag_capture(app, match, red, blue):
    assert "Your move" in red.text()
    bombs_before = sum(line.count("B") for line in red.screen.display[:20])
    await red.expect("Bob: J7-J6")
    ui = session_of(app, "Alice").screens[-1].ui
    red.send(arrows(ui, 30) + ENTER)           # the scout runs up column A ...
    await wait_until(lambda: ui.selected == 30, what="scout selected")
    red.send(arrows(ui, 60) + ENTER)           # ... and strikes the flag
    for caller in (red, blue):
        text = await caller.expect("GAME OVER: Alice wins")
        assert "GAME OVER: Red wins" in text         # the door's own header agrees
    assert "flag" in match.outcome.reason.lower()
    record = await app.store.moves(match.id)
    assert len(record) == 80 + 2 + 3            # placements, readies, three moves
    # after the game both see the whole board: Blue's six bombs now show on Red's screen
    def bombs_shown() -> int:
        return sum(line.count("B") for line in red.screen.display[:20])
    await wait_until(lambda: bombs_shown() == bombs_before + 6, what="Blue's bombs shown")
    assert sum(line.count("B") for line in red.screen.display[:20]) == bombs_before + 6
