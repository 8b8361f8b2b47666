"""A live game's time per move (``[<door>] move_minutes``; 0: no clock).

A caller's clock runs from the moment their turn starts to the action that
ends it (in a phase where both move, such as a setup, each action starts it
again). The computer has no clock. While the game is suspended no clock runs;
when it goes on, each side's turn goes on with the time it had left (a drop
and a return give nobody a fresh turn). Owned by ``Match``, which asks
``overdue`` when ``due`` comes and ends the game on time."""
from __future__ import annotations

from collections.abc import Iterable, Sequence

from doors._core.game import Outcome, Termination

__all__ = ["MoveClock", "WARN_AT", "clock_text", "lost_on_time"]

WARN_AT = (60.0, 10.0)        # seconds left at which the screen warns the players


def lost_on_time(late: Sequence[int], names: tuple[str, str], per: str) -> Outcome | None:
    """How a game ends when the sides ``late`` let their time per move
    (``per``: "5 min a move") run out: one loses; both at once (in a phase
    where both move, such as a setup), nobody wins; none, it goes on."""
    if len(late) == 2:
        return Outcome(None, Termination.ABORTED, f"neither side moved in time ({per})")
    if late:
        return Outcome(1 - late[0], Termination.FORFEIT, f"{names[late[0]]} lost on time ({per})")
    return None


def clock_text(seconds: float) -> str:
    """"4:59" for what is left of a move."""
    whole = max(0, int(seconds + 0.999))
    return f"{whole // 60}:{whole % 60:02d}"


class MoveClock:
    def __init__(self, seconds: float, clocked: Iterable[int]):
        self.seconds = seconds
        self.clocked = frozenset(clocked)            # the human seats
        self.started: list[float | None] = [None, None]
        self.used: list[float] = [0.0, 0.0]          # of a turn paused by a suspension

    @property
    def on(self) -> bool:
        return self.seconds > 0 and bool(self.clocked)

    def turn(self, to_move: Iterable[int], now: float, mover: int | None = None) -> None:
        """The sides to move now (after ``mover``'s action, at the start, or
        as a suspension ends): a side whose turn goes on keeps its start (a
        paused one, what it had used), unless it just moved."""
        movers = set(to_move)
        for p in (0, 1):
            if p not in movers or p not in self.clocked or not self.on:
                self.started[p] = None
            elif p == mover:
                self.started[p] = now
            elif self.started[p] is None:
                self.started[p] = now - self.used[p]
        self.used = [0.0, 0.0]

    def pause(self, now: float) -> None:
        """The game is suspended: each running turn keeps what it has used."""
        for p in (0, 1):
            start = self.started[p]
            if start is not None:
                self.used[p] = now - start
                self.started[p] = None

    def stop(self) -> None:
        self.started = [None, None]
        self.used = [0.0, 0.0]

    def left(self, player: int, now: float) -> float | None:
        """Seconds ``player`` has left for this move, or None (no clock runs)."""
        start = self.started[player]
        return None if start is None else start + self.seconds - now

    def due(self) -> float | None:
        """When the next side runs out, or None."""
        ends = [s + self.seconds for s in self.started if s is not None]
        return min(ends) if ends else None

    def overdue(self, now: float) -> list[int]:
        return [p for p in (0, 1) if (left := self.left(p, now)) is not None and left <= 0]
