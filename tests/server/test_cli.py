"""The command line: `gatehouse games` and `gatehouse replay ID`."""
import asyncio
import io

import pyte

from doors import registry
from doors._core.conformance import random_playout
from server.cli import _replay, main
from server.config import Config
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
    assert asyncio.run(_replay(Config(database=str(db)), gid, 0.0, "utf8", out)) == 0
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
    assert {"--host", "--port", "--forfeit-minutes", "--idle-minutes", "--socket", "--config", "--db"} <= {
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
