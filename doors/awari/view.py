"""Awari screen: the board as ANSI art, the sowing animation, the key panel.

Layout (80 x 20 region; the server draws the 4 rows below)::

    row 0      title
    row 1      opponent's name, above their home (right)
    rows 2-14  the board: my home on the left, the opponent's home on the
               right, the opponent's row on top (their holes 1..6 left to
               right), mine below (my holes 6..1 left to right), so sowing
               runs clockwise as in the source program
    row 15     my name under my home, hole digits under my holes
    rows 16-19 turn / homes, the keys

A spectator sees player 1 at the bottom.
"""
from __future__ import annotations

from ansi.canvas import (
    BLACK,
    BOX_DOUBLE,
    BOX_SINGLE,
    BRIGHT_CYAN,
    BRIGHT_GREEN,
    BRIGHT_RED,
    BROWN,
    DARK_GREY,
    GREY,
    WHITE,
    YELLOW,
    Canvas,
    clean_text,
    shorten,
)
from doors._core.door import DoorUI, Request, Submit
from doors._core.game import Options, Player

from .keys import KEY_HELP, handle_key
from .rules import HOME, AwariState, SowResult, sow

__all__ = ["AwariUI", "STEP"]

STEP = 0.12                     # seconds per stone in the sowing animation
STONE = "\u2022"                # • (CP437 7)
BOARD_X, BOARD_Y, BOARD_W, BOARD_H = 3, 2, 74, 13
HOLE_X0, HOLE_STEP, HOLE_W, HOLE_H = 16, 8, 7, 5
TOP_Y, BOTTOM_Y = 3, 9
LEFT_HOME_X, RIGHT_HOME_X, HOME_Y, HOME_W, HOME_H = 5, 65, 3, 9, 11


class _Anim:
    def __init__(self, before: list[int], player: Player, hole: int,
                 result: SowResult, start: float):
        self.before = before
        self.player = player
        self.hole = hole
        self.result = result
        self.start = start

    def dropped(self, now: float) -> int:
        return max(0, min(len(self.result.path), int((now - self.start) / STEP)))

    def end(self) -> float:
        return self.start + len(self.result.path) * STEP

    def board(self, now: float) -> list[int]:
        b = list(self.before)
        b[self.result.origin] = 0
        for i in self.result.path[:self.dropped(now)]:
            b[i] += 1
        return b


