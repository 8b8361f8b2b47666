"""`gatehouse bulletin`: the host BBS's page of the hall of fame and the
games in progress, as CP437 ANSI with SAUCE (rendered by ansilove), ASCII
and UTF-8; a read-only command."""
import asyncio
import io
import shutil
import struct
import subprocess

import pyte
import pytest

from ansi.art import parse_sauce
from ansi.cp437 import decode_cp437
from doors._core.game import Outcome, Termination
from server.cli import main
from server.cli_records import bulletin_command
from server.config import Config, StoreSettings
from server.services.ratings import RatingBook
from server.services.store import Store

ANSILOVE = shutil.which("ansilove") or "/usr/bin/ansilove"


async def make_record(db) -> None:
    store = await Store(db).open()
    book = RatingBook(store)
    await book.load()

    async def game(door, players, winner):
        gid = await store.create_game(door, {}, players)
        await store.finish_game(gid, Outcome(winner, Termination.RULES, "done").to_json())
        await book.record(gid)

    for _ in range(5):                # 5 rated games: on the leaders' tables
        await game("towers", ("Alice", "Bob"), 0)
        await game("towers", ("Carol", "computer:3"), 0)
    for _ in range(4):                # 4: not yet
        await game("towers", ("Hank", "computer:1"), 0)
    await game("awari", ("Bob", "Carol"), None)
    live = await store.create_game("stratego", {}, ("Dave", "Erin"))
    await store.add_move(live, 1, 0, "x")
    await store.create_game("awari", {}, ("Fred", "Gina"), by_turns=(3 * 86400.0, (None, None)))
    await store.close()


def screen_of(text: str, rows: int) -> list[str]:
    screen = pyte.Screen(80, rows)
    pyte.Stream(screen).feed(text)
    return screen.display


def run_bulletin(db, *args) -> bytes:
    out = io.BytesIO()
    door = args[0] if args else None
    fmt = args[1] if len(args) > 1 else "ans"
    assert asyncio.run(bulletin_command(Config(store=StoreSettings(database=str(db))), door, fmt, out)) == 0
    return out.getvalue()


def test_the_ans_bulletin_renders_in_ansilove_with_the_names_and_a_right_sauce(tmp_path):
    db = tmp_path / "g.db"
    asyncio.run(make_record(db))
    data = run_bulletin(db)
    sauce = parse_sauce(data)
    assert sauce is not None and data[-128:-121] == b"SAUCE00"
    assert sauce.title == "Gatehouse bulletin" and sauce.author == "Gatehouse"
    assert (sauce.datatype, sauce.filetype, sauce.width) == (1, 1, 80)
    art = data[:sauce.data_end]
    assert sauce.file_size == len(art) and data[len(art)] == 0x1A      # EOF before SAUCE
    assert sauce.height == art.count(b"\r\n")
    assert len(sauce.date) == 8 and sauce.date.isdigit()
    assert struct.unpack("<I", data[-128 + 90:-128 + 94])[0] == len(art)
    # what a caller's terminal shows: the CP437 bytes decoded on an 80-column screen
    lines = screen_of(decode_cp437(art), sauce.height)
    text = "\n".join(lines)
    for name in ("Alice", "Bob", "Carol", "Dave", "Erin", "Towers", "Awari", "Stratego",
                 "Games in progress"):
        assert name in text, name
    alice = next(line for line in lines if line.startswith(" 1 Alice"))
    # Alice has the most games (5) and the longest win streak (5) in Towers
    assert alice[29:54].split() == ["Alice", "5"] and alice[55:].split() == ["Alice", "5"]
    assert "Hank" not in text and "callers with 5 or more of them" in text
    dave = next(line for line in lines if "Stratego" in line and "vs" in line)
    assert "Dave" in dave and "/mv" not in dave and dave.rstrip().endswith("1mv")      # a live game: its moves
    fred = next(line for line in lines if "Fred" in line)                       # a game by turns: its pace
    assert "Awari" in fred and "Gina" in fred and fred.rstrip().endswith("3d/mv    0mv")
    # ansilove draws it (exit 0) as a PNG 80 columns of 8 (or 9) pixels wide
    src = tmp_path / "bulletin.ans"
    src.write_bytes(data)
    png = tmp_path / "bulletin.png"
    done = subprocess.run([ANSILOVE, "-o", str(png), str(src)], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    head = png.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", head[16:24])
    assert width in (640, 720) and height == 16 * sauce.height


def test_ascii_and_utf8_bulletins_for_one_door(tmp_path):
    db = tmp_path / "g.db"
    asyncio.run(make_record(db))
    asc = run_bulletin(db, "towers", "asc")
    assert all(b < 128 for b in asc) and b"\x1b" not in asc
    text = asc.decode("ascii")
    assert "Towers" in text and "Alice" in text and "Carol" in text
    assert "Awari" not in text and "Stratego" not in text    # one door, and its games only
    assert "No games are being played right now." in text
    utf8 = run_bulletin(db, None, "utf8").decode("utf-8")
    assert "Hall of Fame" in utf8 and "Dave" in utf8 and "│" in utf8
    assert all(len(line) < 80 for line in utf8.split("\r\n"))


def test_bulletin_never_creates_a_database(tmp_path, capsys):
    db = tmp_path / "none.db"
    assert main(["bulletin", "--db", str(db)]) == 1
    assert "there is no database" in capsys.readouterr().err
    assert not db.exists()


def test_bulletin_of_an_unknown_door_is_refused(tmp_path, capsys):
    db = tmp_path / "g.db"
    asyncio.run(make_record(db))
    assert main(["bulletin", "--db", str(db), "--door", "chess"]) == 2
    assert "there is no door 'chess'" in capsys.readouterr().err


@pytest.mark.parametrize("fmt", ["ans", "asc", "utf8"])
def test_bulletin_on_an_empty_record(tmp_path, fmt):
    db = tmp_path / "g.db"
    asyncio.run(Store(db).open()).db  # noqa: B018
    text = run_bulletin(db, None, fmt)
    assert b"No games are being played right now." in text


def test_bulletin_output_file_is_replaced_whole_and_readable(tmp_path):
    db = tmp_path / "g.db"
    asyncio.run(make_record(db))
    target = tmp_path / "gatehouse.asc"
    target.write_text("old bulletin")
    assert main(["bulletin", "--db", str(db), "--format", "asc", "--output", str(target)]) == 0
    text = target.read_text("ascii")
    assert text.startswith(" GATEHOUSE - Hall of Fame") and "old bulletin" not in text
    assert " 1 Alice" in text and "Dave" in text and target.stat().st_mode & 0o777 == 0o644
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


async def test_bulletin_refuses_a_database_not_yet_upgraded_and_leaves_it_as_it_is(tmp_path, capsys):
    from tests.server.test_ratings import make_schema_2_database
    db = tmp_path / "v2.db"
    await make_schema_2_database(db)
    before = db.read_bytes()
    out = io.BytesIO()
    from server.services.store import StoreError
    with pytest.raises(StoreError, match="older Gatehouse .*start the server once"):
        await bulletin_command(Config(store=StoreSettings(database=str(db))), None, "ans", out)
    assert out.getvalue() == b"" and db.read_bytes() == before
