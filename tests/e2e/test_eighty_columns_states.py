"""The 80x24 tour, part two: the states the first tour does not reach.

Each door's game ended by its rules (won and lost), the list of games by
turns with and without a game waiting for the caller's move, a live game
waiting for a player who dropped and the offer to resume it, a withdrawn
challenge, the watch list and a watched game, the console with the by-turns
clocks held (holidays) and its accounts screen. Each is seen in both
character sets (CP437 and UTF-8) with 20-character handles. At every
station no text is cut or written over a box's side (``Canvas.cut``,
``Canvas.over``), and every key the key line names is pressed and does
what it says (a key line naming a key that does nothing here fails)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from ansi.canvas import Canvas
from doors.kingdom.rules import parse_square
from tests.server.sysop_harness import Console

from .harness import (
    DOWN,
    ENTER,
    ESC,
    LEFT,
    RIGHT,
    UP,
    Caller,
    active_game,
    arrows_between,
    door_digit,
    game_state,
    game_status,
    moves_of,
    start_app,
    towers_move,
    wait_until,
    wait_while_moving,
)
from .test_eighty_columns import ALICE, BOB, Tour
from .test_game_over import MOVE_HINTS, challenge

CAROL = "Cassandra Whitfield3"      # watchers: 20 characters too
DORA = "Dorothea Vanderbil4"[:19] + "x"
assert len(ALICE) == len(BOB) == len(CAROL) == len(DORA) == 20

KEY = re.compile(r"(ESC|ENTER|SPACE|UP/DOWN|LEFT/RIGHT|PGUP/PGDN|\d-\d|\S) (\S.*)")
SENT = {"ESC": ESC, "ENTER": ENTER, "SPACE": " ", "1-9": "1"}

# the lobby's keys: what each shows, and the keys back
LOBBY_KEYS = {
    "p": ("Choose a door", ESC), "c": ("Say:", ESC), "t": ("My games by turns", ESC),
    "h": ("Hall of Fame", ESC), "m": ("My games", ESC), "w": ("Watch a game", ESC),
    "l": ("Message to (handle)", ESC), "!": ("Page the sysop", ESC), "s": ("Character set", ESC),
    "?": ("THE LOBBY", ESC), "g": ("Log off?", "n"),
}
# a game's keys
GAME_KEYS = {"c": ("Say:", ESC), "?": ("SPACE next page", ESC), "v": ("SPACE/RIGHT next", ESC)}


@pytest.fixture
def cuts():
    """Every text cut at an edge and every text over a box's side, from
    every frame any session draws (as the first tour's)."""
    Canvas.cut, Canvas.over = [], []
    yield Canvas.cut
    Canvas.cut = Canvas.over = None


def key_line(text: str) -> list[tuple[str, str]]:
    """The (key, what it does) pairs a key line names: parts two spaces or
    a middle dot apart, each a key and its words."""
    parts = re.split(r"\s{2,}|\s·\s", text.strip())
    return [(m.group(1), m.group(2)) for m in map(KEY.fullmatch, parts) if m]


async def keys_work(who, name: str, back: str, press: dict[str, tuple[str, str]],
                    done: tuple[str, ...] = ()) -> None:  # noqa: C901
    """Every key ``who``'s key line (the last row) names works here: each
    in ``press`` (key: what it shows, keys back) is pressed, shows that,
    and the screen comes back (``back`` on it); ``done`` are the keys the
    tour presses next anyway (leaving, answering, moving). A key that is in
    neither fails: the tour does not know what it should do."""
    tokens = key_line(who.line(23))
    assert tokens, f"{name}: no key line: {who.line(23)!r}"
    assert not who.line(23).rstrip().endswith(("…", "~")), f"{name}: the key line is cut: {who.line(23)!r}"
    for key, word in tokens:
        if key in done or (key not in press and key in ("r", "UP/DOWN", "LEFT/RIGHT", "PGUP/PGDN")):
            continue
        assert key in press, f"{name}: the key line offers {key} {word}, which does nothing the tour knows"
        shows, leave = press[key]
        who.send(SENT.get(key, "2" if re.fullmatch(r"\d-\d", key) else key))     # 1-5: the second
        try:
            await who.expect(shows)
        except AssertionError as err:
            raise AssertionError(f"{name}: the key line offers {key} {word}; pressed, it did not show "
                                 f"{shows!r}") from err
        if leave:
            who.send(leave)
        await who.expect(back)
        if isinstance(who, Caller):
            await who.settle()


def status_line(caller: Caller) -> str:
    """The match screen's status line: row 20, or higher when the chat strip
    has grown up into rows the door left blank."""
    return next((caller.line(y) for y in range(20, 16, -1) if "GAME OVER" in caller.line(y)), caller.line(20))


async def game_over(tour: Tour, caller: Caller, name: str, result: str) -> None:
    """A finished game's screen: the result once in the header, no move
    hint; every key on its key line works, and its ``?`` keys page names
    only the keys of a finished game."""
    await caller.expect("GAME OVER", timeout=30)
    await tour.station(caller, name)
    assert f"GAME OVER: {result}" in status_line(caller), (name, caller.text())
    text = caller.text()
    for hint in (*MOVE_HINTS, "targets shown", "to move 0", "to place"):
        assert hint not in text, (name, hint, text)
    end = " ".join(caller.line(y).strip() for y in (21, 22)).strip()     # the reason and the rating
    reason = end.split(". ")[0]
    flat = " ".join(line.strip() for line in text.splitlines())
    assert reason and flat.count(reason) == 1, (name, reason, text)     # said once
    await keys_work(caller, name, "GAME OVER", GAME_KEYS, done=("ESC",))
    caller.send("?")
    for _ in range(12):                       # page on to the keys page (the last)
        await caller.settle()
        if "THE GAME'S KEYS NOW" in caller.text():
            break
        caller.send(" ")
    keys = await caller.expect("THE GAME'S KEYS NOW")
    assert "v " in keys and "review" in keys and "resign" not in keys and "offer a draw" not in keys, keys
    caller.send(ESC)
    await caller.expect("GAME OVER")


async def both_over(tour: Tour, alice: Caller, bob: Caller, title: str) -> None:
    """The end seen on both sides: one won and the other lost, or a draw."""
    for caller in (alice, bob):
        await caller.expect("GAME OVER", timeout=60)
    a = status_line(alice)
    results = (("you won", "you lost") if "you won" in a else ("you lost", "you won") if "you lost" in a
               else ("a draw", "a draw"))
    await game_over(tour, alice, f"{title}: {results[0]} by the rules, UTF-8", results[0])
    await game_over(tour, bob, f"{title}: {results[1]} by the rules, CP437", results[1])
    for caller in (alice, bob):
        caller.send(ESC)
        await caller.expect("Who's online")
        await caller.settle()
        assert caller.line(23).startswith(" p play"), caller.line(23)     # the game left nothing behind


def kingdom_board(state_dir: Path) -> None:
    """A board file (as a sysop may put one in the state directory) where
    the first player's queen takes the king at once, with a title as long as
    a title may be."""
    rows = ["k" + "." * 18, *["." * 19] * 17, "Q" + "." * 17 + "K"]
    folder = state_dir / "kingdom" / "boards"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "tour.txt").write_text("title: The queen stands before the open file, the king waits\n"
                                     + "\n".join(rows) + "\n")


