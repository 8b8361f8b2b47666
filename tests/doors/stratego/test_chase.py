"""A chase (``chase.py``): found from the public moves, ended by a guard."""
from __future__ import annotations

import pytest

from doors.stratego.ai import make_bot
from doors.stratego.belief import R_OF
from doors.stratego.chase import LONG_CHASE, Chase, chase, guard_steps
from doors.stratego.pieces import Move
from doors.stratego.rules import StrategoState
from doors.stratego.search import WIN, Search
from doors.stratego.values import HANG

from .helpers import position, sq, with_losses


def _armies(extra: dict[str, tuple[int, str]]) -> StrategoState:
    """Red's back rows and flag corner, Blue's; ``extra`` on top. Red's
    Major and Blue's Marshal are shown (they struck before)."""
    red = dict.fromkeys(("C1", "D1", "E1", "F1", "G1", "H1", "I1", "J1", "C2", "D2", "E2", "F2"))
    blue = dict.fromkeys(("A10", "B10", "C10", "D10", "E10", "F10", "G10", "H10", "C9", "D9"))
    pieces = {s: (0, r) for s, r in zip(red, "665488393975", strict=True)}
    pieces |= {s: (1, r) for s, r in zip(blue, "3989659856", strict=True)}
    pieces |= {"A1": (0, "F"), "B1": (0, "B"), "A2": (0, "B"),
               "J10": (1, "F"), "I10": (1, "B"), "J9": (1, "B")}
    state = with_losses(position(pieces | extra, scout_strike=2))
    for s, piece in enumerate(state.board):
        if piece is not None and (piece.owner, piece.rank) in ((0, "4"), (1, "1")) \
                and s in {sq(k) for k in extra}:
            state.board[s] = piece._replace(revealed=True, moved=True)
    return state


def _chased(spy: str, steps: list[tuple[str, str]], start: tuple[str, str]) -> StrategoState:
    """Red's shown Major on ``start[0]`` flees Blue's shown Marshal (from
    ``start[1]``): ``steps`` are the pairs of moves, Red's then Blue's."""
    state = _armies({start[0]: (0, "4"), start[1]: (1, "1"), spy: (0, "S")})
    for ours, theirs in steps:
        a, b = ours.split("-")
        state.apply(0, Move(sq(a), sq(b)))
        a, b = theirs.split("-")
        state.apply(1, Move(sq(a), sq(b)))
    return state


CHASE = [("E4-E5", "E7-E6"), ("E5-F5", "E6-F6"), ("F5-F4", "F6-F5")]


def test_a_chase_is_three_steps_beside_one_fleeing_piece():
    """Blue's Marshal ends each of its last three moves beside Red's Major,
    which steps away each time: a chase, seen by either side's bot."""
    state = _chased("I4", CHASE, ("E4", "E7"))
    assert chase(state.observation(0), 0) == Chase(sq("F4"), sq("F5"), 3)
    assert chase(state.observation(1), 0) == Chase(sq("F4"), sq("F5"), 3)
    assert chase(state.observation(1), 1) is None     # Blue is the chaser, not the chased


@pytest.mark.parametrize(("steps", "major"), [
    (CHASE[:2], "E4"),                                                  # two steps so far
    ([("E4-E5", "E7-E6"), ("E5-F5", "E6-F6"), ("F5-F4", "F6-E6")], "E4"),  # the last not beside
    ([("J1-J2", "E7-E6"), ("E5-F5", "E6-F6"), ("F5-F4", "F6-F5")], "E5"),  # Red moved another
])
def test_no_chase_without_three_steps_of_one_pair(steps, major):
    state = _chased("I4", steps, (major, "E7"))
    assert chase(state.observation(0), 0) is None


def test_a_guard_is_a_piece_that_beats_the_chaser_when_it_strikes():
    """Against their Marshal only our Spy guards: the steps lead to it. A
    shown chaser that would lose to the chased piece is no threat: no
    guard is sought."""
    state = _chased("I4", CHASE, ("E4", "E7"))
    obs = state.observation(0)
    at = chase(obs, 0)
    assert at is not None
    steps = guard_steps(obs, 0, at)
    assert steps is not None
    assert [steps[sq(s)] for s in ("H4", "G4", "F4", "E4")] == [1, 2, 3, 4]
    state.board[sq("F5")] = state.board[sq("F5")]._replace(rank="6")
    assert guard_steps(state.observation(0), 0, at) is None


@pytest.mark.parametrize(("spy", "towards"), [("I4", "G4"), ("B4", "E4")])
def test_a_chased_piece_flees_towards_its_guard(spy, towards):
    """Red's Major on F4, chased by Blue's Marshal, steps towards Red's
    Spy, on either side: to G4 or E4, each no nearer the Marshal than the
    other."""
    state = _chased(spy, CHASE, ("E4", "E7"))
    for seed in range(3):
        m = make_bot(5, seed, time_cap=None).choose(state.observation(0), 0)
        assert (m.frm, m.to) == (sq("F4"), sq(towards)), seed


def test_a_chased_piece_beside_its_guard_stays():
    """Once beside our Spy, the Major need flee no more: a Marshal that
    takes it is taken by the Spy. So Red's chased Major stays on H3."""
    steps = [("F4-G4", "F5-F4"), ("G4-G3", "F4-G4"), ("G3-H3", "G4-G3")]
    state = _chased("I3", steps, ("F4", "F5"))
    assert chase(state.observation(0), 0) == Chase(sq("H3"), sq("G3"), 3)
    for seed in range(3):
        m = make_bot(5, seed, time_cap=None).choose(state.observation(0), 0)
        assert m.frm != sq("H3"), (seed, m)


