"""By-turns games in the services, with a fake wall clock: the store's
schema migration from a database the current release made; the clock the
sysop pauses (the pause is never charged, and survives a restart); the loss
on time, checked on demand, at start (after a restart) and on a timer; the
other side told at once; the chat thread kept with the game."""
from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from pathlib import Path

from doors import registry
from doors._core.game import Termination
from server.config import Config, TimingSettings
from server.services import events as E
from server.services.matches import MatchManager
from server.services.schema import MIGRATIONS
from server.services.seats import Seat, SeatKind
from server.services.store import Store, WaitingChallengeRow, check_password
from server.services.turn_clock import DAY, TurnClock

RELEASE_SQL = Path(__file__).parent / "data" / "schema2-release.sql"


class Wall:
    """A wall clock the test moves by hand."""

    def __init__(self, t: float = 1_800_000_000.0):
        self.t = t

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


async def test_migration_from_a_database_made_by_the_current_release(tmp_path):
    """tests/server/data/schema2-release.sql is the database made by the release before
    by-turns games (schema 2): two callers, a game with a move, a finished
    game against the computer, a saved setup. All of it stays, and the new
    records work."""
    db = tmp_path / "gatehouse.db"
    with contextlib.closing(sqlite3.connect(db)) as made:
        made.executescript(RELEASE_SQL.read_text(encoding="utf-8"))
    store = await Store(db).open()
    try:
        assert await store.schema_version() == len(MIGRATIONS)
        alice = await store.get_user("alice")
        assert alice is not None and alice.charset == "cp437"
        assert check_password("secret1", alice.pw_salt, alice.pw_hash)
        assert await store.moves(1) == [(0, "a1")]
        finished = await store.get_game(2)
        assert finished is not None and finished.status == "finished"
        assert finished.outcome is not None and finished.outcome["reason"] == "Computer (3) resigned"
        assert await store.load_setup(alice.id, "stratego", "wall") == "x" * 40
        # the new records, on the migrated file
        assert await store.by_turns() == {}
        assert await store.turn_clock() == (None, 0.0)
        game = await store.create_game("towers", {"first": 0}, ("Alice", "Bob"),
                                       by_turns=(DAY, (5.0, None)))
        assert game == 3 and await store.by_turns() == {3: (DAY, (5.0, None))}
        await store.add_move(game, 1, 0, "a1", turns=(None, 9.0))
        assert await store.by_turns() == {3: (DAY, (None, 9.0))}
        await store.add_chat(game, "Alice", "hello")
        await store.add_chat(game, "Bob", "hi")
        assert await store.chat_thread(game) == [("Alice", "hello"), ("Bob", "hi")]
        row = WaitingChallengeRow(7, "Alice", "Bob", "stratego", {"strike": 1}, 3 * DAY, 1.0)
        await store.save_waiting_challenge(row)
        assert await store.waiting_challenges() == [row]
        await store.drop_waiting_challenge(7)
        assert await store.waiting_challenges() == []
    finally:
        await store.close()
    store = await Store(db).open()           # opening again migrates nothing
    try:
        assert await store.schema_version() == len(MIGRATIONS)
        assert await store.chat_thread(3) == [("Alice", "hello"), ("Bob", "hi")]
    finally:
        await store.close()


async def test_the_sysops_pause_stops_the_clock_is_not_charged_and_survives_a_restart(tmp_path):
    wall = Wall()
    store = await Store(tmp_path / "g.db").open()
    clock = TurnClock(store, wall)
    await clock.load()
    start = clock.now()
    wall.advance(100)
    assert clock.now() == start + 100
    await clock.pause()
    wall.advance(5 * DAY)
    assert clock.paused and clock.now() == start + 100        # stands still
    await store.close()
    store = await Store(tmp_path / "g.db").open()             # a restart during the holidays
    clock = TurnClock(store, wall)
    await clock.load()
    assert clock.paused and clock.now() == start + 100
    wall.advance(2 * DAY)
    await clock.resume()
    assert not clock.paused and clock.now() == start + 100
    wall.advance(50)
    assert clock.now() == start + 150                          # 7 paused days never counted
    await store.close()


