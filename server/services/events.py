"""Messages that travel through session inboxes (sessions never share state
any other way). The challenge board and the matches define their own
(``board.ChallengeEvent``, ``match.MatchEvent``)."""
from __future__ import annotations

import dataclasses
from typing import Any

from server.services.ids import NodeId, WallTime

__all__ = ["Key", "Resized", "Closed", "Chat",
           "Notice", "SysopMessage", "NodesChanged", "Kick", "Shutdown", "TakenOver", "Tick", "Page", "PushScreen"]


@dataclasses.dataclass(frozen=True)
class Key:
    name: str


@dataclasses.dataclass(frozen=True)
class Resized:
    pass


@dataclasses.dataclass(frozen=True)
class Closed:
    """The caller's connection ended."""


@dataclasses.dataclass(frozen=True)
class Tick:
    """Wake-up with nothing to say (timers, animations)."""


@dataclasses.dataclass(frozen=True)
class Chat:
    channel: str          # "lobby" or "match:<id>"
    who: str
    text: str


@dataclasses.dataclass(frozen=True)
class Notice:
    """A one-line message (sysop broadcast, system news)."""
    text: str


@dataclasses.dataclass(frozen=True)
class SysopMessage:
    """A message from the sysop to a caller (or to everybody): shown until
    read and kept in the screen's log."""
    who: str
    text: str


@dataclasses.dataclass(frozen=True)
class NodesChanged:
    pass


@dataclasses.dataclass(frozen=True)
class Page:
    """A caller pages the sysop."""
    handle: str
    reason: str
    at: WallTime


@dataclasses.dataclass(frozen=True)
class PushScreen:
    """Open a screen on top of whatever the session shows (the sysop's
    split-screen chat); ``factory(session)`` builds it in the receiving
    session. When it closes, the previous screen is drawn again from its
    own state."""
    factory: Any


@dataclasses.dataclass(frozen=True)
class Kick:
    reason: str


@dataclasses.dataclass(frozen=True)
class Shutdown:
    """The server is stopping: the session says ``text`` and ends (its game
    suspended as after a dropped line); the line stays open ``grace`` seconds."""
    text: str
    grace: float


@dataclasses.dataclass(frozen=True)
class TakenOver:
    """The caller logged in again on ``node``: this session ends (its game
    is suspended as on a dropped line)."""
    node: NodeId