def test_in_a_chase_a_guarded_piece_is_no_gift_at_the_horizon():
    """Their Marshal beside our revealed Major at the horizon takes it
    (``HANG`` of its value). In a chase (``guarded``) our Spy beside the
    Major takes that to nothing: the Spy would take the Marshal back. A
    Lieutenant there, which the Marshal beats, guards nothing; out of a
    chase the horizon counts no guard."""
    cells = [-1] * 100
    for name, c in (("A1", R_OF["F"]), ("E5", R_OF["4"]), ("E6", 16 + R_OF["1"]),
                    ("J10", 16 + R_OF["F"])):
        cells[sq(name)] = c
    known = {sq("E5"), sq("E6")}
    gains, majors = {}, {}
    for guarded in (False, True):
        for guard in (None, "S", "6"):
            board = list(cells)
            if guard:
                board[sq("E4")] = R_OF[guard]
            search = Search(board, 0, 2, known=known, hang=HANG, guarded=guarded)
            gains[guarded, guard] = search.negamax(1, 0, -WIN, WIN) + search.score
            majors[guard] = search.val[0][R_OF["4"]]
    assert gains[True, "S"] == pytest.approx(0)
    assert gains[False, "S"] == pytest.approx(HANG * majors["S"])
    for guarded in (False, True):
        assert gains[guarded, None] == pytest.approx(HANG * majors[None])
        assert gains[guarded, "6"] == pytest.approx(HANG * majors["6"])
    assert HANG * majors["6"] > 30


def test_against_a_hidden_chaser_a_guard_beats_all_that_would_take_ours():
    """A hidden chaser of our Major may be any rank they have left that
    beats it. With their Marshal lost, our Marshal guards and our General
    (which their General ties) does not; with it alive, nothing does."""
    state = _chased("I4", CHASE, ("E4", "E7"))
    f5 = sq("F5")
    state.board[f5] = state.board[f5]._replace(rank="2", revealed=False)
    state.board[sq("I4")] = state.board[sq("I4")]._replace(rank="2")
    state.board[sq("J1")] = state.board[sq("J1")]._replace(rank="1")
    state.lost[1].remove("2")
    state.lost[1].append("1")
    obs = state.observation(0)
    at = chase(obs, 0)
    assert at == Chase(sq("F4"), f5, 3) and obs.squares[f5].rank is None
    steps = guard_steps(obs, 0, at)
    assert steps is not None
    assert steps[sq("J2")] == 1 and steps[sq("H4")] > 1     # J1's Marshal, not I4's General
    state.lost[1].remove("1")
    state.lost[1].append("2")
    state.board[sq("J1")] = state.board[sq("J1")]._replace(rank="9")
    state.board[sq("D1")] = state.board[sq("D1")]._replace(rank="1")
    assert guard_steps(state.observation(0), 0, at) is None


ROWS = (4, 5, 6, 5, 4, 3)   # Red's Major up and down the E file, Blue's Marshal beside it on F


def _long_chase(pairs: int, lead: bool) -> StrategoState:
    """Red's shown Major, with no guard against Blue's shown Marshal (Red
    has no Spy), flees it ``pairs`` times up and down the E file. ``lead``:
    Blue has lost its Colonel and a Captain, so Red's lead outlasts the
    Major; else Blue's pieces are worth more."""
    state = _armies({"E4": (0, "4"), "F4": (1, "1")})
    if lead:
        state.board[sq("A10")] = state.board[sq("F10")] = None
        with_losses(state)
    for k in range(pairs):
        a, b = ROWS[k % len(ROWS)], ROWS[(k + 1) % len(ROWS)]
        state.apply(0, Move(sq(f"E{a}"), sq(f"E{b}")))
        state.apply(1, Move(sq(f"F{a}"), sq(f"F{b}")))
    return state


def test_a_chase_counts_back_as_far_as_the_observation_shows():
    assert chase(_long_chase(LONG_CHASE - 1, True).observation(0), 0).length == LONG_CHASE - 1
    assert chase(_long_chase(LONG_CHASE + 5, True).observation(0), 0).length == LONG_CHASE


@pytest.mark.parametrize("lead", [True, False])
def test_a_chase_as_long_as_we_see_is_given_up_while_our_lead_outlasts_the_piece(lead):
    """Fleeing a chaser no piece of ours beats gets nowhere. Red's Major
    flees for ``LONG_CHASE - 1`` moves; then, if Red would still lead
    without it, Red plays on elsewhere and lets it go. Without that lead
    it keeps fleeing (a draw is better than a lost lead)."""
    for pairs, flees in ((LONG_CHASE - 1, True), (LONG_CHASE, not lead)):
        state = _long_chase(pairs, lead)
        obs = state.observation(0)
        major = sq(f"E{ROWS[pairs % len(ROWS)]}")
        assert obs.piece(major).rank == "4" and chase(obs, 0).chased == major
        for seed in range(3):
            m = make_bot(5, seed, time_cap=None).choose(obs, 0)
            assert (m.frm == major) == flees, (pairs, lead, seed, m)
