"""Plain text prints again every line that changes: what a plain screen
shows must not change with each second or minute that passes (a screen
reader would read the lobby's who-list every minute, a countdown every
second)."""
from ansi.canvas import Canvas
from ansi.plain import PlainRenderer
from server.screens.lobby import Backdrop, plain_lobby_lines
from server.screens.match_screen import countdown_text


def lobby(clock: str, idle: tuple[str, str]) -> Backdrop:
    who = ((f"  1 {'Alice':<20} {'lobby':<8} {'-':<7} {idle[0]:>4}", 7),
           (f"  2 {'Plain':<20} {'lobby':<8} {'1500':<7} {idle[1]:>4}", 7))
    return Backdrop(f"Plain · node 2 · {clock}", who, 2, "", False, (), (), (0, 0))


def test_the_plain_lobby_prints_nothing_as_the_minutes_pass():
    r = PlainRenderer(80, 24)
    frames = []
    for clock, idle in (("17:31", ("0m", "0m")), ("17:32", ("1m", "1m")), ("18:40", ("1h09", "2m"))):
        canvas = Canvas(80, 24)
        for y, line in enumerate(plain_lobby_lines(lobby(clock, idle), "")):
            canvas.text(0, y, line)
        frames.append(r.render(canvas))
    assert b"Alice" in frames[0] and b"Who's online (2):" in frames[0]
    assert frames[1:] == [b"", b""]


def test_a_countdown_in_plain_text_changes_once_a_minute_not_each_second():
    assert countdown_text(299.2, plain=False) == "5:00"
    assert countdown_text(298.5, plain=False) == "4:59"
    assert countdown_text(537.0, plain=False, up=False) == "8:57"
    shown = {countdown_text(s / 10, plain=True) for s in range(2401, 3001)}     # 4:00.1 .. 5:00
    assert shown == {"5 min"}
    assert countdown_text(59.0, plain=True) == "under a minute"
    assert countdown_text(-3.0, plain=True) == "under a minute"
