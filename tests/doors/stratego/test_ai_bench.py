"""The bots' bench (``bench/stratego_ai.py``): ``--repeatable`` takes the
time cap away, so a match on a busy machine plays the same games."""
from __future__ import annotations

import pathlib

from doors.stratego.ai import TIME_CAP
from doors.stratego.pieces import Fill, Move, Ready
from doors.stratego.rules import StrategoState

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


def test_a_kept_log_replays_the_game_move_for_move(tmp_path: pathlib.Path) -> None:
    """``--logs``: a game's log, in the referee's format, replays on the
    rules move for move (each strike's outcome and ranks as logged), ends
    with the winner the match counted, and reads as a pool log does
    (``stratego_material.py``)."""
    mod = load_script("stratego_ai", "bench")
    material = load_script("stratego_material", "bench")
    winner, side, options, times, _ = mod.one_game(lambda s: mod.bot(2, True, s), lambda s: mod.bot(1, True, s),
                                                   17, 1, logs=str(tmp_path))
    path = tmp_path / "game1.log"
    lines = path.read_text().splitlines()
    state = StrategoState(options)
    for player, head in ((0, 0), (1, 5)):
        name, colour, word = lines[head].split()
        assert (colour, word) == (("RED", "BLUE")[player], "SETUP")
        assert name == ("ours1.sh" if player == side else "other")
        top = 0 if player == 0 else 6
        state.apply(player, Fill(tuple(((top + y) * 10 + x, "S" if c == "s" else c)
                                       for y, row in enumerate(lines[head + 1:head + 5])
                                       for x, c in enumerate(row) if c != ".")))
    state.apply(0, Ready())
    state.apply(1, Ready())
    steps = [material.STEP.match(line) for line in lines[10:-1]]
    assert steps and all(steps)
    for m in steps:
        player = 0 if m[1] == "RED" else 1
        dx, dy = material.DIRS[m[4]]
        n = int(m[5] or 1)
        frm = int(m[3]) * 10 + int(m[2])
        struck = len(state.strikes)
        state.apply(player, Move(frm, frm + (dy * 10 + dx) * n))
        if m[6] == "OK":
            assert len(state.strikes) == struck
        else:
            hit = state.strikes[-1]
            kind = "DIES" if hit.defender_survived else "KILLS" if hit.attacker_survived else "BOTHDIE"
            assert (m[6], m[7], m[8]) == (kind, hit.attacker.replace("S", "s"), hit.defender.replace("S", "s"))
    assert len(times) == sum(1 for m in steps if (m[1] == "RED") == (side == 0))
    out = state.outcome()
    assert (None if out is None else out.winner) == winner
    end = lines[-1].split()
    assert end[2] == ("DRAW_DEFAULT" if winner is None else "VICTORY")
    if winner is not None:
        assert end[0] == ("ours1.sh" if winner == side else "other")
    read = material.game(str(path))
    assert read is not None and read[:2] == (("RED", "BLUE")[side],
                                             "draw" if winner is None else "win" if winner == side else "loss")
