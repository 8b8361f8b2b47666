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
                                   session=SimpleNamespace(handle="Carol"))
    await PlainCommands(screen).run("draw")
    assert screen.banner == "You are watching: say TEXT to chat, lobby to leave."
    assert match.draw_offer is None and not match.ended
    match.stop()
