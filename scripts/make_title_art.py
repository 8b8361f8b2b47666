"""Writes server/art/title.ans (package data): the GATEHOUSE title screen (80x22, CP437).

Only the standard library: the art is drawn on a grid of cells here, then
written as escape codes and CP437 bytes with a SAUCE record. Deterministic:
running it twice gives the same file.

    python scripts/make_title_art.py [output.ans]
"""
from __future__ import annotations

import random
import struct
import sys
from pathlib import Path

W, H = 80, 22          # column 79 stays blank: no viewer wraps early
DATE = "20250601"

BLACK, RED, GREEN, BROWN, BLUE, MAGENTA, CYAN, GREY = range(8)
DGREY, BRED, BGREEN, YELLOW, BBLUE, BMAGENTA, BCYAN, WHITE = range(8, 16)

LOW = " ☺☻♥♦♣♠•◘○◙♂♀♪♫☼►◄↕‼¶§▬↨↑↓→←∟↔▲▼"

FONT = {
    "G": ["▄██████", "██     ", "██  ███", "██   ██", "▀█████▀"],
    "A": ["▄█████▄", "██   ██", "███████", "██   ██", "██   ██"],
    "T": ["███████", "  ███  ", "  ███  ", "  ███  ", "  ███  "],
    "E": ["███████", "██     ", "█████  ", "██     ", "███████"],
    "H": ["██   ██", "██   ██", "███████", "██   ██", "██   ██"],
    "O": ["▄█████▄", "██   ██", "██   ██", "██   ██", "▀█████▀"],
    "U": ["██   ██", "██   ██", "██   ██", "██   ██", "▀█████▀"],
    "S": ["▄██████", "██     ", "▀█████▄", "     ██", "██████▀"],
}

grid = [[(" ", GREY, BLACK) for _ in range(W)] for _ in range(H)]
rnd = random.Random(1983)


def put(x: int, y: int, ch: str, fg: int = GREY, bg: int = BLACK) -> None:
    if 0 <= x < W - 1 and 0 <= y < H:
        grid[y][x] = (ch, fg, bg)


def text(x: int, y: int, s: str, fg: int = GREY, bg: int = BLACK) -> None:
    for i, ch in enumerate(s):
        put(x + i, y, ch, fg, bg)


def stone(x0: int, y0: int, x1: int, y1: int, light: bool = True) -> None:
    """Ashlar masonry, offset courses, from (x0, y0) to (x1, y1) inclusive."""
    for y in range(y0, y1 + 1):
        for x in range(x0, x1 + 1):
            joint = (x + (3 if y % 2 else 0)) % 6 == 0
            if joint:
                put(x, y, "▒", DGREY, BLACK)
            else:
                put(x, y, rnd.choice("▓▓▓█") if light else "▓", GREY if light else DGREY, BLACK)


def merlons(x0: int, x1: int, y: int) -> None:
    for x in range(x0, x1 + 1):
        put(x, y, "▄" if (x - x0) % 3 != 2 else " ", GREY)


def window(x: int, y: int) -> None:
    put(x, y, "▄", YELLOW)
    put(x + 1, y, "▄", YELLOW)
    put(x, y + 1, "█", YELLOW)
    put(x + 1, y + 1, "▓", YELLOW, BROWN)


def slit(x: int, y: int) -> None:
    for dy in range(3):
        put(x, y + dy, " ")


# ----- sky --------------------------------------------------------------
for _ in range(60):
    x, y = rnd.randrange(W - 1), rnd.randrange(0, 14)
    put(x, y, rnd.choice("∙∙∙·*"), rnd.choice([DGREY, DGREY, GREY, WHITE, BCYAN]))
text(69, 7, "▄██▄", YELLOW)            # the moon
text(69, 8, "▀██▀", YELLOW)
put(70, 7, "▓", YELLOW, BROWN)

# ----- the name ---------------------------------------------------------
word = "GATEHOUSE"
ox = (W - 1 - (len(word) * 8 - 1 + 1)) // 2
shades = [(WHITE, "█", BLACK), (YELLOW, "█", BLACK), (YELLOW, "▓", BROWN),
          (BROWN, "█", BLACK), (BROWN, "▓", RED)]
for y in range(6):
    for x in range(ox, ox + len(word) * 8 + 1):
        put(x, y, " ")
for i, letter in enumerate(word):
    for y, row in enumerate(FONT[letter]):
        for x, ch in enumerate(row):
            if ch != " ":                   # drop shadow first, one down-right
                put(ox + i * 8 + x + 1, y + 1, "░", DGREY)
for i, letter in enumerate(word):
    for y, row in enumerate(FONT[letter]):
        fg, full, bg = shades[y]
        for x, ch in enumerate(row):
            if ch == "█":
                put(ox + i * 8 + x, y, full, fg, bg)
            elif ch != " ":
                put(ox + i * 8 + x, y, ch, fg)

# ----- the gatehouse ----------------------------------------------------
GROUND = 19
# curtain walls
for x0, x1 in ((0, 13), (65, 78)):
    merlons(x0, x1, 12)
    stone(x0, 13, x1, GROUND - 1, light=False)
