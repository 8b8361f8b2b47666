"""Stone Towers screen: the board, a side panel, the turn's cascade replayed
step by step and an influence overlay. Draws into the 80 x DOOR_ROWS canvas
region the server gives ``DoorUI.draw``; keys are handled in ``keys.py``.

A square is three characters wide, one row high (15 x 15 fits): red land on
a red background, blue on blue; land without a castle shows ``r`` or ``b``
(free land ``·``), castles one, two or three ``▲`` (red) or ``▼`` (blue), so
the sides differ in shape as well as colour.
"""
from __future__ import annotations

import textwrap

from ansi.canvas import (
    BLACK,
    BLUE,
    BRIGHT_CYAN,
    BRIGHT_RED,
    BROWN,
    DARK_GREY,
    GREY,
    RED,
    WHITE,
    YELLOW,
    Canvas,
    clean_text,
    shorten,
)
from doors._core.door import DoorUI, Request, Submit
from doors._core.game import Options, Player

from .keys import Overlay, handle_key
from .rules import COLOUR, NOBODY, PASS, Frame, StoneTowersState, TurnReport, square_name

__all__ = ["StoneTowersUI", "STEP_SECONDS"]

STEP_SECONDS = 0.6          # one cascade round per step
BOARD_X = 3                 # first column of square a
PANEL_X = 50
PANEL_W = 30
LAND_BG = {0: RED, 1: BLUE, NOBODY: BLACK}
SIDE_FG = (BRIGHT_RED, BRIGHT_CYAN)
CASTLE = {1: " ▲ ", 2: "▲ ▲", 3: "▲▲▲"}
# each side by shape as well as colour (monochrome, colour-blind, screenshots):
# red castles point up, blue ones down; land is marked r or b
CASTLE_MARK = {0: "▲", 1: "▼"}
LAND_MARK = {0: "r", 1: "b", NOBODY: "·"}


def castle_text(owner: int, height: int) -> str:
    return CASTLE[height].replace("▲", CASTLE_MARK.get(owner, "▲"))


def square_text(state: StoneTowersState, sq: int) -> str:
    """What the cursor readout says of a square: "red castle 2", "blue land", "free"."""
    owner, castle = state.board.owner[sq], state.board.castle[sq]
    if owner == NOBODY:
        return "free"
    return f"{COLOUR[owner]} castle {castle}" if castle else f"{COLOUR[owner]} land"


def _digit(n: int) -> str:
    return str(n) if n < 10 else "ABCDEF"[min(n, 15) - 10]


