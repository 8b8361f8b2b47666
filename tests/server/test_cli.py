"""The command line: `gatehouse games` and `gatehouse replay ID`."""
import asyncio
import io

import pyte

from doors import registry
from doors._core.conformance import random_playout
from server.cli import _replay, main
from server.config import Config
from server.store import Store


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