async def kingdom_on_the_tour_board(challenger: Caller, other: Caller, other_name: str) -> None:
    challenger.send("p" + door_digit("Kingdom"))
    text = await challenger.expect("choose your opponent")
    challenger.send(re.search(rf"(\d+)\. {re.escape(other_name)}\b", text).group(1))
    await challenger.expect("options")
    for _ in range(10):                         # the Board row: the choices go round
        if "tour: The queen" in challenger.text():
            break
        challenger.send(RIGHT)
        await challenger.settle()
    shown = challenger.screen.display
    y = next(y for y, line in enumerate(shown) if "tour: The queen" in line)
    choice = shown[y] + shown[y + 1]           # a long choice goes on in the row below
    assert choice.count("<") == 1 and choice.count(">") == 1, choice   # one "<" before it, one ">" after
    assert "the king waits >" in shown[y + 1], choice
    challenger.send(DOWN * 20 + ENTER)
    await other.expect("challenges you to Kingdom")
    other.send("y")
    await challenger.expect("Your move")
    found = re.search(r"Cursor ([a-s]\d{1,2})", challenger.text())
    assert found is not None, challenger.text()
    challenger.send(arrows_between(parse_square(found.group(1)), parse_square("a1"), 19) + ENTER)
    challenger.send(arrows_between(parse_square("a1"), parse_square("a19"), 19) + ENTER)


