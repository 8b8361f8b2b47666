"""The board's own look: the sysop's title art and footer line, read from
the state directory when present, the shipped art otherwise.

- ``title.ans`` (CP437 ANSI, with or without SAUCE): drawn in the title
  screen's 80x20 art area. A file SAUCE says is wider (132 columns) is laid
  out at its own width and cut at column 80; a taller one is cut at row 20.
  Nothing is ever scrolled or wrapped into the login lines below.
- ``footer.txt``: its first line (control characters removed, at most 76
  columns) replaces the title screen's welcome line and the bulletin's
  last line: the BBS's name, its door menu key...

Both are read again when the file changes (its modification time), so the
sysop need not restart the server.
"""
from __future__ import annotations

import logging
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import TypeVar

from ansi.art import parse_ans
from ansi.canvas import WHITE, Canvas, clean_text

__all__ = ["title_art", "footer_line", "TITLE_FILE", "FOOTER_FILE", "ART_COLS", "ART_ROWS"]

log = logging.getLogger("gatehouse")
SHIPPED = ("server", "art/title.ans")      # package data: (package, resource)
TITLE_FILE = "title.ans"
FOOTER_FILE = "footer.txt"
ART_COLS, ART_ROWS = 80, 20
FOOTER_COLS = 76
MAX_BYTES = 1 << 20                        # a title bigger than this is not art

T = TypeVar("T")
_cache: dict[str, tuple[float | None, Canvas]] = {}
_footers: dict[str, tuple[float | None, str | None]] = {}


def _mtime(path: Path) -> float | None:
    try:
        return path.stat().st_mtime if path.is_file() else None
    except OSError:
        return None


def _cut(art: Canvas) -> Canvas:
    """The art's top-left 80x20, on a blank 80x20 canvas."""
    out = Canvas(ART_COLS, ART_ROWS)
    out.blit(art.region(0, 0, min(ART_COLS, art.width), min(ART_ROWS, art.height)), 0, 0)
    return out


def _shipped() -> Canvas:
    try:
        package, name = SHIPPED
        return _cut(parse_ans(resources.files(package).joinpath(name).read_bytes())[0])
    except (OSError, ValueError) as exc:
        log.error("title art %s/%s unreadable (%s): showing plain text", *SHIPPED, exc)
        art = Canvas(ART_COLS, ART_ROWS)
        art.center(10, "G A T E H O U S E", WHITE)
        return art


def _when_changed(path: Path, cache: dict[str, tuple[float | None, T]], read: Callable[[Path], T],
                  missing: Callable[[], T]) -> T:
    """``read(path)``, kept until the file's modification time changes;
    ``missing()`` while there is no file."""
    mtime = _mtime(path)
    kept = cache.get(str(path))
    if kept is not None and kept[0] == mtime:
        return kept[1]
    value = missing() if mtime is None else read(path)
    cache[str(path)] = (mtime, value)
    return value


def _read_title(path: Path) -> Canvas:
    try:
        data = path.read_bytes()
        if len(data) > MAX_BYTES:
            raise ValueError(f"larger than {MAX_BYTES} bytes")
        art = _cut(parse_ans(data)[0])
        log.info("title art from %s", path)
        return art
    except (OSError, ValueError) as exc:
        log.error("title art %s unreadable (%s): showing the shipped art", path, exc)
        return _shipped()


def _read_footer(path: Path) -> str | None:
    try:
        with path.open("rb") as f:
            first = f.readline(4096).decode("utf-8", "replace")
    except OSError as exc:
        log.error("footer %s unreadable (%s)", path, exc)
        return None
    return clean_text(" ".join(first.split()))[:FOOTER_COLS] or None


def title_art(state_dir: str | Path) -> Canvas:
    """The title screen's art, 80x20: the sysop's ``title.ans`` if there is
    one that can be read, else the shipped art."""
    return _when_changed(Path(state_dir) / TITLE_FILE, _cache, _read_title, _shipped)


def footer_line(state_dir: str | Path) -> str | None:
    """The first line of the sysop's ``footer.txt``, cleaned; None if absent or empty."""
    return _when_changed(Path(state_dir) / FOOTER_FILE, _footers, _read_footer, lambda: None)
