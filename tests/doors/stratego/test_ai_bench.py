"""The bots' bench (``bench/stratego_ai.py``): ``--repeatable`` takes the
time cap away, so a match on a busy machine plays the same games."""
from __future__ import annotations

from doors.stratego.ai import TIME_CAP

from .helpers import load_script


def test_a_repeatable_bot_has_no_time_cap_and_plays_a_match_the_same_twice() -> None:
    mod = load_script("stratego_ai", "bench")
    assert mod.bot(5, True, 1).time_cap is None
    assert mod.bot(5, False, 1).time_cap == TIME_CAP

    def run() -> list[tuple[int | None, int]]:
        game = mod.one_game
        return [(winner, len(times)) for winner, _, _, times, _ in
                (game(lambda s: mod.bot(2, True, s), lambda s: mod.bot(1, True, s), 17, g) for g in range(2))]

    first = run()
    assert first == run() and all(moves > 0 for _, moves in first)
