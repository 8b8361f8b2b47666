"""``t`` on a game by turns reads its whole message thread, however long,
as kept with the game (the board's chat pane shows only the last lines)."""
from doors import registry
from server.services.seats import Seat, SeatKind

from .harness import Caller, start_app


async def test_the_thread_shows_every_line_kept_with_the_game(tmp_path):
    app = await start_app(tmp_path / "gatehouse.db")
    try:
        alice = await Caller.connect(app.port)
        await alice.login("Alice")
        info = registry()["towers"]
        seats = [Seat(0, SeatKind.HUMAN, "Alice"), Seat(1, SeatKind.HUMAN, "Bob")]
        match = await app.matches.create(info, info.resolve_options({"first": 1}), seats, 86400.0)
        for i in range(40):              # a long correspondence, months of it
            await app.store.add_chat(match.id, "Bob" if i % 2 else "Alice", f"letter {i:02d}")
        alice.send("t")
        await alice.expect("My games by turns", timeout=60)
        alice.send("t")
        text = await alice.expect("Alice: letter 00")
        assert "Bob: letter 01" in text
        await alice.close()
    finally:
        await app.stop()
