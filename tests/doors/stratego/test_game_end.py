"""Issue 16.7, 16.8, 16.9: the end of a game however it came reveals both
armies and the header says it is over (the result is the server's row); move counts leave out the setup; a
strike is shown at the moment it is made, not again to whoever arrives
later."""
from __future__ import annotations

import random

from ansi.canvas import Canvas
from doors._core.door import DOOR_ROWS
from doors._core.game import GameState, Outcome, Termination, replay
from doors.stratego.keys import StrategoUI
from doors.stratego.pieces import Move, Place
from doors.stratego.rules import StrategoState
from doors.stratego.view import HIDDEN_GLYPH

from .helpers import move, position, sq, started

NAMES = ("alice", "bob")


def screen(state, me, obs, now=0.0, outcome=None):
    ui = StrategoUI(me, NAMES, state.options, rng=random.Random(1))
    ui.update(obs, None, now)
    ui.outcome = outcome
    canvas = Canvas(80, 24)
    ui.draw(canvas.region(0, 0, 80, DOOR_ROWS), now)
    return "\n".join(canvas.lines())


def board_cells(text: str) -> str:
    """The characters in the board's cells (rows 2-11, columns 4-33)."""
    return "".join(line[4:34] for line in text.split("\n")[2:12])


RESIGNED = Outcome(1, Termination.RESIGN, "alice resigned")


def test_a_resignation_reveals_both_armies_to_both_players_and_spectators():
    s = started(4)
    move(s, *_first_move(s))
    assert s.outcome() is None
    for viewer in (0, 1, None):
        before = board_cells(screen(s, viewer, s.observation(viewer)))
        assert HIDDEN_GLYPH in before
        after_text = screen(s, viewer, s.final_observation(viewer, RESIGNED), outcome=RESIGNED)
        after = board_cells(after_text)
        assert HIDDEN_GLYPH not in after
        assert after.count("F") == 2 and after.count("B") == 12
        # the result and its reason are the server's rows: the panel only says it is over
        assert "Game over." in after_text and "alice resigned" not in after_text
        assert "Your move" not in after_text and "to move" not in after_text


def test_final_observation_has_every_rank_and_no_one_to_move():
    s = started(5)
    obs = s.final_observation(0, RESIGNED)
    ranks = [q.rank for q in obs.squares if q is not None]
    assert len(ranks) == 80 and None not in ranks
    assert obs.phase == "over" and obs.to_move == () and obs.outcome == RESIGNED
    assert obs.legal_actions() == [] and obs.why_illegal(Move(sq("A4"), sq("A5"))) == "The game is over."
    # the usual observation is unchanged: the opponent's unmoved ranks stay hidden
    assert any(q is not None and q.rank is None for q in s.observation(0).squares)


def test_a_resignation_during_setup_ends_with_the_result_not_the_setup_panel():
    s = StrategoState({})
    s.apply(0, Place(sq("A1"), "F"))
    text = screen(s, 1, s.final_observation(1, RESIGNED), outcome=RESIGNED)
    assert "Game over." in text and "SETUP" not in text and "F" in board_cells(text)


def test_the_header_follows_the_servers_outcome_even_on_a_plain_observation():
    s = started(6)
    text = screen(s, 0, s.observation(0), outcome=RESIGNED)
    assert "Game over." in text and "Your move" not in text


def test_keys_do_nothing_after_the_end():
    s = started(7)
    ui = StrategoUI(0, NAMES, s.options)
    ui.update(s.final_observation(0, RESIGNED), None, 0.0)
    ui.outcome = RESIGNED
    ui.cur = sq(_first_move(s)[0])
    assert ui.on_key("\r", 0.0) is None and ui.selected is None


# ----- counting moves ---------------------------------------------------------------
def test_setup_actions_are_not_moves():
    s = started(8)
    setup_actions = len(s.history)
    assert s.moves_played() == 0 and setup_actions == 4      # two fills, two readies
    for _ in range(5):
        player = s.to_move()[0]
        s.apply(player, s.legal_actions(player)[0])
    assert s.moves_played() == 5 == s.observation(0).ply
    assert StrategoState.count_moves(s.record()) == (5, setup_actions)
    placed = StrategoState({})
    for name in ("A1", "B1", "C1"):
        placed.apply(0, Place(sq(name), "B"))
    placed.apply(0, placed.parse_action("remove B1"))
    assert StrategoState.count_moves(placed.record()) == (0, 4)


def test_every_action_is_a_move_in_a_door_without_setup():
    from doors.towers.rules import TowersState
    t = TowersState({})
    for _ in range(3):
        t.apply(t.current_player(), t.legal_actions()[0])
    assert GameState.count_moves(t.record()) == (3, 0) and t.moves_played() == 3
    assert replay(TowersState, t.options, t.record()).moves_played() == 3


# ----- a strike is news once -----------------------------------------------------------
def _strike_position():
    s = position({"A1": (0, "F"), "J10": (1, "F"), "E4": (0, "5"), "E5": (1, "7"),
                  "A2": (0, "9"), "J9": (1, "9")})
    s.apply(0, Move(sq("E4"), sq("E5")))
    return s


def test_a_strike_is_not_replayed_to_a_player_who_comes_back_or_a_spectator():
    s = _strike_position()
    for viewer in (0, 1, None):
        ui = StrategoUI(viewer, NAMES, s.options)
        ui.update(s.observation(viewer), s.history[-1], 50.0)    # the screen's first picture
        assert ui.frame_due(50.0) is None and not ui.revealing(50.0)
        canvas = Canvas(80, 24)
        ui.draw(canvas.region(0, 0, 80, DOOR_ROWS), 50.1)
        text = "\n".join(canvas.lines())
        assert "STRIKE!" not in text and "Last strike" in text


def test_a_strike_made_while_watching_is_shown():
    s = position({"A1": (0, "F"), "J10": (1, "F"), "E4": (0, "5"), "E5": (1, "7"),
                  "A2": (0, "9"), "J9": (1, "9")})
    ui = StrategoUI(None, NAMES, s.options)
    ui.update(s.observation(None), None, 10.0)
    s.apply(0, Move(sq("E4"), sq("E5")))
    ui.update(s.observation(None), s.history[-1], 11.0)
    assert ui.revealing(11.5) and ui.frame_due(11.0) == 11.0 + ui.REVEAL_SECONDS


def _first_move(s):
    mv = s.legal_actions(s.to_move()[0])[0]
    from doors.stratego.pieces import square_name
    return square_name(mv.frm), square_name(mv.to)
