"""Replaying a recorded game: the spectator's screen after each move, as
the bytes a terminal needs (through the same diff renderer callers get)."""
from __future__ import annotations

from collections.abc import Iterator

from ansi.canvas import BLUE, CYAN, WHITE, YELLOW, Canvas, shorten, wrap
from ansi.render import DiffRenderer
from doors import registry
from doors._core.door import DOOR_ROWS
from doors._core.game import Outcome
from server.services.seats import seat_names
from server.services.store import GameRow

__all__ = ["replay_frames", "replay_canvases"]


def replay_canvases(game: GameRow, moves: list[tuple[int, str]]) -> Iterator[Canvas]:
    info = registry()[game.door]
    state = info.state_class.from_options(game.options)
    names = seat_names(game.players)
    ui = info.ui_class(None, names, state.options)
    total = info.state_class.count_moves(moves)[0]      # game moves, not setup placements

    def frame(ply: int, last: str, end: Outcome | None = None) -> Canvas:
        obs = state.observation(None) if end is None else state.final_observation(None, end)
        ui.update(obs, state.history[-1] if state.history else None, 1e12)
        canvas = Canvas(80, 24)
        ui.draw(canvas.region(0, 0, 80, DOOR_ROWS), 1e12)
        canvas.fill(0, 20, 80, 1, " ", WHITE, BLUE)
        canvas.text(1, 20, shorten(f"Replay of game {game.id}: {info.title}, {names[0]} vs {names[1]}", 78),
                    YELLOW, BLUE)
        where = f"Move {ply} of {total}" if ply >= 0 else "Setup"
        canvas.text(1, 22, shorten(f"{where}  {last}", 78), CYAN)
        return canvas

    yield frame(0, "")
    ply = 0
    for player, text in moves:
        state.apply(player, state.parse_action(text))
        setup = info.state_class.is_setup_text(text)
        ply += 0 if setup else 1
        yield frame(-1 if setup else ply, f"{names[player]}: {text}")
    if game.outcome:
        out = Outcome.from_json(game.outcome)
        ui.outcome = out
        canvas = frame(total, "", out)
        who = "a draw" if out.winner is None else f"{names[out.winner]} won"
        lines = wrap(f"Result: {who} ({out.reason})", 78)[:2]
        canvas.fill(0, 21, 80, 3)
        canvas.text(1, 23 - len(lines), f"Move {total} of {total}", CYAN)
        for i, line in enumerate(lines):
            canvas.text(1, 24 - len(lines) + i, line, YELLOW)
        yield canvas


def replay_frames(game: GameRow, moves: list[tuple[int, str]], charset: str = "utf8") -> Iterator[bytes]:
    renderer = DiffRenderer(80, 24, charset)
    for canvas in replay_canvases(game, moves):
        yield renderer.render(canvas)