async def towers_by_turns(tmp_path, wall: Wall, days: int = 1, heard: list | None = None):
    store = await Store(tmp_path / "g.db").open()
    clock = TurnClock(store, wall)
    await clock.load()
    tell = (lambda handle, text, keep: heard.append((handle, E.Notice(text)))) if heard is not None else None
    matches = MatchManager(store, Config(timing=TimingSettings(bot_min_delay=0)), clock=clock, tell=tell)
    await matches.restore()
    if matches.live:
        return store, clock, matches, next(iter(matches.live.values()))
    info = registry()["towers"]
    seats = [Seat(0, SeatKind.HUMAN, "Alice"), Seat(1, SeatKind.HUMAN, "Bob")]
    match = await matches.create(info, info.resolve_options({"first": 0}), seats, days * DAY)
    return store, clock, matches, match


async def move(match, player: int) -> None:
    assert await match.submit(player, match.state.legal_actions(player)[0]) is None


async def test_a_side_that_lets_its_time_per_move_run_out_loses_on_time(tmp_path):
    wall = Wall()
    heard: list = []
    store, clock, matches, match = await towers_by_turns(tmp_path, wall, days=1, heard=heard)
    assert not match.suspended            # both away: by turns, the game just waits
    assert matches.turns_waiting("alice") == 1 and matches.turns_waiting("Bob") == 0
    wall.advance(0.9 * DAY)
    assert await matches.check_clocks() == []
    await move(match, 0)                  # Alice moves in time: now Bob's day runs
    assert ("Bob", E.Notice(f"Alice moved in game {match.id} (Towers): your turn.")) in heard
    assert matches.turns_waiting("Bob") == 1 and matches.turns_waiting("Alice") == 0
    assert match.time_left_text(1) == "1d 0h left"
    wall.advance(0.9 * DAY)
    assert await matches.check_clocks() == []
    assert match.time_left_text(1) == "2h 24m left"
    wall.advance(0.1 * DAY + 1)
    assert await matches.check_clocks() == [match]
    assert match.outcome is not None and match.outcome.winner == 0
    assert match.outcome.termination == Termination.FORFEIT
    assert match.outcome.reason == "Bob lost on time (1 day a move)"
    row = await store.get_game(match.id)
    assert row is not None and row.status == "finished" and row.outcome["winner"] == 0
    assert [h for h, e in heard if isinstance(e, E.Notice) and "lost on time" in e.text] == ["Alice", "Bob"]
    assert matches.by_turns_of("Alice") == []
    await store.close()


async def test_a_move_made_after_the_time_ran_out_is_refused_before_the_clock_check(tmp_path):
    wall = Wall()
    store, clock, matches, match = await towers_by_turns(tmp_path, wall, days=1)
    wall.advance(DAY + 1)                 # the clock check has not come round yet
    refused = await match.submit(0, match.state.legal_actions(0)[0])
    assert refused == "The game is over: Alice lost on time (1 day a move)."
    assert await store.moves(match.id) == []
    row = await store.get_game(match.id)
    assert row is not None and row.status == "finished" and row.outcome["winner"] == 1
    assert await matches.check_clocks() == []           # it ended once
    await store.close()


async def test_time_the_server_is_down_is_nobodys_and_the_start_check_ends_only_time_run_out_before(
        tmp_path):
    wall = Wall()
    store, clock, matches, match = await towers_by_turns(tmp_path, wall, days=3)
    await move(match, 0)
    wall.advance(DAY)                                          # a day of Bob's time, the server up
    await clock.beat()
    await matches.stop()
    await store.close()
    wall.advance(5 * DAY)                                      # down for five days: more than his time
    store, clock, matches, match = await towers_by_turns(tmp_path, wall, days=3)
    assert match.turns is not None and len(match.state.history) == 1
    assert match.time_left_text(1) == "2d 0h left"             # the downtime is nobody's
    assert await matches.check_clocks() == [] and not match.ended
    wall.advance(2 * DAY - 60)                                 # up again: his time runs
    await clock.beat()
    await matches.stop()
    await store.close()
    wall.advance(10 * DAY)                                     # down ten days: his last minute waits...
    store, clock, matches, match = await towers_by_turns(tmp_path, wall, days=3)
    assert match.time_left_text(1) == "1m left"
    wall.advance(120)                                          # ...and runs out once the server is up
    assert [m.id for m in await matches.check_clocks()] == [match.id]
    assert match.outcome is not None and match.outcome.reason == "Bob lost on time (3 days a move)"
    await store.close()


