"""Chat: cleaning what users type, length and rate limits, and a channel's
history. Delivery is by session inboxes (``events.Chat``)."""
from __future__ import annotations

import collections
import time

from ansi.canvas import clean_text

__all__ = ["MAX_CHAT", "RateLimit", "clean_chat", "ChatLog"]

MAX_CHAT = 200


def clean_chat(text: str) -> str:
    """One line with no control or escape characters, trimmed to MAX_CHAT."""
    return clean_text(" ".join(text.split()))[:MAX_CHAT]


class RateLimit:
    """At most ``count`` events per ``seconds`` (a sliding window)."""

    def __init__(self, count: int = 5, seconds: float = 10.0):
        self.count = count
        self.seconds = seconds
        self._times: collections.deque[float] = collections.deque()

    def allow(self, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        while self._times and now - self._times[0] > self.seconds:
            self._times.popleft()
        if len(self._times) >= self.count:
            return False
        self._times.append(now)
        return True


class ChatLog:
    """The last lines of a channel, for screens that open later."""

    def __init__(self, size: int = 50):
        self.lines: collections.deque[tuple[str, str]] = collections.deque(maxlen=size)

    def add(self, who: str, text: str) -> None:
        self.lines.append((who, text))
