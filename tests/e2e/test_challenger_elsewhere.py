"""The challenger reads help, or starts on another challenge, while they
wait: when the first challenge is accepted, their screen goes to the game
(they hold the seat, so the game must be in front of them), and when they
hang up the game waits for them as after any drop."""
from .harness import DOWN, ENTER, RIGHT, door_digit, menu_number, wait_until
from .test_two_callers import two_in_lobby


async def challenge_bob(alice, bob) -> None:
    alice.send("p")
    await alice.expect("Choose a door")
    alice.send(door_digit("Towers"))
    await alice.expect("choose your opponent")
    alice.send(DOWN * (menu_number(alice, "Bob") - 1) + ENTER)
    await alice.expect("Who places first")
    alice.send(RIGHT + DOWN * 2 + ENTER)        # the challenger places first; send
    await alice.expect("Waiting for Bob")
    await bob.expect("Alice challenges you to Towers")


async def test_a_challenger_reading_help_is_taken_to_the_game(app):
    alice, bob = await two_in_lobby(app)
    await challenge_bob(alice, bob)
    alice.send("?")
    await alice.expect("THE LOBBY")
    bob.send("y")
    await bob.expect("Alice to move")
    await alice.expect("Your turn")
    assert "THE LOBBY" not in alice.text()
    match = next(iter(app.matches.live.values()))
    assert not match.suspended
    await alice.close()                                   # the seat is left as after a drop
    await bob.expect("Alice left: the game is suspended")
    await wait_until(lambda: match.suspended and [s.name for s in match.absent()] == ["Alice"],
                     what="Alice's seat empty")
    await bob.close()


async def test_a_challenger_on_the_new_game_screen_is_taken_to_the_game(app):
    alice, bob = await two_in_lobby(app)
    await challenge_bob(alice, bob)
    alice.send("p")
    await alice.expect("Choose a door")
    bob.send("y")
    await bob.expect("Alice to move")
    await alice.expect("Your turn")
    assert "Choose a door" not in alice.text()
    await alice.close()
    await bob.close()
