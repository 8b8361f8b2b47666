"""Each server binds each door to its own folder of its state directory:
two servers in one process never see each other's Kingdom boards or
Awari table, and no door keeps a folder in a module global."""
from __future__ import annotations

from pathlib import Path

from doors.kingdom.boards import format_board, load_board
from server.config import Config


def bound(state_dir: Path) -> dict:
    return Config().with_tables({"paths": {"state_dir": str(state_dir)}}).bound_doors()


def board_names(doors: dict) -> list[str]:
    spec = next(spec for spec in doors["kingdom"].specs() if spec.key == "board")
    return [value for value, _label in spec.choices]


def test_two_servers_in_one_process_keep_their_own_boards_and_tables(tmp_path):
    first, second = bound(tmp_path / "one"), bound(tmp_path / "two")
    saved = tmp_path / "one" / "kingdom" / "boards"
    saved.mkdir(parents=True)
    (saved / "ours.txt").write_text(format_board(load_board("skirmish").board, "Ours"))
    assert "ours" in board_names(first) and "ours" not in board_names(second)
    game = first["kingdom"].new_game({"board": "ours"})
    assert game.options["board"] == "ours" and game.options["title"] == "Ours"
    assert second["kingdom"].new_game({"board": "ours"}).options["board"] == "default"   # not offered there
    # each editor saves in its own server's folder
    assert first["kingdom"].editor is not None and second["kingdom"].editor is not None
    assert first["kingdom"].editor(None).folder() == saved
    assert second["kingdom"].editor(None).folder() == tmp_path / "two" / "kingdom" / "boards"
    # each Awari builds and reads its own table
    for doors, name in ((first, "one"), (second, "two")):
        table = str(tmp_path / name / "awari" / "endgame.bin")
        assert table in doors["awari"].tables[0].command()
        assert doors["awari"].bot_options == {"endgame_table": table}
