"""The search's fog (``Search.fog``): their side strikes a hidden piece of
ours only with a piece it can spare to learn what it is, or with one that
beats whatever a moved piece of ours may be; a piece that strikes or is
struck is shown for the rest of the line."""
from __future__ import annotations

from doors.stratego.belief import R_OF
from doors.stratego.search import VALUE, Search

from .helpers import sq

HIDDEN_MOVED, HIDDEN_UNMOVED = 1, 2


def board(pieces: dict[str, tuple[int, str]]) -> list[int]:
    cells = [-1] * 100
    for name, (owner, rank) in pieces.items():
        cells[sq(name)] = owner * 16 + R_OF[rank]
    return cells


def fog_of(hidden: dict[str, int]) -> list[int]:
    fog = [0] * 100
    for name, state in hidden.items():
        fog[sq(name)] = state
    return fog


# our flag and bombs far off, theirs too; our Marshal hidden and unmoved in
# the corner, our General (moved) at E4 with their Marshal beside it at E5
ARMY = {"A1": (0, "F"), "B1": (0, "B"), "A2": (0, "B"), "J1": (0, "1"), "A10": (1, "F"),
        "B10": (1, "B"), "A9": (1, "B"), "E4": (0, "2"), "E5": (1, "1"), "H2": (0, "9"),
        "J10": (1, "9")}
QUIET = (sq("H2"), sq("H3"))      # our Scout steps elsewhere


def value(cells: list[int], fog: list[int] | None, move: tuple[int, int], depth: int = 2,
          top: int = 10) -> float:
    return Search(list(cells), 0, 2, False, fog=None if fog is None else list(fog),
                  hidden_top=top).root_value(0, *move, depth)


def test_their_marshal_does_not_gamble_on_a_hidden_piece_that_may_be_ours():
    cells = board(ARMY)
    hidden = fog_of({"E4": HIDDEN_MOVED, "J1": HIDDEN_UNMOVED, "H2": HIDDEN_MOVED})
    blind = value(cells, hidden, QUIET)
    seeing = value(cells, None, QUIET)
    # without the fog their Marshal takes our General; with it, it cannot
    # know the moved piece is not our Marshal, so the General stays
    assert blind - seeing > VALUE[R_OF["2"]] * 0.9


def test_their_marshal_strikes_a_shown_piece_or_when_nothing_hidden_can_beat_it():
    cells = board(ARMY)
    shown = fog_of({"J1": HIDDEN_UNMOVED, "H2": HIDDEN_MOVED})     # E4 shown
    assert value(cells, shown, QUIET) < value(cells, None, QUIET) + 1.0
    # our Marshal known or gone: no moved piece of ours can hold theirs off
    hidden = fog_of({"E4": HIDDEN_MOVED, "J1": HIDDEN_UNMOVED, "H2": HIDDEN_MOVED})
    assert value(cells, hidden, QUIET, top=R_OF["2"]) < value(cells, None, QUIET) + 1.0


def test_an_officer_never_strikes_a_hidden_unmoved_piece():
    cells = board({**ARMY, "E4": (0, "6")})
    unmoved = fog_of({"E4": HIDDEN_UNMOVED, "J1": HIDDEN_UNMOVED, "H2": HIDDEN_MOVED})
    # even with nothing hidden above a Sergeant: it may be a bomb
    assert value(cells, unmoved, QUIET, top=R_OF["6"]) - value(cells, None, QUIET) > VALUE[R_OF["6"]] * 0.9


def test_a_prober_strikes_a_hidden_piece():
    cells = board({**ARMY, "E5": (1, "5"), "E4": (0, "7")})
    hidden = fog_of({"E4": HIDDEN_UNMOVED, "J1": HIDDEN_UNMOVED, "H2": HIDDEN_MOVED})
    # their Lieutenant may probe anything: it takes our hidden Sergeant
    assert value(cells, hidden, QUIET) < value(cells, None, QUIET) + 1.0


def test_a_piece_that_strikes_is_shown_for_the_rest_of_the_line():
    # our hidden General takes their Scout at F4 beside their Marshal at F5:
    # shown by the strike, it is then taken
    cells = board({**ARMY, "E5": (1, "9"), "F5": (1, "1"), "F4": (1, "9"),
                   "E4": (0, "2")})
    hidden = fog_of({"E4": HIDDEN_MOVED, "J1": HIDDEN_UNMOVED, "H2": HIDDEN_MOVED})
    strike = (sq("E4"), sq("F4"))
    assert value(cells, hidden, strike) < value(cells, hidden, QUIET) - VALUE[R_OF["2"]] * 0.5
    # and the board and the fog are left as they were
    search = Search(list(cells), 0, 2, False, fog=list(hidden), hidden_top=10)
    before = list(search.b), list(search.fog or [])
    search.root_value(0, *strike, 3)
    assert (search.b, search.fog) == before


# their piece on E5 moved and is hidden at the root: boxed in by their bombs
# and a lake, beside our Colonel on E4; the sample says it is a Scout
BOXED = {"A1": (0, "F"), "B1": (0, "B"), "A2": (0, "B"), "A10": (1, "F"), "B10": (1, "B"),
         "A9": (1, "B"), "E4": (0, "3"), "E5": (1, "9"), "F5": (1, "B"), "E6": (1, "B"),
         "J10": (1, "7"), "H2": (0, "9")}


def boxed_value(odds: dict[int, list[tuple[int, float]]] | None) -> float:
    return Search(board(BOXED), 0, 2, False, odds=odds).root_value(0, *QUIET, 3)


def test_our_last_strike_on_a_hidden_piece_is_counted_at_the_beliefs_odds():
    scout, general = R_OF["9"], R_OF["2"]
    sure = boxed_value({sq("E5"): [(scout, 1.0)]})
    assert abs(sure - boxed_value(None)) < 1e-6      # the odds agree with the sample
    # half the time their General: our Colonel would not strike, whatever
    # the sample says, so the line is worth less by about the Scout won
    doubt = boxed_value({sq("E5"): [(scout, 0.5), (general, 0.5)]})
    assert sure - doubt > VALUE[scout] * 0.8
