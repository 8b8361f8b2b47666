"""Stratego's screen, drawn from an observation only.

Layout of the 80x20 door region: the board on the left (3-character cells,
columns A-J across, rows labelled 1-10 in the board's own naming; each
player sees their own army at the bottom: player 1 sees row 1 at the bottom,
player 2 and spectators see row 10 at the bottom, as on the seed's screen),
a side panel on the right (setup: pieces left to place and the keys; play:
losses of each side, the last move and strike, the options).

Hidden enemy pieces are all drawn alike: the observation has no rank for
them, and nothing else about them (colour, attribute) depends on one.
"""
from __future__ import annotations

import enum
import textwrap

from ansi.canvas import (
    BLACK,
    BLUE,
    BRIGHT_BLUE,
    BRIGHT_CYAN,
    BRIGHT_GREEN,
    BRIGHT_RED,
    BROWN,
    CYAN,
    DARK_GREY,
    GREEN,
    GREY,
    MAGENTA,
    RED,
    WHITE,
    YELLOW,
    Canvas,
    clean_text,
    shorten,
)
from doors._core.door import DoorUI
from doors._core.game import Json, Options, Player

from .observation import StrategoObservation
from .pieces import COLS, LAKES, NAMES, RANKS, Action, Phase, square_name
from .rules import Strike

__all__ = ["StrategoView", "SIDE_NAMES", "BX", "BY", "CELL"]

SIDE_NAMES = ("Red", "Blue")
SIDE_BG = (RED, BLUE)
SIDE_FG = (BRIGHT_RED, BRIGHT_BLUE)
BX, BY, CELL = 4, 2, 3          # board origin in the region, cell width
PX = 38                         # side panel x
HIDDEN_GLYPH = "■"


def lost_text(ranks: tuple[str, ...]) -> str:
    parts = []
    for r in RANKS:
        n = ranks.count(r)
        if n:
            parts.append(r if n == 1 else f"{r}x{n}")
    return " ".join(parts) or "none"


def options_lines(opts: dict[str, Json]) -> list[str]:
    scout = ("Option 2: scouts strike after a run" if opts.get("scout_strike", 2) == 2
             else "Option 1: no strike after a scout run")
    two = ("Two-square: seed rule" if opts.get("two_square", "seed") == "seed"
           else "Two-square: tournament (max 5)")
    return [scout, two]


class SetupMode(enum.StrEnum):
    """What the setup panel is doing besides placing: asking "Ready? y/n",
    typing a name to save the setup under, or choosing one to load."""
    READY = "ready"
    SAVE = "save"
    LOAD = "load"


