"""The bulletin for the host BBS: the hall of fame of every door (or one)
and the games in progress, as a file a Synchronet, Mystic or ENiGMA½ sysop
shows on their menus: CP437 ANSI with a SAUCE record (``ans``), plain ASCII
(``asc``) or UTF-8 text (``utf8``). Built from the store, read only."""
from __future__ import annotations

import datetime
import time

from ansi.art import Sauce
from ansi.canvas import BLUE, BRIGHT_CYAN, BRIGHT_GREEN, CYAN, DARK_GREY, GREY, WHITE, YELLOW, Canvas
from ansi.render import flowing
from doors import registry
from server.screens.hall_screen import LEADERS_RULE, draw_leaders
from server.services.records import Hall, bbs_members, hall_of_fame
from server.services.seats import parse_seat_label
from server.services.store import Store, handle_key

__all__ = ["build_bulletin", "encode_bulletin", "FORMATS"]

FORMATS = ("ans", "asc", "utf8")
WIDTH = 79                  # the last column stays empty: no terminal wraps early
IN_PROGRESS_ROWS = 10
_ASCII = str.maketrans({"─": "-", "═": "=", "│": "|", "║": "|", "┌": "+", "┐": "+", "└": "+",
                        "┘": "+", "╔": "+", "╗": "+", "╚": "+", "╝": "+", "·": "-", "±": "+"})


async def _ratings(store: Store) -> dict[tuple[str, str], float]:
    return {(p, d): r for p, d, r, _dev, _vol in await store.all_ratings()}


FOOTER = "Call in and play: ratings, hall of fame and replays in the lobby."


async def build_bulletin(store: Store, door: str | None = None,
                         now: float | None = None, bbs: str | None = None,
                         footer: str | None = None) -> Canvas:
    """The bulletin as a canvas, 80 columns wide and as tall as it needs;
    ``bbs`` (a tag, ``[MYS]``): only the callers that BBS sent; ``footer``:
    the sysop's last line (``board_look.footer_line``)."""
    only = await bbs_members(store, bbs) if bbs else None
    doors = [registry()[door]] if door else list(registry().values())
    leaders = 10 if door else 5
    rows = 3 + len(doors) * (leaders + 3) + 3 + IN_PROGRESS_ROWS + 3
    canvas = Canvas(80, rows)
    stamp = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(now if now is not None else time.time()))
    canvas.fill(0, 0, WIDTH, 1, " ", WHITE, BLUE)
    canvas.text(1, 0, "GATEHOUSE", YELLOW, BLUE)
    heading = f"· {bbs} Hall of Fame and games" if bbs else "· Hall of Fame and games in progress"
    canvas.text(11, 0, heading, WHITE, BLUE)
    canvas.text(WIDTH - 1 - len(stamp), 0, stamp, BRIGHT_CYAN, BLUE)
    y = 2
    for info in doors:
        hall = await hall_of_fame(store, info.key, top=leaders, only=only)
        canvas.text(1, y, info.title, BRIGHT_GREEN)
        canvas.fill(2 + len(info.title), y, WIDTH - 3 - len(info.title), 1, "─", DARK_GREY)
        y = _leaders(canvas, y + 1, hall, leaders) + 1
    canvas.text(1, y, "Games in progress", BRIGHT_GREEN)
    canvas.fill(19, y, WIDTH - 20, 1, "─", DARK_GREY)
    y += 1
    ratings = await _ratings(store)
    paces = await store.by_turns()
    live = [g for g in await store.list_games("active", limit=200)
            if g.door in registry() and (door is None or g.door == door)
            and (only is None or any(handle_key(label) in only for label in g.players))]
    for game in live[:IN_PROGRESS_ROWS]:
        names = []
        for label in game.players:
            name = parse_seat_label(label)[1]
            rating = ratings.get((handle_key(label), game.door))
            names.append(f"{name} ({rating:.0f})" if rating is not None else name)
        title = registry()[game.door].title
        canvas.text(1, y, f"{title[:12]:<12} {names[0]:<24} vs {names[1]:<24}", GREY)
        if game.id in paces:                     # a game by turns: its time per move
            canvas.text(66, y, f"{pace_text(paces[game.id][0]):>6}", YELLOW)
        played = registry()[game.door].state_class.count_moves(await store.moves(game.id))[0]   # not setups
        canvas.text(73, y, f"{played:>4}mv"[:6], CYAN)
        y += 1
    if not live:
        canvas.text(1, y, "No games are being played right now.", DARK_GREY)
        y += 1
    elif len(live) > IN_PROGRESS_ROWS:
        canvas.text(1, y, f"and {len(live) - IN_PROGRESS_ROWS} more", DARK_GREY)
        y += 1
    canvas.text(1, y + 1, LEADERS_RULE, DARK_GREY)
    canvas.text(1, y + 2, footer or FOOTER, CYAN)
    return _crop(canvas, y + 3)


def pace_text(seconds: float) -> str:
    """A by-turns game's time per move, short: "3d/mv", "12h/mv"."""
    hours = seconds / 3600
    return f"{hours / 24:g}d/mv" if hours >= 24 and hours % 24 == 0 else f"{hours:.0f}h/mv"


def _leaders(canvas: Canvas, y: int, hall: Hall, rows: int) -> int:
    full = Canvas(80, 11)
    draw_leaders(full, 0, hall)
    canvas.blit(full.region(0, 0, 80, rows + 1), 0, y)
    return y + rows + 1


def _crop(canvas: Canvas, height: int) -> Canvas:
    out = Canvas(80, height)
    out.blit(canvas.region(0, 0, 80, height), 0, 0)
    return out


def encode_bulletin(canvas: Canvas, fmt: str, now: float | None = None) -> bytes:
    """The file's bytes: ``ans`` CP437 ANSI with SAUCE, ``asc`` ASCII text,
    ``utf8`` UTF-8 text; lines end with CR LF."""
    if fmt == "ans":
        art = flowing(canvas, "cp437")
        when = datetime.datetime.fromtimestamp(now if now is not None else time.time(),
                                               datetime.UTC)
        sauce = Sauce(title="Gatehouse bulletin", author="Gatehouse", group="",
                      date=when.strftime("%Y%m%d"), file_size=len(art), datatype=1, filetype=1,
                      tinfo1=80, tinfo2=canvas.height, tinfos="IBM VGA")
        return art + sauce.to_bytes()
    lines = [line[:WIDTH].rstrip() for line in canvas.lines()]
    text = "\r\n".join(lines) + "\r\n"
    if fmt == "asc":
        return text.translate(_ASCII).encode("ascii", "replace")
    if fmt == "utf8":
        return text.encode("utf-8")
    raise ValueError(f"unknown bulletin format {fmt!r}: use one of {', '.join(FORMATS)}")
