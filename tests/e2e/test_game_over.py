"""The end of a game as both callers see it, and time in a live game: the
header says the result once, one row gives the reason and the rating
change, the key line says what can be done now; a caller who waits for the
other's move is not logged off for idling, and the side whose move clock
runs out loses on time. Only the screens are read."""
from __future__ import annotations

import re

from .harness import DOWN, ENTER, ESC, Caller, door_digit, start_app, wait_until

MOVE_HINTS = ("Your turn", "choose a hole", "a = auto finish", "press a to agree", "Arrows", "Enter: pick",
              "ENTER select")


async def login(app, handle: str, term: str = "xterm") -> Caller:
    caller = await Caller.connect(app.port, term=term)
    await caller.login(handle)
    return caller


async def challenge(challenger: Caller, other: Caller, other_name: str, door: str) -> None:
    """``challenger`` challenges ``other`` to ``door`` with its default options, as seen on screen."""
    challenger.send("p" + door_digit(door))
    text = await challenger.expect("choose your opponent")
    number = re.search(rf"(\d+)\. {re.escape(other_name)}\b", text)
    assert number, text
    challenger.send(number.group(1))
    await challenger.expect("options")
    challenger.send(DOWN * 20 + ENTER)      # the last row sends it (UP/DOWN wrap: 20 lands past it)
    await other.expect(f"challenges you to {door}")
    other.send("y")
    await challenger.expect("Q resign")
    await other.expect("Q resign")


def game_over_rows(caller: Caller) -> list[str]:
    """The header, the end's rows (the reason and the rating: one row above
    the key line, or two when it wraps) joined, and the key line."""
    return [caller.line(20), " ".join(caller.line(y).strip() for y in (21, 22)), caller.line(23)]


def assert_finished(caller: Caller, result: str, reason: str) -> None:
    header, status, keys = game_over_rows(caller)
    text = caller.text()
    flat = " ".join(line.strip() for line in text.splitlines())     # a wrapped reason read whole
    assert header.strip().startswith(f"GAME OVER: {result}"), header
    assert reason in status, status
    assert flat.count(reason) == 1, text                 # the reason is said once
    assert keys.strip().startswith("ESC lobby") and "v review" in keys and "c chat" in keys, keys
    assert "Q resign" not in keys and "= draw" not in keys
    for hint in MOVE_HINTS:
        assert hint not in text, (hint, text)


async def test_the_side_whose_clock_runs_out_loses_on_time_and_the_waiting_one_stays(tmp_path):
    # idle limit 3 s, a live Awari move 6 s: the waiting caller outlasts the idle limit
    app = await start_app(tmp_path / "g.db", server={"idle_minutes": 0.05}, awari={"move_minutes": 0.1})
    try:
        alice = await login(app, "Alice")
        bob = await login(app, "Bob", term="ansi-bbs")
        await alice.expect("Bob")
        await challenge(alice, bob, "Bob", "Awari")
        await wait_until(lambda: "left for this move" in alice.line(20) and "left for this move" in bob.line(20),
                         what="the clock's last minute on both screens")
        mover, waiter = (alice, bob) if "You have" in alice.line(20) else (bob, alice)
        await waiter.expect("GAME OVER", timeout=30)
        await mover.expect("GAME OVER", timeout=30)
        loser = "Alice" if mover is alice else "Bob"
        for caller, result in ((mover, "you lost"), (waiter, "you won")):
            assert_finished(caller, result, f"{loser} lost on time (0.1 min a move)")
            assert "idle too long" not in caller.text() and not caller.closed
        rows = game_over_rows(alice)
        alice.send("r")                              # a redraw keeps every row of the end
        await alice.settle()
        assert game_over_rows(alice) == rows
        alice.send("v")
        await alice.expect("SPACE/RIGHT next")       # v reviews the game
        alice.send(ESC)
        await alice.expect("GAME OVER")
        alice.send(ESC)
        await alice.expect("Who's online")
        await alice.close()
        await bob.close()
    finally:
        await app.stop()


async def test_a_resignation_is_told_once_on_both_sides_with_what_it_did_to_the_ratings(tmp_path):
    app = await start_app(tmp_path / "g.db")
    try:
        alice = await login(app, "Alice")
        bob = await login(app, "Bob", term="ansi-bbs")
        await alice.expect("Bob")
        await challenge(alice, bob, "Bob", "Stone Towers")
        bob.send("Qy")
        await alice.expect("GAME OVER")
        await bob.expect("GAME OVER")
        assert_finished(alice, "you won", "Bob resigned")
        assert_finished(bob, "you lost", "Bob resigned")
        # resigned before a move: the rating row says why it does not count
        for caller in (alice, bob):
            assert "Bob resigned. Not rated: a side made fewer than 2 moves." in caller.line(22)
        await alice.close()
        await bob.close()
    finally:
        await app.stop()
