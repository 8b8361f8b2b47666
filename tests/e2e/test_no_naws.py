"""A client that never reports its window size (no NAWS): the server
draws for 80 columns and, not knowing whether the window wraps there,
never leans on the wrap; the screen is right in a window of any width."""
from .harness import connect_without_naws


async def test_no_window_size_in_a_wide_window_gets_every_row_in_its_place(app):
    caller = await connect_without_naws(app.port, term="xterm", cols=100, rows=24)
    try:
        await caller.login("Wide")
        text = await caller.expect("╔═ Lobby chat")
        lines = text.splitlines()
        assert lines[1].startswith("┌─ Who's online ─") and lines[1].rstrip().endswith("┐")
        assert lines[14].startswith("╔═ Lobby chat ═") and lines[14].rstrip().endswith("╗")
        assert lines[22].startswith("╚═") and len(lines[22].rstrip()) == 80
        assert all(line[80:].strip() == "" for line in lines), "nothing past column 80"
    finally:
        await caller.close()


async def test_no_window_size_in_an_80_column_window_is_unchanged(app):
    caller = await connect_without_naws(app.port, term="ansi-bbs", cols=80, rows=24)
    try:
        await caller.login("Narrow")
        lines = (await caller.expect("╔═ Lobby chat")).splitlines()
        assert lines[14].startswith("╔═ Lobby chat ═") and lines[14].endswith("╗")
        assert lines[22].startswith("╚═") and lines[22].endswith("╝")
    finally:
        await caller.close()
