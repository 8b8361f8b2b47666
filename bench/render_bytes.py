"""Bytes the diff renderer sends, against a full repaint and a baseline.

Prints ``name: value unit`` lines. The busy screen is the title art on an
80x24 canvas; the small updates are the kind a door game sends per move.
``minimal_diff_cost`` is the baseline (changed characters + cheapest plain
moves + SGR deltas).

    python bench/render_bytes.py
"""
from __future__ import annotations

import sys
from importlib import resources
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ansi.art import parse_ans  # noqa: E402
from ansi.canvas import BLUE, BRIGHT_RED, GREY, WHITE, YELLOW, Canvas  # noqa: E402
from ansi.render import DiffRenderer, minimal_diff_cost  # noqa: E402
from ansi.widgets import ChatPane  # noqa: E402

BAUD_BYTES = 240          # 2400 baud


def title_screen() -> Canvas:
    art, _ = parse_ans(resources.files("server").joinpath("art/title.ans").read_bytes())
    screen = Canvas(80, 24)
    screen.blit(art)
    screen.text(0, 23, " Press any key ".center(79), WHITE, BLUE)
    return screen


def updates(base: Canvas):
    """(name, new canvas) pairs, each a change from ``base``."""
    one = base.copy()
    one.put(40, 12, "@", YELLOW)
    yield "one_cell", one

    status = base.copy()
    status.text(0, 23, " Your move - 0:30 left ".center(79), WHITE, BLUE)
    yield "status_line", status

    piece = base.copy()
    piece.fill(10, 14, 3, 2, " ")
    piece.fill(16, 14, 3, 2, "█", BRIGHT_RED)
    yield "piece_move", piece

    chat_a, chat_b = base.copy(), base.copy()
    pane = ChatPane(lines=20)
    for i in range(6):
        pane.add("ann" if i % 2 else "bob", f"message number {i} about the game")
    pane.draw(chat_a.region(30, 16, 49, 6))
    pane.add("bob", "good move!")
    pane.draw(chat_b.region(30, 16, 49, 6))
    yield "chat_scroll", chat_a, chat_b

    cleared = Canvas(80, 24)
    cleared.text(0, 0, "Main menu", GREY)
    yield "to_blank_screen", cleared


def main() -> None:
    screen = title_screen()
    for cs in ("cp437", "utf8"):
        full = DiffRenderer(charset=cs).full(screen)
        print(f"full_repaint_{cs}: {len(full)} bytes")
        print(f"full_repaint_{cs}_at_2400: {len(full) / BAUD_BYTES:.1f} s")
    cells = sum(1 for c in screen if c.char != " ")
    print(f"title_non_blank_cells: {cells} cells")
    tot_r = tot_m = 0
    for name, *frames in updates(screen):
        before = screen if len(frames) == 1 else frames[0]
        after = frames[-1]
        r = DiffRenderer(charset="cp437")
        r.render(before)
        sent = len(r.render(after))
        base = minimal_diff_cost(before, after, "cp437")
        tot_r += sent
        tot_m += base
        print(f"{name}_bytes: {sent} bytes")
        print(f"{name}_minimal: {base} bytes")
        print(f"{name}_ratio: {sent / base:.2f} x" if base else f"{name}_ratio: - x")
    print(f"small_updates_ratio: {tot_r / tot_m:.2f} x")
    r = DiffRenderer(charset="cp437")
    r.render(screen)
    print(f"unchanged_frame: {len(r.render(screen))} bytes")


if __name__ == "__main__":
    main()
