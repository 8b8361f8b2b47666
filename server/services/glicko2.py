"""Glicko-2 ratings, implemented from Mark Glickman's paper
"Example of the Glicko-2 system" (2013), steps 1-8.

Pure arithmetic: no storage, no clock. A rating period here is one game, so
``rate`` is called with the games of one period (usually a single game).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

SCALE = 173.7178
DEFAULT_RATING = 1500.0
DEFAULT_DEVIATION = 350.0
DEFAULT_VOLATILITY = 0.06
TAU = 0.5  # system constant: how much the volatility may change
EPSILON = 0.000001  # convergence tolerance of step 5


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating on the Glicko scale (1500 / 350 for a newcomer)."""

    rating: float = DEFAULT_RATING
    deviation: float = DEFAULT_DEVIATION
    volatility: float = DEFAULT_VOLATILITY


@dataclass(frozen=True, slots=True)
class Game:
    """One game of the period: the opponent's rating and our score (1, 0.5, 0)."""

    opponent: Rating
    score: float


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _new_volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the Illinois algorithm on f(x) = 0."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        num = ex * (delta * delta - phi * phi - v - ex)
        den = 2.0 * (phi * phi + v + ex) ** 2
        return num / den - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def rate(player: Rating, games: list[Game], tau: float = TAU) -> Rating:
    """The player's rating after one rating period with these games.

    With no games only the deviation grows (step 6 of the paper)."""
    mu = (player.rating - DEFAULT_RATING) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    if not games:
        phi_star = math.sqrt(phi * phi + sigma * sigma)
        return Rating(player.rating, min(phi_star * SCALE, DEFAULT_DEVIATION), sigma)
    inv_v = 0.0
    delta_sum = 0.0
    for game in games:
        mu_j = (game.opponent.rating - DEFAULT_RATING) / SCALE
        phi_j = game.opponent.deviation / SCALE
        e = _expected(mu, mu_j, phi_j)
        g = _g(phi_j)
        inv_v += g * g * e * (1.0 - e)
        delta_sum += g * (game.score - e)
    v = 1.0 / inv_v
    delta = v * delta_sum
    sigma_new = _new_volatility(sigma, phi, v, delta, tau)
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * delta_sum
    # a game that tells little (a newcomer against a far weaker player) can
    # leave the deviation a hair above a newcomer's: no one is less known
    return Rating(mu_new * SCALE + DEFAULT_RATING, min(phi_new * SCALE, DEFAULT_DEVIATION), sigma_new)


def rate_game(a: Rating, b: Rating, score_a: float) -> tuple[Rating, Rating]:
    """Both players' new ratings after one game; ``score_a`` is 1, 0.5 or 0."""
    return rate(a, [Game(b, score_a)]), rate(b, [Game(a, 1.0 - score_a)])