async def play_stone_towers(app, callers: dict[int, Caller], game_id: int) -> None:
    """Both callers build where the rules allow until the game's turns run out."""
    from doors.stone_towers.rules import PASS
    while game_status(app, game_id) == "active":
        state = game_state(app, game_id)
        if state.is_terminal():
            break
        player = state.to_move()[0]
        before = len(state.history)
        legal = state.legal_actions(player)
        keys = "xh"
        if legal != [PASS]:
            row, col = divmod(legal[0], state.size)
            centre = state.size // 2
            keys += (DOWN if row > centre else UP) * abs(row - centre) + \
                (RIGHT if col > centre else LEFT) * abs(col - centre)
        for _attempt in range(6):        # typed again if the screen had not yet had the last turn
            callers[player].send(keys + ENTER)
            try:
                await wait_until(lambda before=before: len(moves_of(app, game_id)) > before
                                 or game_status(app, game_id) != "active", timeout=5, what="the turn played")
                break
            except AssertionError:
                continue
        else:
            raise AssertionError(f"turn {legal[0]} never played:\n{callers[player].text()}")


async def test_each_door_ended_by_its_rules_fits_on_both_sides(tmp_path, cuts):
    tour = Tour(cuts)
    kingdom_board(tmp_path)
    app = await start_app(tmp_path / "gatehouse.db", limits={"challenges_per_minute": 1000})
    try:
        alice = await Caller.connect(app.port, source="127.0.0.2")                  # UTF-8
        await alice.login(ALICE)
        bob = await Caller.connect(app.port, term="ansi-bbs", source="127.0.0.3")   # CP437
        await bob.login(BOB)
        await alice.expect(BOB)
        # Towers: 8 towers placed, each moved once; rated (two addresses, the pair's first game)
        await challenge(alice, bob, BOB, "Towers")
        game_id = active_game(app, ALICE)[0]
        while game_status(app, game_id) == "active" and not game_state(app, game_id).is_terminal():
            mover = game_state(app, game_id).to_move()[0]
            await towers_move((alice, bob)[mover], app, game_id)
        for caller in (alice, bob):
            await caller.expect("GAME OVER")
            assert "Your rating: 1500 ->" in caller.text(), caller.text()
        await both_over(tour, alice, bob, "Towers")
        for caller in (alice, bob):                   # the who list names the door of each rating
            for handle in (ALICE, BOB):
                await caller.expect(rf"{re.escape(handle)} +lobby +\d{{3,4}} To ", regex=True)
        # Kingdom, twice: the first player takes the king; each side wins once
        await kingdom_on_the_tour_board(alice, bob, BOB)
        await both_over(tour, alice, bob, "Kingdom (Alice takes the king)")
        await kingdom_on_the_tour_board(bob, alice, ALICE)
        await both_over(tour, alice, bob, "Kingdom (Bob takes the king)")
        # Awari: both ask the computer to finish it
        await challenge(alice, bob, BOB, "Awari")
        alice.send("a")
        await bob.expect("asks for auto finish")       # (the key help says "auto finish" all along)
        bob.send("a")
        game_id = active_game(app, ALICE)[0]
        for caller in (alice, bob):      # the computer plays it out: bound each move, not the game
            await wait_while_moving(app, game_id, lambda c=caller: "GAME OVER" in c.text(), what="the end")
        await both_over(tour, alice, bob, "Awari")
        # Stone Towers on the smallest board, 5 turns each
        alice.send("p" + door_digit("Stone Towers"))
        text = await alice.expect("choose your opponent")
        alice.send(re.search(rf"(\d+)\. {re.escape(BOB)}\b", text).group(1))
        await alice.expect("options")
        alice.send(LEFT * 4 + DOWN + LEFT * 3 + ENTER)     # 9x9 -> 5x5, 20 turns -> 5; ENTER sends
        await bob.expect("challenges you to Stone Towers")
        bob.send("y")
        await alice.expect("Q resign")
        game_id = active_game(app, ALICE)[0]
        await play_stone_towers(app, {0: alice, 1: bob}, game_id)
        await both_over(tour, alice, bob, "Stone Towers")
        await alice.close()
        await bob.close()
    finally:
        await app.stop()
    assert len(tour.seen) == 10


