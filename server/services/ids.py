"""Typed identifiers and timestamps, so a node number is never taken for a
game id, and a wall-clock time never for a monotonic one."""
from __future__ import annotations

from typing import NewType

__all__ = ["NodeId", "GameId", "ChallengeId", "Handle", "WallTime", "MonoTime"]

NodeId = NewType("NodeId", int)            # 1, 2, ...: the caller's line
GameId = NewType("GameId", int)            # the games table's row id
ChallengeId = NewType("ChallengeId", int)  # the challenge board's own counter
Handle = NewType("Handle", str)            # a logged-in caller's name
WallTime = NewType("WallTime", float)      # time.time(): shown to people, stored
MonoTime = NewType("MonoTime", float)      # time.monotonic(): deadlines, idle times
