"""Messages between callers and the sysop's account tools, without sockets."""
from __future__ import annotations

from server.services import events as E
from server.services.accounts import AccountError, Accounts
from server.services.login_guard import LoginGuard
from server.services.messages import MAX_KEPT, CallerMessages
from server.services.nodes import NodeRegistry
from server.services.store import Store, check_password
from server.services.store_accounts import KeptMessage

from .fakes import FakeSeat, seat


async def store_with(tmp_path, *handles: str) -> Store:
    store = await Store(tmp_path / "g.db").open()
    for handle in handles:
        await store.create_user(handle, b"salt", b"hash")
    return store


async def test_a_message_never_carries_control_or_escape_characters(tmp_path):
    store = await store_with(tmp_path, "Alice", "Bob", "Carol")
    nodes: NodeRegistry[FakeSeat] = NodeRegistry(10, 10)
    bob = seat(nodes, "Bob")
    messages = CallerMessages(store, nodes)
    assert await messages.send("Alice", "bob", "\x1b[2J\x1b]0;owned\x07hi\r\nthere\x9b") == "Message sent to Bob."
    (event,) = bob.inbox
    assert isinstance(event, E.CallerMessage) and event.who == "Message from Alice"
    assert all(ch.isprintable() for ch in event.text) and "\x1b" not in event.text
    assert await messages.send("Alice", "Carol", "\x1b[31mred\x1b[0m") == \
        "Carol is not on: the message is kept for their next call."
    (kept,) = await store.take_messages("carol")
    assert all(ch.isprintable() for ch in kept.text) and "red" in kept.text
    await store.close()


async def test_who_may_be_written_to_and_how_many_wait(tmp_path):
    store = await store_with(tmp_path, "Alice", "Carol")
    nodes: NodeRegistry[FakeSeat] = NodeRegistry(10, 10)
    messages = CallerMessages(store, nodes)
    assert await messages.send("Alice", "Nobody", "hello") == "There is no caller called Nobody."
    assert await messages.send("Alice", "ALICE", "hello") == "That is you."
    assert await messages.send("Alice", "Carol", "   ") == "Nothing sent."
    for n in range(MAX_KEPT):
        await store.keep_message("carol", KeptMessage("Alice", f"line {n}", 0.0))
    assert await messages.send("Alice", "Carol", "one more") == "Carol has too many messages waiting already."
    await store.close()


async def test_a_reset_password_works_and_a_rename_waits_for_the_games_to_end(tmp_path):
    store = await store_with(tmp_path, "Alice", "Bob")
    accounts = Accounts(store)
    assert await accounts.reset_password("alice", "new-secret", "Sysop") == "New password set for Alice."
    user = await store.get_user("Alice")
    assert user is not None and check_password("new-secret", user.pw_salt, user.pw_hash)
    for unusable in ("x" * 65, "new-secret\x07"):          # one the login line could never take
        try:
            await accounts.reset_password("alice", unusable, "Sysop")
            raise AssertionError(f"set {unusable!r}")
        except AccountError as exc:
            assert str(exc).startswith("A password is at most 64 printable characters"), exc
    user = await store.get_user("Alice")
    assert user is not None and check_password("new-secret", user.pw_salt, user.pw_hash)   # kept
    game = await store.create_game("towers", {}, ("Alice", "Bob"))
    try:
        await accounts.rename("Alice", "Alicia", "Sysop")
        raise AssertionError("renamed with a game not over")
    except AccountError as exc:
        assert str(exc) == "Alice has a game that is not over: rename them after it ends."
    await store.finish_game(game, {"winner": 0, "termination": "rules", "reason": "won"})
    assert await accounts.rename("Alice", "Alicia", "Sysop") == "Alice is now Alicia."
    assert (await store.get_game(game)).players == ("Alicia", "Bob")
    assert await store.get_user("Alice") is None and await store.get_user("alicia") is not None
    await store.close()


async def test_a_renamed_caller_keeps_the_addresses_they_call_from(tmp_path):
    """Someone guessing at Alicia's password from elsewhere makes her wait
    only away from home: the home address she logged in from as Alice is
    still hers after the rename."""
    store = await store_with(tmp_path, "Alice")
    guard = LoginGuard(clock=lambda: 1000.0, store=store)
    await guard.logged_in("10.0.0.1", "Alice")
    accounts = Accounts(store, login_guard=guard)
    assert await accounts.rename("Alice", "Alicia", "Sysop") == "Alice is now Alicia."
    for _ in range(4):
        guard.failed("192.0.2.9", "Alicia")
    assert guard.wait_for("192.0.2.8", "Alicia") > 0          # the account's back-off binds elsewhere
    assert guard.wait_for("10.0.0.1", "Alicia") == 0          # not at home
    assert (await store.known_addresses()) == {"alicia": ["10.0.0.1"]}
    await store.close()
