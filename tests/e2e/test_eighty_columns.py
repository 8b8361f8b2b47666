"""Every screen at 80x24 with the longest names, and no text cut at the edge.

The detector: screens draw text through ``Canvas.text``; with ``Canvas.cut``
set to a list, every text that runs past the right edge of its canvas or
region is recorded (the server runs in this process, so every frame any
session draws is checked). On each caller's terminal, as pyte shows it, no
row may have text running into the last column either. The tour visits the
title and login, lobby, lobby help, settings, the new-game wizard's steps
for every door, every door's game screen and help pages and game-over
screen, an incoming challenge, a game between two callers with chat, the
suspended game, the resume offer, and the sysop console, its help, its
split-screen chat and a game on the console."""
from __future__ import annotations

import pytest

from ansi.canvas import Canvas
from doors import registry
from tests.server.sysop_harness import Console

from .harness import (
    DOWN,
    ENTER,
    ESC,
    RIGHT,
    UP,
    Caller,
    challenge_computer,
    door_digit,
    session_of,
    start_app,
    wait_until,
)

ALICE = "Maximilian Longname1"       # 20 characters, the longest handle
BOB = "Bartholomew Q Smith2"
LONG_CHAT = ("a very long line of chat that goes on and on, so that it has to wrap in the pane "
             "instead of running off, twice over")


@pytest.fixture
def cuts():
    Canvas.cut = []
    yield Canvas.cut
    Canvas.cut = None


def edge_problems(screen_lines: list[str]) -> list[str]:
    """Rows whose text runs into the last column: two letters or digits
    in columns 79 and 80 (box borders and blanks there are fine)."""
    return [line for line in screen_lines if len(line) >= 80 and line[78].isalnum() and line[79].isalnum()]


class Tour:
    def __init__(self, cuts: list):
        self.cuts = cuts
        self.seen: list[str] = []

    async def station(self, who, name: str) -> None:
        """Look at ``who``'s screen once it has settled."""
        if isinstance(who, Caller):
            await who.settle()
        lines = list(who.screen.display)
        self.seen.append(name)
        bad = edge_problems(lines)
        assert not bad, f"{name}: text runs into the last column:\n" + "\n".join(bad)
        assert not self.cuts, f"{name}: text cut at the edge: {self.cuts}"


async def test_the_detector_sees_a_cut_text(cuts):
    canvas = Canvas(80, 24)
    canvas.text(70, 3, "twelve chars")
    canvas.region(0, 20, 40, 2).text(35, 0, "hidden part")
    canvas.text(75, 4, "ok   ")                   # only blanks past the edge: not a cut
    assert [(x, y) for x, y, _ in cuts] == [(70, 3), (35, 20)]
    assert edge_problems(["x" * 80, "y" * 79 + " ", "─" * 80]) == ["x" * 80]


def test_the_stratego_strike_with_the_longest_rank_names_wraps_instead_of_being_cut(cuts):
    from doors.stratego.rules import Strike
    from doors.stratego.view import NAMES
    info = registry()["stratego"]
    ui = info.ui_class(0, (ALICE, BOB), info.state_class.from_options({}).options)
    longest = max(NAMES, key=lambda rank: len(NAMES[rank]))
    canvas = Canvas(80, 24)
    ui.draw_strike(canvas.region(0, 0, 80, 20), 0, 16, Strike(3, 0, 30, 40, longest, longest, False, False), False)
    shown = " ".join(canvas.row_text(y).strip() for y in range(16, 20))
    assert f"Red {NAMES[longest]} ({longest}) on Blue {NAMES[longest]} ({longest})" in shown
    assert "Both removed." in shown and not cuts