class AwariUI(DoorUI[int, AwariState]):
    def __init__(self, me: Player | None, names: tuple[str, str],
                 options: Options):
        super().__init__(me, names, options)
        self.cursor_hole = 6 if me is not None else 1
        self.anim: _Anim | None = None

    # ----- model ------------------------------------------------------------
    @property
    def bottom(self) -> Player:
        return self.me if self.me is not None else 0

    def name(self, player: Player, capital: bool = True) -> str:
        if player == self.me:
            return "You" if capital else "you"
        return clean_text(self.names[player]) or f"Player {player + 1}"

    def update(self, obs: AwariState, last: tuple[Player, int] | None, now: float) -> None:
        prev = self.obs
        super().update(obs, last, now)
        if self.anim is not None:
            self._finish()
        if (prev is not None and last is not None and not prev.is_terminal()
                and len(obs.history) == len(prev.history) + 1):
            player, hole = last[0], int(last[1])
            result = sow(prev.board, player, hole, prev.extra)
            self.anim = _Anim(list(prev.board), player, hole, result, now)
            self.message = f"{self.name(player)} {'sow' if player == self.me else 'sows'} hole {hole}..."
        self._fix_cursor()

    def _fix_cursor(self) -> None:
        if self.me is None or self.obs is None:
            return
        row = self.obs.row(self.me)
        if not row[self.cursor_hole - 1] and any(row):
            self.cursor_hole = max(h for h in range(1, 7) if row[h - 1])

    def _finish(self) -> None:
        anim, self.anim = self.anim, None
        if anim is None:
            return
        res = anim.result
        text = f"{self.name(anim.player)} sowed hole {anim.hole}"
        if res.captured:
            text += f", captured {res.captured}"
        if res.extra_turn:
            text += ": extra turn"
        elif res.home_landing:
            text += ": home again, but no third turn"
        self.message = text

    def _tick(self, now: float) -> None:
        if self.anim is not None and now >= self.anim.end():
            self._finish()

    def skip_animation(self, now: float) -> bool:
        """Stop a running animation (any key does); True if one was running."""
        self._tick(now)
        if self.anim is None:
            return False
        self._finish()
        return True

    def on_key(self, key: str, now: float) -> Submit[int] | Request | None:
        return handle_key(self, key, now)

    def frame_due(self, now: float) -> float | None:
        self._tick(now)
        if self.anim is None:
            return None
        return self.anim.start + (self.anim.dropped(now) + 1) * STEP

    def cursor(self) -> tuple[int, int] | None:
        if self.me is None:
            return None
        return (self._hole_x(6 - self.cursor_hole) + HOLE_W // 2, BOTTOM_Y + HOLE_H + 1)

    # ----- drawing ----------------------------------------------------------
    @staticmethod
    def _hole_x(col: int) -> int:
        return HOLE_X0 + col * HOLE_STEP

    def draw(self, canvas: Canvas, now: float) -> None:
        self._tick(now)
        canvas.clear()
        canvas.center(0, "\u2261  A W A R I  \u2261", YELLOW)
        obs = self.obs
        if obs is None:
            canvas.center(8, "Waiting for the game...", GREY)
            return
        board = self.anim.board(now) if self.anim is not None else list(obs.board)
        hot = -1
        if self.anim is not None and self.anim.dropped(now):
            hot = self.anim.result.path[self.anim.dropped(now) - 1]
        me, top = self.bottom, 1 - self.bottom
        canvas.fill(BOARD_X, BOARD_Y, BOARD_W, BOARD_H, " ", BROWN, BROWN)
        canvas.box(BOARD_X, BOARD_Y, BOARD_W, BOARD_H, YELLOW, BROWN, BOX_DOUBLE)
        for col in range(6):
            x = self._hole_x(col)
            top_i = 7 * top + col                  # their hole col+1
            my_i = 7 * me + 5 - col                # my hole 6-col
            self._hole(canvas, x, TOP_Y, HOLE_W, HOLE_H, board[top_i], BRIGHT_RED,
                       hot == top_i, False)
            cur = self.me is not None and not self.over and self.cursor_hole == 6 - col
            self._hole(canvas, x, BOTTOM_Y, HOLE_W, HOLE_H, board[my_i], BRIGHT_GREEN,
                       hot == my_i, cur)
            canvas.text(x + HOLE_W // 2, BOTTOM_Y + HOLE_H + 1, str(6 - col),
                        WHITE if cur else GREY)
            canvas.text(x + HOLE_W // 2, BOARD_Y, str(col + 1), YELLOW, BROWN)
        self._hole(canvas, LEFT_HOME_X, HOME_Y, HOME_W, HOME_H, board[HOME[me]],
                   BRIGHT_GREEN, hot == HOME[me], False)
        self._hole(canvas, RIGHT_HOME_X, HOME_Y, HOME_W, HOME_H, board[HOME[top]],
                   BRIGHT_RED, hot == HOME[top], False)
        mover = obs.current_player() if not (obs.is_terminal() or self.over) else None
        top_name = shorten(self.name(top), 20)
        mark = "\u25ba " if mover == top else ""
        label = mark + top_name
        canvas.text(RIGHT_HOME_X + HOME_W - len(label), 1, label,
                    YELLOW if mover == top else BRIGHT_RED)
        my_name = shorten(("\u25ba " if mover == me else "") + self.name(me), 13)   # (in full on the homes line)
        canvas.text(LEFT_HOME_X, BOARD_Y + BOARD_H, my_name,
                    YELLOW if mover == me else BRIGHT_GREEN)
        self._panel(canvas, obs, board, mover)

    def _hole(self, canvas: Canvas, x: int, y: int, w: int, h: int, count: int,
              colour: int, hot: bool, cursor: bool) -> None:
        frame = BRIGHT_CYAN if cursor else (WHITE if hot else BLACK)
        canvas.fill(x + 1, y + 1, w - 2, h - 2, " ", GREY, BLACK)
        canvas.box(x, y, w, h, frame, BROWN, BOX_DOUBLE if cursor else BOX_SINGLE)
        num = str(count)
        canvas.text(x + (w - len(num)) // 2, y + 1, num,
                    YELLOW if hot else colour, BLACK)
        inner = w - 2
        rows = h - 3
        shown = min(count, inner * rows)
        for k in range(shown):
            ch = "+" if count > shown and k == shown - 1 else STONE
            canvas.put(x + 1 + k % inner, y + 2 + k // inner, ch, WHITE, BLACK)

    def _turn_and_homes(self, turn: str, board: list[int]) -> tuple[str, str]:
        """The turn line and "Homes: <name> n  <name> n" side by side in 74
        columns: the names in the homes shortened first, then the turn line."""
        me, top = self.bottom, 1 - self.bottom
        room = 74 - 2 - len(turn)
        for width in range(20, 5, -1):
            homes = (f"Homes: {shorten(self.name(me), width)} {board[HOME[me]]}  "
                     f"{shorten(self.name(top), width)} {board[HOME[top]]}")
            if len(homes) <= room:
                return turn, homes
        return shorten(turn, 74 - 2 - len(homes)), homes

    def _panel(self, canvas: Canvas, obs: AwariState, board: list[int],
               mover: Player | None) -> None:
        if obs.is_terminal() or self.over:
            turn = "Game over."           # the result and its reason: the server's rows below
        else:
            assert mover is not None, "a game not over has a mover"
            who = "Your" if mover == self.me else f"{self.name(mover)}'s"
            turn = f"{who} turn" + (" (extra turn)" if obs.extra else "") + "."
        turn, homes = self._turn_and_homes(turn, board)
        canvas.text(3, 16, turn, WHITE)
        canvas.text(77 - len(homes), 16, homes, GREY)
        if self.me is None:       # a spectator has no row of their own
            canvas.text(3, 17, "Stones go clockwise: along the mover's row, into their home, "
                        "and on round.", DARK_GREY)
        else:
            canvas.text(3, 17, "Stones go clockwise: along your row, into your home, "
                        "round the other side.", DARK_GREY)
        if self.me is not None and not (obs.is_terminal() or self.over):
            canvas.text(3, 18, KEY_HELP[0], GREY)
            canvas.text(3, 19, KEY_HELP[1], GREY)
