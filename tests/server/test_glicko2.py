"""Glicko-2 against the worked example of Glickman's paper, and properties."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from server.services.glicko2 import Game, Rating, rate, rate_game


def test_paper_worked_example() -> None:
    # "Example of the Glicko-2 system", section 3: a 1500/200/0.06 player
    # beats a 1400/30 player and loses to 1550/100 and 1700/300 (tau 0.5).
    player = Rating(1500, 200, 0.06)
    games = [
        Game(Rating(1400, 30), 1.0),
        Game(Rating(1550, 100), 0.0),
        Game(Rating(1700, 300), 0.0),
    ]
    new = rate(player, games, tau=0.5)
    assert new.rating == pytest.approx(1464.06, abs=0.01)
    assert new.deviation == pytest.approx(151.52, abs=0.01)
    assert new.volatility == pytest.approx(0.05999, abs=0.00001)


def test_no_games_only_widens_the_deviation() -> None:
    new = rate(Rating(1600, 100, 0.06), [])
    assert new.rating == 1600
    assert new.deviation > 100


ratings = st.builds(
    Rating,
    st.floats(800, 2400),
    st.floats(30, 350),
    st.floats(0.03, 0.09),
)


def test_a_newcomer_beaten_by_a_far_weaker_player_is_no_less_known_than_a_newcomer() -> None:
    # hypothesis found it: 350.0009 after the game
    _, new_b = rate_game(Rating(800.0, 30.0, 0.0625), Rating(2256.0, 350.0, 0.0625), 1.0)
    assert new_b.deviation <= 350


@given(ratings, ratings)
def test_the_winner_gains_and_the_loser_drops(a: Rating, b: Rating) -> None:
    new_a, new_b = rate_game(a, b, 1.0)
    assert new_a.rating > a.rating
    assert new_b.rating < b.rating
    assert 0 < new_a.deviation <= 350 and 0 < new_b.deviation <= 350


@given(ratings)
def test_a_draw_between_equals_moves_nobody(a: Rating) -> None:
    new_a, new_b = rate_game(a, a, 0.5)
    assert new_a.rating == pytest.approx(a.rating, abs=1e-6)
    assert new_b.rating == pytest.approx(a.rating, abs=1e-6)