# towers
for tx in (14, 51):
    merlons(tx - 1, tx + 14, 8)
    for x in range(tx - 1, tx + 15):
        put(x, 9, "▀", GREY)
    stone(tx, 10, tx + 13, GROUND - 1)
    window(tx + 6, 11)
    slit(tx + 3, 14)
    slit(tx + 10, 14)
    put(tx + 7, 6, "│", BROWN)          # flagpole and pennant
    put(tx + 7, 7, "│", BROWN)
    put(tx + 8, 6, "►", BRED)
    put(tx + 9, 6, "▀", RED)
# the gate block between the towers
merlons(28, 50, 10)
stone(28, 11, 50, GROUND - 1)
# the arch: '▀' is stone above, darkness below
for y in range(14, GROUND + 1):
    for x in range(33, 46):
        put(x, y, " ")
for x in range(36, 43):
    put(x, 12, "▀", GREY)
for x in (34, 35, 43, 44):
    put(x, 13, "▀", GREY)
for x in range(36, 43):
    put(x, 13, " ")
# the portcullis, half raised
for y in range(13, 18):
    for x in range(34, 45):
        if y == 13 and not 36 <= x <= 42:
            continue
        bar = (x - 34) % 2 == 0
        beam = y in (14, 16)
        ch = "╬" if bar and beam else "║" if bar else "═" if beam else " "
        put(x, y, ch, BROWN)
for x in range(34, 45, 2):
    put(x, 18, "▼", DGREY)
# torches
for x in (31, 47):
    put(x, 14, "▲", YELLOW)
    put(x, 15, "♦", BRED)
    put(x, 16, "▐", BROWN)
# ground, moat and drawbridge
for x in range(W - 1):
    if not 33 <= x <= 45:
        put(x, GROUND, "▄", GREEN, BLACK)
    put(x, GROUND + 1, rnd.choice("≈≈~"), rnd.choice([BBLUE, BCYAN, BLUE]), BLUE)
for x in range(33, 46):
    put(x, GROUND, "▄", BROWN, BLACK)
    put(x, GROUND + 1, "▀", BROWN, BLUE)
text(33, GROUND + 1, "▀" * 13, BROWN, BLUE)

# ----- tagline ----------------------------------------------------------
tag = "·  t e l n e t   d o o r   g a m e s  ·"
tx = (W - 1 - len(tag)) // 2
text(tx - 12, 21, "─" * 10 + "═", BLUE)
text(tx, 21, tag, BCYAN)
for i, ch in enumerate(tag):
    if ch == "·":
        put(tx + i, 21, "·", YELLOW)
text(tx + len(tag) + 1, 21, "═" + "─" * 10, BLUE)


# ----- writing ----------------------------------------------------------
def cp437(ch: str) -> bytes:
    if ch in LOW[1:]:
        return bytes([LOW.index(ch)])
    return ch.encode("cp437")


def sgr(cur: tuple[int, int] | None, fg: int, bg: int) -> bytes:
    """SGR from attributes ``cur`` to (fg, bg); reset only to drop bold."""
    if cur == (fg, bg):
        return b""
    if cur is None or (cur[0] >= 8 and fg < 8):
        params = ["0"] + (["1"] if fg >= 8 else [])
        params += [f"3{fg & 7}"] if fg & 7 != GREY else []
        params += [f"4{bg}"] if bg != BLACK else []
    else:
        params = ["1"] if fg >= 8 > cur[0] else []
        params += [f"3{fg & 7}"] if fg & 7 != cur[0] & 7 else []
        params += [f"4{bg}"] if bg != cur[1] else []
    return b"\x1b[" + ";".join(params).encode() + b"m"


def art() -> bytes:
    out = bytearray(b"\x1b[0m")
    cur: tuple[int, int] = (GREY, BLACK)
    for row in grid:
        end = W
        while end and row[end - 1][0] == " " and row[end - 1][2] == BLACK:
            end -= 1
        x = 0
        while x < end:
            ch, fg, bg = row[x]
            if ch == " " and bg == BLACK:
                run = x
                while run < end and row[run][0] == " " and row[run][2] == BLACK:
                    run += 1
                if run - x >= 4:           # skip blanks with CUF
                    out += f"\x1b[{run - x}C".encode()
                    x = run
                    continue
                fg = cur[0] if cur else GREY
            out += sgr(cur, fg, bg) + cp437(ch)
            cur = (fg, bg)
            x += 1
        if cur != (GREY, BLACK) and cur[1] != BLACK:
            out += sgr(cur, GREY, BLACK)
            cur = (GREY, BLACK)
        out += b"\r\n"
    return bytes(out) + b"\x1b[0m"


def sauce(size: int) -> bytes:
    def field(s: str, n: int) -> bytes:
        return s.encode("cp437").ljust(n, b" ")[:n]

    comment = field("Made by scripts/make_title_art.py for Gatehouse.", 64)
    record = struct.pack(
        "<5s2s35s20s20s8sIBBHHHHBB22s", b"SAUCE", b"00",
        field("Gatehouse title screen", 35), field("Gatehouse", 20),
        field("Gatehouse BBS", 20), DATE.encode(), size,
        1, 1, W, H, 0, 0, 1, 0, b"IBM VGA".ljust(22, b"\x00"))
    return b"\x1a" + b"COMNT" + comment + record


def main() -> None:
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else \
        Path(__file__).resolve().parent.parent / "server" / "art" / "title.ans"
    data = art()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data + sauce(len(data)))
    print(f"{path}: {len(data)} bytes of art, {W}x{H}")


if __name__ == "__main__":
    main()
