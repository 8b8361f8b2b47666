"""The command line: `gatehouse games` and `gatehouse replay ID`."""
import asyncio
import io

import pyte

from doors import registry
from doors._core.conformance import random_playout
from server.cli import _replay, main
from server.config import Config, StoreSettings
from server.services.store import Store


async def record_a_game(db) -> int:
    info = registry()["towers"]
    state = info.new_game({"first": 0})
    import random
    random_playout(state, random.Random(4))
    store = await Store(db).open()
    gid = await store.create_game("towers", state.options, ("Alice", "computer:2"))
    for ply, (player, text) in enumerate(state.record(), start=1):
        await store.add_move(gid, ply, player, text)
    await store.finish_game(gid, state.outcome().to_json())
    await store.close()
    return gid, len(state.history)


def test_games_lists_recorded_games(tmp_path, capsys):
    db = tmp_path / "g.db"
    gid, _ = asyncio.run(record_a_game(db))
    assert main(["games", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert f"{gid:>5}  towers" in out and "Alice" in out and "computer:2" in out
    assert "won" in out or "draw" in out


def test_replay_draws_every_move_and_the_result(tmp_path):
    db = tmp_path / "g.db"
    gid, moves = asyncio.run(record_a_game(db))
    out = io.BytesIO()
    assert asyncio.run(_replay(Config(store=StoreSettings(database=str(db))), gid, 0.0, "utf8", out)) == 0
    screen = pyte.Screen(80, 24)
    pyte.ByteStream(screen).feed(out.getvalue())
    text = "\n".join(screen.display)
    assert f"Replay of game {gid}: Towers, Alice vs Computer (2)" in text
    assert "Result:" in text and f"Move {moves} of {moves}" in text


def test_replay_of_a_missing_game_says_so(tmp_path, capsys):
    db = tmp_path / "g.db"
    asyncio.run(record_a_game(db))
    assert main(["replay", "999", "--db", str(db), "--delay", "0"]) == 1
    assert "There is no game 999." in capsys.readouterr().err


def test_a_bad_config_file_is_reported(tmp_path, capsys):
    bad = tmp_path / "g.toml"
    bad.write_text("[server]\nport = 'x'\n")
    assert main(["games", "--config", str(bad)]) == 2
    assert "server.port must be a number" in capsys.readouterr().err


def test_serve_help_explains_every_flag(capsys):
    import pytest
    with pytest.raises(SystemExit):
        main(["serve", "--help"])
    out = capsys.readouterr().out
    flags = [line.split()[0] for line in out.splitlines() if line.strip().startswith("--")]
    assert {"--host", "--port", "--forfeit-minutes", "--idle-minutes", "--config", "--db"} <= {
        f.rstrip(",") for f in flags}
    for line in out.splitlines():
        words = line.split()
        if words and words[0].startswith("--"):
            # "--port PORT  telnet port ..." : a flag line carries its help (or the next line does)
            following = out.splitlines()[out.splitlines().index(line) + 1].strip()
            assert len(words) > 2 or (following and not following.startswith("-")), line


def test_sysop_finds_the_socket_by_flag_then_setting_and_names_the_path_it_tried(tmp_path, capsys,
                                                                                    monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["sysop", "--socket", "run/flag.sock"]) == 1
    err = capsys.readouterr().err
    assert f"no sysop socket at {tmp_path / 'run' / 'flag.sock'}" in err
    assert "[sysop] socket" in err and "--socket" in err
    (tmp_path / "gatehouse.toml").write_text('[sysop]\nsocket = "/nonexistent/set.sock"\n')
    assert main(["sysop"]) == 1
    assert "no sysop socket at /nonexistent/set.sock" in capsys.readouterr().err
    assert main(["sysop", "--socket", "/nonexistent/flag.sock"]) == 1      # the flag wins
    assert "no sysop socket at /nonexistent/flag.sock" in capsys.readouterr().err


async def record_a_stratego_game(db, moves: int = 6) -> tuple[int, int]:
    """Both setups placed piece by piece, ``moves`` play moves, then Red
    resigns. Returns (game id, setup actions)."""
    import random

    from doors._core.game import Outcome, Termination
    from doors.stratego.pieces import Place, Ready
    from doors.stratego.setup import random_fill
    state = registry()["stratego"].new_game({})
    rng = random.Random(3)
    for p in (0, 1):
        for sq, rank in random_fill(p, (), rng).placements:
            state.apply(p, Place(sq, rank))
        state.apply(p, Ready())
    setup = len(state.history)
    for _ in range(moves):
        player = state.to_move()[0]
        state.apply(player, rng.choice(state.legal_actions(player)))
    store = await Store(db).open()
    gid = await store.create_game("stratego", state.options, ("Alice", "Bob"))
    for ply, (player, text) in enumerate(state.record(), start=1):
        await store.add_move(gid, ply, player, text)
    await store.finish_game(gid, Outcome(1, Termination.RESIGN, "Alice resigned").to_json())
    await store.close()
    return gid, setup


def test_games_counts_game_moves_not_setup_placements(tmp_path, capsys):
    db = tmp_path / "g.db"
    gid, setup = asyncio.run(record_a_stratego_game(db, moves=6))
    assert setup == 82
    assert main(["games", "--db", str(db)]) == 0
    row = next(line for line in capsys.readouterr().out.splitlines() if "stratego" in line)
    assert row.split()[4] == "6", row
    assert "Bob won (Alice resigned)" in row


def test_replay_counts_game_moves_and_reveals_both_armies_at_the_end(tmp_path):
    db = tmp_path / "g.db"
    gid, _ = asyncio.run(record_a_stratego_game(db, moves=6))
    out = io.BytesIO()
    assert asyncio.run(_replay(Config(store=StoreSettings(database=str(db))), gid, 0.0, "utf8", out)) == 0
    screen = pyte.Screen(80, 24)
    stream = pyte.ByteStream(screen)
    frames = out.getvalue()
    assert frames.endswith(b"\x1b[24;1H")    # the free last row: the shell's prompt goes there
    stream.feed(frames)
    text = "\n".join(screen.display)
    assert "Move 6 of 6" in text and "Result: Bob won (Alice resigned)" in text
    board = "".join(line[4:34] for line in screen.display[2:12])
    assert "■" not in board and board.count("F") == 2 and board.count("B") == 12
    assert "Game over." in text
    assert b"Setup" in frames and b"of 88" not in frames


async def record_stratego_opening(db, plies: int = 90) -> int:
    """A Stratego game's setup and first moves, stored as the server does."""
    import random
    info = registry()["stratego"]
    state = info.new_game({})
    rng = random.Random(7)
    while len(state.history) < plies and state.outcome() is None:
        player = state.to_move()[0]
        state.apply(player, rng.choice(state.legal_actions(player)))
    store = await Store(db).open()
    gid = await store.create_game("stratego", state.options, ("Alice", "computer:2"))
    for ply, (player, text) in enumerate(state.record(), start=1):
        await store.add_move(gid, ply, player, text)
    await store.close()
    return gid


def test_replay_on_a_tty_that_turns_lf_into_cr_lf_lays_the_board_out_right(tmp_path):
    """`gatehouse replay ID` on a local terminal: the tty's ONLCR turns
    every LF into CR LF. Run it in a pseudo-terminal with ONLCR set and read
    what the terminal gets through pyte: the board is where it belongs."""
    import os
    import pty
    import select
    import subprocess
    import sys
    import termios
    from pathlib import Path

    from server.screens.replay import replay_canvases
    db = tmp_path / "g.db"
    gid = asyncio.run(record_stratego_opening(db))
    master, slave = pty.openpty()
    attrs = termios.tcgetattr(slave)
    attrs[1] |= termios.OPOST | termios.ONLCR        # the output flags of a usual terminal
    termios.tcsetattr(slave, termios.TCSANOW, attrs)
    assert termios.tcgetattr(slave)[1] & termios.ONLCR
    exe = Path(sys.executable).with_name("gatehouse")
    proc = subprocess.Popen([str(exe), "replay", str(gid), "--db", str(db), "--delay", "0"],
                            stdin=slave, stdout=slave, stderr=subprocess.PIPE)
    os.close(slave)
    received = bytearray()
    while True:                                # until the program ends and the pty is drained
        ready, _, _ = select.select([master], [], [], 30)
        assert ready, "gatehouse replay printed nothing for 30 s"
        try:
            data = os.read(master, 65536)
        except OSError:                        # EIO: the other side is closed
            break
        if not data:
            break
        received += data
    os.close(master)
    assert proc.wait(timeout=30) == 0, proc.stderr.read().decode()
    assert b"\r\r\n" in received               # ONLCR was at work: the program's CR LF became CR CR LF
    # the last frame
    screen = pyte.Screen(80, 24)
    pyte.ByteStream(screen).feed(bytes(received).rstrip(b"\r\n"))
    *_, last = replay_canvases(*asyncio.run(_game_and_moves(db, gid)))
    # (the top 23 rows without the screen's key-hint row; the last row free for the prompt)
    want = [last.row_text(y) for y in (*range(21), 22, 23)] + [" " * 80]
    want[-2] = want[-2][:-1] + " "
    assert screen.display == want
    assert any("A  B  C  D  E  F  G  H" in line for line in screen.display) or \
        any("A B C D E F G H" in line for line in screen.display)


async def _game_and_moves(db, gid):
    store = await Store(db).open()
    try:
        return await store.get_game(gid), await store.moves(gid)
    finally:
        await store.close()


def test_games_and_replay_without_a_database_create_none(tmp_path, monkeypatch, capsys):
    settings = tmp_path / "etc" / "gatehouse.toml"
    settings.parent.mkdir()
    settings.write_text('[paths]\nstate_dir = "../state"\n')
    monkeypatch.chdir(tmp_path)
    for argv in (["games"], ["replay", "1", "--delay", "0"]):
        assert main(argv + ["--config", str(settings)]) == 1
        err = capsys.readouterr().err.strip()
        assert err.count("\n") == 0
        assert f"no database at {tmp_path / 'state' / 'gatehouse.db'}" in err
    assert not (tmp_path / "state").exists() and not (tmp_path / "data").exists()
    assert list(tmp_path.iterdir()) == [tmp_path / "etc"]


def test_games_from_another_folder_finds_the_records_of_the_settings_file(tmp_path, monkeypatch,
                                                                        capsys):
    state = tmp_path / "srv" / "state"
    state.mkdir(parents=True)
    gid, _ = asyncio.run(record_a_game(state / "gatehouse.db"))
    settings = tmp_path / "srv" / "gatehouse.toml"
    settings.write_text('[paths]\nstate_dir = "state"\n')
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    assert main(["games", "--config", "../srv/gatehouse.toml"]) == 0
    assert f"{gid:>5}  towers" in capsys.readouterr().out
    assert list(elsewhere.iterdir()) == []


def test_sysop_names_the_socket_it_tried(tmp_path, monkeypatch, capsys):
    settings = tmp_path / "gatehouse.toml"
    settings.write_text('[paths]\nstate_dir = "st"\n')
    monkeypatch.chdir("/")
    assert main(["sysop", "--config", str(settings)]) == 1
    assert f"no sysop socket at {tmp_path / 'st' / 'sysop.sock'}" in capsys.readouterr().err
    assert main(["sysop", "--config", str(settings), "--socket", str(tmp_path / "x.sock")]) == 1
    assert f"no sysop socket at {tmp_path / 'x.sock'}" in capsys.readouterr().err


def _gatehouse(*args: str, **kw):
    import subprocess
    import sys
    from pathlib import Path
    exe = Path(sys.executable).parent / "gatehouse"
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "server.cli"]
    return subprocess.Popen([*cmd, *args], stderr=subprocess.PIPE, **kw)


def test_a_closed_pipe_ends_every_listing_quietly(tmp_path):
    """`gatehouse games | head -1`: the reader has gone; no traceback, the
    shell's usual status for a closed pipe."""
    import os
    db = tmp_path / "g.db"
    asyncio.run(record_a_game(db))
    for args in (["games"], ["bulletin"], ["bulletin", "--format", "utf8"], ["replay", "1", "--delay", "0"]):
        read_end, write_end = os.pipe()
        os.close(read_end)                     # as `head` does once it has its line
        proc = _gatehouse(*args, "--db", str(db), stdout=write_end, cwd=tmp_path)
        os.close(write_end)
        _, err = proc.communicate(timeout=60)
        assert b"Traceback" not in err and b"Error" not in err, (args, err)
        assert proc.returncode == 141, (args, proc.returncode, err)


def test_ctrl_c_ends_a_command_quietly(tmp_path):
    """CTRL-C during a replay (the slowest command to watch): no traceback."""
    import signal
    import subprocess
    import time
    db = tmp_path / "g.db"
    asyncio.run(record_a_game(db))
    def as_at_a_terminal() -> None:         # (a background job starts with CTRL-C ignored)
        signal.signal(signal.SIGINT, signal.SIG_DFL)
    proc = _gatehouse("replay", "1", "--delay", "30", "--db", str(db), stdout=subprocess.PIPE, cwd=tmp_path,
                      preexec_fn=as_at_a_terminal)
    assert proc.stdout is not None
    first = proc.stdout.read1(1)              # the first frame is out: it is replaying
    assert first
    deadline = time.monotonic() + 60
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=max(1.0, deadline - time.monotonic()))
    assert b"Traceback" not in err and b"KeyboardInterrupt" not in err, err
    assert proc.returncode == 130
