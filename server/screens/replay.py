"""Replaying a recorded game: the spectator's screen after each move, as
the bytes a terminal needs (through the same diff renderer callers get)."""
from __future__ import annotations

from collections.abc import Iterator

from ansi.canvas import BLUE, CYAN, WHITE, YELLOW, Canvas, shorten, wrap
from ansi.render import DiffRenderer
from doors import registry
from doors._core.door import DOOR_ROWS
from doors._core.game import Outcome, Termination
from server.services.seats import seat_names
from server.services.store import GameRow

__all__ = ["replay_frames", "replay_canvases"]


STEP = 1000.0      # seconds of the replay's own clock between two moves: past any animation


def replay_canvases(game: GameRow, moves: list[tuple[int, str]],
                    viewer: int | None = None) -> Iterator[Canvas]:
    """Each position of a recorded game, rebuilt move by move with the
    door's own rules (``apply``, as the live game did), drawn by its own
    view as ``viewer`` saw it: a player their own army (None: a spectator;
    of a finished game, both armies). A move the view animates (a strike
    being shown) gives a frame for that moment, then one after it."""
    info = registry()[game.door]
    state = info.state_class.from_options(game.options)
    names = seat_names(game.players)
    ui = info.ui_class(viewer, names, state.options)
    total = info.state_class.count_moves(moves)[0]      # game moves, not setup placements
    ended = Outcome.from_json(game.outcome) if game.outcome else None
    clock = 0.0

    def observation(end: Outcome | None = None) -> object:
        if end is not None:
            return state.final_observation(viewer, end)
        if viewer is None and ended is not None:     # a finished game: nothing is hidden any more
            return state.final_observation(None, ended)
        return state.observation(viewer)

    def frame(ply: int, last: str, now: float) -> Canvas:
        canvas = Canvas(80, 24)
        ui.draw(canvas.region(0, 0, 80, DOOR_ROWS), now)
        canvas.fill(0, 20, 80, 1, " ", WHITE, BLUE)
        canvas.text(1, 20, shorten(f"Replay of game {game.id}: {info.title}, {names[0]} vs {names[1]}", 78),
                    YELLOW, BLUE)
        where = f"Move {ply} of {total}" if ply >= 0 else "Setup"
        canvas.text(1, 22, shorten(f"{where}  {last}", 78), CYAN)
        return canvas

    def frames(ply: int, last: str, end: Outcome | None = None) -> Iterator[Canvas]:
        nonlocal clock
        clock += STEP
        ui.update(observation(end), state.history[-1] if state.history else None, clock)
        yield frame(ply, last, clock)
        due = ui.frame_due(clock)
        if due is not None:                          # the animation's moment, then after it
            clock = max(clock, due) + 1.0
            yield frame(ply, last, clock)

    yield from frames(0, "")
    ply = 0
    for player, text in moves:
        state.apply(player, state.parse_action(text))
        setup = info.state_class.is_setup_text(text)
        ply += 0 if setup else 1
        yield from frames(-1 if setup else ply, f"{names[player]}: {text}")
    if ended is not None:
        ui.outcome = ended
        for canvas in frames(total, "", ended):
            who = (f"{names[ended.winner]} won" if ended.winner is not None
                   else "no result" if ended.termination == Termination.ABORTED else "a draw")
            lines = wrap(f"Result: {who} ({ended.reason})", 78)[:2]
            canvas.fill(0, 21, 80, 3)
            canvas.text(1, 23 - len(lines), f"Move {total} of {total}", CYAN)
            for i, line in enumerate(lines):
                canvas.text(1, 24 - len(lines) + i, line, YELLOW)
            yield canvas


CLI_ROWS = 23       # the terminal's last row stays free: the end never scrolls the header away
END = b"\x1b[24;1H"  # where ``gatehouse replay`` leaves the cursor, for the shell's prompt


def replay_frames(game: GameRow, moves: list[tuple[int, str]], charset: str = "utf8") -> Iterator[bytes]:
    """``gatehouse replay``'s output: each position on the top 23 rows of
    an 80x24 terminal (the screen's key-hint row left out), then ``END``."""
    renderer = DiffRenderer(80, CLI_ROWS, charset)
    for canvas in replay_canvases(game, moves):
        short = Canvas(80, CLI_ROWS)
        short.blit(canvas.region(0, 0, 80, 21), 0, 0)
        short.blit(canvas.region(0, 22, 80, 2), 0, 21)
        yield renderer.render(short)
    yield END
