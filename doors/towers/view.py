"""The Towers screen: a large 8x8 board and a side panel (TowersUI).

The board is a grid of squares five characters wide, row 8 at the top for
both players (so both name squares alike), columns a-h below. A standing
(unmoved) tower is a bright ``▐█▌``, a built one a darker ``▓▓▓``, each in
its player's colour; the second player's are ``«█»`` and ``«▓»``, so the
sides differ in shape too. The cursor square has a yellow frame on blue, a
selected tower a green frame, its targets a green dot; the last move is
bracketed ``[ ]`` and its origin marked ``∙``. Lines of sight (always at the
end, on ``l`` during play) run between the scoring towers with their points.
"""
from __future__ import annotations

import textwrap

from ansi.canvas import (
    BLACK,
    BLUE,
    BRIGHT_CYAN,
    BRIGHT_GREEN,
    BRIGHT_RED,
    BROWN,
    CYAN,
    DARK_GREY,
    GREEN,
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

from .keys import handle_key
from .rules import (
    MOVEMENT,
    OVER,
    PLACEMENT,
    SIZE,
    Action,
    Move,
    TowersState,
    line_pairs,
    owner_of,
    square_name,
)

__all__ = ["TowersUI", "PLAYER_COLOURS", "COLOUR_NAMES", "UNMOVED", "BUILT"]

PLAYER_COLOURS = (BRIGHT_RED, BRIGHT_CYAN)
BUILT_COLOURS = (RED, CYAN)
COLOUR_NAMES = ("red", "cyan")
# each side's towers by shape as well as colour (monochrome terminals,
# colour-blind callers, screenshots): the second side's are in « »
UNMOVED, BUILT = ("▐█▌", "«█»"), ("▓▓▓", "«▓»")
CELL_W = 5
GRID_X, GRID_Y = 3, 0
PANEL_X = 54
GRID_FG = BROWN                 # an old wine barrel, as in the source


def cell_x(col: int) -> int:
    """Left column of a square's 5-character interior."""
    return GRID_X + 1 + col * (CELL_W + 1)


def cell_y(row: int) -> int:
    return GRID_Y + 1 + (SIZE - 1 - row) * 2


class TowersUI(DoorUI[Action, TowersState]):
    """One seat's (or a spectator's) Towers screen and controller."""

    shows_turn = True          # the panel says whose turn and the last move

    def __init__(self, me: Player | None, names: tuple[str, str],
                 options: Options):
        super().__init__(me, names, options)
        self.cursor_sq = 3 * SIZE + 3          # d4
        self.selected: int | None = None
        self.show_lines: bool | None = None    # None: only at the end
        self.show_previous = False
        self._seen_plies = -1

    # ----- DoorUI -------------------------------------------------------------
    def update(self, obs: TowersState, last: tuple[Player, Action] | None, now: float) -> None:
        super().update(obs, last, now)
        plies = len(obs.history) if obs is not None else 0
        if plies != self._seen_plies:
            self._seen_plies = plies
            self.selected = None
        if obs is not None and obs.games < 2:
            self.show_previous = False

    def on_key(self, key: str, now: float) -> Submit[Action] | Request | None:
        return handle_key(self, key)

    def cursor(self) -> tuple[int, int] | None:
        row, col = divmod(self.cursor_sq, SIZE)
        return cell_x(col) + 2, cell_y(row)

    def name_of(self, player: Player) -> str:
        name = clean_text(str(self.names[player])) if player in (0, 1) else "?"
        return name or f"Player {player + 1}"

    def lines_shown(self) -> bool:
        if self.show_lines is not None:
            return self.show_lines
        return self.obs is not None and (self.obs.phase == OVER or self.show_previous)

    # ----- drawing ------------------------------------------------------------
    def draw(self, canvas: Canvas, now: float) -> None:
        canvas.clear()
        obs = self.obs
        if obs is None:
            canvas.center(8, "Waiting for the game to start...", GREY)
            return
        previous = self.show_previous and bool(obs.final_boards)
        cells = obs.final_boards[0] if previous else bytes(obs.cells)
        self._draw_grid(canvas)
        if not previous:
            self._draw_highlights(canvas, obs)
        self._draw_towers(canvas, obs, cells, previous)
        if self.lines_shown():
            self._draw_lines(canvas, cells)
        self._draw_cursor(canvas)
        self._draw_hints(canvas, obs, previous)
        self._draw_panel(canvas.region(PANEL_X, 0, 80 - PANEL_X, canvas.height), obs, previous)

    def _draw_grid(self, canvas: Canvas) -> None:
        span = "─" * CELL_W

        def rule(left: str, mid: str, right: str) -> str:
            return left + mid.join([span] * SIZE) + right
        canvas.text(GRID_X, GRID_Y, rule("┌", "┬", "┐"), GRID_FG)
        for i in range(SIZE):
            y = GRID_Y + 1 + 2 * i
            canvas.text(GRID_X, y, ("│" + " " * CELL_W) * SIZE + "│", GRID_FG)
            canvas.text(GRID_X - 2, y, str(SIZE - i), GREY)
            below = rule("└", "┴", "┘") if i == SIZE - 1 else rule("├", "┼", "┤")
            canvas.text(GRID_X, y + 1, below, GRID_FG)
        for col in range(SIZE):
            canvas.put(cell_x(col) + 2, GRID_Y + 2 * SIZE + 1, "abcdefgh"[col], GREY)

    def _draw_highlights(self, canvas: Canvas, obs: TowersState) -> None:
        if self.selected is not None and obs.phase == MOVEMENT:
            self._frame(canvas, self.selected, BRIGHT_GREEN)
            for t in obs.targets(self.selected):
                row, col = divmod(t, SIZE)
                canvas.put(cell_x(col) + 2, cell_y(row), "•", BRIGHT_GREEN)
        last = obs.last_action_this_game()
        if last is not None and isinstance(last[1], Move):
            row, col = divmod(last[1].origin, SIZE)
            if not obs.cells[last[1].origin]:
                canvas.put(cell_x(col) + 2, cell_y(row), "∙", GREY)

    def _draw_towers(self, canvas: Canvas, obs: TowersState, cells: bytes, previous: bool) -> None:
        last = None if previous else obs.last_action_this_game()
        last_sq = None
        if last is not None:
            last_sq = last[1].target if isinstance(last[1], Move) else last[1].square
        for sq, cell in enumerate(cells):
            who = owner_of(cell)
            if who is None:
                continue
            row, col = divmod(sq, SIZE)
            x, y = cell_x(col), cell_y(row)
            bg = GREEN if sq == self.selected and not previous else BLACK
            if cell in (2, 4):
                canvas.text(x + 1, y, BUILT[who], BUILT_COLOURS[who], bg)
            else:
                canvas.text(x + 1, y, UNMOVED[who], PLAYER_COLOURS[who], bg)
            if sq == last_sq:
                canvas.put(x, y, "[", WHITE)
                canvas.put(x + 4, y, "]", WHITE)

    def _draw_lines(self, canvas: Canvas, cells: bytes) -> None:
        for a, b, points, who in line_pairs(cells):
            if points <= 0:
                continue
            fg = PLAYER_COLOURS[who]
            (ra, ca), (rb, cb) = divmod(a, SIZE), divmod(b, SIZE)
            if ra == rb:
                y = cell_y(ra)
                for x in range(cell_x(ca) + CELL_W - 1, cell_x(cb) + 1):
                    if canvas.get(x, y).char in " │":
                        canvas.put(x, y, "─", fg)
                mid_x = (cell_x(ca) + CELL_W + cell_x(cb) - 1) // 2
                canvas.text(mid_x, y, str(points), YELLOW)
            else:
                x = cell_x(ca) + 2
                for y in range(cell_y(ra) - 1, cell_y(rb), -1):
                    if canvas.get(x, y).char == "─" and canvas.get(x, y).fg != GRID_FG:
                        canvas.put(x, y, "┼", fg)
                    else:
                        canvas.put(x, y, "│", fg)
                canvas.text(x, (cell_y(ra) + cell_y(rb)) // 2, str(points), YELLOW)

    def _frame(self, canvas: Canvas, sq: int, fg: int) -> None:
        row, col = divmod(sq, SIZE)
        x, y = cell_x(col) - 1, cell_y(row) - 1
        for dx in range(CELL_W + 2):
            for dy in (0, 2):
                canvas.put(x + dx, y + dy, canvas.get(x + dx, y + dy).char, fg)
        for dx in (0, CELL_W + 1):
            canvas.put(x + dx, y + 1, canvas.get(x + dx, y + 1).char, fg)

    def _draw_cursor(self, canvas: Canvas) -> None:
        row, col = divmod(self.cursor_sq, SIZE)
        x, y = cell_x(col), cell_y(row)
        for dx in range(CELL_W):
            c = canvas.get(x + dx, y)
            canvas.put(x + dx, y, c.char, c.fg if c.fg != BLACK else GREY, BLUE)
        if self.cursor_sq != self.selected:
            self._frame(canvas, self.cursor_sq, YELLOW)

    def _draw_hints(self, canvas: Canvas, obs: TowersState, previous: bool) -> None:
        y = GRID_Y + 2 * SIZE + 2
        if self.over or self.me is None:
            return                      # over, or watched: the server's key line says what is left
        if previous:
            hint = "Game 1's final board.  TAB: back to the game"
        elif obs.phase == PLACEMENT:
            hint = "Arrows: cursor  Enter: place a tower  l: lines"
        elif obs.phase == MOVEMENT:
            hint = ("Enter: move here  ESC: cancel  l: lines" if self.selected is not None
                    else "Arrows: cursor  Enter: pick a tower  l: lines")
        else:
            hint = "Game over.  l: lines of sight"
        if obs.games > 1 and obs.final_boards and not previous:
            hint += "  TAB: game 1"
        canvas.text(1, y, hint, DARK_GREY)

    # ----- side panel -----------------------------------------------------------
    def _draw_panel(self, panel: Canvas, obs: TowersState, previous: bool) -> None:
        title = "TOWERS"
        if obs.games > 1:
            title += f"   game {min(obs.game + 1, obs.games)} of {obs.games}"
        panel.text(0, 0, title, WHITE)
        movers = obs.to_move()
        score = obs.results[0] if previous else obs.score()
        for p in (0, 1):
            y = 2 + 3 * p
            marker = "►" if p in movers and not self.over else " "
            panel.text(0, y, marker, YELLOW)
            panel.text(2, y, UNMOVED[p], PLAYER_COLOURS[p])
            you = " (you)" if p == self.me else ""
            panel.text(6, y, shorten(self.name_of(p), 19 - len(you)) + you, PLAYER_COLOURS[p])
            todo = "" if self.over else self._todo(obs, p)       # over: nothing is left to move
            panel.text(2, y + 1, f"{COLOUR_NAMES[p]:<5}{todo:<11}{score[p]:>3} pts", GREY)
        panel.text(0, 8, f"Phase: {obs.phase_name}", WHITE)
        panel.text(0, 9, self._turn_text(obs), YELLOW if self.me in movers else GREY)
        last = obs.last_action_this_game()
        if last is not None:
            act = f"Last: {obs.action_to_str(last[1])} ("
            panel.text(0, 10, act + shorten(self.name_of(last[0]), 25 - len(act)) + ")", GREY)
        panel.text(0, 11, f"Cursor: {square_name(self.cursor_sq)}", DARK_GREY)
        y = 13
        for i, (a, b) in enumerate(obs.results):
            if obs.games > 1:
                panel.text(0, y, f"Game {i + 1}: {a}-{b}", GREY)
                y += 1
        end = self._end_text(obs)
        for line in [row for text in end for row in textwrap.wrap(text, 25)][:5]:
            panel.text(0, y, line, WHITE)
            y += 1
        panel.text(0, 18, f"{UNMOVED[0]} {UNMOVED[1]} unmoved", GREY)
        panel.text(0, 19, f"{BUILT[0]} {BUILT[1]} built (moved)", GREY)

    @staticmethod
    def _todo(obs: TowersState, player: Player) -> str:
        if obs.phase == PLACEMENT:
            return f"to place {obs.towers_to_place(player)}"
        left = obs.towers_to_move(player)
        if obs.phase == MOVEMENT and left and not obs.can_move(player):
            return f"pinned {left}"
        return f"to move {left}"

    def _turn_text(self, obs: TowersState) -> str:
        movers = obs.to_move()
        if not movers or self.over:
            return ""
        mover = movers[0]
        if mover == self.me:
            doing = "place a tower" if obs.phase == PLACEMENT else "move a tower"
            return f"Your turn: {doing}."
        return f"{shorten(self.name_of(mover), 16)} to move."

    def _end_text(self, obs: TowersState) -> list[str]:
        out = obs.outcome() or self.outcome
        if out is None:
            return []
        # the winner, the reason and the score are on the server's rows below
        # (each side's points above): the panel adds a match's total only
        if out.score is not None and obs.games > 1:
            return [f"Total {out.score[0]}-{out.score[1]}"]
        return []
