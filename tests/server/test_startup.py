"""Every fatal start-up error: the real ``gatehouse serve`` prints one clear
line (what, which file or setting, what to do) and exits non-zero, instead
of a traceback and a process that hangs without listening."""
import asyncio
import os
import sqlite3
import sys
from pathlib import Path

import pytest

from server.services.store import Store

ROOT = Path(__file__).resolve().parents[2]
GATEHOUSE = Path(sys.executable).parent / "gatehouse"


async def serve(tmp: Path, *args: str, settings: bytes | str = b"") -> tuple[int, list[str]]:
    """Run ``gatehouse serve`` until it exits (a generous timeout: it must
    exit on its own); return its exit code and its non-empty stderr lines."""
    config = tmp / "gatehouse.toml"
    if not config.exists():
        base = f'[awari]\nbuild_endgame = false\n[sysop]\nsocket = "{tmp}/sysop.sock"\n'
        config.write_bytes(base.encode() + (settings.encode() if isinstance(settings, str) else settings))
    cmd = [str(GATEHOUSE)] if GATEHOUSE.exists() else [sys.executable, "-m", "server.cli"]
    proc = await asyncio.create_subprocess_exec(
        *cmd, "serve", "--port", "0", "--config", str(config), *args, cwd=tmp,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    try:
        out, err = await asyncio.wait_for(proc.communicate(), 60)
    except TimeoutError:
        proc.kill()
        await proc.wait()
        raise AssertionError("gatehouse serve did not exit: it hangs") from None
    lines = [line for line in err.decode("utf-8", "replace").splitlines() if line.strip()]
    assert not out.strip(), out     # it never claimed to be listening
    return proc.returncode, lines


async def make_db(path: Path) -> Path:
    store = await Store(path).open()
    await store.create_user("Alice", b"s" * 16, b"h" * 32)
    for i in range(150):
        gid = await store.create_game("towers", {"n": i}, ("Alice", f"computer:{i}"))
        await store.add_move(gid, 1, 0, "a1" * 50)
    await store.close()
    return path


def one_line(code: int, lines: list[str], *words: str) -> str:
    assert code != 0
    assert len(lines) == 1, lines
    line = lines[0]
    assert line.startswith("gatehouse: ") and "Traceback" not in line
    for word in words:
        assert word in line, line
    return line


async def test_not_a_database(tmp_path):
    db = tmp_path / "g.db"
    db.write_text("these are my notes, not a database\n" * 100)
    code, lines = await serve(tmp_path, "--db", str(db))
    one_line(code, lines, str(db), "not a Gatehouse database", "another file")
    assert db.read_text().startswith("these are my notes")     # nothing lost


async def test_corrupt_database(tmp_path):
    db = await make_db(tmp_path / "g.db")
    data = bytearray(db.read_bytes())
    page = 4096
    data[page * 2:page * 2 + 2000] = os.urandom(2000)     # scribble over a b-tree page
    db.write_bytes(bytes(data))
    code, lines = await serve(tmp_path, "--db", str(db))
    one_line(code, lines, str(db), "damaged", "backup")


async def test_truncated_database(tmp_path):
    db = await make_db(tmp_path / "g.db")
    size = db.stat().st_size
    with open(db, "r+b") as f:
        f.truncate(size // 2 + 100)
    code, lines = await serve(tmp_path, "--db", str(db))
    one_line(code, lines, str(db), "damaged")


async def test_newer_schema(tmp_path):
    db = await make_db(tmp_path / "g.db")
    con = sqlite3.connect(db)
    con.execute("PRAGMA user_version=99")
    con.commit()
    con.close()
    code, lines = await serve(tmp_path, "--db", str(db))
    one_line(code, lines, str(db), "newer Gatehouse", "schema 99")
    assert sqlite3.connect(db).execute("PRAGMA user_version").fetchone()[0] == 99


async def test_a_missing_table_is_one_line_that_names_it(tmp_path):
    db = await make_db(tmp_path / "g.db")
    con = sqlite3.connect(db)
    con.execute("DROP TABLE moves")
    con.commit()
    con.close()
    code, lines = await serve(tmp_path, "--db", str(db))
    one_line(code, lines, str(db), "damaged", "no table moves", "backup")


async def test_a_missing_column_is_one_line_that_names_it(tmp_path):
    db = await make_db(tmp_path / "g.db")
    con = sqlite3.connect(db)
    con.execute("ALTER TABLE users DROP COLUMN charset")
    con.commit()
    con.close()
    code, lines = await serve(tmp_path, "--db", str(db))
    one_line(code, lines, str(db), "damaged", "no column charset in table users")


async def test_read_only_database(tmp_path):
    db = await make_db(tmp_path / "g.db")
    db.chmod(0o444)
    code, lines = await serve(tmp_path, "--db", str(db))
    one_line(code, lines, str(db), "read-only", "writable")


async def test_database_path_is_a_folder(tmp_path):
    (tmp_path / "g.db").mkdir()
    code, lines = await serve(tmp_path, "--db", str(tmp_path / "g.db"))
    one_line(code, lines, "g.db")


@pytest.mark.parametrize("port", ["70000", "-5"])
async def test_port_out_of_range(tmp_path, port):
    config = tmp_path / "gatehouse.toml"
    config.write_text(f'[server]\nport = {port}\n[awari]\nbuild_endgame = false\n')
    cmd = [str(GATEHOUSE)] if GATEHOUSE.exists() else [sys.executable, "-m", "server.cli"]
    proc = await asyncio.create_subprocess_exec(
        *cmd, "serve", "--config", str(config), "--db", str(tmp_path / "g.db"), cwd=tmp_path,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await asyncio.wait_for(proc.communicate(), 60)
    lines = [x for x in err.decode().splitlines() if x.strip()]
    one_line(proc.returncode, lines, "server.port", port, "out of range")


async def test_port_in_use(tmp_path):
    blocker = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0)
    port = blocker.sockets[0].getsockname()[1]
    try:
        config = tmp_path / "gatehouse.toml"
        config.write_text(f'[server]\nport = {port}\n[awari]\nbuild_endgame = false\n'
                          f'[sysop]\nsocket = "{tmp_path}/s.sock"\n')
        code, lines = await serve(tmp_path, "--db", str(tmp_path / "g.db"), "--port", str(port))
        one_line(code, lines, f"port {port}", "cannot listen")
    finally:
        blocker.close()


async def test_web_port_in_use(tmp_path):
    blocker = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0)
    port = blocker.sockets[0].getsockname()[1]
    try:
        code, lines = await serve(tmp_path, "--db", str(tmp_path / "g.db"), "--web-port", str(port))
        errors = [line for line in lines if " INFO " not in line]   # (telnet was up by then)
        one_line(code, errors, "browsers", f"port {port}", "[web] host/port")
    finally:
        blocker.close()


@pytest.mark.parametrize("setting,words", [
    ("[server]\nmax_per_ip = -1\n", ["server.max_per_ip", "-1", "out of range"]),
    ("[server]\nidle_minutes = 0\n", ["server.idle_minutes", "out of range"]),
    ('[rlogin]\nallow = ["10.0.0.300"]\n', ["rlogin.allow", "10.0.0.300", "not an IP address"]),
    ('[rlogin]\nallow = ["localhost"]\n', ["rlogin.allow", "localhost"]),
    ('[rlogin]\nport = 99999\n', ["rlogin.port", "out of range"]),
    ("[server]\nmax_per_ip = \"eight\"\n", ["server.max_per_ip", "must be a number"]),
    ("[server]\ncomputer_workers = 0\n", ["server.computer_workers", "out of range"]),
    ('[web]\nport = 70000\n', ["web.port", "70000", "out of range"]),
    ('[web]\nenabled = "yes"\n', ["web.enabled", "true or false"]),
    ('[web]\ntrusted_proxies = ["my-proxy"]\n', ["web.trusted_proxies", "my-proxy", "not an IP address"]),
    ('[web]\norigins = ["bbs.example.org"]\n', ["web.origins", "bbs.example.org", "not a page's origin"]),
    ('[rlogin]\nenabled = true\nallow = ["127.0.0.0/8"]\nsecrets = ["127.0.0.1=s3cret"]\n',
     ["rlogin.allow", "127.0.0.0/8", "no rlogin.secrets entry covers"]),
    ('[rlogin]\nenabled = true\nsecrets = ["127.0.0.1=s3cret"]\n',        # the default allow has ::1
     ["rlogin.allow", "::1", "no rlogin.secrets entry covers"]),
    ("[server]\nshutdown_grace_seconds = 600\n", ["server.shutdown_grace_seconds", "out of range"]),
    ("[rlogin]\ntga = \"VRT\"\n", ["gatehouse.toml", "unknown setting rlogin.tga"]),
    ("[server]\nport = \"2323\"\n", ["gatehouse.toml", "server.port must be a number"]),
])
async def test_bad_setting(tmp_path, setting, words):
    code, lines = await serve(tmp_path, "--db", str(tmp_path / "g.db"), settings=setting)
    one_line(code, lines, *words)
    assert not (tmp_path / "g.db").exists()    # refused before touching anything


async def test_settings_not_utf8(tmp_path):
    code, lines = await serve(tmp_path, "--db", str(tmp_path / "g.db"),
                              settings=b"[sysop]\n" + b'name = "Sys\xe9op"\n')
    one_line(code, lines, "gatehouse.toml", "UTF-8")


async def test_settings_unreadable(tmp_path):
    (tmp_path / "gatehouse.toml").mkdir()
    code, lines = await serve(tmp_path, "--db", str(tmp_path / "g.db"))
    one_line(code, lines, "gatehouse.toml", "cannot read")


async def test_new_database_is_private(tmp_path):
    """The database (password hashes) is created 0600, not world-readable."""
    path = tmp_path / "new.db"
    store = await Store(path).open()
    await store.create_user("Alice", b"s" * 16, b"h" * 32)
    wal = path.with_name(path.name + "-wal")
    assert wal.exists() and wal.stat().st_mode & 0o777 == 0o600   # the journal too
    await store.close()
    assert path.stat().st_mode & 0o777 == 0o600


async def test_a_settings_file_with_secrets_readable_by_everyone_is_warned_of(tmp_path):
    """The BBSes' RLogin secrets let whoever reads them hand a caller over
    under any name: the server says so at start when others can read them."""
    config = tmp_path / "gatehouse.toml"
    config.write_text(f'[awari]\nbuild_endgame = false\n[sysop]\nsocket = "{tmp_path}/s.sock"\n'
                      '[rlogin]\nsecrets = ["127.0.0.1=s3cret"]\n')
    cmd = [str(GATEHOUSE)] if GATEHOUSE.exists() else [sys.executable, "-m", "server.cli"]
    for mode, warned in ((0o644, True), (0o640, False)):
        config.chmod(mode)
        proc = await asyncio.create_subprocess_exec(
            *cmd, "serve", "--port", "0", "--config", str(config), "--db", str(tmp_path / "g.db"),
            cwd=tmp_path, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        try:
            assert proc.stdout is not None and proc.stderr is not None
            line = await asyncio.wait_for(proc.stdout.readline(), 60)
            assert b"listening" in line                       # started, warning or not
        finally:
            proc.terminate()
            _, err = await asyncio.wait_for(proc.communicate(), 60)
        text = err.decode()
        found = [x for x in text.splitlines() if "holds [rlogin] secrets" in x]
        assert bool(found) == warned, text
        if warned:
            assert str(config) in found[0] and "0644" in found[0] and "chmod 0640" in found[0]
