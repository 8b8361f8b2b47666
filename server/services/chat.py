"""Chat: cleaning what users type, its length, and a channel's
history. Delivery is by session inboxes (``events.Chat``)."""
from __future__ import annotations

import collections

from ansi.canvas import clean_text

__all__ = ["MAX_CHAT", "clean_chat", "ChatLog"]

MAX_CHAT = 200


def clean_chat(text: str) -> str:
    """One line with no control or escape characters, trimmed to MAX_CHAT."""
    return clean_text(" ".join(text.split()))[:MAX_CHAT]


class ChatLog:
    """The last lines of a channel, for screens that open later."""

    def __init__(self, size: int = 50):
        self.lines: collections.deque[tuple[str, str]] = collections.deque(maxlen=size)

    def add(self, who: str, text: str) -> None:
        self.lines.append((who, text))
