"""Our revealed Marshal and their hidden Spy: the Spy risk weighs what the
Marshal is worth in play by the odds the belief gives, and the belief
follows what this opponent's pieces did about our Marshal in this game."""
from __future__ import annotations

import random

from doors.stratego.ai import make_bot
from doors.stratego.belief import R_OF, Belief
from doors.stratego.pieces import Move
from doors.stratego.root import counts, marshal_stake, spy_risk
from doors.stratego.rules import StrategoState
from doors.stratego.values import TOP, piece_values

from .helpers import position, sq, with_losses

TAKE = Move(sq("E4"), sq("E5"))


def prize_position(prize: str, e6: str = "S") -> StrategoState:
    """Our revealed Marshal E4 may take their revealed ``prize`` on E5,
    which puts it next to E6, a hidden piece of theirs that has moved
    (``e6``: the Spy, unless told), one of eight such pieces."""
    s = position({"A1": (0, "F"), "B1": (0, "B"), "A2": (0, "B"), "E4": (0, "1"), "J1": (0, "7"),
                  "I1": (0, "6"), "E5": (1, prize), "E6": (1, e6), "B8": (1, "5"), "H7": (1, "7"),
                  "A8": (1, "6"), "C8": (1, "8"), "H8": (1, "4"), "G8": (1, "6"), "D9": (1, "7"),
                  "J10": (1, "F"), "I10": (1, "B"), "J9": (1, "B")})
    for name in ("E4", "E5"):
        s.board[sq(name)] = s.board[sq(name)]._replace(revealed=True, moved=True)
    for name in ("J1", "I1", "E6", "B8", "H7", "A8", "C8", "H8", "G8", "D9"):
        s.board[sq(name)] = s.board[sq(name)]._replace(moved=True)
    return with_losses(s)


def test_the_stake_is_the_marshal_in_play_and_their_general_let_loose():
    """Losing our Marshal costs its value in play, and the top bonus of
    their strongest officer, which nothing of ours beats then: their
    General's; with no General or Colonel of theirs left, their Major's."""
    with_general = prize_position("9")
    with_general.board[sq("H8")] = with_general.board[sq("H8")]._replace(rank="2")
    obs = with_losses(with_general).observation(0)
    mine, theirs = counts(obs, 0)
    alone = piece_values([mine, theirs])[0][R_OF["1"]]
    assert marshal_stake(obs, 0) == alone + TOP[9]
    assert marshal_stake(prize_position("9").observation(0), 0) == alone + TOP[7]


def test_our_known_marshal_leaves_a_scout_that_stands_by_a_possible_spy():
    """Taking the Scout puts our Marshal next to a moved hidden piece that
    may be the Spy; losing the Marshal at those odds costs more than the
    Scout brings, and other moves are safe: the Scout is left."""
    obs = prize_position("9").observation(0)
    for seed in range(4):
        bot = make_bot(5, seed, None)
        assert bot.choose(obs, 0) != TAKE
        risk = spy_risk(obs, 0, TAKE, sq("E4"), bot.last_marginals)
        assert risk > 0.1
        scout = piece_values(list(counts(obs, 0)))[1][R_OF["9"]]
        assert marshal_stake(obs, 0) * risk > scout


def test_our_known_marshal_takes_the_scout_when_their_spy_is_gone():
    """The same Scout with their Spy lost: nothing can take the Marshal, so
    it is taken."""
    obs = prize_position("9", e6="5").observation(0)
    for seed in range(4):
        bot = make_bot(5, seed, None)
        assert spy_risk(obs, 0, TAKE, sq("E4"), bot.last_marginals) == 0.0
        assert bot.choose(obs, 0) == TAKE


def test_our_known_marshal_takes_a_general_even_by_a_possible_spy():
    """A prize worth the risk: their revealed General, beside the same
    possible Spy, is taken."""
    obs = prize_position("2").observation(0)
    for seed in range(4):
        bot = make_bot(5, seed, None)
        assert bot.choose(obs, 0) == TAKE
        marg = bot.last_marginals
        assert marg is not None
        stake = marshal_stake(obs, 0) * spy_risk(obs, 0, TAKE, sq("E4"), bot.last_marginals)
        assert stake < piece_values(list(counts(obs, 0)))[1][R_OF["2"]]


def walk_position() -> StrategoState:
    """Our revealed Marshal on E3; five moved hidden pieces of theirs far
    from it, the Spy on E8 among them."""
    s = position({"A1": (0, "F"), "E3": (0, "1"), "J1": (0, "7"), "E8": (1, "S"), "B9": (1, "5"),
                  "H9": (1, "7"), "A8": (1, "6"), "C9": (1, "9"), "J10": (1, "F"), "I10": (1, "B"),
                  "J9": (1, "B")})
    s.board[sq("E3")] = s.board[sq("E3")]._replace(revealed=True, moved=True)
    for name in ("J1", "E8", "B9", "H9", "A8", "C9"):
        s.board[sq(name)] = s.board[sq(name)]._replace(moved=True)
    with_losses(s)
    s.turn = 1
    return s


def spy_odds(s: StrategoState, name: str) -> float:
    return Belief(s.observation(0), 0).marginals(random.Random(2), 800).p(sq(name), "S")


def test_each_step_towards_our_marshal_makes_the_walker_likelier_the_spy():
    """A piece that keeps walking up to our revealed Marshal is likelier the
    Spy with each step seen, and more than the pieces that stayed away."""
    s = walk_position()
    odds = [spy_odds(s, "E8")]
    for frm, to, ours in (("E8", "E7", ("J1", "J2")), ("E7", "E6", ("J2", "J3")),
                          ("E6", "E5", ("J3", "J4"))):
        s.apply(1, Move(sq(frm), sq(to)))
        odds.append(spy_odds(s, to))
        s.apply(0, Move(sq(ours[0]), sq(ours[1])))
    assert odds[0] < odds[2] < odds[3]
    assert odds[3] > 2.5 * spy_odds(s, "B9")


def test_a_piece_that_let_our_marshal_be_is_cleared_after_it_walks_off():
    """E4 stood next to our revealed Marshal through a turn of theirs and did
    not strike it, then walked off: still hardly the Spy, turns later."""
    s = walk_position()
    s.board[sq("E4")], s.board[sq("B9")] = s.board[sq("B9")], s.board[sq("E8")]   # a Captain by E3
    s.board[sq("E8")] = None                                                     # the Spy far off
    s.apply(1, Move(sq("H9"), sq("H8")))      # E4 lets our Marshal be
    s.apply(0, Move(sq("J1"), sq("J2")))
    s.apply(1, Move(sq("E4"), sq("F4")))      # and walks off
    s.apply(0, Move(sq("J2"), sq("J3")))
    s.apply(1, Move(sq("F4"), sq("G4")))
    s.apply(0, Move(sq("J3"), sq("J4")))
    assert spy_odds(s, "G4") < 0.4 * spy_odds(s, "B9")
