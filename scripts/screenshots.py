"""Pictures of the real screens for the README, from the bytes the server
actually sent.

Runs the real server in-process and drives CP437 (``ansi-bbs``) telnet
callers through the lobby and the doors. Every byte the server sends a
caller goes into a terminal emulator (pyte); at each moment worth showing,
that terminal's screen is written out as plain ANSI art and turned into a
PNG with Debian's ``ansilove``. Run it with ``make screenshots``; it writes docs/screens/.
"""
from __future__ import annotations

import asyncio
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ansi.cp437 import encode  # noqa: E402
from tests.e2e.harness import (  # noqa: E402
    DOWN,
    ENTER,
    RIGHT,
    Caller,
    challenge_computer,
    game_state,
    game_status,
    start_app,
    towers_move,
    wait_until,
)
from tests.e2e.test_two_callers import alice_challenges_bob  # noqa: E402

OUT = ROOT / "docs" / "screens"


COLOURS = ["black", "red", "green", "brown", "blue", "magenta", "cyan", "white"]


def screen_as_ans(caller: Caller) -> bytes:
    """The caller's screen, as its terminal (pyte, fed with every byte the
    server sent) shows it, written out as plain 80-column ANSI art."""
    out = bytearray(b"\x1b[0m")
    for y in range(24):
        row = caller.screen.buffer[y]
        for x in range(80 if y < 23 else 79):
            char = row[x]
            fg = COLOURS.index(char.fg) if char.fg in COLOURS else 7
            bg = COLOURS.index(char.bg) if char.bg in COLOURS else 0
            out += f"\x1b[0;{'1;' if char.bold else ''}{30 + fg};{40 + bg}m".encode()
            out += encode(char.data or " ", "cp437")
    return bytes(out)


async def picture(caller: Caller, name: str) -> Path:
    """A PNG of what the caller's terminal shows now."""
    await caller.settle()
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        ans = Path(tmp) / f"{name}.ans"
        ans.write_bytes(screen_as_ans(caller))
        png = OUT / f"{name}.png"
        subprocess.run(["ansilove", "-q", "-c", "80", "-o", str(png), str(ans)], check=True)
    print(f"wrote {png.relative_to(ROOT)}")
    return png


async def main() -> int:
    if shutil.which("ansilove") is None:
        print("screenshots need Debian's ansilove: apt-get install ansilove", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        app = await start_app(Path(tmp) / "g.db")
        try:
            await shoot(app)
        finally:
            await app.stop()
    return 0


async def shoot(app) -> None:
    title = await Caller.connect(app.port, term="ansi-bbs")
    await title.expect("Handle")
    await picture(title, "title")
    await title.close()

    # a CP437 terminal whose type says nothing of its charset (behind tmux,
    # say) and that does not answer the cursor report: the one-key check
    unsure = await Caller.connect(app.port, term="screen", charset="cp437")
    await unsure.expect("(y/n)")
    await picture(unsure, "charset-check")
    await unsure.close()

    alice = await Caller.connect(app.port, term="ansi-bbs")
    await alice.login("Alice")
    bob = await Caller.connect(app.port, term="ansi-bbs")
    await bob.login("Bob")
    alice.send("c")
    alice.send("Anyone for a game of Towers?" + ENTER)
    bob.send("c")
    bob.send("Sure, challenge me!" + ENTER + "\x1b")
    await alice.expect("Bob: Sure")
    alice.send("\x1b")
    await alice.settle()
    await picture(alice, "lobby")

    game_id = await alice_challenges_bob(app, alice, bob)
    callers = {0: alice, 1: bob}
    for _ in range(22):
        me = game_state(app, game_id).to_move()[0]
        await towers_move(callers[me], app, game_id, pick=-1)
    bob.send("c")
    bob.send("Nice move." + ENTER + "\x1b")
    await alice.expect("Bob: Nice move.")
    await alice.settle()
    await picture(alice, "towers-game")
    while game_status(app, game_id) == "active":
        movers = game_state(app, game_id).to_move()
        if not movers:
            break
        await towers_move(callers[movers[0]], app, game_id, pick=-1)
    await alice.expect("GAME OVER")
    await alice.settle()
    await picture(alice, "towers-end")
    alice.send(ENTER)
    bob.send(ENTER)
    await alice.expect("Who's online")
    await bob.expect("Who's online")

    # Stratego: Alice sets up against the computer (random fill), then plays
    match = await challenge_computer(alice, app, "Alice", "Stratego")
    await alice.expect("SETUP")
    alice.send("R")
    await alice.settle()
    await picture(alice, "stratego-setup")
    alice.send(ENTER + "y")
    await wait_until(lambda: match.state.to_move() == (0,), timeout=20, what="play")
    await alice.settle()
    await picture(alice, "stratego-play")
    alice.send("Q")
    alice.send("y")
    await alice.expect("GAME OVER")
    alice.send(ENTER)
    await alice.expect("Who's online")

    for door, name in (("Awari", "awari"), ("Stone Towers", "stone-towers"), ("Kingdom", "kingdom")):
        match = await challenge_computer(bob, app, "Bob", door)
        await bob.expect("Your move" if door != "Stone Towers" else "Your move")
        if door == "Awari":          # two moves each: the game counts for the ratings
            bob.send("3")
            await wait_until(lambda match=match: len(match.state.history) >= 2, timeout=20)
            for hole in "654321":
                if len(match.state.history) >= 4:
                    break
                await wait_until(lambda match=match: 0 in match.state.to_move(), timeout=20)
                before = len(match.state.history)
                bob.send(hole)
                try:
                    await wait_until(lambda match=match, before=before: len(match.state.history) > before + 1,
                                     timeout=5)
                except AssertionError:
                    continue         # an empty hole: the next
            await wait_until(lambda match=match: 0 in match.state.to_move(), timeout=20)
        elif door == "Stone Towers":
            for _ in range(3):
                bob.send(RIGHT + DOWN + ENTER)
                await wait_until(lambda match=match: 0 in match.state.to_move(), timeout=20)
            bob.send("i")
        await bob.settle(0.5)
        await picture(bob, name)
        bob.send("Q")
        bob.send("y")
        await bob.expect("GAME OVER")
        if door == "Awari":          # the end every door gets: result, reason and rating, keys
            await picture(bob, "game-over")
        bob.send(ENTER)
        await bob.expect("Who's online")
    await alice.close()
    await bob.close()


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
