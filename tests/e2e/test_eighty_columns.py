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

import re

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
    active_game,
    door_digit,
    menu_number,
    option_rows,
    start_app,
    start_vs_computer,
    wait_until,
)
from .test_game_over import MOVE_HINTS, challenge

ALICE = "Maximilian Longname1"       # 20 characters, the longest handle
BOB = "Bartholomew Q Smith2"
LONG_CHAT = ("a very long line of chat that goes on and on, so that it has to wrap in the pane "
             "instead of running off, twice over")


@pytest.fixture
def cuts():
    """Every text cut at an edge (the list given) and every text over a
    box's side (``Canvas.over``), from every frame any session draws."""
    Canvas.cut, Canvas.over = [], []
    yield Canvas.cut
    Canvas.cut = Canvas.over = None


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
        assert not Canvas.over, f"{name}: text over a frame: {Canvas.over}"


async def test_the_detector_sees_a_cut_text(cuts):
    canvas = Canvas(80, 24)
    canvas.text(70, 3, "twelve chars")
    canvas.region(0, 20, 40, 2).text(35, 0, "hidden part")
    canvas.text(75, 4, "ok   ")                   # only blanks past the edge: not a cut
    assert [(x, y) for x, y, _ in cuts] == [(70, 3), (35, 20)]
    canvas.box(0, 6, 20, 4)
    canvas.text(1, 7, "fits in the box")          # inside: the right side stays
    canvas.region(1, 8, 30, 1).text(0, 0, "runs over the right side")
    assert Canvas.over == [(1, 8, "runs over the right side")]
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
                await alice.expect_gone("Choose a door", timeout=30)      # the tool has the screen
                await tour.station(alice, f"{info.title}: {info.editor_title}")
                alice.send(ESC)
                await alice.expect("Choose a door", timeout=30)
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
            await start_vs_computer(alice, app, ALICE, info.title)
            await alice.expect("Q resign")
            await tour.station(alice, f"{info.title}: game")
            alice.send("?")
            await alice.expect("SPACE next page")
            for page in range(1, 20):                 # the door's pages, then the server's
                await tour.station(alice, f"{info.title}: help page {page}")
                shown = alice.text()
                alice.send(" ")
                await wait_until(lambda shown=shown: alice.text() != shown, what="the next help page")
                await alice.settle()
                if "SPACE next page" not in alice.text():
                    break
            assert page >= len(info.help_text.split("\f"))
            await alice.expect("Q resign")
            alice.send("Qy")
            await alice.expect("GAME OVER")
            await wait_until(lambda: active_game(app, ALICE) is None, what="the game recorded as over")
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
        alice.send(DOWN * (menu_number(alice, BOB) - 1) + ENTER)
        await alice.expect("Send challenge")
        rows = option_rows(alice.screen.display)
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
            await console.expect("Start game")
            rows = option_rows(console.screen.display)
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



# ----- the ends of games, by turns, a withdrawn challenge, the console held ------
# what pressing each key a key line offers shows, and how to come back
HINT_CHECKS = {
    "v": ("SPACE/RIGHT next", ESC),          # the game's moves, one by one
    "c": ("Say:", ESC),                      # the chat line
    "?": ("THE GAME'S KEYS NOW", ESC),        # the help pages (the last holds the game keys)
}


async def offered_keys_work(caller: Caller, back: str) -> None:
    """Press every key the key line offers: each does what it says (a key
    line naming a key that does nothing in this state fails), and the
    screen comes back as it was (``back`` is on it)."""
    tokens = re.findall(r"(ESC|\S) ([a-z]+)", caller.line(23))
    assert tokens, caller.line(23)
    for key, word in tokens:
        if key in ("ESC", "r"):
            continue
        assert key in HINT_CHECKS, f"the key line offers {key} {word}, which the tour does not know"
        shows, leave = HINT_CHECKS[key]
        caller.send(key)
        if key == "?":
            for _ in range(6):                       # page on to the game keys
                if "THE GAME'S KEYS NOW" in caller.text():
                    break
                caller.send(" ")
                await caller.settle()
        await caller.expect(shows)
        caller.send(leave)
        await caller.expect(back)
    rows = [caller.line(y) for y in range(24)]
    caller.send("r")                                 # a redraw keeps every row
    await caller.settle()
    assert [caller.line(y) for y in range(24)] == rows
    assert ("ESC", "lobby") in tokens


async def _game_between(tour: Tour, alice: Caller, bob: Caller, title: str) -> None:
    await challenge(alice, bob, BOB, title)