# the console's keys (a caller selected: the first, in the lobby)
CONSOLE_KEYS = {"?": ("THE SYSOP CONSOLE", ESC), "g": ("Choose a door", ESC), "M": ("Message to all", ESC),
                "A": ("Accounts (", ESC), "c": ("(sysop)", ESC), "m": ("(ENTER sends, ESC cancels)", ESC),
                "p": ("Choose a door", ESC), "w": ("is not playing", ""), "k": ("Kick, reason", ESC)}
ACCOUNTS_KEYS = {"r": ("New password", ESC), "b": ("Ban, reason", ESC), "B": ("Ban with address", ESC),
                 "n": ("New handle", ESC), "u": ("not banned", "")}
TURNS_KEYS = {"t": ("MESSAGES", ESC), "ENTER": ("ESC leave, the game waits", ESC)}


async def lobby(tour: Tour, caller: Caller, name: str) -> None:
    """The lobby as ``caller`` sees it now, and every key on its line."""
    await caller.expect("Who's online")
    await tour.station(caller, name)
    await keys_work(caller, name, "Who's online", LOBBY_KEYS)
    caller.send("r")                 # "You stay." (g, then n) gives the key line back at the next key
    await caller.expect("p play")


async def withdrawn(tour: Tour, by: Caller, to: Caller, to_name: str, name: str) -> None:
    """``by`` challenges ``to`` and withdraws it: ``to`` is told."""
    by.send("p" + door_digit("Towers"))
    text = await by.expect("choose your opponent")
    by.send(re.search(rf"(\d+)\. {re.escape(to_name)}\b", text).group(1))
    await by.expect("options")
    by.send(ENTER)
    await to.expect("challenges you to")
    await tour.station(to, f"a challenge to you, {name}")
    assert "y accept · n decline" in to.text()        # answered below (n) and in the game by turns (y)
    await tour.station(by, f"your challenge waits, {name}")
    by.send("x")
    await to.expect("withdrew the challenge")
    await tour.station(to, f"a withdrawn challenge, {name}")
    to.send("r")                                   # the next key: the key line is back
    await lobby(tour, to, f"the lobby after a withdrawn challenge, {name}")


async def hall_of_fame(tour: Tour, caller: Caller, charset: str) -> None:
    """The hall of fame on a new board (no rated game yet), a door's page
    and the BBS league's, each with its keys."""
    caller.send("h")
    await caller.expect("Hall of Fame · Stratego")
    await caller.expect("Your record in Stratego")
    await tour.station(caller, f"the hall of fame on a new board, {charset}")
    keys = {"1-5": ("Hall of Fame · Awari", "1"), "b": ("BBS against BBS", "1"), "m": ("My games", ESC)}
    await keys_work(caller, f"the hall of fame, {charset}", "Hall of Fame · Stratego", keys, done=("ESC",))
    caller.send("b")
    await caller.expect("No games between callers of two BBSes yet.")
    await tour.station(caller, f"the hall of fame, BBS against BBS, {charset}")
    keys = {"1-5": ("Hall of Fame · Awari", "b"), "m": ("My games", ESC)}
    await keys_work(caller, f"the BBS league, {charset}", "Hall of Fame · BBS against BBS", keys, done=("ESC",))
    caller.send(ESC)
    await caller.expect("Who's online")


async def turns_list(tour: Tour, caller: Caller, name: str, waiting: bool) -> None:
    """``t``: the caller's games by turns, one waiting for their move or none."""
    caller.send("t")
    await caller.expect("My games by turns")
    await caller.expect("YOUR TURN" if waiting else "their turn")
    await tour.station(caller, name)
    title = caller.line(1)
    assert ("Your turn in 1 game" in title) if waiting else ("None waits for your move" in title), title
    assert re.search(r"(YOUR TURN|their turn), 2d 2\dh left\s+│$", caller.line(3)), caller.line(3)  # whole
    await keys_work(caller, name, "My games by turns", TURNS_KEYS, done=("ESC",))
    caller.send(ESC)
    await caller.expect("Who's online")


