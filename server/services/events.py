"""Messages that travel through session inboxes (sessions never share state
any other way): values, never live objects. ``Event`` is the closed union
of what the services send a session; the screens add their own
(``session.SessionEvent``). A challenge's news is ``challenge.ChallengeEvent``."""
from __future__ import annotations

import dataclasses
import enum

from server.services.challenge import ChallengeEvent
from server.services.ids import GameId, NodeId, WallTime

__all__ = ["Key", "Resized", "Closed", "Chat", "ChatCleared", "Notice", "SysopMessage", "CallerMessage",
           "NodesChanged", "Kick", "Shutdown", "TakenOver", "Tick", "Page", "News", "MatchEvent",
           "SplitLine", "SplitEnd", "ChallengeEvent", "Event"]


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
class ChatCleared:
    """The sysop cleared a channel's lines."""
    channel: str


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
class CallerMessage(SysopMessage):
    """A line from one caller to another (a node message, or one kept for
    their next call): every screen shows it as it shows a sysop message,
    on the top line until read and in the screen's log."""


@dataclasses.dataclass(frozen=True)
class NodesChanged:
    pass


@dataclasses.dataclass(frozen=True)
class Page:
    """A caller pages the sysop."""
    handle: str
    reason: str
    at: WallTime


class News(enum.StrEnum):
    """What happened in a match (``MatchEvent.kind``)."""
    UPDATE = "update"
    START = "start"
    SUSPENDED = "suspended"
    RESUMED = "resumed"
    ENDED = "ended"
    DRAW_OFFER = "draw_offer"
    AUTO_FINISH_OFFER = "auto_finish_offer"


@dataclasses.dataclass(frozen=True)
class MatchEvent:
    """Something happened in match ``game`` (a live one, in
    ``MatchManager.live`` while it lasts), which the receiving session
    sits in or watches."""
    game: GameId
    kind: News
    text: str = ""


@dataclasses.dataclass(frozen=True)
class SplitLine:
    """A line typed in split-screen chat ``chat`` by the other side."""
    chat: int
    text: str


@dataclasses.dataclass(frozen=True)
class SplitEnd:
    """The sysop ended split-screen chat ``chat`` (or left)."""
    chat: int


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


Event = (Key | Resized | Closed | Tick | Chat | ChatCleared | Notice | SysopMessage | CallerMessage
         | NodesChanged | Page | Kick | Shutdown | TakenOver | MatchEvent | SplitLine | SplitEnd
         | ChallengeEvent)
