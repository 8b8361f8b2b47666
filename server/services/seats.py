"""A match's seats: a caller (whose session comes and goes), the computer,
or a watcher (who sees the door's spectator observation: what both players
may see, until the end), and how a seat is written in the games table."""
from __future__ import annotations

import dataclasses
import enum

from server.services.nodes import Node

__all__ = ["SeatKind", "WATCHING", "Seat", "seat_label", "parse_seat_label", "is_computer", "watch_names",
           "seat_names"]


class SeatKind(enum.StrEnum):
    HUMAN = "human"
    BOT = "bot"
    WATCHER = "watcher"      # a caller (or the sysop) watching: sees what the door shows a spectator


WATCHING = -1            # a watcher's player number: none of the game's


def seat_label(kind: SeatKind, handle: str, level: int) -> str:
    """How a seat is written in the games table."""
    return f"computer:{level}" if kind == SeatKind.BOT else handle


def is_computer(label: str) -> bool:
    """Whether a seat label is the computer's."""
    return label.startswith("computer:")


def parse_seat_label(label: str) -> tuple[SeatKind, str, int]:
    if is_computer(label):
        level = int(label.split(":", 1)[1] or 1)
        return SeatKind.BOT, f"Computer ({level})", level
    return SeatKind.HUMAN, label, 0


def watch_names(level1: int, level2: int) -> tuple[str, str]:
    """The two computer seats of a game the computer plays against itself:
    told apart by player number, so the result says which side won."""
    return f"Computer 1 ({level1})", f"Computer 2 ({level2})"


def seat_names(labels: tuple[str, ...] | list[str]) -> tuple[str, str]:
    """Both seats' names from their labels (two computers: by player number)."""
    parsed = [parse_seat_label(label) for label in labels]
    if parsed[0][0] == parsed[1][0] == SeatKind.BOT:
        return watch_names(parsed[0][2], parsed[1][2])
    return parsed[0][1], parsed[1][1]


@dataclasses.dataclass
class Seat:
    player: int
    kind: SeatKind
    name: str                    # handle, or "Computer (3)"
    level: int = 0
    session: Node | None = None
    seed: int | None = None      # the computer's seed (each move adds the ply)
    left_at: float | None = None  # monotonic time a human dropped
    away: float = 0.0            # seconds away since their last move: counted toward the forfeit

    @property
    def present(self) -> bool:
        return self.kind == SeatKind.BOT or self.session is not None
