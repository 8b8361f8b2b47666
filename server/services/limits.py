"""Abuse limits: how often one account or one address may do a thing.

A free account costs nothing, so a limit kept per session is multiplied by
opening more sessions; these limits are kept per account *and* per address,
across sessions and connections. Each is a sliding window per key, with
memory bounded however many keys an attacker invents. An address is
counted as ``addresses.address_key`` says (an IPv6 caller by its /64).
"""
from __future__ import annotations

import collections
import time
from collections.abc import Callable

from server.config import Config

from .addresses import address_key

__all__ = ["KeyedRate", "AbuseLimits", "PAGES", "PAGE_SECONDS"]

PAGES, PAGE_SECONDS = 3, 300.0      # pages to the sysop, per account and per address


class KeyedRate:
    """At most ``count`` events per ``seconds`` for each key."""

    MAX_KEYS = 50_000

    def __init__(self, count: int, seconds: float, clock: Callable[[], float] = time.monotonic):
        self.count = count
        self.seconds = seconds
        self._clock = clock
        self._times: dict[str, collections.deque[float]] = {}

    def _window(self, key: str, now: float) -> collections.deque[float]:
        times = self._times.get(key)
        if times is None:
            if len(self._times) >= self.MAX_KEYS:
                self._forget(now)
            times = self._times[key] = collections.deque()
        while times and now - times[0] >= self.seconds:
            times.popleft()
        return times

    def _forget(self, now: float) -> None:
        for key in [k for k, t in self._times.items() if not t or now - t[-1] >= self.seconds]:
            del self._times[key]
        while len(self._times) >= self.MAX_KEYS:          # still full: drop the oldest
            del self._times[next(iter(self._times))]

    def allows(self, *keys: str) -> bool:
        """Whether one more event is within the limit for every key (records nothing)."""
        now = self._clock()
        return all(len(self._window(k, now)) < self.count for k in keys)

    def take(self, *keys: str) -> bool:
        """Record one event for every key if each allows it; False (and
        nothing recorded) if any is at its limit."""
        now = self._clock()
        windows = [self._window(k, now) for k in keys]
        if any(len(w) >= self.count for w in windows):
            return False
        for w in windows:
            w.append(now)
        return True


class AbuseLimits:
    """The limits a sysop can set in ``[limits]``, kept across sessions."""

    def __init__(self, chat_lines: int = 5, chat_seconds: float = 10.0, address_chat_lines: int = 10,
                 challenges: int = 5, challenge_seconds: float = 60.0,
                 new_accounts: int = 3, account_seconds: float = 3600.0,
                 clock: Callable[[], float] = time.monotonic):
        self.chat_lines = chat_lines
        self.chat_seconds = chat_seconds
        self._chat_account = KeyedRate(chat_lines, chat_seconds, clock)
        self._chat_address = KeyedRate(address_chat_lines, chat_seconds, clock)
        self.challenges = challenges
        self.challenge_seconds = challenge_seconds
        self._challenges = KeyedRate(challenges, challenge_seconds, clock)
        self.new_accounts = new_accounts
        self._accounts = KeyedRate(new_accounts, account_seconds, clock)
        self._pages = KeyedRate(PAGES, PAGE_SECONDS, clock)      # each rings the console's bell

    @classmethod
    def from_config(cls, config: Config) -> AbuseLimits:
        return cls(chat_lines=config.limits.chat_lines_per_10s, address_chat_lines=2 * config.limits.chat_lines_per_10s,
                   challenges=config.limits.challenges_per_minute, new_accounts=config.limits.new_accounts_per_hour)

    def chat(self, handle: str, address: str | None) -> str | None:
        """None if ``handle`` at ``address`` may say one more line, else why
        not (``address`` None: a BBS caller, counted by their account alone)."""
        if not self._chat_account.allows("h:" + handle.casefold()):
            return f"Slow down: at most {self.chat_lines} chat lines in {self.chat_seconds:g} seconds."
        if address is not None and not self._chat_address.take("a:" + address_key(address)):
            return "Slow down: too much chat from your address."
        self._chat_account.take("h:" + handle.casefold())
        return None

    def page(self, handle: str, address: str | None) -> str | None:
        """None if ``handle`` at ``address`` may page the sysop once more, else why not."""
        keys = ["h:" + handle.casefold()] + ([] if address is None else ["a:" + address_key(address)])
        if not self._pages.take(*keys):
            return (f"You paged the sysop {PAGES} times in {PAGE_SECONDS // 60:g} minutes: "
                    "they have seen it; please wait.")
        return None

    def challenge(self, handle: str) -> str | None:
        """None if ``handle`` may make one more challenge, else why not."""
        if self._challenges.take(handle.casefold()):
            return None
        return (f"Slow down: at most {self.challenges} challenges in "
                f"{self.challenge_seconds:g} seconds. Wait for an answer.")

    def may_register(self, address: str) -> bool:
        return self._accounts.allows(address_key(address))

    def registered(self, address: str) -> None:
        self._accounts.take(address_key(address))