async def resumed(tour: Tour, app, caller_name: str, term: str, other: Caller) -> Caller:
    """``caller_name`` drops out of a live game: ``other`` sees it wait;
    they call back and are offered the game (with a game by turns waiting
    for their move: the offer says so, and nothing covers the game's top)."""
    mine, theirs = ("CP437", "UTF-8") if term == "ansi-bbs" else ("UTF-8", "CP437")
    await other.expect("suspended", timeout=30)
    await tour.station(other, f"a game waiting for its player, {theirs}")
    await keys_work(other, f"a game waiting for its player, {theirs}", "suspended", GAME_KEYS,
                    done=("ESC", "Q", "="))
    back = await Caller.connect(app.port, term=term)
    await back.expect("Handle")
    back.send(caller_name + ENTER)
    await back.expect("Password:")
    back.send("secret1" + ENTER)
    await back.expect("Resume it now?")
    await tour.station(back, f"the resume offer, {mine}")
    await keys_work(back, f"the resume offer, {mine}", "Resume it now?", {}, done=("y", "n"))
    assert "Welcome back" in back.line(0), back.line(0)
    back.send("y")
    await other.expect("is back")
    await back.expect("Q resign")
    await tour.station(back, f"the game resumed, {mine}")
    assert "TOWERS" in back.line(0), back.line(0)
    for caller in (back, other):                       # the suspension is over on both sides
        await caller.expect_gone("suspended")
    return back