async def test_downtime_during_the_holidays_is_not_forgiven_twice(tmp_path):
    wall = Wall()
    store, clock, matches, match = await towers_by_turns(tmp_path, wall, days=1)
    await clock.pause()
    await matches.stop()
    await store.close()
    wall.advance(3 * DAY)                                      # down during the holidays
    store, clock, matches, match = await towers_by_turns(tmp_path, wall, days=1)
    assert clock.paused and match.time_left_text(0) == "1d 0h left"
    wall.advance(DAY)
    await clock.resume()
    wall.advance(DAY - 60)                                     # the day after the holidays counts
    assert match.time_left_text(0) == "1m left"
    await matches.stop()
    await store.close()


async def test_paused_clocks_charge_nobody_and_the_timer_checks_them(tmp_path):
    wall = Wall()
    store, clock, matches, match = await towers_by_turns(tmp_path, wall, days=1)
    await clock.pause()
    wall.advance(10 * DAY)
    assert await matches.check_clocks() == [] and not match.ended
    assert match.time_left_text(0) == "1d 0h left"
    await clock.resume()
    wall.advance(DAY - 60)
    assert await matches.check_clocks() == []
    matches.watch_clocks(0.02)                 # the timer: it ends the game once time is up
    wall.advance(61)
    for _ in range(500):
        if match.ended:
            break
        await asyncio.sleep(0.01)
    assert match.outcome is not None and match.outcome.reason == "Alice lost on time (1 day a move)"
    await matches.stop()
    await store.close()


async def test_nobody_wins_when_neither_side_sets_up_in_time(tmp_path):
    wall = Wall()
    store = await Store(tmp_path / "g.db").open()
    clock = TurnClock(store, wall)
    matches = MatchManager(store, Config(timing=TimingSettings(bot_min_delay=0)), clock=clock)
    info = registry()["stratego"]
    seats = [Seat(0, SeatKind.HUMAN, "Alice"), Seat(1, SeatKind.HUMAN, "Bob")]
    match = await matches.create(info, info.resolve_options({}), seats, 7 * DAY)
    assert matches.turns_waiting("Alice") == matches.turns_waiting("Bob") == 1   # both set up
    wall.advance(7 * DAY)
    await matches.check_clocks()
    assert match.outcome is not None and match.outcome.winner is None
    assert match.outcome.termination == Termination.ABORTED
    await store.close()


async def test_the_chat_thread_is_kept_with_the_game(tmp_path):
    wall = Wall()
    heard: list = []
    store, clock, matches, match = await towers_by_turns(tmp_path, wall, heard=heard)
    assert await match.post_chat(0, "Alice", "Good luck\x1b[2J!") is None
    assert ("Bob", E.Notice(f"Alice wrote in game {match.id} (Towers): Good luck?[2J!")) in heard
    await matches.stop()
    await store.close()
    store, clock, matches, match = await towers_by_turns(tmp_path, wall)
    assert list(match.chat.lines) == [("Alice", "Good luck?[2J!")]
    await store.close()


