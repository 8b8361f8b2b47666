"""Ratings, the hall of fame and My games, as callers see them over telnet:
a rated game between two callers and one against the computer, the rating
change at game over, ratings in the who list and on the game screen, the
hall of fame page at 80x24 with a 20-character handle in full, and a
replay opened from My games."""
import json
import re

from doors._core.game import Outcome, Termination
from server.services.glicko2 import Game, Rating, rate, rate_game
from server.services.ratings import computer_anchor

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
    menu_number,
    start_vs_computer,
    towers_move,
    wait_until,
)

END = "\x1b[F"

LONG = "Alexandra Longhandle"          # 20 characters, the longest handle there is


async def challenge(app, challenger, name, target, target_name):
    challenger.send("p")
    await challenger.expect("Choose a door")
    challenger.send(door_digit("Towers"))
    await challenger.expect("choose your opponent")
    challenger.send(DOWN * (menu_number(challenger, target_name) - 1) + ENTER)
    await challenger.expect("Who places first")
    challenger.send(RIGHT)              # the challenger places first
    challenger.send(DOWN * 2 + ENTER)
    await target.expect(f"{name} challenges you to Towers")
    target.send("y")
    await challenger.expect("Your turn")
    game = active_game(app, name)
    assert game is not None and game[1] == target_name
    return game[0]


async def test_rated_games_hall_of_fame_and_my_games(app):
    alice = await Caller.connect(app.port)
    await alice.login(LONG)
    bob = await Caller.connect(app.port, term="ansi-bbs", source="127.0.0.2")   # CP437; another home
    await bob.login("Bob")
    await alice.expect("Bob")
    text = await bob.expect(LONG[:20])
    assert "Rating" in text and "Bob" in text

    # a game between the two: ratings on the game screen, then Alice resigns
    game_id = await challenge(app, alice, LONG, bob, "Bob")
    await alice.expect(f"{LONG} new · Bob new")
    for _ in range(2):                  # two moves each: the game counts
        await towers_move(alice, app, game_id)
        await towers_move(bob, app, game_id)
    await alice.expect("Your turn")
    alice.send("Q")
    await alice.expect("Resign this game?")
    alice.send("y")
    loss, win = rate_game(Rating(), Rating(), 0.0)        # Bob wins, as seat 1
    lost = f"Your rating: 1500 -> {loss.rating:.0f} ({round(loss.rating) - 1500:+d})"
    won = f"Your rating: 1500 -> {win.rating:.0f} ({round(win.rating) - 1500:+d})"
    await alice.expect(lost)
    await bob.expect(won)
    # back in the lobby the who list shows the new ratings
    alice.send(ESC)
    bob.send(ESC)
    await bob.expect("Who's online")
    await bob.expect(f"{LONG} lobby    {loss.rating:.0f} To", timeout=30)   # To: Towers, as the Doors box says
    await bob.expect(f"Bob                  lobby    {win.rating:.0f} To")
    assert any(re.search(r"│ Towers +To │", line) for line in bob.screen.display)
    bob.send("z")                       # any key clears the last game's result line
    await bob.expect("h fame  m games")

    # a game against the computer: only Alice's rating moves, from the anchor
    computer_game, level = await start_vs_computer(alice, app, LONG, "Towers")
    # (two long names do not fit beside the key hints: the ratings alone)
    await alice.expect(f"Rated {loss.rating:.0f} vs {computer_anchor('towers', level).rating:.0f}")
    for _ in range(2):                  # two moves each: the game counts
        await wait_until(lambda: 0 in game_state(app, computer_game).to_move(), what="Alice's turn")
        await towers_move(alice, app, computer_game)
    await wait_until(lambda: 0 in game_state(app, computer_game).to_move(), what="the computer's reply")
    alice.send("Q")
    await alice.expect("Resign this game?")
    alice.send("y")
    after = rate(loss, [Game(computer_anchor("towers", level), 0.0)])
    await alice.expect(f"Your rating: {loss.rating:.0f} -> {after.rating:.0f}")
    # the computer's rating never moves: the database keeps none for it
    await wait_until(lambda: db_rows(app, "SELECT before1, after1 FROM game_ratings WHERE game_id = ?",
                                     computer_game) == [(None, None)], what="the game's ratings saved")
    assert db_rows(app, "SELECT COUNT(*) FROM ratings WHERE handle LIKE 'computer:%'") == [(0,)]
    alice.send(ESC)
    await alice.expect("Who's online")

    # the hall of fame, Towers page: everything on an 80x24 screen, handles in full
    alice.send("h")
    await alice.expect("Hall of Fame")
    alice.send(door_digit("Towers"))
    text = await alice.expect("Your record in Towers")
    lines = alice.screen.display
    assert len(lines) == 24 and all(len(line) == 80 for line in lines)
    # the leaders: callers with 5 rated games only (nobody yet), and the page says so
    assert "Leaders: rated games only, callers with 5 or more of them." in lines[2]
    assert "Nobody has 5 rated games here yet" in text
    assert f"Won 0  lost 2  drawn 0   rating {after.rating:.0f}" in text
    against = {line[2:22].strip(): line[22:34].split() for line in lines[18:22]}
    assert against["Bob"] == ["0", "1", "0"]
    assert against[f"Computer ({level})"] == ["0", "1", "0"]
    assert lines[23].startswith(" 1-5 or LEFT/RIGHT another door")
    # another door: nobody rated yet
    alice.send(door_digit("Awari"))
    await alice.expect("Nobody has 5 rated games here yet")
    await alice.expect("Your record in Awari")

    # My games: both games with result and rating change; ENTER replays one
    alice.send("m")
    text = await alice.expect("My games")
    first, second = alice.screen.display[3], alice.screen.display[4]
    assert f"Towers       Computer ({level})" in first and "lost" in first
    assert f"{loss.rating:.0f}->{after.rating:.0f}" in first
    assert "Towers       Bob" in second and "lost" in second
    assert f"1500->{loss.rating:.0f} {round(loss.rating) - 1500:+d}" in second
    alice.send(DOWN + ENTER)
    await alice.expect(f"Replay of game {game_id}: Towers, {LONG} vs Bob")
    await alice.expect("Move 0 of 4")
    alice.send(RIGHT)
    await alice.expect("Move 1 of 4")
    alice.send(END)
    await alice.expect(f"Result: Bob won ({LONG} resigned)")
    alice.send(ESC)
    await alice.expect("ENTER replay")
    alice.send(ESC + ESC)
    await alice.expect("Who's online")

    # Bob's CP437 terminal shows his page the same way
    bob.send("h")
    await bob.expect("Hall of Fame · Stratego")
    bob.send(door_digit("Towers"))
    text = await bob.expect(f"Won 1  lost 0  drawn 0   rating {win.rating:.0f} (±")
    assert "┌─ Your record in Towers" in text and "longest win streak 1" in text
    assert bob.screen.display[18][2:34].split() == [LONG.split()[0], LONG.split()[1], "1", "0", "0"]

    # the record the CLI reads says the same
    rows = db_rows(app, "SELECT outcome FROM games WHERE status = 'finished'")
    assert len(rows) == 2
    assert {Outcome.from_json(json.loads(outcome)).termination for (outcome,) in rows} == {Termination.RESIGN}
    await alice.close()
    await bob.close()