class StoneTowersUI(DoorUI[int, StoneTowersState]):
    """One seat's (or a spectator's) Stone Towers screen and controller."""

    def __init__(self, me: Player | None, names: tuple[str, str],
                 options: Options):
        super().__init__(me, names, options)
        size = int(self.options.get("size", 9))
        self.cx = self.cy = size // 2
        self.overlay = Overlay.OFF
        self.anim_start: float | None = None
        self.skipped = False
        self.seen_ply = -1

    # ----- the server's calls -------------------------------------------------
    def update(self, obs: StoneTowersState, last: tuple[Player, int] | None, now: float) -> None:
        first = self.obs is None
        super().update(obs, last, now)
        state: StoneTowersState = obs
        report = state.last_turn
        new_turn = state.ply != self.seen_ply
        self.seen_ply = state.ply
        if not new_turn:
            return
        if report is not None and not first:
            self.anim_start = now if report.rounds else None
            self.skipped = False
            self.message = summary(report, state.size)
        if (not state.is_terminal() and self.me in state.to_move()
                and state.legal_actions(self.me) == [PASS]):
            self.message = (self.message + " " if self.message else "") + \
                "You cannot build or fortify: ENTER passes."

    def on_key(self, key: str, now: float) -> Submit[int] | Request | None:
        return handle_key(self, key, now)

    def frame_due(self, now: float) -> float | None:
        step, start = self.anim_step(now), self.anim_start
        if step is None or start is None:
            return None
        return start + (step + 1) * STEP_SECONDS

    def cursor(self) -> tuple[int, int] | None:
        if self.obs is None:
            return None
        return BOARD_X + 3 * self.cx + 1, 1 + self.cy

    # ----- animation ----------------------------------------------------------
    def anim_step(self, now: float) -> int | None:
        """The cascade step shown now (0: the castle placed, k: after round
        k), or None when the whole turn is shown settled."""
        report = self.obs.last_turn if self.obs is not None else None
        if self.anim_start is None or self.skipped or report is None:
            return None
        step = int((now - self.anim_start) / STEP_SECONDS)
        if step >= len(report.rounds) or step < 0:
            return None
        return step

    def skip_animation(self) -> None:
        self.skipped = True

    # ----- drawing ------------------------------------------------------------
    def draw(self, canvas: Canvas, now: float) -> None:
        canvas.clear()
        state: StoneTowersState | None = self.obs
        if state is None:
            canvas.center(canvas.height // 2, "Waiting for the game...")
            return
        step = self.anim_step(now)
        self._draw_board(canvas, state, step)
        self._draw_panel(canvas, state, step)

    def _frame(self, state: StoneTowersState, step: int | None) -> Frame:
        report = state.last_turn
        if step is None or report is None:
            return tuple(state.board.owner), tuple(state.board.castle)
        return report.frames[step + 1]

    def _marks(self, state: StoneTowersState, step: int | None) -> tuple[set[int], set[int], set[int]]:
        """Squares to mark: (gained now, gained earlier, destroyed)."""
        report = state.last_turn
        if report is None:
            return set(), set(), set()
        rounds = report.rounds if step is None else report.rounds[:step]
        now_round = set() if step is None or step == 0 else \
            {sq for sq, _ in report.rounds[step - 1].changed}
        earlier = {sq for r in rounds for sq, _ in r.changed}
        destroyed = {sq for r in rounds for sq in r.destroyed}
        if step is None:
            now_round, earlier = earlier, set()
        return now_round, earlier - now_round, destroyed

    def _draw_board(self, canvas: Canvas, state: StoneTowersState,
                    step: int | None) -> None:
        size = state.size
        owner, castle = self._frame(state, step)
        fresh, older, destroyed = self._marks(state, step)
        report = state.last_turn
        acted = report.action if report is not None and report.kind != "pass" else None
        show_all = self.overlay is Overlay.ALL
        for x in range(size):
            canvas.text(BOARD_X + 3 * x + 1, 0, chr(ord("a") + x), DARK_GREY)
        for y in range(size):
            canvas.text(0, 1 + y, f"{y + 1:>2}", DARK_GREY)
            for x in range(size):
                sq = y * size + x
                cx = BOARD_X + 3 * x
                o, k = owner[sq], castle[sq]
                bg = LAND_BG[o]
                if show_all:
                    # owner mark (castle or land), red digit, blue digit
                    red, blue = state.influence(sq)
                    mark = CASTLE_MARK.get(o, "▲") if k else (LAND_MARK[o] if o != NOBODY else " ")
                    canvas.put(cx, 1 + y, mark, SIDE_FG[o] if o != NOBODY else DARK_GREY)
                    canvas.put(cx + 1, 1 + y, _digit(red), BRIGHT_RED if red else DARK_GREY)
                    canvas.put(cx + 2, 1 + y, _digit(blue), BRIGHT_CYAN if blue else DARK_GREY)
                else:
                    fg = WHITE
                    if k:
                        text = castle_text(o, k)
                        if sq == acted:
                            fg = YELLOW
                    elif sq in destroyed:
                        text, fg = " ☼ ", YELLOW
                    elif sq in fresh:
                        text, fg = " • ", YELLOW
                    elif sq in older:
                        text, fg = " • ", BROWN
                    else:
                        text = f" {LAND_MARK[o]} "
                        fg = GREY if o != NOBODY else DARK_GREY
                    canvas.text(cx, 1 + y, text, fg, bg)
                if (x, y) == (self.cx, self.cy):
                    self._draw_cursor(canvas, cx, 1 + y, o)

    @staticmethod
    def _draw_cursor(canvas: Canvas, cx: int, cy: int, owner: int) -> None:
        """The square under the cursor: same glyphs on a grey background."""
        for i in range(3):
            cell = canvas.get(cx + i, cy)
            if cell.fg == YELLOW:
                fg = BROWN
            elif cell.fg in (WHITE, GREY, DARK_GREY):
                fg = {0: RED, 1: BLUE}.get(owner, BLACK)
            else:
                fg = cell.fg & 7
            canvas.put(cx + i, cy, cell.char, fg, GREY)

    def _draw_panel(self, canvas: Canvas, state: StoneTowersState,
                    step: int | None) -> None:
        x, y = PANEL_X, 0
        counts = state.counts()
        canvas.text(x, y, "S T O N E   T O W E R S", YELLOW)
        y += 2
        for p in (0, 1):
            name = shorten(clean_text(self.names[p]), 14)
            you = " (you)" if self.me == p else ""
            canvas.text(x, y, "██", SIDE_FG[p])
            canvas.text(x + 3, y, f"{COLOUR[p].capitalize():<5}{name}{you}"[:27], WHITE)
            canvas.text(x + 3, y + 1,
                        f"{counts[p]:>3} squares  {state.turns_left(p):>2} turns left",
                        GREY)
            y += 2
        canvas.text(x, y, self._turn_line(state), YELLOW)
        y += 2
        report = state.last_turn
        if report is not None:
            for line in textwrap.wrap(summary(report, state.size), PANEL_W)[:2]:
                canvas.text(x, y, line, GREY)
                y += 1
            if step is not None:
                if step == 0:
                    text = "Step: the castle"
                else:
                    rnd = report.rounds[step - 1]
                    text = (f"Round {step}: {len(rnd.changed)} square"
                            f"{'s' if len(rnd.changed) != 1 else ''}")
                    if rnd.destroyed:
                        text += f", {len(rnd.destroyed)} castle{'s' * (len(rnd.destroyed) > 1)}"
                canvas.text(x, y, text[:PANEL_W], YELLOW)
                canvas.text(x, y + 1, "(any key skips)", DARK_GREY)
        y = 12
        if self.overlay is not Overlay.OFF:
            sq = self.cy * state.size + self.cx
            red, blue = state.influence(sq)
            canvas.text(x, y, f"Influence on {square_name(state.size, sq)}:", WHITE)
            canvas.text(x, y + 1, f"red {red}", BRIGHT_RED)
            canvas.text(x + 8, y + 1, f"blue {blue}", BRIGHT_CYAN)
        else:
            sq = self.cy * state.size + self.cx
            canvas.text(x, y + 1, shorten(f"Cursor {square_name(state.size, sq)}: {square_text(state, sq)}",
                                          PANEL_W), GREY)
        y = 15
        canvas.text(x, y, "r ▲ red   b ▼ blue   · free", GREY)
        canvas.text(x, y + 1, "• taken  ☼ castle destroyed", GREY)
        if self.over or state.outcome() is not None or self.me is None:
            return                      # no move hints once the game is over, nor for a watcher
        canvas.text(x, y + 2, "Arrows move, ENTER build or", DARK_GREY)
        canvas.text(x, y + 3, "fortify, h centre, i overlay", DARK_GREY)
        canvas.text(x, y + 4, {"off": "", "cursor": "(i: this square)",
                               "all": "(i: all: ▲/· red blue)"}[self.overlay], DARK_GREY)

    def _turn_line(self, state: StoneTowersState) -> str:
        if self.over or state.outcome() is not None:
            return "Game over."         # the result and its reason: the server's rows below
        p = state.current_player()
        if p == self.me:
            return f"Your turn ({COLOUR[p]})."
        return f"{COLOUR[p].capitalize()} to move."


def summary(report: TurnReport, size: int) -> str:
    """One line for the status bar: "blue fortified e5: took 3 squares, 1
    castle destroyed"."""
    who = COLOUR[report.player]
    if report.kind == "pass":
        return f"{who} had no move and passed."
    verb = "built at" if report.kind == "build" else "fortified"
    gained = len(report.gained)
    text = f"{who} {verb} {square_name(size, report.action)}: took {gained} square" \
        f"{'s' if gained != 1 else ''}"
    lost = len(report.destroyed)
    if lost:
        text += f", {lost} castle{'s' if lost != 1 else ''} destroyed"
    return text + "."
