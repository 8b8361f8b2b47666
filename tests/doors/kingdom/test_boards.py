"""Board files: the shipped boards, the format, and the errors."""
from __future__ import annotations

import pytest

from doors.kingdom import boards
from doors.kingdom.boards import BoardFileError, parse_board

EMPTY_ROW = "." * 19


def text(rows, title="title: Test"):
    return title + "\n" + "\n".join(rows) + "\n"


def rows_with(**lines):
    rows = [EMPTY_ROW] * 19
    rows[0] = "k" + "." * 18
    rows[18] = "K" + "." * 18
    for idx, row in lines.items():
        rows[int(idx[1:])] = row
    return rows


def test_shipped_boards_load_and_are_symmetric():
    names = boards.list_boards()
    assert names[0] == "default" and {"fortress", "skirmish"} <= set(names)
    for name in names:
        spec = boards.load_board(name)
        b = spec.board
        for sq, c in enumerate(b):
            r, f = divmod(sq, 19)
            mirror = b[(18 - r) * 19 + f]
            assert (c in (0, 8) and mirror == c) or (c & 7 == mirror & 7 and c >> 4 != mirror >> 4)
        assert any(c == 8 for c in b), "a board without rocks"


def test_good_file_with_comments_and_both_rock_symbols():
    rows = rows_with(r5="#o" + "." * 17)
    spec = parse_board("; a comment\n\n" + text(rows).replace("title: Test", "title: Test ; x"))
    assert spec.title == "Test" and spec.board[13 * 19] == 8 and spec.board[13 * 19 + 1] == 8


@pytest.mark.parametrize("content,line,reason", [
    (text(rows_with(r3="." * 18)), 5, "19 symbols, not 18"),
    (text(rows_with(r3="x" + "." * 18)), 5, "unknown symbol 'x'"),
    (text(rows_with()[:-1]), 19, "18 board lines"),
    (text(rows_with() + [EMPTY_ROW]), 21, "more than 19"),
    (text(rows_with(), title="name Test"), 1, "title"),
    (text(rows_with(r18="." * 19)), 20, "player 1 has no king"),
    (text(rows_with(r5="K" + "." * 18)), 7, "more than one king"),
    (text(rows_with(r5="C" + "." * 18)), 7, "more than one king"),
    (text(rows_with(r0="k" + "P" + "." * 17)), 2, "pawn on b19"),
    (text(rows_with(r18="K" + "p" + "." * 17)), 20, "pawn on b1"),
])
def test_bad_files_name_line_and_reason(content, line, reason):
    with pytest.raises(BoardFileError) as err:
        parse_board(content, "bad.txt")
    assert err.value.line == line and reason in err.value.reason
    assert str(err.value).startswith(f"bad.txt:{line}: ")


def test_empty_file_and_missing_board(tmp_path):
    with pytest.raises(BoardFileError, match="empty"):
        parse_board("; nothing\n", "x.txt")
    with pytest.raises(BoardFileError, match="cannot read"):
        boards.load_board("nosuch", tmp_path)
    with pytest.raises(BoardFileError, match="not a board name"):
        boards.load_board("../etc", tmp_path)


def test_list_boards_and_format_round_trip(tmp_path):
    spec = boards.load_board("fortress")
    (tmp_path / "zeta.txt").write_text(boards.format_board(spec.board, "Zeta"))
    (tmp_path / "default.txt").write_text(boards.format_board(spec.board, "D"))
    (tmp_path / "Bad Name.txt").write_text("x")
    assert boards.saved_boards(tmp_path) == ["default", "zeta"]
    assert boards.list_boards(tmp_path) == ["default", "fortress", "skirmish", "zeta"]   # and the shipped
    assert boards.load_board("default", tmp_path).title == "D"     # a saved board takes a shipped one's place
    again = boards.load_board("zeta", tmp_path)
    assert again.board == spec.board and again.title == "Zeta"


def test_layout_code_round_trips_and_refuses_garbage():
    for name in boards.list_boards():
        b = boards.load_board(name).board
        assert tuple(boards.decode_layout(boards.encode_layout(b))) == b
    with pytest.raises(BoardFileError):
        boards.decode_layout("19/" * 18)
    with pytest.raises(BoardFileError):
        boards.decode_layout("/".join(["20"] * 19))


def test_a_broken_board_file_is_skipped_with_a_log_line(tmp_path, monkeypatch, caplog):
    import logging

    import doors.kingdom as kingdom
    from doors.kingdom import boards as boards_module
    (tmp_path / "default.txt").write_bytes(boards_module.SHIPPED.joinpath("default.txt").read_bytes())
    (tmp_path / "broken.txt").write_text("title: Broken\nthis is not a board\n")
    (tmp_path / "latin1.txt").write_bytes(b"title: D\xe9j\xe0 vu\n")
    monkeypatch.setattr(boards_module, "SHIPPED", tmp_path)
    caplog.set_level(logging.WARNING, logger="gatehouse.kingdom")
    names = [name for name, _label in kingdom.board_option().choices]
    assert names == ["default"]
    logged = [r.getMessage() for r in caplog.records]
    assert any("'broken'" in m and "skipped" in m for m in logged), logged
    assert any("'latin1'" in m and "skipped" in m for m in logged), logged
    caplog.clear()
    kingdom.board_option()                      # each broken file is logged once
    assert not caplog.records
