"""Login and registration, as a caller sees them."""
from .harness import ENTER, Caller, account, wait_until


async def test_title_art_then_registration_then_lobby(app):
    caller = await Caller.connect(app.port)
    text = await caller.expect("Handle")
    assert "Welcome to Gatehouse" in text
    caller.send("Alice" + ENTER)
    await caller.expect("No caller named Alice. Register?")
    caller.send("y")
    await caller.expect("Choose a password")
    caller.send("s3cret!" + ENTER)
    await caller.expect("once more")
    assert "s3cret" not in caller.text()
    caller.send("s3cret!" + ENTER)
    text = await caller.expect("Who's online")
    assert "Alice" in text and "lobby" in text
    await caller.close()
    await wait_until(lambda: account(app, "alice") is not None, what="the account saved")
    assert account(app, "alice") == ("Alice", "telnet")
