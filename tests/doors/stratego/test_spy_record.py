"""The game-long record of each enemy piece (``record.tracks``) and what
the Spy risk makes of it: a piece that walked up to our shown Marshal
stays suspected however long ago that was; a piece that never did is
not feared more for standing where our Marshal goes."""
from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from doors.stratego.ai import make_bot
from doors.stratego.belief import Belief
from doors.stratego.observation import StrategoObservation
from doors.stratego.pieces import NEIGHBOURS, Move
from doors.stratego.record import FEINT_MAX, FEINT_RANKS, NEAR, Track
from doors.stratego.root import spy_risk
from doors.stratego.rules import StrategoState

from .helpers import position, sq, started, with_losses

TAKE = Move(sq("E4"), sq("E5"))
# loops far from the Marshal: ours up the J file and down the I file, theirs
# down the A file and up the B file
PAD_OURS = ("J1", "J2", "J3", "J4", "I4", "I3", "I2", "I1")
PAD_THEIRS = ("A8", "A7", "A6", "A5", "B5", "B6", "B7", "B8")


def far(a: int, b: int) -> int:
    return abs(a % 10 - b % 10) + abs(a // 10 - b // 10)


def waiting_position(walked: bool, decoy: bool = False) -> StrategoState:
    """Our shown Marshal on E4 may take their shown Colonel on E5, which puts
    it next to E6, a moved hidden piece of theirs (one of eight), sitting
    there for the last 48 plies. ``walked``: it came to E6 by two steps of
    its own towards our Marshal (E8-E7-E6), before those 48 plies; else it
    stood there from the start. ``decoy``: then another piece of theirs
    walked up to our Marshal too (A4-B4-C4) and our Lieutenant took it: a
    Sergeant."""
    s = position({"A1": (0, "F"), "B1": (0, "B"), "A2": (0, "B"), "E4": (0, "1"), "J1": (0, "7"),
                  "C1": (0, "6"), "E5": (1, "3"), "E8" if walked else "E6": (1, "S"), "B9": (1, "5"),
                  "H7": (1, "7"), "A8": (1, "6"), "C8": (1, "8"), "H8": (1, "9"), "G8": (1, "6"),
                  "D9": (1, "7"), "J10": (1, "F"), "I10": (1, "B"), "J9": (1, "B"), "F1": (0, "5"),
                  **({"A4": (1, "7")} if decoy else {})}, turn=1)
    for name in ("E4", "E5"):
        s.board[sq(name)] = s.board[sq(name)]._replace(revealed=True, moved=True)
    for name in ("J1", "C1", "E8" if walked else "E6", "B9", "H7", "A8", "C8", "H8", "G8", "D9",
                 *(("A4",) if decoy else ())):
        s.board[sq(name)] = s.board[sq(name)]._replace(moved=True)
    with_losses(s)
    if walked:
        s.apply(1, Move(sq("E8"), sq("E7")))
        s.apply(0, Move(sq("C1"), sq("C2")))
        s.apply(1, Move(sq("E7"), sq("E6")))
        s.apply(0, Move(sq("C2"), sq("C3")))
    if decoy:
        s.apply(1, Move(sq("A4"), sq("B4")))
        s.apply(0, Move(sq("F1"), sq("F2")))
        s.apply(1, Move(sq("B4"), sq("C4")))
        s.apply(0, Move(sq("C3"), sq("C4")))     # the Lieutenant takes the Sergeant
    n = len(PAD_OURS)
    for i in range(2 * n + n - 1):      # twice round the loops, then on to I1 and B8
        s.apply(1, Move(sq(PAD_THEIRS[i % n]), sq(PAD_THEIRS[(i + 1) % n])))
        s.apply(0, Move(sq(PAD_OURS[i % n]), sq(PAD_OURS[(i + 1) % n])))
    s.apply(1, Move(sq("H8"), sq("H9")))
    return s


def test_a_piece_that_walked_up_long_ago_is_remembered():
    obs = waiting_position(True).observation(0)
    assert (1, sq("E7"), sq("E6")) not in obs.moves     # the walk is out of the last moves
    assert obs.track(sq("E6")) == Track(still=48, walked=2, passed=False, waited=48 // 2)
    assert obs.track(sq("B8")).walked == 0


def test_our_marshal_does_not_step_beside_a_piece_that_walked_up_to_it():
    """The Colonel is worth the Marshal's risk beside one of eight possible
    Spies, not beside the one that walked up to it: the Marshal leaves it."""
    obs = waiting_position(True).observation(0)
    for seed in range(3):
        bot = make_bot(5, seed, None)
        assert bot.choose(obs, 0) != TAKE
        assert spy_risk(obs, 0, TAKE, sq("E4"), bot.last_marginals) > 0.4


def test_our_marshal_takes_the_colonel_beside_a_piece_that_never_walked_up():
    """The same piece on the same square, there from the start: it is one
    of eight moved pieces, and the Colonel is taken."""
    obs = waiting_position(False).observation(0)
    assert obs.track(sq("E6")).walked == 0
    for seed in range(3):
        bot = make_bot(5, seed, None)
        assert bot.choose(obs, 0) == TAKE
        assert spy_risk(obs, 0, TAKE, sq("E4"), bot.last_marginals) < 0.25


def test_a_walk_up_counts_less_once_their_walkers_were_not_the_spy():
    """This side sent another piece up to our Marshal, and it was a
    Sergeant: walking up tells less about its Spy, though still something."""
    odds = []
    for decoy in (False, True):
        obs = waiting_position(True, decoy).observation(0)
        odds.append(spy_odds(obs, "E6"))
        far_off = spy_odds(obs, "B8")
    assert obs.walkers == ("7",)
    assert far_off < odds[1] < 0.75 * odds[0]


def spy_odds(obs: StrategoObservation, name: str) -> float:
    return Belief(obs, 0).marginals(random.Random(2), 800).p(sq(name), "S")


# ----- the record against one kept move by move --------------------------------

class Forward:
    """The record kept as the game goes, from the true board: every piece
    has an identity, followed square by square."""

    def __init__(self, state: StrategoState, viewer: int):
        self.viewer = viewer
        self.ident = {s: s for s, p in enumerate(state.board) if p is not None}
        self.rank = {s: p.rank for s, p in enumerate(state.board) if p is not None}
        self.last: dict[int, int] = {}
        self.walked: dict[int, int] = {}
        self.waited: dict[int, int] = {}
        self.passed: set[int] = set()
        self.hidden_walk: set[int] = set()   # walked up to our Marshal while hidden
        self.feints: dict[tuple[int, int], int] = {}    # (their piece, our officer) -> charges broken off
        self.approached: dict[int, set[int]] = {}       # their piece -> our officers its move ended beside

    def officers(self, state: StrategoState) -> list[int]:
        """The squares of our shown officers that a charge counts for."""
        return [s for s, p in enumerate(state.board) if p is not None and p.owner == self.viewer
                and p.revealed and p.rank in FEINT_RANKS]

    def broke_off(self, piece: int, officer: int) -> None:
        self.feints[piece, officer] = self.feints.get((piece, officer), 0) + 1

    def before(self, state: StrategoState, player: int, m: Move) -> None:
        """Note what the enemy's pieces do about our shown Marshal at their move ``m``."""
        me = self.viewer
        if player == me:
            return
        self.last[self.ident[m.frm]] = state.ply + 1
        officers = self.officers(state)
        at = {self.ident[s]: s for s in officers}
        mover = self.ident[m.frm]
        for officer in self.approached.pop(mover, ()):
            if officer in at and far(m.frm, at[officer]) == 2 and far(m.to, at[officer]) > 1:
                self.broke_off(mover, officer)      # it came up, we stepped off, it went away
        marshal = next((s for s, p in enumerate(state.board) if p is not None and p.owner == me
                        and p.rank == "1" and p.revealed), None)
        if marshal is None:
            return
        for s, p in enumerate(state.board):
            if p is None or p.owner == me:
                continue
            piece = self.ident[s]
            if s in NEIGHBOURS[marshal] and not (s == m.frm and m.to == marshal):
                self.passed.add(piece)
            if far(s, marshal) == 2 and s != m.frm:
                self.waited[piece] = self.waited.get(piece, 0) + 1
        if m.to != marshal and far(m.to, marshal) < far(m.frm, marshal) and far(m.to, marshal) <= NEAR:
            piece = self.ident[m.frm]
            self.walked[piece] = self.walked.get(piece, 0) + 1
            if not state.board[m.frm].revealed:
                self.hidden_walk.add(piece)

    def after(self, state: StrategoState, m: Move) -> None:
        mover = self.ident.pop(m.frm)
        st = state.last_strike
        if st is None or st.ply != state.ply or st.attacker_survived:
            self.ident[m.to] = mover            # moved, or struck and won
            if state.board[m.to].owner != self.viewer:
                self.approached[mover] = {self.ident[s] for s in self.officers(state)
                                          if s in NEIGHBOURS[m.to]}
        elif not st.defender_survived:
            del self.ident[m.to]                # both gone

    def walkers(self, state: StrategoState) -> tuple[str, ...]:
        """The ranks of the pieces that walked up while hidden and are shown:
        lost, or revealed on the board."""
        me = self.viewer
        if not any(p is not None and p.owner == me and p.rank == "1" and p.revealed for p in state.board):
            return ()
        live = {self.ident[s]: p.revealed for s, p in enumerate(state.board) if p is not None and p.owner != me}
        return tuple(sorted(self.rank[piece] for piece in self.hidden_walk if live.get(piece, True)))

    def feints_of(self, state: StrategoState, piece: int) -> tuple[tuple[str, int], ...]:
        by_rank: dict[str, int] = {}
        for s in self.officers(state):
            times = min(FEINT_MAX, self.feints.get((piece, self.ident[s]), 0))
            if times:
                by_rank[self.rank[self.ident[s]]] = by_rank.get(self.rank[self.ident[s]], 0) + times
        return tuple(sorted(by_rank.items()))

    def record(self, state: StrategoState) -> dict[int, Track]:
        me = self.viewer
        alive = any(p is not None and p.owner == me and p.rank == "1" and p.revealed for p in state.board)
        out = {}
        for s, p in enumerate(state.board):
            if p is None or p.owner == me:
                continue
            piece = self.ident[s]
            if alive:
                out[s] = Track(state.ply - self.last.get(piece, 0), self.walked.get(piece, 0),
                               piece in self.passed, self.waited.get(piece, 0), self.feints_of(state, piece))
            else:
                out[s] = Track(state.ply - self.last.get(piece, 0), feints=self.feints_of(state, piece))
        return out


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**9), viewer=st.sampled_from([0, 1]), plies=st.integers(1, 200))
def test_the_record_from_the_whole_history_is_the_one_kept_move_by_move(seed, viewer, plies):
    """Random games (strikes favoured, so Marshals get shown): after every
    move, the record that the observation rebuilds from the public moves
    equals the one kept from the true board as the game went."""
    state = started(seed)
    rng = random.Random(seed)
    keep = Forward(state, viewer)
    for _ in range(plies):
        if state.outcome() is not None:
            break
        player = state.turn
        legal = [m for m in state.legal_actions(player) if isinstance(m, Move)]
        strikes = [m for m in legal if state.board[m.to] is not None]
        m = rng.choice(strikes if strikes and rng.random() < 0.5 else legal)
        keep.before(state, player, m)
        state.apply(player, m)
        keep.after(state, m)
        if state.outcome() is None:
            obs = state.observation(viewer)
            assert dict(obs.tracks) == keep.record(state)
            assert obs.walkers == keep.walkers(state)
