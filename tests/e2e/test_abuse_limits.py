"""Abuse limits as callers meet them over telnet: new accounts per address
per hour, a second challenge to the same caller, chat that free accounts
cannot multiply."""
from __future__ import annotations

from .harness import DOWN, ENTER, Caller, door_digit, menu_number, start_app, user_exists


async def test_an_address_registers_only_so_many_accounts_an_hour_but_old_ones_still_log_in(tmp_path):
    app = await start_app(tmp_path / "g.db", limits={"new_accounts_per_hour": 2})
    try:
        for name in ("Ann", "Ben"):
            caller = await Caller.connect(app.port)
            await caller.login(name)
            await caller.expect("p play")
            await caller.log_off()
        third = await Caller.connect(app.port)
        await third.expect("Handle")
        third.send("Cid" + ENTER)
        text = await third.expect("No more new accounts from your address this hour")
        assert "Register?" not in text
        assert not user_exists(app, "Cid")
        await third.login("Ann", new=False)                 # an existing account still logs in
        await third.expect("p play")
        await third.close()
    finally:
        await app.stop()


async def test_a_second_challenge_to_the_same_caller_waits_for_the_first(app):
    alice = await Caller.connect(app.port)
    await alice.login("Alice")
    bob = await Caller.connect(app.port)
    await bob.login("Bob")
    await alice.expect("Bob")

    async def challenge() -> None:
        alice.send("p" + door_digit("Towers"))
        await alice.expect("choose your opponent")
        alice.send(DOWN * (menu_number(alice, "Bob") - 1) + ENTER)
        await alice.expect("Who places first")
        alice.send(DOWN * 2 + ENTER)

    await challenge()
    await alice.expect("Waiting for Bob")
    await bob.expect("Alice challenges you to Towers")
    await challenge()
    await alice.expect("You already have a challenge waiting for Bob.")
    # Bob has one challenge, not two: declining it leaves none
    assert "(+1)" not in await bob.expect("Alice challenges you to Towers")
    bob.send("n")
    await bob.expect_gone("Alice challenges you")
    await alice.expect_gone("Waiting for Bob")
    await alice.close()
    await bob.close()


async def test_chat_from_one_address_is_limited_whatever_the_accounts(tmp_path):
    # two lines per account, four per address: a third account adds nothing
    app = await start_app(tmp_path / "g.db", limits={"chat_lines_per_10s": 2})
    try:
        callers = []
        for name in ("Ann", "Ben", "Cid"):
            caller = await Caller.connect(app.port)
            await caller.login(name)
            await caller.expect("p play")
            callers.append(caller)
        said = 0
        for caller, name in zip(callers, ("Ann", "Ben", "Cid"), strict=True):
            caller.send("c")
            await caller.expect("Say:")
            for n in range(2):
                caller.send(f"{name} line {n}" + ENTER)
                if said < 4:
                    await callers[0].expect(f"{name}: {name} line {n}")
                    said += 1
        await callers[2].expect("too much chat from your address")
        for caller in callers:
            await caller.settle()
            assert "Cid line" not in caller.text()
        for caller in callers:
            await caller.close()
    finally:
        await app.stop()
