"""The resume screen after login counts game moves, never setup placements,
for the game it offers and for each one listed after it."""
from types import SimpleNamespace

from ansi.canvas import Canvas
from doors import registry
from server.screens.resume import ResumeScreen
from server.services.seats import Seat, SeatKind


def stratego_set_up() -> object:
    """A Stratego state with both setups placed and no move played."""
    info = registry()["stratego"]
    state = info.state_class(info.resolve_options({}))
    for _ in range(80):                              # 40 pieces a side
        mover = state.to_move()[0]
        state.apply(mover, state.legal_actions(mover)[0])
    return state


def waiting_game(state: object) -> SimpleNamespace:
    return SimpleNamespace(info=registry()["stratego"], state=state, ended=False,
                           seats=[Seat(0, SeatKind.HUMAN, "Alice"), Seat(1, SeatKind.BOT, "Computer (3)")],
                           seat_of=lambda session: None)


def test_every_game_offered_counts_moves_not_placements():
    state = stratego_set_up()
    assert len(state.history) == 80 and state.moves_played() == 0
    session = SimpleNamespace(handle="Alice", services=SimpleNamespace(
        matches=SimpleNamespace(turns_waiting=lambda handle: 0)))
    screen = ResumeScreen(session, [waiting_game(state), waiting_game(state)])  # type: ignore[arg-type]
    canvas = Canvas(80, 24)
    screen.draw(canvas, 0.0)
    text = "\n".join(canvas.lines())
    assert "(0 moves so far)." in text
    assert "Stratego against Computer (3) (0 moves)" in text, text
