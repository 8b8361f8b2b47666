"""How long a call may last: the caller's time left on their BBS (door
mode: DOOR32.SYS's minutes left, counted from the door's start) or the
sysop's cap on a telnet call (``[server] telnet_timeout_minutes``). The
session asks ``check`` as its clock runs: a notice line at the marks
(5 and 1 minutes left on a BBS; 1 minute before the cap), then the end,
with what the caller is told and why their opponent sees them go."""
from __future__ import annotations

import dataclasses
import math

__all__ = ["CallClock", "Tell"]


@dataclasses.dataclass(frozen=True)
class Tell:
    """What ``check`` says: a notice, or the end of the call."""
    text: str
    end: bool = False


class CallClock:
    def __init__(self, minute: float = 60.0):
        self.minute = minute            # seconds in a minute (tests shorten it)
        self.ends_at: float | None = None
        self.why = ""                   # the opponent is told the caller "<why>"
        self._marks: list[float] = []   # minutes left at which a notice is due, largest first
        self._bbs = False
        self._cap_minutes = 0.0

    def limit_bbs(self, now: float, minutes: float) -> None:
        """The caller has ``minutes`` left on the BBS that sent them."""
        self._start(now, minutes, (5, 1), bbs=True)
        self.why = "ran out of time on their BBS"

    def cap(self, now: float, minutes: float) -> None:
        """The sysop's cap on one call's length."""
        self._start(now, minutes, (1,), bbs=False)
        self.why = "reached the time limit of a call"

    def _start(self, now: float, minutes: float, marks: tuple[int, ...], bbs: bool) -> None:
        self.ends_at = now + minutes * self.minute
        self._marks = [float(m) for m in marks]
        self._bbs = bbs
        self._cap_minutes = minutes

    def left(self, now: float) -> float | None:
        """Seconds left, or None without a limit."""
        return None if self.ends_at is None else max(0.0, self.ends_at - now)

    def next_due(self) -> float | None:
        """When ``check`` has something to say next."""
        if self.ends_at is None:
            return None
        if self._marks:
            return self.ends_at - self._marks[0] * self.minute
        return self.ends_at

    def check(self, now: float) -> Tell | None:
        left = self.left(now)
        if left is None:
            return None
        if left <= 0:
            self.ends_at = None
            if self._bbs:
                return Tell("Your time on the BBS is up. Back to the BBS...", end=True)
            return Tell(f"This call has reached the sysop's limit of {self._cap_minutes:g} "
                        "minutes. Goodbye.", end=True)
        due = [m for m in self._marks if left <= m * self.minute]
        if not due:
            return None
        self._marks = [m for m in self._marks if m not in due]
        n = max(1, math.ceil(left / self.minute - 1e-9))
        minutes = f"{n} minute{'s' if n != 1 else ''}"
        if self._bbs:
            return Tell(f"You have {minutes} left on the BBS.")
        return Tell(f"This call ends in {minutes} (the sysop's limit of {self._cap_minutes:g} "
                    "minutes a call).")
