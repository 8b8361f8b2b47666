"""History: `gatehouse games` lines with result and rating change, and the
record a caller's My games list is made from."""
import asyncio

from doors._core.game import Outcome, Termination
from server.cli import main
from server.screens.history_screen import history_line
from server.services.glicko2 import Game, Rating, rate, rate_game
from server.services.ratings import RatingBook, computer_anchor
from server.services.records import hall_of_fame, history
from server.services.store import Store


async def record(db) -> None:
    store = await Store(db).open()
    book = RatingBook(store)
    await book.load()

    async def game(players, winner, termination=Termination.RULES, reason="flag captured"):
        gid = await store.create_game("stratego", {}, players)
        await store.finish_game(gid, Outcome(winner, termination, reason).to_json())
        await book.record(gid)

    await game(("Alice", "Bob"), 0)                                   # 1
    await game(("Carol", "computer:5"), 1, Termination.RESIGN, "Carol resigned")   # 2
    await game(("Bob", "Alice"), None, Termination.ABORTED, "server error")        # 3
    await store.create_game("stratego", {}, ("Alice", "Carol"))       # 4, unfinished
    await game(("Bob", "Alice"), 0, Termination.FORFEIT, "Alice left")  # 5
    await store.close()


def games_lines(db, capsys) -> dict[int, str]:
    assert main(["games", "--db", str(db)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["id", "door", "player", "1", "player", "2", "moves", "started",
                                "result;", "rating", "change"]
    return {int(line.split()[0]): line for line in lines[1:]}


def test_games_lists_results_and_rating_changes(tmp_path, capsys):
    db = tmp_path / "g.db"
    asyncio.run(record(db))
    lines = games_lines(db, capsys)
    alice, bob = rate_game(Rating(), Rating(), 1.0)
    assert lines[1].endswith(f"Alice won (flag captured); Alice 1500->{alice.rating:.0f} "
                             f"+{round(alice.rating) - 1500}, Bob 1500->{bob.rating:.0f} "
                             f"{round(bob.rating) - 1500}")
    carol = rate(Rating(), [Game(computer_anchor("stratego", 5), 0.0)])
    assert lines[2].endswith(f"computer:5 won (Carol resigned); Carol 1500->{carol.rating:.0f} "
                             f"{round(carol.rating) - 1500}")
    assert lines[3].endswith("aborted (server error); unrated")
    assert lines[4].endswith("unfinished")
    bob2, alice2 = rate_game(bob, alice, 1.0)
    assert lines[5].endswith(f"Bob won (Alice left); Bob {bob.rating:.0f}->{bob2.rating:.0f} "
                             f"{round(bob2.rating) - round(bob.rating):+d}, Alice "
                             f"{alice.rating:.0f}->{alice2.rating:.0f} "
                             f"{round(alice2.rating) - round(alice.rating):+d}")


def test_a_game_finished_before_ratings_says_not_rated_yet(tmp_path, capsys):
    db = tmp_path / "g.db"

    async def old_game():
        store = await Store(db).open()
        gid = await store.create_game("awari", {}, ("Alice", "Bob"))
        await store.finish_game(gid, Outcome(1, Termination.RULES, "more seeds").to_json())
        await store.close()

    asyncio.run(old_game())
    assert games_lines(db, capsys)[1].endswith("Bob won (more seeds); not rated yet")


async def test_my_games_lines_and_own_record(tmp_path):
    db = tmp_path / "g.db"
    await record(db)
    store = await Store(db).open()
    try:
        rows = await history(store, handle="alice")
        assert [r.id for r in rows] == [5, 3, 1]                    # newest first, finished only
        lines = [history_line(r, r.seat_of("Alice")) for r in rows]
        assert lines[0].split()[:5] == ["5", "Stratego", "Bob", "lost", lines[0].split()[4]]
        assert "aborted unrated" in " ".join(lines[1].split())
        assert lines[2].split()[3] == "won" and "+" in lines[2].split()[5]
        hall = await hall_of_fame(store, "stratego", me="Alice")
        assert (hall.mine.wins, hall.mine.losses, hall.mine.draws) == (1, 1, 0)  # aborted not counted
        assert [(name, t.wins, t.losses) for name, t in hall.my_opponents] == [("Bob", 1, 1)]
        assert hall.my_streak == 1
        # nobody has 5 rated games yet: the leaders' tables are empty
        assert hall.most_games == [] and hall.longest_streaks == [] and hall.top_rated == []
    finally:
        await store.close()
