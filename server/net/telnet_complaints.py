"""What telnetlib3 says about one caller's telnet commands, bounded.

telnetlib3 logs a warning (or an error) for each malformed command a
caller sends: a NAWS body of one byte, a CHARSET or TSPEED body it cannot
parse. A hostile caller sending thousands of them would fill the log and
keep the server busy writing it, so each connection's complaints go through
a ``ComplaintLog``: the first ``LOGGED`` reach the log, one line each, the
rest are only counted, and ``summarise`` logs how many were left out when
the connection ends. The telnet front ends a connection that has earned
``TOO_MANY`` (``server.net.telnet``).

Some complaints are logged by telnetlib3's protocol, not its writer, and
name no connection (an empty terminal type, each time a caller sends one):
``LogBudget`` bounds those, on all of telnetlib3's loggers, to so many a
minute whoever sends them.
"""
from __future__ import annotations

import logging
import time
from collections.abc import Callable, MutableMapping

__all__ = ["ComplaintLog", "LogBudget", "BAD_COMMANDS_GOODBYE", "TELNETLIB3_LOGGERS"]

TELNETLIB3_LOGGERS = ("telnetlib3.server", "telnetlib3.server_base", "telnetlib3.stream_writer")

BAD_COMMANDS_GOODBYE = b"\r\nToo many bad telnet commands. Goodbye.\r\n"


class ComplaintLog(logging.LoggerAdapter[logging.Logger]):
    """Stands in for telnetlib3's writer logger on one connection from
    ``peer``: warnings and errors are complaints, counted in ``count``; the
    first ``LOGGED`` are logged, naming the peer. Debug and info pass."""

    LOGGED = 3
    TOO_MANY = 100     # no client sends this many bad commands; a hostile one does

    def __init__(self, logger: logging.Logger, peer: str):
        super().__init__(logger, {})
        self.peer = peer
        self.count = 0

    def process(self, msg: object, kwargs: MutableMapping[str, object]) -> tuple[str, MutableMapping[str, object]]:
        return f"{self.peer.replace('%', '%%')}: {msg}", kwargs

    def isEnabledFor(self, level: int) -> bool:
        """``LoggerAdapter.log`` asks this once for each line it is given
        (``warning`` and the rest call ``log``): a complaint is counted
        here, and only the first ``LOGGED`` go on."""
        if level >= logging.WARNING:
            self.count += 1
            if self.count > self.LOGGED:
                return False
        return super().isEnabledFor(level)

    @property
    def too_many(self) -> bool:
        return self.count >= self.TOO_MANY

    def summarise(self) -> None:
        """Log, once, how many complaints were counted and not logged."""
        left_out, self.count = self.count - self.LOGGED, min(self.count, self.LOGGED)
        if left_out > 0:
            self.logger.info("%s: %d more bad telnet commands not logged", self.peer, left_out)


class LogBudget(logging.Filter):
    """A logger's filter that lets ``PER_MINUTE`` warnings and errors through
    a minute and drops the rest; the first one let through after some were
    dropped says how many. Debug and info pass."""

    PER_MINUTE = 30

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.clock = clock
        self.window_start = clock()
        self.passed = 0
        self.dropped = 0

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < logging.WARNING:
            return True
        now = self.clock()
        if now - self.window_start >= 60.0:
            self.window_start, self.passed = now, 0
        if self.passed >= self.PER_MINUTE:
            self.dropped += 1
            return False
        self.passed += 1
        if self.dropped:
            record.msg = f"{record.msg} ({self.dropped} telnetlib3 warnings before this one were not logged)"
            self.dropped = 0
        return True

    @classmethod
    def install(cls) -> None:
        """Put a budget on each of telnetlib3's loggers (once)."""
        for name in TELNETLIB3_LOGGERS:
            logger = logging.getLogger(name)
            if not any(isinstance(f, cls) for f in logger.filters):
                logger.addFilter(cls())
