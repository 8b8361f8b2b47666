"""Replays tell the truth: a stored Stratego game with strikes (a Spy on
the Marshal, a Scout on a Bomb, two equal pieces) is replayed, and every
position is the live game's: drawn by the door's own view from the state
the live game had, after each strike was shown for its moment. The
replaying player sees their own army, a spectator of the finished game
both; ``gatehouse replay`` keeps its header on an 80x24 terminal."""
import asyncio

import pyte

from doors import registry
from doors._core.door import DOOR_ROWS
from doors._core.game import Outcome, Termination
from doors.stratego.pieces import Fill, Move, Ready
from doors.stratego.setup import setup_from_text
from server.cli import main
from server.screens.replay import replay_canvases
from server.services.store import Store

# Red (player 0): a Spy at A4, a Scout at B4; Blue (player 1): the Marshal at A7, a Bomb at B7
RED = "S955556666" "7777888889" "9999912334" "449BBBBBBF"
BLUE = "1B55556666" "7777888889" "9999992334" "44S9BBBBBF"
PLAY = [(0, Move(30, 40)), (1, Move(60, 50)),      # the Spy steps up; so does the Marshal
        (0, Move(40, 50)),                         # the Spy strikes the Marshal
        (1, Move(64, 54)), (0, Move(31, 41)), (1, Move(54, 44)), (0, Move(41, 51)),
        (1, Move(44, 34)),                         # a Major on a Major: both go
        (0, Move(51, 61))]                         # a Scout on a Bomb


def setup(player: int, text: str) -> Fill:
    lines = [text[i:i + 10] for i in range(0, 40, 10)]
    return Fill(setup_from_text(player, "\n".join(lines)))


def live_game():
    """The game as the live match plays it: each action through the rules,
    and each player's view of every position, drawn after strikes are shown."""
    info = registry()["stratego"]
    state = info.state_class.from_options(info.resolve_options({}))
    actions = [(0, setup(0, RED)), (1, setup(1, BLUE)), (0, Ready()), (1, Ready())] + PLAY
    record, seen = [], {v: [] for v in (0, 1, None)}
    uis = {v: info.ui_class(v, ("Alice", "Carol"), state.options) for v in seen}
    clock = 0.0
    for player, action in actions:
        assert state.why_illegal(player, action) is None, (player, action)
        record.append((player, state.action_to_str(action)))
        state.apply(player, action)
        clock += 100.0
        for viewer, ui in uis.items():
            ui.update(state.observation(viewer), state.history[-1], clock)
            canvas = _canvas(ui, clock + 50.0)       # after any strike was shown
            seen[viewer].append(canvas)
    return info, state, record, seen


def _canvas(ui, now):
    from ansi.canvas import Canvas
    canvas = Canvas(80, 24)
    ui.draw(canvas.region(0, 0, 80, DOOR_ROWS), now)
    return canvas


def board(canvas) -> list[str]:
    return canvas.lines()[:DOOR_ROWS]


async def stored_game(tmp_path):
    info, state, record, seen = live_game()
    store = await Store(tmp_path / "g.db").open()
    gid = await store.create_game("stratego", state.options, ("Alice", "Carol"))
    for ply, (player, text) in enumerate(record, start=1):
        await store.add_move(gid, ply, player, text)
    return store, gid, info, state, record, seen


async def test_every_replayed_position_is_the_live_games(tmp_path):
    store, gid, info, state, record, seen = await stored_game(tmp_path)
    try:
        game = await store.get_game(gid)
        moves = await store.moves(gid)
    finally:
        await store.close()
    strikes = {(s.attacker, s.defender) for s in [state.last_strike] if s is not None}
    assert strikes == {("9", "B")}                     # the last one: the Scout on the Bomb
    for viewer in (0, 1, None):
        frames = list(replay_canvases(game, moves, viewer))[1:]      # (position 0: empty board)
        moments = 0
        for n, live in enumerate(seen[viewer]):
            frame = frames.pop(0)
            if "STRIKE!" in "\n".join(board(frame)):   # a strike shown for its moment...
                moments += 1
                frame = frames.pop(0)                   # ...then the position after it
            assert board(frame) == board(live), f"viewer {viewer}, after action {n + 1}"
            assert "Strike being shown" not in "\n".join(board(frame))
        assert moments == 3 and frames == []            # Spy/Marshal, Major/Major, Scout/Bomb


async def test_the_replaying_player_sees_their_own_army_a_spectator_both(tmp_path):
    store, gid, info, state, record, seen = await stored_game(tmp_path)
    try:
        await store.finish_game(gid, Outcome(0, Termination.RESIGN, "Carol resigned").to_json())
        game = await store.get_game(gid)
        moves = await store.moves(gid)
    finally:
        await store.close()
    mid = 6                                            # both armies placed, before play
    red = "\n".join(board(list(replay_canvases(game, moves, 0))[mid]))
    blue = "\n".join(board(list(replay_canvases(game, moves, 1))[mid]))
    both = "\n".join(board(list(replay_canvases(game, moves, None))[mid]))
    assert red.count("■") == 40 and blue.count("■") == 40        # the other army hidden
    assert both.count("■") == 0                                   # a finished game: nothing hidden


def test_gatehouse_replay_keeps_the_header_on_80x24(tmp_path, capsysbinary):
    async def make():
        store, gid, *_ = await stored_game(tmp_path)
        await store.finish_game(gid, Outcome(0, Termination.RESIGN, "Carol resigned").to_json())
        await store.close()
        return gid
    gid = asyncio.run(make())
    assert main(["replay", str(gid), "--delay", "0", "--db", str(tmp_path / "g.db")]) == 0
    out = capsysbinary.readouterr().out
    screen = pyte.Screen(80, 24)
    stream = pyte.Stream(screen)
    stream.feed("$ gatehouse replay\r\n" * 30)       # the shell's prompt at the bottom row
    stream.feed(out.decode("utf-8"))
    assert screen.display[0].startswith("STRATEGO")
    assert "Result: Alice won (Carol resigned)" in "\n".join(screen.display)


def test_a_replay_of_an_aborted_game_ends_in_no_result_as_the_game_did(tmp_path, capsysbinary):
    """An aborted game ("neither side moved in time") is not a draw: its
    replay says "no result", as the game screen and My games do."""
    async def make():
        store, gid, *_ = await stored_game(tmp_path)
        await store.finish_game(gid, Outcome(None, Termination.ABORTED, "neither side moved in time").to_json())
        await store.close()
        return gid
    gid = asyncio.run(make())
    assert main(["replay", str(gid), "--delay", "0", "--db", str(tmp_path / "g.db")]) == 0
    out = capsysbinary.readouterr().out.decode("utf-8")
    assert "Result: no result (neither side moved in time)" in out and "a draw" not in out