async def test_a_by_turns_challenge_waits_for_a_caller_who_is_not_on_through_a_restart(tmp_path):
    from server.services.board import ChallengeBoard, ChallengeEvent, ChallengeState
    from server.services.nodes import NodeRegistry
    from server.services.store import AccountKind, hash_password

    from .fakes import seat
    store = await Store(tmp_path / "g.db").open()
    salt, digest = hash_password("secret1")
    for handle in ("Alice", "Bob", "Carol"):
        await store.create_user(handle, salt, digest)
    await store.create_user("[VRT]Dan", b"", b"", kind=AccountKind.BBS)
    now = [1000.0]
    nodes: NodeRegistry = NodeRegistry(10, 10)
    alice = seat(nodes, "Alice")
    board = ChallengeBoard(nodes, ttl=60, clock=lambda: now[0], store=store)
    ch, message = await board.offer("Alice", "bob", "stratego", {}, move_seconds=3 * DAY)
    assert ch is not None and ch.target == "Bob" and message.startswith("Challenge sent to Bob: it waits")
    assert ch.describe().startswith("Stratego by turns, 3 days a move (")
    refusals = [await board.offer("Alice", "Nobody", "stratego", {}, move_seconds=DAY),
                await board.offer("Alice", "alice", "stratego", {}, move_seconds=DAY),
                await board.offer("Alice", "Bob", "towers", {}, move_seconds=DAY),
                await board.offer("Alice", "Sysop", "towers", {}, move_seconds=DAY)]
    assert [r[1] for r in refusals] == [
        "There is no caller called Nobody.", "You cannot challenge yourself.",
        "Your challenge to Bob is still waiting for an answer.", "There is no caller called Sysop."]
    dan, _ = await board.offer("Alice", "[vrt]dan", "towers", {}, move_seconds=DAY)
    assert dan is not None and dan.target == "[VRT]Dan"       # a BBS caller plays by turns too
    now[0] += 3600
    assert await board.expire() == []                           # no time limit on the board
    await board.leave("Alice")                                  # nor does hanging up end it
    assert [c.target for c in board.outgoing("Alice")] == ["Bob", "[VRT]Dan"]
    # a restart: a new board on the same store
    nodes2: NodeRegistry = NodeRegistry(10, 10)
    board2 = ChallengeBoard(nodes2, store=store)
    await board2.restore()
    assert [(c.challenger, c.target, c.move_seconds) for c in board2.incoming("bob")] == [("Alice", "Bob", 3 * DAY)]
    bob = seat(nodes2, "Bob")
    accepted, reason = await board2.accept(board2.incoming("Bob")[0].id, by="Bob")   # Alice is not on
    assert accepted is not None and accepted.state == ChallengeState.ACCEPTED and reason == ""
    # it leaves the store with the creation of its game, in one commit
    assert [c.target for c in (await store.waiting_challenges())] == ["Bob", "[VRT]Dan"]
    game = await store.create_game("stratego", {}, ("Alice", "Bob"), by_turns=(3 * DAY, (1.0, 1.0)),
                                   settles=accepted.id)
    board2.started(accepted)
    assert [c.target for c in (await store.waiting_challenges())] == ["[VRT]Dan"]
    assert (await store.by_turns())[game][0] == 3 * DAY
    assert await board2.withdraw(board2.outgoing("Alice")[0].id, by="Alice") == "Challenge withdrawn."
    assert await store.waiting_challenges() == []
    new, _ = await board2.offer("Alice", "Carol", "towers", {}, move_seconds=DAY)
    assert new is not None and new.id > dan.id                  # ids never reused
    assert not [e for e in bob.inbox if isinstance(e, ChallengeEvent)]
    assert alice.inbox == []                                    # the challenger heard nothing back
    await store.close()


async def test_several_games_by_turns_at_once_each_with_its_own_turn_and_clock(tmp_path):
    wall = Wall()
    store = await Store(tmp_path / "g.db").open()
    clock = TurnClock(store, wall)
    matches = MatchManager(store, Config(timing=TimingSettings(bot_min_delay=0)), clock=clock)
    info = registry()["towers"]
    games = []
    for other, days in (("Bob", 1), ("Carol", 3), ("Dave", 7)):
        seats = [Seat(0, SeatKind.HUMAN, "Alice"), Seat(1, SeatKind.HUMAN, other)]
        games.append(await matches.create(info, info.resolve_options({"first": 0}), seats, days * DAY))
    live = [Seat(0, SeatKind.HUMAN, "Alice"), Seat(1, SeatKind.HUMAN, "Eve")]
    await matches.create(info, info.resolve_options({"first": 0}), live)      # a live game is not listed
    assert [m.id for m in matches.by_turns_of("alice")] == [g.id for g in games]
    assert matches.turns_waiting("Alice") == 3
    await move(games[1], 0)
    assert matches.turns_waiting("Alice") == 2 and matches.turns_waiting("Carol") == 1
    wall.advance(DAY + 1)
    assert [m.id for m in await matches.check_clocks()] == [games[0].id]     # only the 1-day game
    assert matches.turns_waiting("Alice") == 1
    assert [m.id for m in matches.by_turns_of("Alice")] == [games[1].id, games[2].id]
    assert games[2].time_left_text(0) == "5d 23h left"
    await store.close()


