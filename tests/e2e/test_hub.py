"""One hub, many BBSes: two BBSes with their own RLogin secrets and tags
send callers to one server. Each caller carries their own BBS's tag once;
a name carrying another BBS's tag is refused with a line in the log; the
bulletin for one BBS lists only its callers; the hall of fame's "BBS
against BBS" page counts games between callers of different BBSes."""
import asyncio
import logging
import subprocess
import sys
from pathlib import Path

from server.net.rlogin import build_handshake
from server.services.store import Store

from .harness import Caller, start_app
from .test_rlogin_trust import refused

HUB = {"enabled": True, "port": 0,
       "secrets": ["127.0.0.1=alpha-s3cret=MYS", "127.0.0.1=beta-s3cret=SBBS"]}


async def call(app, secret: str, name: str):
    reader, writer = await asyncio.open_connection("127.0.0.1", app.rlogin_port)
    writer.write(build_handshake(secret, name, "ansi-bbs/38400"))
    assert await reader.readexactly(1) == b"\0"
    return reader, writer


async def test_two_bbses_tag_their_own_callers_once(tmp_path, caplog):
    caplog.set_level(logging.WARNING, logger="gatehouse")
    db = tmp_path / "g.db"
    app = await start_app(db, rlogin=HUB)
    try:
        calls = [await call(app, "alpha-s3cret", "Gus"), await call(app, "alpha-s3cret", "[MYS]Ann"),
                 await call(app, "beta-s3cret", "Gus"), await call(app, "beta-s3cret", "Bea")]
        screen_reader = calls[0][0]
        seen = b""
        while not all(h.encode() in seen for h in ("[MYS]Gus", "[MYS]Ann", "[SBBS]Gus", "[SBBS]Bea")):
            seen += await asyncio.wait_for(screen_reader.read(4096), 30)    # the who list
        assert b"[MYS][MYS]" not in seen and b"[SBBS][MYS]" not in seen
        reply = await refused(app, "[MYS]Gus", client_user="beta-s3cret")
        assert "another BBS's tag" in reply
        assert any("refused" in r.message and "[MYS]" in r.message and "another BBS's tag" in r.message
                   for r in caplog.records)
        assert "secret" in await refused(app, "Zed", client_user="gamma")
        for _reader, writer in calls:
            writer.close()
    finally:
        await app.stop()
    # each BBS's callers play a game (written to the record as the server does)
    store = await Store(db).open()
    for _ in range(5):            # (five times: the hall lists callers with 5 rated games)
        for players, winner in ((("[MYS]Gus", "[SBBS]Gus"), 0), (("[MYS]Ann", "[SBBS]Bea"), 0),
                                (("[SBBS]Bea", "[MYS]Gus"), 0), (("[MYS]Gus", "[MYS]Ann"), 1)):
            gid = await store.create_game("towers", {}, players)
            await store.finish_game(gid, {"winner": winner, "termination": "rules", "reason": "test"})
    # a game the rating rules set aside (here: SBBS would win it) counts in no standing
    from server.services.store_ratings import RatingWrite
    gid = await store.create_game("towers", {}, ("[SBBS]Bea", "[MYS]Ann"))
    await store.finish_game(gid, {"winner": 0, "termination": "resigned", "reason": "Ann resigned"})
    await store.save_rating(gid, RatingWrite(rated=False, why="a side made fewer than 2 moves"))
    from server.services.ratings import RatingBook
    await RatingBook(store).load()              # rates them (as games of an older release)
    from server.services.records import bbs_league
    league = [(r.tag, r.games, r.won, r.lost) for r in await bbs_league(store, ["towers"])]
    assert league == [("[MYS]", 15, 10, 5), ("[SBBS]", 15, 5, 10)]   # nor MYS against MYS
    await store.close()
    app = await start_app(db, rlogin=HUB)        # the hall of fame's BBS against BBS page
    try:
        fan = await Caller.connect(app.port)
        await fan.login("Fan")
        fan.send("h")
        await fan.expect("Hall of Fame")
        fan.send("b")
        text = await fan.expect("Games between callers of different BBSes")
        assert f" 1 {'[MYS]':<12} {15:>5} {10:>5} {5:>5}" in text
        assert f" 2 {'[SBBS]':<12} {15:>5} {5:>5} {10:>5}" in text
        await fan.close()
    finally:
        await app.stop()
    exe = Path(sys.executable).parent / "gatehouse"
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "server.cli"]
    out = subprocess.run([*cmd, "bulletin", "--bbs", "MYS", "--format", "utf8", "--db", str(db)],
                         capture_output=True, timeout=60, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    text = out.stdout.decode()
    assert "[MYS] Hall of Fame" in text
    assert "[MYS]Gus" in text and "[MYS]Ann" in text
    assert "[SBBS]" not in text
    everyone = subprocess.run([*cmd, "bulletin", "--format", "utf8", "--db", str(db)],
                              capture_output=True, timeout=60, cwd=tmp_path).stdout.decode()
    assert "[SBBS]Bea" in everyone and "[MYS]Gus" in everyone