class StrategoView(DoorUI[Action, StrategoObservation]):
    """Drawing half of the Stratego UI (keys.StrategoUI adds the keys)."""

    REVEAL_SECONDS = 3.0

    def __init__(self, me: Player | None, names: tuple[str, str], options: Options):
        super().__init__(me, names, options)
        self.cur = 30 if me == 0 else 60 if me == 1 else 44
        self.selected: int | None = None
        self.mode: SetupMode | None = None
        self.buffer = ""
        self.load_index = 0
        self.saved_setups: list[str] = []
        self.reveal_until = 0.0
        self.reveal: Strike | None = None  # the Strike being shown
        self.auto_step = False             # setup: step on to the next empty square after placing

    # ----- geometry ---------------------------------------------------------
    @property
    def flipped(self) -> bool:
        """True when row 1 is at the bottom (player 1's own view)."""
        return self.me == 0

    def display_row(self, sq: int) -> int:
        row = sq // 10
        return 9 - row if self.flipped else row

    def square_at(self, drow: int, col: int) -> int:
        row = 9 - drow if self.flipped else drow
        return row * 10 + col

    def cursor(self) -> tuple[int, int] | None:
        return (BX + CELL * (self.cur % 10) + 1, BY + self.display_row(self.cur))

    @property
    def shown(self) -> StrategoObservation:
        """The observation on the screen: the drawing and key helpers run
        only once the server has given one (``draw`` and ``on_key`` check)."""
        assert self.obs is not None, "no observation yet"
        return self.obs

    def revealing(self, now: float) -> bool:
        return self.reveal is not None and now < self.reveal_until

    def frame_due(self, now: float) -> float | None:
        return self.reveal_until if self.revealing(now) else None

    # ----- drawing ----------------------------------------------------------
    def draw(self, canvas: Canvas, now: float) -> None:
        canvas.clear()
        obs = self.obs
        canvas.text(0, 0, "STRATEGO", YELLOW)
        x = 10
        for i in (0, 1):
            name = shorten(clean_text(self.names[i] if i < len(self.names) else ""), 11)   # a gap before the panel
            x = canvas.text(x, 0, name or SIDE_NAMES[i], SIDE_FG[i])
            if i == 0:
                x = canvas.text(x, 0, " vs ", DARK_GREY)
        for c in range(10):
            canvas.put(BX + CELL * c + 1, BY - 1, COLS[c], DARK_GREY)
            canvas.put(BX + CELL * c + 1, BY + 10, COLS[c], DARK_GREY)
        for d in range(10):
            row = (9 - d if self.flipped else d) + 1
            canvas.text(0, BY + d, f"{row:>2}", DARK_GREY)
            canvas.text(BX + CELL * 10 + 1, BY + d, f"{row}", DARK_GREY)
        if obs is None:
            canvas.text(BX, BY + 4, "Waiting for the game...", GREY)
            return
        for sq in range(100):
            self.draw_cell(canvas, sq, now)
        canvas.text(0, BY + 11, f"Cursor {square_name(self.cur):<4}", GREY)
        if self.selected is not None:
            canvas.text(12, BY + 11, f"Selected {square_name(self.selected)}", MAGENTA + 8)
        y = BY + 12
        for line in options_lines(obs.opts):
            canvas.text(0, y, line[:PX - 1], DARK_GREY)
            y += 1
        if self.reveal is not None and self.revealing(now):
            self.draw_strike(canvas, 0, BY + 14, self.reveal, True)
        elif obs.last_strike is not None:
            self.draw_strike(canvas, 0, BY + 14, obs.last_strike, False)
        if obs.phase == Phase.SETUP and self.outcome is None:
            self.draw_setup_panel(canvas)
        else:
            self.draw_play_panel(canvas, now)

    def draw_cell(self, canvas: Canvas, sq: int, now: float) -> None:
        obs = self.shown
        x = BX + CELL * (sq % 10)
        y = BY + self.display_row(sq)
        if sq in LAKES:
            canvas.text(x, y, "≈≈≈", BRIGHT_CYAN, CYAN)
        else:
            seen = obs.squares[sq]
            blink = False
            st = self.reveal if self.revealing(now) else None
            if st is not None and sq in (st.frm, st.to):
                owner = st.player if sq == st.frm else 1 - st.player
                rank = st.attacker if sq == st.frm else st.defender
                fg, bg, ch, blink = WHITE, SIDE_BG[owner], rank, True
            elif seen is None:
                fg, bg, ch = GREEN, BLACK, "·"
            elif seen.rank is None:
                fg, bg, ch = WHITE, SIDE_BG[seen.owner], HIDDEN_GLYPH
            else:
                # own pieces the enemy knows, and known enemy pieces, in yellow
                fg = YELLOW if seen.revealed or seen.owner != self.me else WHITE
                bg, ch = SIDE_BG[seen.owner], seen.rank
            if sq == self.selected:
                bg = MAGENTA
            canvas.put(x, y, " ", fg, bg)
            canvas.put(x + 1, y, ch, fg, bg, blink)
            canvas.put(x + 2, y, " ", fg, bg)
        last = obs.last_move
        if last is not None and sq in (last[1], last[2]):
            canvas.put(x, y, "(", BRIGHT_GREEN, canvas.get(x, y).bg)
            canvas.put(x + 2, y, ")", BRIGHT_GREEN, canvas.get(x, y).bg)
        if sq == self.cur:
            canvas.put(x, y, "[", YELLOW, canvas.get(x, y).bg)
            canvas.put(x + 2, y, "]", YELLOW, canvas.get(x, y).bg)

    def draw_strike(self, canvas: Canvas, x: int, y: int, st: Strike, live: bool) -> None:
        a_side, d_side = SIDE_NAMES[st.player], SIDE_NAMES[1 - st.player]
        head = "STRIKE! " if live else "Last strike: "
        canvas.text(x, y, f"{head}{square_name(st.frm)}x{square_name(st.to)}",
                    YELLOW if live else GREY)
        text = f"{a_side} {NAMES[st.attacker]} ({st.attacker}) on {d_side} " \
               f"{NAMES[st.defender]} ({st.defender})"
        lines = textwrap.wrap(text, PX - 1)      # never cut: two rows when it needs them
        for i, line in enumerate(lines):
            canvas.text(x, y + 1 + i, line, WHITE if live else GREY)
        if st.attacker_survived:
            res = f"{d_side} {NAMES[st.defender]} removed."
        elif st.defender_survived:
            res = f"{a_side} {NAMES[st.attacker]} removed."
        else:
            res = "Both removed."
        canvas.text(x, y + 1 + len(lines), res, WHITE if live else GREY)

    def draw_setup_panel(self, canvas: Canvas) -> None:
        obs = self.shown
        x = PX
        canvas.text(x, 0, "SETUP: place your 40 pieces" if self.me is not None else "SETUP: the armies", YELLOW)
        if self.me is None:
            for p in (0, 1):
                state = "ready" if obs.ready[p] else f"{obs.placed_count(p)}/40 placed"
                canvas.text(x, 2 + p, f"{SIDE_NAMES[p]}: {state}", SIDE_FG[p])
            return
        if self.mode == SetupMode.LOAD:
            canvas.text(x, 1, "Load which setup? (ENTER, ESC)", WHITE)
            for i, name in enumerate(self.saved_setups[:14]):
                sel = i == self.load_index
                canvas.text(x, 2 + i, f"{i + 1:>2} {clean_text(name)[:30]:<30}",
                            BLACK if sel else GREY, GREY if sel else BLACK)
        else:
            canvas.text(x, 1, "Key Piece       Left", DARK_GREY)
            rem = obs.remaining(self.me)
            for i, r in enumerate(RANKS):
                n = rem[r]
                canvas.text(x, 2 + i, f" {r}  {NAMES[r]:<11} {n}",
                            WHITE if n else DARK_GREY)
        me, them = self.me, 1 - self.me
        mine = "READY" if obs.ready[me] else f"{obs.placed_count(me)}/40"
        theirs = "READY" if obs.ready[them] else f"{obs.placed_count(them)}/40"
        canvas.text(x, 14, f"You: {mine:<6} Opponent: {theirs}", SIDE_FG[me])
        canvas.text(x, 15, "Arrows move  1-9 S B F place", GREY)
        canvas.text(x, 16, "DEL remove  R random fill", GREY)
        canvas.text(x, 17, "W save  L load  ENTER ready", GREY)
        if self.mode == SetupMode.READY:
            canvas.text(x, 18, "Ready? y/n", YELLOW)
        elif self.mode == SetupMode.SAVE:
            canvas.text(x, 18, f"Save as: {clean_text(self.buffer)}_", YELLOW)
            canvas.text(x, 19, "ENTER save, ESC cancel", DARK_GREY)
        if self.mode != SetupMode.SAVE:
            step = "steps on" if self.auto_step else "stays put"
            canvas.text(x, 19, f"A: after placing, cursor {step}", GREY)

    def draw_play_panel(self, canvas: Canvas, now: float) -> None:
        obs = self.shown
        x = PX
        out = obs.outcome if obs.outcome is not None else self.outcome
        if out is not None:
            canvas.text(x, 0, "Game over.", YELLOW)    # result and reason: the server's rows below
        elif obs.to_move:
            mover = obs.to_move[0]
            text = "Your move" if mover == self.me else f"{SIDE_NAMES[mover]} to move"
            canvas.text(x, 0, text, SIDE_FG[mover])
            if self.revealing(now):
                canvas.text(x, 1, "Strike being shown...", YELLOW)
        for p in (0, 1):
            tag = " (you)" if p == self.me else ""
            canvas.text(x, 2 + p, f"{SIDE_NAMES[p]}: {clean_text(self.names[p])[:20]}{tag}",
                        SIDE_FG[p])
        for i, p in enumerate((0, 1)):
            y = 5 + i * 4
            label = f"{SIDE_NAMES[p]} lost ({len(obs.lost[p])}):"
            canvas.text(x, y, label, SIDE_FG[p])
            for j, line in enumerate(textwrap.wrap(lost_text(obs.lost[p]), 40)[:2]):
                canvas.text(x, y + 1 + j, line, GREY)
        if obs.last_move is not None:
            p, a, b = obs.last_move
            canvas.text(x, 13, f"Last move: {SIDE_NAMES[p]} {square_name(a)}-{square_name(b)}",
                        GREY)
        canvas.text(x, 14, f"Moves played: {obs.ply}", DARK_GREY)
        if self.me is not None and out is None:
            canvas.text(x, 16, "Arrows move  ENTER select / move", GREY)
            canvas.text(x, 17, "DEL cancel  h centre of board", GREY)
        canvas.text(x, 19, f"You play {SIDE_NAMES[self.me]}" if self.me is not None
                    else "Watching", BROWN + 8)
