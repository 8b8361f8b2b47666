"""The renderer's escape codes: the shortest SGR change between two sets of
attributes, and the cheapest cursor move between two cells (absolute,
relative, CR LF, or re-printing the cells in between). Only
``ansi.render.DiffRenderer`` (and the byte benches) use them.
"""
from __future__ import annotations

from collections.abc import Callable

from .canvas import GREY

__all__ = ["Attr", "Reprint", "DEFAULT_ATTR", "REPRINT_MAX", "sgr", "cup", "rel_move", "move_cost"]

Attr = tuple[int, int, bool]          # (fg 0-15, bg 0-7, blink)
Reprint = Callable[[int, int], "str | None"]       # cells a..b-1 of a row as text, or None
DEFAULT_ATTR: Attr = (GREY, 0, False)
REPRINT_MAX = 6                       # unchanged cells worth re-printing


def sgr(cur: Attr | None, new: Attr) -> str:
    """The shortest SGR sequence taking attributes ``cur`` (None: unknown)
    to ``new``; "" when nothing changes."""
    if cur == new:
        return ""
    fg, bg, blink = new

    def from_reset() -> list[str]:
        p = ["0"]
        if fg >= 8:
            p.append("1")
        if blink:
            p.append("5")
        if fg & 7 != 7:
            p.append(f"3{fg & 7}")
        if bg:
            p.append(f"4{bg}")
        return p

    best = from_reset()
    if cur is not None:
        cfg, cbg, cblink = cur
        if not (cfg >= 8 > fg or (cblink and not blink)):
            p = []
            if fg >= 8 > cfg:
                p.append("1")
            if blink and not cblink:
                p.append("5")
            if fg & 7 != cfg & 7:
                p.append(f"3{fg & 7}")
            if bg != cbg:
                p.append(f"4{bg}")
            if len(";".join(p)) <= len(";".join(best)):
                best = p
    return "\x1b[" + ";".join(best) + "m"


def cup(x: int, y: int) -> str:
    """Absolute move to column ``x``, row ``y`` (0-based), shortest form."""
    if x == 0:
        return "\x1b[H" if y == 0 else f"\x1b[{y + 1}H"
    return f"\x1b[{y + 1};{x + 1}H"


def rel_move(n: int, final: str, single: str) -> str:
    """The shorter of ``single`` repeated n times and ``ESC[n<final>``."""
    seq = f"\x1b[{n}{final}" if n > 1 else f"\x1b[{final}"
    return single * n if single and n <= len(seq) else seq


def _horizontal(cx: int, tx: int, reprint: Reprint) -> str:
    """Cheapest move along a row from column cx to tx (cx < width)."""
    if cx == tx:
        return ""
    options = []
    if tx > cx:
        options.append(rel_move(tx - cx, "C", ""))
        r = reprint(cx, tx)
        if r is not None:
            options.append(r)
    else:
        options.append(rel_move(cx - tx, "D", "\b"))
        if tx == 0:
            return "\r"
        options.append("\r" + rel_move(tx, "C", ""))
        r = reprint(0, tx)
        if r is not None:
            options.append("\r" + r)
    return min(options, key=len)


def move_cost(cur: tuple[int, int] | None, target: tuple[int, int],
              width: int, reprint: Callable[[int], Reprint] = lambda y: (lambda a, b: None),
              wraps: bool = True) -> str:
    """The cheapest sequence moving the cursor from ``cur`` to ``target``.

    ``cur`` may be None (unknown) or have x == width (pending wrap when
    ``wraps``, i.e. the terminal is ``width`` wide; else an ordinary column).
    ``reprint(y)`` returns a function (a, b) -> text re-printing the unchanged
    cells a..b-1 of row y (or None when they can't be re-printed); the texts
    returned here mix escape codes and such cells, as str."""
    tx, ty = target
    best = cup(tx, ty)
    if cur is None:
        return best
    cx, cy = cur
    if (cx, cy) == (tx, ty):
        return ""
    if cx >= width and wraps:           # pending wrap: only print on
        if ty == cy + 1:
            r = "" if tx == 0 else reprint(ty)(0, tx)
            if r is not None and len(r) < len(best):
                best = r
        return best
    dy = ty - cy
    vert = "" if dy == 0 else (rel_move(dy, "B", "") if dy > 0 else rel_move(-dy, "A", ""))
    cand = vert + _horizontal(cx, tx, reprint(ty))
    if dy > 0:
        # LF only from column 0 (after a CR): a terminal that turns LF into
        # CR LF (telnet clients, a tty with ONLCR) then lands where one that
        # doesn't does.
        down = ("" if cx == 0 else "\r") + rel_move(dy, "B", "\n")
        if tx:
            r = reprint(ty)(0, tx)
            right = rel_move(tx, "C", "")
            down += r if r is not None and len(r) < len(right) else right
        if len(down) < len(cand):
            cand = down
    return cand if len(cand) < len(best) else best