async def test_by_turns_challenges_count_against_the_challenge_limit_but_keep_their_own_rules(tmp_path):
    from server.services.board import ChallengeBoard
    from server.services.limits import AbuseLimits
    from server.services.nodes import NodeRegistry
    from server.services.store import hash_password

    from .fakes import seat
    store = await Store(tmp_path / "g.db").open()
    salt, digest = hash_password("secret1")
    for handle in ("Mallory", "Bob", "Carol", "Dot"):
        await store.create_user(handle, salt, digest)
    now = [1000.0]
    nodes: NodeRegistry = NodeRegistry(10, 10)
    seat(nodes, "Mallory")
    seat(nodes, "Bob")
    limits = AbuseLimits(challenges=3, challenge_seconds=60, clock=lambda: now[0])
    board = ChallengeBoard(nodes, clock=lambda: now[0], store=store, limits=limits)
    slow, _ = await board.offer("Mallory", "Bob", "towers", {}, move_seconds=DAY)
    assert slow is not None
    live, _ = await board.offer("Mallory", "Bob", "towers", {})   # a live game beside it: allowed
    assert live is not None
    again = await board.offer("Mallory", "Bob", "stratego", {}, move_seconds=DAY)
    assert again == (None, "Your challenge to Bob is still waiting for an answer.")
    carol, _ = await board.offer("Mallory", "Carol", "towers", {}, move_seconds=DAY)
    assert carol is not None
    refused, why = await board.offer("Mallory", "Dot", "towers", {}, move_seconds=DAY)
    assert refused is None and why.startswith("Slow down: at most 3 challenges in 60 seconds")
    assert [r.target for r in await store.waiting_challenges()] == ["Bob", "Carol"]   # Dot's never kept
    now[0] += 60
    dot, _ = await board.offer("Mallory", "Dot", "towers", {}, move_seconds=DAY)
    assert dot is not None and dot.target == "Dot"
    await store.close()


async def test_a_by_turns_result_is_rated_like_any_game_between_two_callers(tmp_path):
    from server.services.ratings import RatingBook
    wall = Wall()
    store = await Store(tmp_path / "g.db").open()
    clock = TurnClock(store, wall)
    book = RatingBook(store)
    await book.load()
    matches = MatchManager(store, Config(timing=TimingSettings(bot_min_delay=0)), book, clock=clock)
    info = registry()["towers"]
    seats = [Seat(0, SeatKind.HUMAN, "Alice"), Seat(1, SeatKind.HUMAN, "Bob")]
    match = await matches.create(info, info.resolve_options({"first": 0}), seats, DAY)
    for player in (0, 1, 0, 1, 0):      # two moves each at least: a game that counts
        await move(match, player)
    wall.advance(DAY + 1)
    assert await matches.check_clocks() == [match]            # Bob lost on time
    assert match.rating is not None and match.rating.rated
    alice, bob = book.get("Alice", "towers"), book.get("Bob", "towers")
    assert alice is not None and bob is not None and alice.rating > 1500 > bob.rating
    assert match.rating.describe(0) == f"1500 -> {alice.rating:.0f} (+{round(alice.rating) - 1500})"
    await store.close()


async def test_the_chat_limit_holds_by_turns_and_a_refused_line_is_not_kept(tmp_path):
    wall = Wall()
    store, clock, matches, match = await towers_by_turns(tmp_path, wall)
    said = [await match.post_chat(0, "Alice", f"line {n}", "10.0.0.1") for n in range(6)]
    assert said[:5] == [None] * 5 and said[5] is not None and said[5].startswith("Slow down")
    assert await store.chat_thread(match.id) == [("Alice", f"line {n}") for n in range(5)]
    await matches.stop()
    await store.close()
