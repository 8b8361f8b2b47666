"""Bounds on what telnetlib3 logs about callers' telnet commands."""
import logging

from server.net.telnet_complaints import ComplaintLog, LogBudget


def test_a_connection_logs_its_first_complaints_and_counts_the_rest(caplog):
    caplog.set_level(logging.DEBUG, logger="test.complaints")
    log = ComplaintLog(logging.getLogger("test.complaints"), "192.0.2.7")
    for n in range(500):
        log.warning("bad command %d", n)
        log.debug("parsed %d", n)
    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert warnings == [f"192.0.2.7: bad command {n}" for n in range(ComplaintLog.LOGGED)]
    assert log.too_many
    log.summarise()
    log.summarise()                               # once
    assert [r.getMessage() for r in caplog.records if r.levelno == logging.INFO] == [
        f"192.0.2.7: {500 - ComplaintLog.LOGGED} more bad telnet commands not logged"]


def test_the_log_budget_lets_so_many_warnings_a_minute_through_and_says_how_many_it_dropped():
    now = [0.0]
    budget = LogBudget(clock=lambda: now[0])

    def record(level: int = logging.WARNING) -> logging.LogRecord:
        return logging.LogRecord("telnetlib3.server", level, __file__, 1, "ttype cycle stop", None, None)

    assert all(budget.filter(record()) for _ in range(LogBudget.PER_MINUTE))
    assert not any(budget.filter(record()) for _ in range(1000))
    assert budget.filter(record(logging.INFO))             # information passes
    now[0] = 60.0
    late = record()
    assert budget.filter(late)
    assert late.getMessage() == "ttype cycle stop (1000 telnetlib3 warnings before this one were not logged)"