async def test_waiting_states_lists_watching_and_the_console_fit_in_both_charsets(tmp_path, cuts):
    app = await start_app(tmp_path / "gatehouse.db", sysop={"socket": str(tmp_path / "run" / "s.sock")},
                          limits={"challenges_per_minute": 1000})
    config = tmp_path / "gatehouse.toml"
    config.write_text(f'[sysop]\nsocket = "{app.config.sysop.socket}"\n')
    tour = Tour(cuts)
    try:
        alice = await Caller.connect(app.port)                  # UTF-8
        await alice.login(ALICE)
        bob = await Caller.connect(app.port, term="ansi-bbs")   # CP437
        await bob.login(BOB)
        await alice.expect(BOB)
        await lobby(tour, alice, "the lobby, UTF-8")
        await lobby(tour, bob, "the lobby, CP437")
        alice.send("t")                               # no game by turns: how to start one, in the wizard's words
        text = await alice.expect("You have no game by turns")
        assert '"By turns with a caller (type a handle)"' in text, text
        alice.send(ESC)
        await alice.expect("Who's online")
        await hall_of_fame(tour, alice, "UTF-8")
        await hall_of_fame(tour, bob, "CP437")
        alice.send("c" + "said before the others came" + ENTER + ESC)
        await bob.expect("said before the others came")
        # a challenge withdrawn, each way
        await withdrawn(tour, alice, bob, BOB, "CP437")
        await withdrawn(tour, bob, alice, ALICE, "UTF-8")
        # a game by turns: Alice (to move first) and Bob; then Alice moves
        alice.send("p" + door_digit("Awari"))
        text = await alice.expect("choose your opponent")
        alice.send(re.search(r"(\d+)\. By turns with a caller", text).group(1))
        await alice.expect("Handle:")
        alice.send(BOB + ENTER)
        await alice.expect("options")
        alice.send(ENTER)
        await bob.expect("challenges you to")
        bob.send("y")
        await bob.expect("ESC leave, the game waits")
        await tour.station(bob, "a game by turns, the other's move, CP437")
        bob.send(ESC)
        await bob.expect("My games by turns|Who's online", regex=True)
        if "My games by turns" in bob.text():
            bob.send(ESC)
        await bob.expect("Who's online")
        await turns_list(tour, bob, "by turns, none waiting, CP437", waiting=False)
        await turns_list(tour, alice, "by turns, one waiting, UTF-8", waiting=True)
        game_id = active_game(app, ALICE)[0]
        alice.send("t" + ENTER)
        await alice.expect("ESC leave, the game waits")
        await tour.station(alice, "a game by turns, your move, UTF-8")
        alice.send(ENTER)                              # sow the hole under the cursor
        await wait_until(lambda: len(moves_of(app, game_id)) >= 1, what="Alice's move")
        alice.send(ESC)
        await alice.expect("My games by turns|Who's online", regex=True)
        if "My games by turns" in alice.text():
            alice.send(ESC)
        await turns_list(tour, alice, "by turns, none waiting, UTF-8", waiting=False)
        await turns_list(tour, bob, "by turns, one waiting, CP437", waiting=True)
        # a live game between the two, watched by two more callers
        await challenge(alice, bob, BOB, "Towers")
        carol = await Caller.connect(app.port)
        await carol.login(CAROL)
        dora = await Caller.connect(app.port, term="ansi-bbs")
        await dora.login(DORA)
        for newcomer in (carol, dora):                # the lobby's last chat lines, kept for them
            await newcomer.expect("said before the others came")
        for watcher, charset in ((carol, "UTF-8"), (dora, "CP437")):
            watcher.send("w")
            await watcher.expect("Towers:")
            await tour.station(watcher, f"the watch list, {charset}")
            if watcher is dora:                        # the second watcher: the count whole
                assert watcher.line(4).rstrip().endswith("0 actions · 1 watching"), watcher.line(4)
            await keys_work(watcher, f"the watch list, {charset}", "Watch a game", {}, done=("1-9", "ESC"))
            watcher.send("1")
            await watcher.expect("GATEHOUSE")
            await watcher.expect_gone("Watch a game")
            await tour.station(watcher, f"a game watched, {charset}")
            assert "Enter:" not in watcher.text() and "Arrows" not in watcher.text()   # no move hints
            await keys_work(watcher, f"a game watched, {charset}", "vs", GAME_KEYS, done=("ESC",))
        # the sysop watches the game from the console (Alice, node 1, selected): the players are told
        console = Console(config)
        try:
            await console.expect(ALICE, timeout=30)
            console.send("w")
            await console.expect("ESC console", timeout=30)
            await tour.station(console, "the sysop watching a game")
            for player in (alice, bob):                # told once, in the game's log
                await player.expect("Sysop is watching.")
                assert player.text().count("Sysop is watching") == 1, player.text()
            await keys_work(console, "the sysop watching a game", "ESC console", GAME_KEYS, done=("ESC",))
            console.send(ESC)
            await console.expect("Sysop console", timeout=30)
        finally:
            await console.close()
        # each side drops in turn: the other sees the game wait, and the one back is offered it
        await bob.close()
        bob = await resumed(tour, app, BOB, "ansi-bbs", alice)
        await alice.close()
        alice = await resumed(tour, app, ALICE, "xterm", bob)
        alice.send("Qy")
        await bob.expect("GAME OVER")
        for caller in (alice, bob, carol, dora):
            caller.send(ESC)
            await caller.expect("Who's online")
        # the console in both charsets: the by-turns clocks held (holidays), the accounts
        for term, charset in (("xterm", "UTF-8"), ("ansi", "CP437")):
            console = Console(config, term=term)
            try:
                await console.expect("Sysop console", timeout=30)
                await console.expect(ALICE, timeout=30)
                console.send("h")
                await console.expect("By-turns clocks held since", timeout=30)
                await tour.station(console, f"console, clocks held, {charset}")
                await keys_work(console, f"console, clocks held, {charset}", "Sysop console", CONSOLE_KEYS,
                                done=("q", "e", "a", "h"))
                console.send("h")                      # the clocks run again
                await console.expect_gone("By-turns clocks held since", timeout=30)
                console.send("A")
                await console.expect("Accounts (", timeout=30)
                await tour.station(console, f"the accounts, {charset}")
                await keys_work(console, f"the accounts, {charset}", "Accounts (", ACCOUNTS_KEYS, done=("ESC",))
            finally:
                await console.close()
        for caller in (alice, bob, carol, dora):
            await caller.close()
    finally:
        await app.stop()
    assert len(tour.seen) == 35
