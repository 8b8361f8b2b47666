"""Kingdom screen: the 19x19 board (2 columns per square, rank numbers on the
left, file letters below) and a side panel per player, drawn into the
80 x DOOR_ROWS region. Each player sees their own army at the bottom: the
board is turned half round for player 2; squares keep their names.
"""
from __future__ import annotations

from ansi.canvas import (
    BLACK,
    BLUE,
    BRIGHT_CYAN,
    BRIGHT_RED,
    BROWN,
    CYAN,
    DARK_GREY,
    GREEN,
    GREY,
    MAGENTA,
    WHITE,
    YELLOW,
    Canvas,
    clean_text,
    shorten,
)
from doors._core.door import DoorUI, Request, Submit
from doors._core.game import Options, Player

from .keys import KEY_HELP, PROMO_NAMES, handle_key
from .position import FILES, KIND_LETTERS, ROCK, SIZE, Move, square_name
from .rules import KingdomState

__all__ = ["KingdomUI"]

BOARD_X = 3            # x of file a (or s) in the region
PANEL_X = 42
SIDE_FG = (YELLOW, BRIGHT_CYAN)


class KingdomUI(DoorUI[Move, KingdomState]):
    def __init__(self, me: Player | None, names: tuple[str, str],
                 options: Options):
        super().__init__(me, names, options)
        self.bottom: Player = me if me is not None else 0
        self.cur = (SIZE // 2) + (SIZE * 2 if self.bottom == 0 else SIZE * 16)
        self.selected = -1
        self.mid = -1
        self.promo = "Q"
        self.show_targets = True
        self.pass_armed = False

    # ----- geometry -----------------------------------------------------------
    def screen_xy(self, sq: int) -> tuple[int, int]:
        """(column 0-18, row 0-18) of a square on this player's screen."""
        f, r = sq % SIZE, sq // SIZE
        if self.bottom == 1:
            return SIZE - 1 - f, r
        return f, SIZE - 1 - r

    def square_at(self, x: int, y: int) -> int:
        if self.bottom == 1:
            return y * SIZE + (SIZE - 1 - x)
        return (SIZE - 1 - y) * SIZE + x

    def name(self, player: Player) -> str:
        if player == self.me:
            return "You"
        return clean_text(self.names[player])[:20] or f"Player {player + 1}"

    # ----- events ---------------------------------------------------------------
    def update(self, obs: KingdomState, last: tuple[Player, Move] | None, now: float) -> None:
        moved = self.obs is None or obs is None or len(obs.history) != len(self.obs.history)
        super().update(obs, last, now)
        if not moved:          # a redraw, help closed, a notice: the half-made move stays
            return
        self.selected = self.mid = -1
        self.pass_armed = False
        if last is not None and obs is not None:
            player, action = last
            text = f"{self.name(player)}: {obs.action_to_str(action)}"
            if obs.events:
                text += " (" + ", ".join(obs.events) + ")"
            self.message = text

    def on_key(self, key: str, now: float) -> Submit[Move] | Request | None:
        return handle_key(self, key, now)

    def cursor(self) -> tuple[int, int] | None:
        x, y = self.screen_xy(self.cur)
        return BOARD_X + 2 * x, y

    def targets(self) -> set[int]:
        if self.obs is None or self.selected < 0:
            return set()
        moves = self.obs.pos.moves_from(self.selected)
        if self.mid >= 0:
            return {m.to for m in moves if m.mid == self.mid} | {self.mid}
        return {m.to for m in moves}

    # ----- drawing --------------------------------------------------------------
    def draw(self, canvas: Canvas, now: float) -> None:
        canvas.clear()
        obs = self.obs
        if obs is None:
            canvas.text(2, 2, "Waiting for the game...", GREY)
            return
        board = obs.pos.board
        targets = self.targets() if self.show_targets else set()
        last_sqs: set[int] = set()
        if self.last is not None and not self.last[1].is_pass:
            last_sqs = {self.last[1].frm, self.last[1].to}
        for y in range(SIZE):
            rank = self.square_at(0, y) // SIZE + 1
            canvas.text(0, y, f"{rank:>2}", DARK_GREY)
            for x in range(SIZE):
                sq = self.square_at(x, y)
                self._square(canvas, x, y, sq, board[sq], targets, last_sqs)
        for x in range(SIZE):
            canvas.put(BOARD_X + 2 * x, SIZE, FILES[self.square_at(x, 0) % SIZE], DARK_GREY)
        self._panels(canvas, obs)

    def _square(self, canvas: Canvas, x: int, y: int, sq: int, code: int,
                targets: set[int], last_sqs: set[int]) -> None:
        bg = BLUE if (x + y) % 2 else BLACK
        if sq in last_sqs:
            bg = BROWN
        if sq == self.selected or sq == self.mid:
            bg = MAGENTA
        if sq == self.cur:
            bg = CYAN
        if code == ROCK:
            text, fg = "()", GREY
        elif code:
            text, fg = KIND_LETTERS[code & 7] + " ", SIDE_FG[code >> 4]
        else:
            text, fg = "  ", DARK_GREY
        if sq in targets:
            text = text[0] + "*" if code else " *"
            if not code:
                fg = GREEN
        canvas.text(BOARD_X + 2 * x, y, text, fg, bg)

    def _panels(self, canvas: Canvas, obs: KingdomState) -> None:
        x = PANEL_X
        title = clean_text(str(obs.options.get("title") or obs.options.get("board", "")))
        canvas.text(x, 0, "KINGDOM", WHITE)
        canvas.text(x + 8, 0, shorten(title, 79 - x - 8), GREY)
        top = 1 - self.bottom
        self._panel(canvas, obs, top, 2)
        self._panel(canvas, obs, self.bottom, 8)
        y = 14
        over = obs.is_terminal() or self.over
        if over:
            canvas.text(x, y, "Game over.", WHITE)      # result and reason: the server's rows
        elif obs.history:
            player, action = obs.history[-1]
            canvas.text(x, y, f"Last: {obs.action_to_str(action)}", GREY)
            events = ", ".join(obs.events)
            canvas.text(x, y + 1, shorten(events, 37), WHITE)
        canvas.text(x, y + 2, f"Cursor {square_name(self.cur)}"
                    + ("  (targets shown)" if self.show_targets and not over else ""), DARK_GREY)
        for i, line in enumerate(() if over else KEY_HELP):
            canvas.text(x, 20 - len(KEY_HELP) + i, line, DARK_GREY)

    def _panel(self, canvas: Canvas, obs: KingdomState, player: Player, y: int) -> None:
        x = PANEL_X
        fg = SIDE_FG[player]
        canvas.box(x, y, 38, 6, fg)
        to_move = not (obs.is_terminal() or self.over) and obs.pos.turn == player
        head = ("\u25ba " if to_move else "") + self.name(player)
        canvas.text(x + 2, y, f" {head} ", WHITE if to_move else fg)
        board = obs.pos.board
        pieces = [KIND_LETTERS[c & 7] for c in board if c & 7 and c >> 4 == player
                  and c != ROCK]
        army = "".join(k * pieces.count(k) for k in "CKQBNRP" if k in pieces)
        canvas.text(x + 1, y + 1, f"Army  {_counts(army)}"[:36], GREY)
        taken = obs.captured[player]
        canvas.text(x + 1, y + 2, f"Took  {_counts(''.join(taken)) or '-'}"[:36], GREY)
        if to_move and obs.pos.in_check(player):
            canvas.text(x + 28, y + 1, "CHECK", BRIGHT_RED)
        if player == self.me and not self.over and not obs.is_terminal():
            canvas.text(x + 1, y + 3, f"Promote to: {PROMO_NAMES[self.promo]} (p)", GREY)
            canvas.text(x + 1, y + 4, "Find king: k   Pass: x x", DARK_GREY)
        elif to_move and obs.pos.hot >= 0:
            canvas.text(x + 1, y + 3, f"Rook on {square_name(obs.pos.hot)} may be destroyed",
                        CYAN)


def _counts(letters: str) -> str:
    out = []
    for k in "CKQBNRP":
        n = letters.count(k)
        if n:
            out.append(f"{k}{n}" if n > 1 else k)
    return " ".join(out)
