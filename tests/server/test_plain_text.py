"""Plain text: lines that changed, 7-bit ASCII, never an escape byte; the
moves a plain caller types."""
from types import SimpleNamespace

from ansi.canvas import BLUE, WHITE, Canvas
from ansi.plain import PlainRenderer, to_ascii
from doors import registry
from server.screens.plain_game import PlainCommands

from .test_match import new_match


def test_a_new_screen_prints_its_lines_then_only_what_changed():
    r = PlainRenderer(80, 24)
    canvas = Canvas(80, 24)
    canvas.fill(0, 0, 80, 1, " ", WHITE, BLUE)
    canvas.text(1, 0, "GATEHOUSE · Lobby", WHITE, BLUE)
    canvas.box(2, 2, 20, 5, WHITE)
    canvas.text(3, 3, "Alice \x1b[2J", WHITE)        # text is never a control sequence
    first = r.render(canvas)
    assert b"\x1b" not in first and first.endswith(b"\r\n")
    assert first.decode("ascii").split("\r\n")[1:3] == [" GATEHOUSE . Lobby", "  +------------------+"]
    assert r.render(canvas) == b""                   # nothing changed: nothing sent
    canvas.text(3, 4, "Bob", WHITE)
    assert r.render(canvas) == b"  |Bob               |\r\n"


def test_to_ascii_keeps_letters_and_drops_the_rest():
    assert to_ascii("Ünïcödé ─│┌ ☺ \x1b") == "Unicode -|+ ? ?"


def test_a_stratego_board_in_ascii_tells_hidden_pieces_from_lakes():
    """The enemy's hidden pieces (■) and the lakes (≈) are two things to a
    screen reader, not one "?"."""
    row = " 6   ·  · ≈≈≈≈≈≈ ·  · ≈≈≈≈≈≈ ·  · "
    hidden = "10   ■  ■  ■  ■  ■  ■  ■  ■  ■  ■ "
    assert "?" not in to_ascii(row) and "~~~~~~" in to_ascii(row)
    assert to_ascii(hidden).split()[1:] == ["#"] * 10


def test_typed_moves_parse_as_the_doors_declare_them():
    stratego = registry()["stratego"]
    state = stratego.new_game({})
    words = {c.word for c in stratego.text_commands}
    assert {"move", "place", "remove", "ready", "random"} <= words
    assert state.action_to_str(state.parse_action("a4 a5")) == "A4-A5"
    assert state.action_to_str(state.parse_action("place d4 B")) == "place D4 B"
    awari = registry()["awari"]
    assert [c.usage for c in awari.text_commands] == ["sow N"]


async def test_a_watcher_typing_a_players_word_is_told_they_are_watching():
    match, _store, _alice, _bob = new_match()
    screen = SimpleNamespace(match=match, me=None, banner="",
                             session=SimpleNamespace(handle="Carol", is_sysop=False))
    await PlainCommands(screen).run("draw")      # (two callers play: no kibitzing, so no "say")
    assert screen.banner == "You are watching: type lobby (or press ENTER) to leave."
    screen.session.is_sysop = True
    await PlainCommands(screen).run("draw")
    assert screen.banner == "You are watching: say TEXT to chat, lobby to leave."
    assert match.draw_offer is None and not match.ended
    match.stop()


def test_the_typed_line_is_echoed_as_typed_not_reprinted_for_each_key():
    """A caller typing ``Tina`` at the handle prompt reads the prompt once
    and the letters after it, as a line-mode terminal would echo them;
    a backspace rubs out; the next screen starts on a line of its own."""
    r = PlainRenderer(80, 24)
    canvas = Canvas(80, 24)
    prompt = "Handle (new callers: pick one):"
    canvas.text(0, 20, prompt, WHITE)
    r.render(canvas, (len(prompt) + 1, 20))
    sent = []
    for typed in ("T", "Ti", "Tin", "Tina", "Tin"):
        canvas.text(0, 20, f"{prompt} {typed:<10}", WHITE)
        sent.append(r.render(canvas, (len(prompt) + 2 + len(typed), 20)))
    assert sent == [f"{prompt} T".encode(), b"i", b"n", b"a", b"\b \b"]
    canvas.fill(0, 0, 80, 24)
    canvas.text(0, 0, "Password:", WHITE)
    assert r.render(canvas, (10, 0)) == b"\r\nPassword:\r\n"


def test_the_typed_commands_help_fits_80_columns_and_names_every_piece():
    """Each command's line is cut by no screen: the Flag's key (F) is there."""
    for info in registry().values():
        screen = SimpleNamespace(match=SimpleNamespace(info=info))
        page = PlainCommands(screen).help_text().split("\f")[0]   # type: ignore[arg-type]
        assert all(len(row) <= 78 for row in page.splitlines()), page
        if info.key == "stratego":
            assert "(1-9, S, B, F)" in " ".join(page.split()), page
