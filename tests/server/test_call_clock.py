"""The call's clock: notices at the marks, then the end, with the words a
caller reads and the reason their opponent is given."""
from server.screens.call_clock import CallClock


def test_time_left_on_the_bbs_is_told_at_5_and_1_minutes_then_ends():
    clock = CallClock(minute=60.0)
    clock.limit_bbs(0.0, 12)
    said = []
    for now in range(0, 12 * 60 + 1, 10):
        tell = clock.check(float(now))
        if tell:
            said.append((now, tell.text, tell.end))
    assert said == [(420, "You have 5 minutes left on the BBS.", False),
                    (660, "You have 1 minute left on the BBS.", False),
                    (720, "Your time on the BBS is up. Back to the BBS...", True)]
    assert clock.why == "ran out of time on their BBS"
    assert clock.check(800.0) is None and clock.left(800.0) is None   # said once


def test_one_minute_left_at_the_start_is_told_at_once():
    clock = CallClock(minute=60.0)
    clock.limit_bbs(100.0, 1)
    assert clock.check(100.0).text == "You have 1 minute left on the BBS."
    assert clock.next_due() == 160.0
    assert clock.check(160.0).end


def test_the_sysops_cap_warns_a_minute_before():
    clock = CallClock(minute=60.0)
    clock.cap(0.0, 60)
    assert clock.next_due() == 59 * 60
    assert clock.check(59 * 60 - 1) is None
    assert clock.check(59 * 60).text == "This call ends in 1 minute (the sysop's limit of 60 minutes a call)."
    end = clock.check(3600.0)
    assert end.end and end.text == "This call has reached the sysop's limit of 60 minutes. Goodbye."


def test_no_limit_says_nothing():
    clock = CallClock()
    assert clock.check(1e9) is None and clock.next_due() is None and clock.left(0.0) is None