async def _ends(tour: Tour, alice: Caller, bob: Caller, title: str, how: str) -> None:
    """One game of ``title`` between the two, ended ``how``; both ends toured."""
    await _game_between(tour, alice, bob, title)
    if how == "resigned":
        bob.send("Qy")
    elif how == "drawn":
        alice.send("=")
        await bob.expect("offers a draw")
        await tour.station(bob, f"{title}: a draw offered")
        bob.send("=")
    for caller in (alice, bob):
        await caller.expect("GAME OVER", timeout=30)
    for caller, side in ((alice, "Alice, UTF-8"), (bob, "Bob, CP437")):
        await tour.station(caller, f"{title}: game over, {how}, {side}")
        text = caller.text()
        for hint in MOVE_HINTS:
            assert hint not in text, (title, how, hint, text)
    if how == "resigned":
        assert "GAME OVER: you won" in alice.line(20) and "GAME OVER: you lost" in bob.line(20)
        assert f"{BOB} resigned." in alice.line(22)
    elif how == "drawn":
        assert "GAME OVER: a draw" in alice.line(20) and "Draw agreed" in alice.line(22)
    else:
        end = alice.line(21) + alice.line(22)          # the reason and the rating: one row, or two
        assert "lost on time" in end or "Neither side moved in time" in end
    await offered_keys_work(alice, "GAME OVER")
    for caller in (alice, bob):
        caller.send(ESC)
        await caller.expect("Who's online")


async def test_every_end_and_waiting_state_fits_and_offers_only_working_keys(tmp_path, cuts):
    tour = Tour(cuts)
    for clock, endings in ((None, ("resigned", "drawn")), (0.05, ("lost on time",))):
        doors = {info.key: {"move_minutes": clock} for info in registry().values()} if clock else {}
        app = await start_app(tmp_path / f"g{clock}.db", limits={"challenges_per_minute": 1000}, **doors)
        try:
            alice = await Caller.connect(app.port)                  # UTF-8
            await alice.login(ALICE)
            bob = await Caller.connect(app.port, term="ansi-bbs")   # CP437
            await bob.login(BOB)
            await alice.expect(BOB)
            for info in registry().values():
                for how in endings:
                    await _ends(tour, alice, bob, info.title, how)
            await alice.close()
            await bob.close()
        finally:
            await app.stop()
    assert len(tour.seen) >= 25


async def test_by_turns_lists_a_withdrawn_challenge_and_the_held_console_fit(tmp_path, cuts):
    app = await start_app(tmp_path / "gatehouse.db", sysop={"socket": str(tmp_path / "run" / "s.sock")})
    config = tmp_path / "gatehouse.toml"
    config.write_text(f'[sysop]\nsocket = "{app.config.sysop.socket}"\n')
    tour = Tour(cuts)
    try:
        alice = await Caller.connect(app.port)
        await alice.login(ALICE)
        bob = await Caller.connect(app.port, term="ansi-bbs")
        await bob.login(BOB)
        await alice.expect(BOB)
        # the by-turns list with no game: only ESC is offered
        alice.send("t")
        await alice.expect("You have no game by turns")
        await tour.station(alice, "by turns, no game")
        assert alice.line(23).strip() == "ESC lobby"
        await bob.expect("by turns")                   # the who list says where Alice is
        alice.send(ESC)
        await alice.expect("Who's online")
        # a challenge withdrawn: the one challenged is told
        alice.send("p" + door_digit("Towers"))
        text = await alice.expect("choose your opponent")
        alice.send(re.search(rf"(\d+)\. {re.escape(BOB)}", text).group(1))
        await alice.expect("options")
        alice.send(DOWN * 20 + ENTER)
        await bob.expect("challenges you to")
        alice.send("x")
        await bob.expect("withdrew the challenge")
        await tour.station(bob, "a withdrawn challenge")
        await tour.station(alice, "a challenge withdrawn")
        # a game by turns: Alice challenges Bob by handle, Bob accepts, each list
        alice.send("p" + door_digit("Awari"))
        text = await alice.expect("choose your opponent")
        alice.send(re.search(r"(\d+)\. By turns with a caller", text).group(1))
        await alice.expect("Handle:")
        alice.send(BOB + ENTER)
        await alice.expect("options")
        alice.send(DOWN * 20 + ENTER)
        await bob.expect("challenges you to")
        bob.send("y")
        await bob.expect("ESC leave, the game waits")
        await tour.station(bob, "a game by turns")
        bob.send(ESC)
        await bob.expect("My games by turns|Who's online", regex=True)
        if "Who's online" in bob.text():
            bob.send("t")
        await bob.expect("My games by turns")
        await tour.station(bob, "by turns, a game listed")
        alice.send("t")
        await alice.expect("My games by turns")
        await tour.station(alice, "by turns, a game listed (the other side)")
        assert "UP/DOWN choose" in alice.line(23)
        alice.send(ESC)
        bob.send(ESC)
        await alice.expect("Who's online")
        # the console with the by-turns clocks held
        console = Console(config)
        try:
            await console.expect("Sysop console")
            console.send("h")
            await console.expect("By-turns clocks held since")
            await tour.station(console, "console, clocks held")
            assert " · " in console.line(12)
        finally:
            await console.close()
        await alice.close()
        await bob.close()
    finally:
        await app.stop()
