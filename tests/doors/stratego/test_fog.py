"""The fog (``doors/stratego/fog.py``): in level 5's search their side
strikes a hidden piece of ours only with a piece it can spare, or one that
beats whatever a moved piece may be, until the game shows it gambles."""
from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from doors.stratego.ai import LEVELS, Search
from doors.stratego.belief import R_OF
from doors.stratego.fog import Fog, fog_of, gambled
from doors.stratego.pieces import Move

from .helpers import played_cells, position, random_line, sq, undo_line


def _cells(pieces: dict[str, tuple[int, str]]) -> list[int]:
    cells = [-1] * 100
    for name, (owner, rank) in pieces.items():
        cells[sq(name)] = owner * 16 + R_OF[rank]
    return cells


# our flag and hidden Major (unmoved), their Colonel above it, their Captain
# beside it, their flag far off
BOARD = {"A1": (0, "F"), "E4": (0, "4"), "E5": (1, "3"), "F4": (1, "5"), "J10": (1, "F")}


def _their_strikes(search: Search) -> set[tuple[int, int]]:
    return {(s, t) for s, t in search.moves(1) if search.b[t] >= 0}


def test_their_officer_spares_a_hidden_unmoved_piece_their_captain_probes_it():
    cells = _cells(BOARD)
    plain = Search(list(cells), 0, 2)
    assert _their_strikes(plain) == {(sq("E5"), sq("E4")), (sq("F4"), sq("E4"))}
    fogged = Search(list(cells), 0, 2, fog=Fog({sq("A1"), sq("E4")}, R_OF["4"]))
    assert _their_strikes(fogged) == {(sq("F4"), sq("E4"))}
    # once shown, the Major is fair game for the Colonel that beats it
    shown = Search(list(cells), 0, 2, known={sq("E4")}, fog=Fog({sq("A1"), sq("E4")}, 0))
    assert _their_strikes(shown) == {(sq("E5"), sq("E4")), (sq("F4"), sq("E4"))}


def test_their_officer_strikes_a_moved_hidden_piece_only_if_it_beats_all_we_hide():
    cells = _cells(BOARD)
    # our best hidden rank is the Major: their Colonel beats whatever it is
    low = Search(list(cells), 0, 2, fog=Fog({sq("A1")}, R_OF["4"]))
    assert (sq("E5"), sq("E4")) in _their_strikes(low)
    # we still hide a Colonel (or better): the moved piece may be it
    high = Search(list(cells), 0, 2, fog=Fog({sq("A1")}, R_OF["3"]))
    assert (sq("E5"), sq("E4")) not in _their_strikes(high)


def test_a_piece_of_ours_that_moves_in_the_line_is_unmoved_no_more():
    cells = _cells({"A1": (0, "F"), "E3": (0, "4"), "E5": (1, "3"), "J10": (1, "F")})
    search = Search(list(cells), 0, 2, fog=Fog({sq("A1"), sq("E3")}, R_OF["4"]))
    a, d = search.b[sq("E3")], search.b[sq("E4")]
    delta = search.play(sq("E3"), sq("E4"))
    assert delta is not None
    assert (sq("E5"), sq("E4")) in _their_strikes(search)     # moved: it is no bomb
    search.unplay(sq("E3"), sq("E4"), a, d, delta)
    assert search.still == {sq("A1"), sq("E3")}


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10**6), plies=st.integers(0, 160),
       picks=st.lists(st.integers(0, 10_000), min_size=1, max_size=10))
def test_the_fog_is_as_it_was_after_any_line_is_undone(seed, plies, picks):
    """Moves, strikes, trades and bombs: after each move their strikes are
    a subset of the plain search's, and undone the fog is the root's."""
    cells = played_cells(seed, plies)
    rng = random.Random(seed)
    still = {x for x in range(100) if cells[x] >= 0 and cells[x] >> 4 == 0 and rng.random() < 0.5}
    search = Search(list(cells), 0, 2, fog=Fog(set(still), rng.randrange(11)))

    def check(s: int, t: int, d: int) -> None:
        assert all(search.b[x] >= 0 and search.b[x] >> 4 == 0 for x in search.still)
        assert set(search.moves(1)) <= set(Search(list(search.b), 0, 2).moves(1))

    undo_line(search, random_line(search, picks, check))
    assert search.b == cells
    assert search.still == still


def test_the_game_records_who_struck_what_it_could_not_see():
    """Every strike is public with whether the struck piece was hidden and
    had moved; both players see the same record."""
    state = position({"A1": (0, "F"), "E4": (0, "3"), "E5": (1, "4"), "J10": (1, "F"), "B1": (0, "B"),
                      "H10": (1, "B")})
    state.apply(0, Move(sq("E4"), sq("E5")))
    for viewer in (0, 1):
        strike = state.observation(viewer).strikes[-1]
        assert (strike.attacker, strike.defender, strike.defender_hidden, strike.defender_moved) \
            == ("3", "4", True, False)
    assert len(state.observation(1).strikes) == 1


def _after_their_strike(attacker: str, moved: bool, hidden: str) -> bool:
    """``gambled`` seen by player 1 after player 0's ``attacker`` struck
    player 1's hidden piece (``moved`` or not), player 1 hiding ``hidden``
    elsewhere."""
    state = position({"A1": (0, "F"), "E4": (0, attacker), "E5": (1, "9"), "J10": (1, "F"),
                      "J8": (1, hidden), "B1": (0, "B")}, turn=0)
    piece = state.board[sq("E5")]
    assert piece is not None
    state.board[sq("E5")] = piece._replace(moved=moved)
    state.apply(0, Move(sq("E4"), sq("E5")))
    obs = state.observation(1)
    return gambled(obs, 1, fog_of(obs, 1).top)


def test_an_officer_on_a_hidden_piece_is_a_gamble_a_prober_is_not():
    assert _after_their_strike("3", False, "8")          # a Colonel on an unmoved piece
    assert not _after_their_strike("5", False, "8")      # a Captain probes
    assert not _after_their_strike("8", False, "1")      # so does a Miner
    assert not _after_their_strike("1", True, "2")       # their Marshal beats all we hide
    assert _after_their_strike("2", True, "1")           # our Marshal still hidden: a gamble
    assert _after_their_strike("S", True, "8")           # their Spy on a hidden piece


def test_the_fog_is_level_fives_and_off_once_they_gamble():
    assert LEVELS[5].fog and not any(LEVELS[n].fog for n in (1, 2, 3, 4))
    state = position({"A1": (0, "F"), "E4": (0, "4"), "E7": (0, "2"), "B1": (0, "B"), "E5": (1, "3"),
                      "J10": (1, "F")}, turn=0)
    fog = fog_of(state.observation(0), 0)
    assert fog.still == {sq("A1"), sq("E4"), sq("E7"), sq("B1")}
    assert fog.top == R_OF["2"]
    assert not gambled(state.observation(0), 0, fog.top)