async def test_every_screen_fits_80_columns(tmp_path, cuts):
    app = await start_app(tmp_path / "gatehouse.db", sysop={"socket": str(tmp_path / "run" / "s.sock")})
    config = tmp_path / "gatehouse.toml"
    config.write_text(f'[sysop]\nsocket = "{app.config.sysop.socket}"\n')
    tour = Tour(cuts)
    try:
        alice = await Caller.connect(app.port)
        await alice.expect("Handle")
        await tour.station(alice, "title")
        await alice.login(ALICE)
        bob = await Caller.connect(app.port, term="ansi-bbs")
        await bob.login(BOB)
        await alice.expect(BOB)
        alice.send("c" + LONG_CHAT + ENTER + ENTER)
        await alice.expect("twice over")
        await tour.station(alice, "lobby with long names and chat")
        alice.send("?")
        await alice.expect("THE LOBBY")
        await tour.station(alice, "lobby help")
        alice.send(ESC + "s")
        await alice.expect("Character set")
        await tour.station(alice, "settings")
        alice.send(ESC + "p")
        await alice.expect("Choose a door")
        await tour.station(alice, "new game: doors")
        for n, info in enumerate(registry().values()):     # the doors' tools (board editors)
            if info.editor is not None:
                alice.send(DOWN * n + "e")
                await wait_until(lambda: type(session_of(app, ALICE).screens[-1]).__name__ == "ToolScreen",
                                 what="the tool")
                await tour.station(alice, f"{info.title}: {info.editor_title}")
                alice.send(ESC)
                await wait_until(lambda: type(session_of(app, ALICE).screens[-1]).__name__ != "ToolScreen",
                                 what="the tool closed")
                alice.send(UP * n)
        alice.send(ESC)
        await alice.expect("Who's online")
        # every door: opponent step, options, its game screen, help pages, game over
        for info in registry().values():
            alice.send("p" + door_digit(info.title))
            await alice.expect("choose your opponent")
            await tour.station(alice, f"{info.title}: opponents")
            alice.send("1")
            await alice.expect("options")
            await tour.station(alice, f"{info.title}: options")
            alice.send(ESC + ESC + ESC)
            await alice.expect("Who's online")
            match = await challenge_computer(alice, app, ALICE, info.title)
            await alice.expect("Q resign")
            await tour.station(alice, f"{info.title}: game")
            alice.send("?")
            pager = await _top(app, ALICE, "pager")
            for page in range(len(pager.pager.pages)):
                await tour.station(alice, f"{info.title}: help page {page + 1}")
                alice.send(" ")
                if page + 1 < len(pager.pager.pages):
                    await wait_until(lambda n=page + 1, p=pager: p.pager.page == n, what="next help page")
            await alice.expect("Q resign")
            alice.send("Qy")
            await alice.expect("GAME OVER")
            assert match.ended
            await tour.station(alice, f"{info.title}: game over")
            alice.send(ESC)
            await alice.expect("Who's online")
        # the records: hall of fame, My games and a replay from it
        alice.send("h")
        await alice.expect("Hall of Fame")
        await tour.station(alice, "hall of fame")
        alice.send(ESC + "m")
        await alice.expect("My games")
        await tour.station(alice, "my games")
        alice.send(ENTER)
        await alice.expect("SPACE/RIGHT next")
        await tour.station(alice, "replay from my games")
        alice.send(ESC)
        await alice.expect("My games")
        alice.send(ESC)
        await alice.expect("Who's online")
        # Alice challenges Bob to the door with the most options: the incoming line
        door = max(registry().values(), key=lambda i: len(i.specs()))
        alice.send("p" + door_digit(door.title))
        await alice.expect("choose your opponent")
        opponents = session_of(app, ALICE).screens[-1].opponents
        alice.send(DOWN * opponents.index(BOB) + ENTER)
        await alice.expect("options")
        rows = len(session_of(app, ALICE).screens[-1]._rows())
        alice.send(RIGHT + DOWN * (rows - 1) + ENTER)
        await bob.expect("challenges you to")
        await tour.station(bob, "incoming challenge")
        assert "y accept · n decline" in bob.text()
        await tour.station(alice, "outgoing challenge")
        assert "(x withdraws)" in alice.text()
        bob.send("y")
        await alice.expect("Q resign")
        await bob.expect("Q resign")
        alice.send("c" + LONG_CHAT + ENTER + ENTER)
        await bob.expect("twice over")
        await tour.station(bob, f"{door.title} between callers, chat")
        await bob.close()
        await alice.expect("the game is suspended")
        await tour.station(alice, "suspended game")
        bob = await Caller.connect(app.port, term="ansi-bbs")
        await bob.expect("Handle")
        bob.send(BOB + ENTER)
        await bob.expect("Password:")
        bob.send("secret1" + ENTER)
        await bob.expect("Resume it now?")
        await tour.station(bob, "resume offer")
        bob.send("y")
        await alice.expect("is back")
        alice.send("Qy")
        await bob.expect("GAME OVER")
        await tour.station(bob, "game over between callers")
        bob.send(ESC)
        alice.send(ESC)
        await alice.expect("Who's online")
        # the sysop console
        console = Console(config)
        try:
            await console.expect("Sysop console")
            await console.expect(ALICE)
            await tour.station(console, "console")
            console.send("?")
            await console.expect("THE SYSOP CONSOLE")
            await tour.station(console, "console help")
            console.send(ESC + "c")
            await alice.expect("The sysop is chatting with you")
            console.send("a split-screen line as long as the sysop may type, seventy chars" + ENTER)
            await alice.expect("seventy chars")
            await tour.station(alice, "split chat, caller")
            await tour.station(console, "split chat, sysop")
            console.send(ESC)
            await console.expect("Sysop console")
            console.send("m" + LONG_CHAT[:68] + ENTER)
            await alice.expect("a very long line")
            await tour.station(alice, "sysop message")
            # the sysop plays: the console's game screen, and the console with the game waiting
            console.send("g" + door_digit(door.title))
            await console.expect("choose your opponent")
            console.send("1")
            await console.expect("options")
            rows = len(session_of(app, "Sysop").screens[-1]._rows())
            console.send(DOWN * (rows - 1) + ENTER)
            await console.expect("q console")
            await tour.station(console, "the sysop's game")
            console.send("q")
            await console.expect("u resumes it")
            await tour.station(console, "console, a game waiting")
        finally:
            await console.close()
        await alice.close()
        await bob.close()
    finally:
        await app.stop()
    assert len(tour.seen) > 30


async def _top(app, handle: str, what: str):
    await wait_until(lambda: type(session_of(app, handle).screens[-1]).__name__ == "PagerScreen", what=what)
    return session_of(app, handle).screens[-1]
