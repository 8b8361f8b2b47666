"""A challenge as a value (the board, ``board.ChallengeBoard``, owns the
open ones and replaces a challenge at each change) and the news of it that
goes to the seats concerned."""
from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping

from doors import registry
from server.services.ids import ChallengeId, MonoTime
from server.services.turn_clock import DAY

__all__ = ["ChallengeState", "Challenge", "ChallengeEvent"]


class ChallengeState(enum.StrEnum):
    OPEN = "open"
    ACCEPTED = "accepted"
    DECLINED = "declined"
    WITHDRAWN = "withdrawn"
    EXPIRED = "expired"


@dataclasses.dataclass(frozen=True)
class ChallengeEvent:
    """A challenge was made, answered, withdrawn or expired (see its state)."""
    challenge: Challenge


@dataclasses.dataclass(frozen=True)
class Challenge:
    id: ChallengeId
    challenger: str
    target: str
    door: str
    options: Mapping[str, object]   # the door's option values, by key
    made_at: MonoTime
    state: ChallengeState = ChallengeState.OPEN
    move_seconds: float = 0.0       # > 0: a by-turns game with this time per move

    @property
    def by_turns(self) -> bool:
        return self.move_seconds > 0

    def headline(self) -> str:
        """The door, and for a by-turns game its pace: "<door> by turns, 3 days a move"."""
        title = registry()[self.door].title
        if not self.by_turns:
            return title
        days = self.move_seconds / DAY
        return f"{title} by turns, {days:g} day{'s' if days != 1 else ''} a move"

    def options_text(self) -> str:
        """The options chosen: "Strike: ..., Reveal: ..." ("" for a door without)."""
        info = registry()[self.door]
        return ", ".join(f"{spec.label}: {spec.label_of(self.options.get(spec.key, spec.default))}"
                         for spec in info.specs())

    def describe(self) -> str:
        opts = self.options_text()
        return self.headline() + (f" ({opts})" if opts else "")

    def involves(self, handle: str) -> bool:
        key = handle.casefold()
        return key in (self.challenger.casefold(), self.target.casefold())
