"""What the players see while a move waits for a database that another
program holds locked: "saving... retrying", then "Saved." The move itself is
shown only once it is stored (the match applies it after the write)."""
from __future__ import annotations

from collections.abc import Callable, Iterable

from server.services.nodes import Node

__all__ = ["SavingNotice"]


class SavingNotice:
    """Tells the players while a write waits for a locked database (once),
    and that it was saved after all; the move is shown only once stored."""

    def __init__(self, audience: Callable[[], Iterable[Node]]):
        self._audience = audience
        self.waited = False

    def __call__(self) -> None:
        if not self.waited:
            self.waited = True
            for session in self._audience():
                session.flash("Saving... the database is busy, retrying.")

    def done(self) -> None:
        if self.waited:
            for session in self._audience():
                session.flash("Saved.")
