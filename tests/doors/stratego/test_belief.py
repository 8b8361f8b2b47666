"""The belief over the hidden enemy army, and the risk rules built on it."""
from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from doors.stratego.ai import RISK_BOMB, StrategoBot
from doors.stratego.belief import R_OF, Belief
from doors.stratego.observation import StrategoObservation
from doors.stratego.pieces import Move
from doors.stratego.root import QUIET, marshal_stake, spy_risk
from doors.stratego.rules import StrategoState, Strike
from doors.stratego.values import VALUE

from .helpers import position, sq, started, with_losses


def make_bot(level: int, seed: int) -> StrategoBot:
    """A bot bounded by its node budget alone: its choice is the same on a
    loaded machine (the time cap, a safety net in play, would cut samples)."""
    return StrategoBot(level, seed, time_cap=None)


def moved(state: StrategoState, name: str) -> None:
    state.board[sq(name)] = state.board[sq(name)]._replace(moved=True)


def played(seed: int, plies: int) -> StrategoState:
    state = started(seed)
    rng = random.Random(seed)
    bots = {0: make_bot(2, seed), 1: make_bot(2, seed + 1)}
    while state.ply < plies and state.outcome() is None:
        p = state.turn
        state.apply(p, bots[p].choose(state.observation(p), p) if rng.random() < 0.6
                    else rng.choice(state.legal_actions()))
    return state


def test_a_piece_that_moved_is_never_a_bomb_or_the_flag():
    checked = 0
    for seed in range(12):
        state = played(seed, 80)
        obs = state.observation(0)
        belief = Belief(obs, 0)
        if not belief.moved:
            continue        # no hidden enemy piece that moved in this game
        checked += 1
        if checked > 3:
            break
        for k in range(40):
            sample = belief.sample(random.Random(k))
            assert sorted(sample) == sorted(obs.hidden_squares(1))
            for s in belief.moved:
                assert sample[s] not in ("B", "F")
        marg = belief.marginals(random.Random(seed), 200)
        for s in belief.moved:
            assert marg.bomb(s) == 0.0 and marg.flag(s) == 0.0
    assert checked >= 3, "games with hidden enemy pieces that moved"


def corner_position() -> StrategoState:
    """Blue's unmoved pieces: a bombed-in corner (A10 flag, A9 and B10
    bombs), a lone piece F9, a few more unmoved pieces; two moved pieces."""
    s = position({"A1": (0, "F"), "E2": (0, "1"), "J1": (0, "8"),
                  "A10": (1, "F"), "A9": (1, "B"), "B10": (1, "B"), "F9": (1, "B"),
                  "J10": (1, "3"), "E7": (1, "5"), "G7": (1, "9"), "C8": (1, "6"),
                  "D8": (1, "7"), "G8": (1, "4"), "H8": (1, "5"), "I8": (1, "6"),
                  "E10": (1, "7")})
    moved(s, "E7")
    moved(s, "G7")
    return with_losses(s)


def test_bombs_are_sampled_around_the_flag():
    obs = corner_position().observation(0)
    belief = Belief(obs, 0)
    rng = random.Random(3)
    together = apart = flag_a10 = 0
    for _ in range(2000):
        sample = belief.sample(rng)
        if sample[sq("A10")] == "F":
            flag_a10 += 1
            together += sample[sq("A9")] == "B"
        elif sample[sq("J10")] == "F" or sample[sq("F9")] == "F":
            apart += sample[sq("A9")] == "B"
    assert flag_a10 > 200
    others = 2000 - flag_a10
    # given the flag on A10 its neighbour A9 is a bomb far more often
    assert together / flag_a10 > 1.5 * apart / max(1, others)


def test_an_unmoved_piece_next_to_a_likely_flag_is_a_likelier_bomb():
    obs = corner_position().observation(0)
    marg = Belief(obs, 0).marginals(random.Random(5), 600)
    # the bombed-in corner is the likeliest flag, its neighbours likely bombs
    assert marg.flag(sq("A10")) > marg.flag(sq("F9"))
    assert marg.bomb(sq("A9")) > marg.bomb(sq("F9")) + 0.1
    assert marg.bomb(sq("B10")) > marg.bomb(sq("F9")) + 0.1


def test_deductions_after_a_strike():
    s = position({"A1": (0, "F"), "B9": (0, "9"), "D1": (0, "2"),
                  "A10": (1, "F"), "B10": (1, "B"), "C10": (1, "B"), "E10": (1, "B"),
                  "F10": (1, "2"), "G10": (1, "4"), "J9": (1, "5")})
    moved(s, "J9")
    with_losses(s)
    before = Belief(s.observation(0), 0).marginals(random.Random(1), 600)
    # the scout strikes B10: a bomb, now revealed for the rest of the game
    s.apply(0, Move(sq("B9"), sq("B10")))
    obs = s.observation(0)
    assert obs.squares[sq("B10")].rank == "B"
    belief = Belief(obs, 0)
    assert sq("B10") not in belief.hidden
    after = belief.marginals(random.Random(1), 600)
    # one bomb fewer among the hidden pieces ...
    assert belief.n_bomb == 2
    hidden_bombs = sum(after.bomb(x) for x in belief.hidden)
    assert abs(hidden_bombs - 2.0) < 1e-9
    # ... and the unmoved piece beside the revealed bomb is a likelier flag
    assert after.flag(sq("A10")) > before.flag(sq("A10")) + 0.05


def test_a_rank_shown_by_a_strike_is_never_guessed_elsewhere():
    s = position({"A1": (0, "F"), "F8": (0, "9"), "B2": (0, "5"),
                  "A10": (1, "F"), "F10": (1, "2"), "G10": (1, "B"), "J9": (1, "5"), "C7": (1, "9")})
    moved(s, "J9")
    with_losses(s)
    assert Belief(s.observation(0), 0).marginals(random.Random(2), 300).p(sq("F10"), "2") > 0
    s.apply(0, Move(sq("F8"), sq("F10")))      # our scout runs into their general
    obs = s.observation(0)
    assert obs.squares[sq("F10")].rank == "2" and obs.squares[sq("F8")] is None
    marg = Belief(obs, 0).marginals(random.Random(2), 300)
    assert all(marg.p(x, "2") == 0.0 for x in obs.hidden_squares(1))
    assert sum(marg.p(x, "5") for x in obs.hidden_squares(1)) > 0.99


def test_a_piece_that_walks_up_to_our_general_is_likely_the_marshal():
    s = position({"A1": (0, "F"), "E5": (0, "2"), "J1": (0, "7"),
                  "E8": (1, "1"), "B9": (1, "5"), "H9": (1, "7"), "J10": (1, "F"), "A8": (1, "6"),
                  "I10": (1, "B"), "J9": (1, "B")})
    s.board[sq("E5")] = s.board[sq("E5")]._replace(revealed=True, moved=True)
    moved(s, "B9")
    moved(s, "H9")
    moved(s, "A8")
    with_losses(s)
    s.turn = 1
    before = Belief(s.observation(0), 0).marginals(random.Random(4), 400).p(sq("E8"), "1")
    s.apply(1, Move(sq("E8"), sq("E7")))
    s.apply(0, Move(sq("J1"), sq("J2")))
    s.apply(1, Move(sq("E7"), sq("E6")))      # now next to our revealed general
    obs = s.observation(0)
    marg = Belief(obs, 0).marginals(random.Random(4), 400)
    assert before < 0.3
    assert marg.p(sq("E6"), "1") > 0.5
    # and the general does not wait for it
    for seed in range(2):
        move = make_bot(5, seed).choose(obs, 0)
        assert move.frm == sq("E5") and move.to != sq("E6")


def test_a_piece_that_closes_to_two_steps_of_our_general_is_likely_the_marshal():
    """A hunter walks up to a known piece to take it: a hidden piece whose
    step brings it to two steps of our revealed General is likely their
    Marshal, before it stands next to it; one that steps away is not."""
    s = position({"A1": (0, "F"), "E4": (0, "2"), "J1": (0, "7"),
                  "E8": (1, "1"), "B9": (1, "5"), "H7": (1, "7"), "J10": (1, "F"), "A8": (1, "6"),
                  "I10": (1, "B"), "J9": (1, "B")})
    s.board[sq("E4")] = s.board[sq("E4")]._replace(revealed=True, moved=True)
    for name in ("B9", "H7", "A8", "E8"):
        moved(s, name)
    with_losses(s)
    s.turn = 1

    def marshal(name):
        return Belief(s.observation(0), 0).marginals(random.Random(4), 400).p(sq(name), "1")

    before = marshal("E8")
    s.apply(1, Move(sq("E8"), sq("E7")))
    s.apply(0, Move(sq("J1"), sq("J2")))
    s.apply(1, Move(sq("E7"), sq("E6")))      # two steps from our General
    assert before < 0.3
    assert marshal("E6") > 0.5
    s.apply(0, Move(sq("J2"), sq("J1")))
    s.apply(1, Move(sq("E6"), sq("F6")))      # no nearer: three steps
    assert marshal("F6") < 0.3


def test_a_piece_that_walks_up_to_a_hidden_one_is_likelier_an_officer():
    s = position({"A1": (0, "F"), "E5": (0, "7"), "J1": (0, "7"),
                  "E8": (1, "3"), "B9": (1, "5"), "H9": (1, "7"), "J10": (1, "F"), "A8": (1, "6"),
                  "I10": (1, "B"), "J9": (1, "B"), "C9": (1, "9"), "D9": (1, "8")})
    for name in ("E8", "B9", "H9", "A8", "C9", "D9"):
        moved(s, name)
    with_losses(s)
    s.turn = 1

    def officer(obs):
        marg = Belief(obs, 0).marginals(random.Random(6), 400)
        return sum(marg.p(x, r) for r in "123" for x in obs.hidden_squares(1)
                   if obs.squares[x].moved and x in (sq("E8"), sq("E6")))

    before = officer(s.observation(0))
    s.apply(1, Move(sq("E8"), sq("E7")))
    s.apply(0, Move(sq("J1"), sq("J2")))
    s.apply(1, Move(sq("E7"), sq("E6")))      # next to our hidden sergeant
    assert officer(s.observation(0)) > before + 0.1


def risky_positions():
    """Positions where our Marshal or General stands next to unmoved hidden
    pieces near the enemy's back rows (a flag may be there)."""
    yield position({"A1": (0, "F"), "B1": (0, "B"), "A2": (0, "B"), "E9": (0, "1"),
                    "C2": (0, "5"), "D10": (1, "B"), "E10": (1, "B"), "F10": (1, "F"),
                    "A7": (1, "B"), "J7": (1, "B"), "J1": (0, "8"), "G9": (1, "B"),
                    "B7": (1, "6"), "H8": (1, "4")})
    yield position({"A1": (0, "F"), "F8": (0, "2"), "E8": (0, "1"), "C1": (0, "9"),
                    "E9": (1, "B"), "F9": (1, "B"), "E10": (1, "F"), "D9": (1, "B"),
                    "A10": (1, "8"), "J10": (1, "7"), "J7": (1, "B"), "A7": (1, "3")})


def test_level5_officers_never_strike_a_likely_bomb():
    """The risk rule: at level 5 the Marshal and the General never strike an
    unmoved hidden piece whose bomb odds pass RISK_BOMB (10 %), unless the
    strike surely takes the flag."""
    checked = 0
    for k, state in enumerate(risky_positions()):
        with_losses(state)
        obs = state.observation(0)
        for seed in range(4):
            bot = make_bot(5, seed)
            move = bot.choose(obs, 0)
            assert state.why_illegal(0, move) is None
            marg = bot.last_marginals
            target = obs.squares[move.to]
            if target is not None and target.rank is None and obs.squares[move.frm].rank in "12" \
                    and not target.moved:
                assert marg.bomb(move.to) <= RISK_BOMB, (k, seed, move)
            # the rule had something to refuse
            near = [n for n in obs.hidden_squares(1) if not obs.squares[n].moved
                    and marg.bomb(n) > RISK_BOMB
                    and any(obs.squares[f] is not None and obs.squares[f].rank in ("1", "2")
                            and obs.squares[f].owner == 0 for f in _neighbours(n))]
            assert near
            checked += 1
    assert checked == 8


def _neighbours(s: int) -> list[int]:
    from doors.stratego.pieces import NEIGHBOURS
    return list(NEIGHBOURS[s])


def test_the_marshal_takes_a_certain_flag():
    """Unless it wins the game: the only unmoved enemy piece left, with
    every bomb gone, is surely the flag, and the Marshal takes it."""
    s = position({"A1": (0, "F"), "E9": (0, "1"), "E10": (1, "F"), "A7": (1, "4"),
                  "J8": (1, "5"), "B1": (0, "9")})
    moved(s, "A7")
    moved(s, "J8")
    with_losses(s)
    for seed in range(2):
        assert make_bot(5, seed).choose(s.observation(0), 0) == Move(sq("E9"), sq("E10"))


def test_no_known_losing_strike_while_another_move_exists():
    """Our last mobile piece next to a revealed bomb does not strike it."""
    s = position({"A1": (0, "F"), "B1": (0, "B"), "A2": (0, "B"), "E5": (0, "7"),
                  "E6": (1, "B"), "J10": (1, "F"), "A10": (1, "4")})
    s.board[sq("E6")] = s.board[sq("E6")]._replace(revealed=True)
    moved(s, "A10")
    with_losses(s)
    for level in (3, 4, 5):
        for seed in range(3):
            move = make_bot(level, seed).choose(s.observation(0), 0)
            assert move != Move(sq("E5"), sq("E6"))


def test_an_intruder_next_to_our_flag_is_struck():
    """An unknown piece that reached our flag's side is answered by the one
    piece that can strike it, even when every line looks bad."""
    s = position({"A1": (0, "F"), "B1": (0, "B"), "B2": (0, "4"), "J2": (0, "6"),
                  "A2": (1, "8"), "J10": (1, "F"), "H10": (1, "B"), "E8": (1, "5")})
    moved(s, "A2")
    moved(s, "E8")
    with_losses(s)
    for seed in range(3):
        assert make_bot(5, seed).choose(s.observation(0), 0) == Move(sq("B2"), sq("A2"))


def test_a_defender_heads_for_a_miner_at_the_bomb_wall():
    """Defence: an enemy Miner (revealed) works at our bomb wall; a piece
    of ours that beats it (the far Marshal or the Sergeant) heads for it."""
    from doors.stratego.search import bfs
    s = position({"A1": (0, "F"), "A2": (0, "B"), "B1": (0, "B"), "H8": (0, "1"),
                  "J1": (0, "7"), "C2": (1, "8"), "J10": (1, "F"), "I10": (1, "B"), "J9": (1, "B"),
                  "E10": (1, "4")})
    s.board[sq("C2")] = s.board[sq("C2")]._replace(revealed=True, moved=True)
    moved(s, "E10")
    with_losses(s)
    home = bfs([sq("C2")])
    for seed in range(3):
        move = make_bot(5, seed).choose(s.observation(0), 0)
        assert move.frm in (sq("H8"), sq("J1")) and home[move.to] < home[move.frm], move
    # without the Sergeant, the far Marshal comes home
    s.board[sq("J1")] = s.board[sq("J1")]._replace(rank="B")
    with_losses(s)
    for seed in range(3):
        move = make_bot(5, seed).choose(s.observation(0), 0)
        assert move.frm == sq("H8") and home[move.to] < home[move.frm], move


def spy_position() -> StrategoState:
    """Blue's Spy still hidden among unmoved pieces in its front row (row 7)
    and its back rows; our revealed Marshal in the middle."""
    s = position({"A1": (0, "F"), "B1": (0, "B"), "E5": (0, "1"), "J1": (0, "8"),
                  "B7": (1, "S"), "C7": (1, "6"), "H7": (1, "5"), "I7": (1, "4"),
                  "B10": (1, "7"), "C10": (1, "8"), "H10": (1, "9"), "I10": (1, "F")})
    s.board[sq("E5")] = s.board[sq("E5")]._replace(revealed=True, moved=True)
    return with_losses(s)


def test_the_spy_is_looked_for_in_the_front_rows():
    obs = spy_position().observation(0)
    marg = Belief(obs, 0).marginals(random.Random(3), 600)
    front = [sq(n) for n in ("B7", "C7", "H7", "I7")]
    back = [sq(n) for n in ("B10", "C10", "H10")]
    assert min(marg.p(x, "S") for x in front) > 2 * max(marg.p(x, "S") for x in back)
    assert abs(sum(marg.p(x, "S") for x in obs.hidden_squares(1)) - 1.0) < 1e-9


def test_a_piece_that_let_our_marshal_be_is_hardly_the_spy():
    """Our revealed Marshal stood next to B7 through Blue's turn and B7 did
    not strike it: B7 is now far less likely the Spy than C7."""
    s = spy_position()
    s.apply(0, Move(sq("E5"), sq("E6")))
    s.apply(1, Move(sq("I7"), sq("I6")))
    s.apply(0, Move(sq("E6"), sq("E7")))
    s.apply(1, Move(sq("I6"), sq("I5")))
    s.apply(0, Move(sq("E7"), sq("D7")))     # next to C7, not to B7
    s.apply(1, Move(sq("I5"), sq("I4")))
    s.apply(0, Move(sq("J1"), sq("J2")))     # the Marshal stays by C7
    s.apply(1, Move(sq("I4"), sq("I3")))
    obs = s.observation(0)
    marg = Belief(obs, 0).marginals(random.Random(5), 600)
    assert marg.p(sq("C7"), "S") < 0.5 * marg.p(sq("B7"), "S")


def pocket_position(their_e10: str) -> StrategoState:
    """Our General E8 may take their revealed Miner E9, a square walled in
    by hidden enemy pieces (D9, F9, E10): E10 is ``their_e10``."""
    s = position({"A1": (0, "F"), "E8": (0, "2"), "D9": (1, "6"), "F9": (1, "6"), "E10": (1, their_e10),
                  "J10": (1, "F"), "A10": (1, "9"), "E9": (1, "8")})
    s.board[sq("E9")] = s.board[sq("E9")]._replace(revealed=True, moved=True)
    return with_losses(s)


def test_an_officer_shuns_a_pocket_of_hidden_pieces():
    """The pocket rule: while one of the hidden pieces around a square may
    beat our General (their Marshal is among them), the General does not
    step in there, not even to take a Miner; once none can, it takes it."""
    take = Move(sq("E8"), sq("E9"))
    for seed in range(3):
        assert make_bot(5, seed).choose(pocket_position("1").observation(0), 0) != take
        assert make_bot(5, seed).choose(pocket_position("5").observation(0), 0) == take


def trade_position(our_general: bool) -> StrategoState:
    """Our revealed Marshal faces theirs; they keep their General and we
    keep ours or not."""
    pieces = {"A1": (0, "F"), "B1": (0, "B"), "A2": (0, "B"), "E5": (0, "1"), "J1": (0, "6"),
              "E6": (1, "1"), "B9": (1, "2"), "J10": (1, "F"), "I10": (1, "B"), "J9": (1, "B"),
              "A9": (1, "6")}
    if our_general:
        pieces["C1"] = (0, "2")
    s = position(pieces)
    for name in ("E5", "E6"):
        s.board[sq(name)] = s.board[sq(name)]._replace(revealed=True, moved=True)
    moved(s, "B9")
    moved(s, "A9")
    return with_losses(s)


def test_marshals_are_traded_only_when_it_leaves_us_no_weaker():
    from doors.stratego.search import trade_ok

    def army(**ranks: int) -> list[int]:
        """Pieces left by rank ("1": Marshal ... ), as the trade rule counts them."""
        counts = [0] * 12
        for rank, n in ranks.items():
            counts[R_OF[rank.removeprefix("r")]] = n
        return counts

    both, no_general = army(r1=1, r2=1), army(r1=1)
    marshal, general = R_OF["1"], R_OF["2"]
    assert trade_ok(both, both, marshal) and trade_ok(both, no_general, marshal)
    assert not trade_ok(no_general, both, marshal)
    # their General on the loose (our Marshal gone): traded off, though
    # they keep more Majors, while we keep a Colonel as strong as theirs
    assert trade_ok(army(r2=1, r3=2), army(r2=1, r3=2, r4=2), general)
    assert not trade_ok(army(r2=1), army(r2=1, r3=2, r4=2), general)     # their Colonels would be on top
    # not on the loose: our Marshal beats it
    assert not trade_ok(army(r1=1, r2=1), army(r1=1, r2=1, r3=2, r4=2), general)
    strike = Move(sq("E5"), sq("E6"))
    for seed in range(3):
        assert make_bot(5, seed).choose(trade_position(True).observation(0), 0) == strike
        assert make_bot(5, seed).choose(trade_position(False).observation(0), 0) != strike


def bait_position() -> StrategoState:
    """Our revealed Marshal E5 may take their revealed Captain F5, next to
    their revealed Marshal G5; they keep their General and we have none."""
    s = position({"A1": (0, "F"), "B1": (0, "B"), "A2": (0, "B"), "E5": (0, "1"), "J1": (0, "6"),
                  "I1": (0, "7"), "F5": (1, "6"), "G5": (1, "1"), "B9": (1, "2"), "J10": (1, "F"),
                  "I10": (1, "B"), "J9": (1, "B"), "A9": (1, "6")})
    for name in ("E5", "F5", "G5"):
        s.board[sq(name)] = s.board[sq(name)]._replace(revealed=True, moved=True)
    for name in ("B9", "A9", "J1", "I1"):
        moved(s, name)
    return with_losses(s)


def test_the_marshal_is_not_traded_for_a_captain_when_their_general_would_rule():
    """Taking the Captain puts our Marshal next to theirs, which trades it
    off: then their General is the strongest piece left and nothing of ours
    can stop it. The search counts that (``top_bonus``) and leaves the bait."""
    take = Move(sq("E5"), sq("F5"))
    for seed in range(3):
        assert make_bot(5, seed).choose(bait_position().observation(0), 0) != take


def test_the_top_bonus_is_kept_through_strikes_and_undone():
    """A Marshal trade in the search hands their General the top bonus; the
    search's running bonus is always what the board left counts, and all of
    it comes back when the line is undone."""
    from doors.stratego.search import Search
    from doors.stratego.tables import rank_counts
    from doors.stratego.values import TOP, top_bonus
    cells = race_cells(bait_position())

    def counted(board: list[int]) -> float:
        return top_bonus(rank_counts(board), 0)

    search = Search(list(cells), 0, 2, True, frozenset({sq("E5"), sq("F5"), sq("G5")}))
    start, top = search.score, search.top
    assert top == counted(cells) == 0.0
    done = []
    for a, b in (("E5", "F5"), ("G5", "F5")):
        s_, t_ = sq(a), sq(b)
        before = search.b[s_], search.b[t_]
        done.append((s_, t_, *before, search.play(s_, t_)))
    assert search.b[sq("F5")] == -1                       # the Marshals traded
    assert search.top == counted(search.b) == -TOP[9]     # their General rules
    for s_, t_, a, d, delta in reversed(done):
        search.unplay(s_, t_, a, d, delta)
    assert search.b == cells and abs(search.score - start) < 1e-9 and search.top == top


def spy_bait_position() -> StrategoState:
    """Our revealed Marshal E5 may take their revealed Captain E6, next to
    their unmoved E7 (their Spy, one of many unmoved front-row pieces)."""
    s = position({"A1": (0, "F"), "B1": (0, "B"), "A2": (0, "B"), "E5": (0, "1"), "J1": (0, "6"),
                  "I1": (0, "7"), "E6": (1, "6"), "E7": (1, "S"), "D8": (1, "4"), "A9": (1, "5"),
                  "B8": (1, "9"), "J10": (1, "F"), "I10": (1, "B"), "J9": (1, "B"), "H8": (1, "8"),
                  "A7": (1, "7"), "B7": (1, "8"), "H7": (1, "9"), "I7": (1, "7"), "C8": (1, "8"),
                  "G8": (1, "7")})
    for name in ("E5", "E6"):
        s.board[sq(name)] = s.board[sq(name)]._replace(revealed=True, moved=True)
    for name in ("J1", "I1", "A9", "B8"):
        moved(s, name)
    return with_losses(s)


def test_our_known_marshal_does_not_step_next_to_a_likely_spy_for_a_captain():
    """E7 is the Spy in about one sample in eight: a few samples may miss
    it. The Spy's odds next to where our Marshal stands, times what the
    Marshal is worth in play, weigh every move, so the Captain is left."""
    obs = spy_bait_position().observation(0)
    take = Move(sq("E5"), sq("E6"))
    for seed in range(8):
        bot = make_bot(5, seed)
        assert bot.choose(obs, 0) != take
        marg = bot.last_marginals
        assert marg is not None and 0.05 < marg.p(sq("E7"), "S") < 0.3
        assert spy_risk(obs, 0, take, sq("E5"), bot.last_marginals) == marg.p(sq("E7"), "S")
        assert spy_risk(obs, 0, Move(sq("J1"), sq("J2")), sq("E5"), bot.last_marginals) == 0.0
        # one chance in ten of losing the Marshal outweighs a Captain
        assert marshal_stake(obs, 0) * 0.1 > VALUE[R_OF["6"]]


def test_our_spy_comes_to_stand_by_our_revealed_general():
    """Their Marshal is still on the board and our General is known: our
    Spy comes beside it (their Marshal that takes it is taken back)."""
    s = position({"A1": (0, "F"), "B1": (0, "B"), "A2": (0, "B"), "E4": (0, "2"), "H4": (0, "S"),
                  "J1": (0, "6"), "I1": (0, "7"), "E8": (1, "1"), "A9": (1, "5"), "B8": (1, "9"),
                  "J10": (1, "F"), "I10": (1, "B"), "J9": (1, "B"), "H8": (1, "8")})
    s.board[sq("E4")] = s.board[sq("E4")]._replace(revealed=True, moved=True)
    for name in ("J1", "I1", "A9", "B8", "H4", "E8"):
        moved(s, name)
    obs = with_losses(s).observation(0)
    for seed in range(4):
        assert make_bot(5, seed).choose(obs, 0) == Move(sq("H4"), sq("G4"))


def test_a_known_marshal_takes_a_moved_hidden_piece():
    """Striking shows our rank; once our Marshal is known anyway, that is no
    reason to spare a hidden piece that moved (it cannot be a bomb)."""
    s = position({"A1": (0, "F"), "B1": (0, "B"), "A2": (0, "B"), "E5": (0, "1"), "J1": (0, "6"),
                  "E6": (1, "9"), "A9": (1, "8"), "J10": (1, "F"), "I10": (1, "B"),
                  "J9": (1, "B")})
    s.board[sq("E5")] = s.board[sq("E5")]._replace(revealed=True, moved=True)
    moved(s, "E6")
    moved(s, "A9")
    with_losses(s)
    for seed in range(3):
        assert make_bot(5, seed).choose(s.observation(0), 0) == Move(sq("E5"), sq("E6"))
    # their last piece that can move: taking it wins the game at once
    s.board[sq("A9")] = None
    with_losses(s)
    for seed in range(3):
        assert make_bot(5, seed).choose(s.observation(0), 0) == Move(sq("E5"), sq("E6"))


def test_a_hidden_marshal_is_not_shown_for_a_captain():
    """Concealment: while our Marshal is hidden, every moved piece of ours
    might be it, so it is not shown for a Captain; for their General it is."""
    def state(prey: str) -> StrategoState:
        s = position({"A1": (0, "F"), "B1": (0, "B"), "A2": (0, "B"), "E5": (0, "1"),
                      "J1": (0, "6"), "E6": (1, prey), "A9": (1, "8"), "B9": (1, "1"),
                      "J10": (1, "F"), "I10": (1, "B"), "J9": (1, "B")})
        moved(s, "E5")
        s.board[sq("E6")] = s.board[sq("E6")]._replace(revealed=True, moved=True)
        moved(s, "A9")
        moved(s, "B9")
        return with_losses(s)

    strike = Move(sq("E5"), sq("E6"))
    for seed in range(3):
        assert make_bot(5, seed).choose(state("5").observation(0), 0) != strike
        assert make_bot(5, seed).choose(state("2").observation(0), 0) == strike


def test_a_guard_stands_ready_for_a_miner_at_the_last_bomb():
    """Their Miner is next to the one bomb between it and our flag: our
    Major steps where it can strike the Miner once the bomb is gone."""
    s = position({"A1": (0, "F"), "B1": (0, "B"), "A2": (0, "B"), "C2": (0, "4"),
                  "J1": (0, "7"), "A3": (1, "8"), "J10": (1, "F"), "I10": (1, "B"),
                  "J9": (1, "B"), "E8": (1, "6"), "D2": (1, "5")})
    for name in ("A3", "D2"):       # a Captain to take is no excuse
        s.board[sq(name)] = s.board[sq(name)]._replace(revealed=True, moved=True)
    moved(s, "E8")
    with_losses(s)
    for seed in range(3):
        assert make_bot(5, seed).choose(s.observation(0), 0) == Move(sq("C2"), sq("B2"))


def race_position(hunter: str) -> StrategoState:
    """Their revealed Miner walks down the A file to our flag (A1, bombs B1
    and A2); our Captain at E3 is just in time to meet it; a revealed
    Sergeant of theirs is there to hunt at ``hunter``."""
    s = position({"A1": (0, "F"), "B1": (0, "B"), "A2": (0, "B"), "E3": (0, "5"),
                  "J1": (0, "B"), "A6": (1, "8"), hunter: (1, "7"), "J10": (1, "F"),
                  "I10": (1, "B"), "J9": (1, "B"), "E9": (1, "4")})
    for name in ("A6", hunter):
        s.board[sq(name)] = s.board[sq(name)]._replace(revealed=True, moved=True)
    moved(s, "E3")
    return with_losses(s)


def race_cells(s: StrategoState) -> list[int]:
    """The whole board, hidden ranks too, in the cells the search and the
    race take as input (their documented format)."""
    cells = [-1] * 100
    for x, piece in enumerate(s.board):
        if piece is not None:
            cells[x] = piece.owner * 16 + R_OF[piece.rank]
    return cells


def test_the_race_lag_counts_the_steps_too_late_on_the_threats_way():
    """The lag of a square: how many steps too late our piece there would be
    to stand on the Miner's way down the A file to our flag (A1 behind the
    bombs A2, B1), judged at the search's horizon with the Miner a step
    nearer: the Captain at E3 is two steps late, at D3 one, at C3 in time."""
    from doors.stratego.race import race_lag
    lag = race_lag(sq("A6"), True, sq("A1"), frozenset({sq("A2"), sq("B1")}))
    assert lag is not None
    assert lag[sq("E3")] == 2 and lag[sq("D3")] == 1 and lag[sq("C3")] == 0
    assert lag[sq("A3")] == 0 and lag[sq("B4")] == 0 and lag[sq("B5")] == 1
    # a piece other than a Miner goes round the bombs: further, so later
    assert race_lag(sq("A6"), False, sq("A1"), frozenset({sq("A2"), sq("B1")})) is None


def test_the_race_lag_asks_for_every_way_the_threat_may_take():
    """Our flag E1 behind bombs D1, E2, F1; their Miner at H4 may clear F1
    or E2 (both 5 steps). Our piece at D2, beside E2 but 5 steps round to F1,
    is late; at F2 it is in time for both."""
    from doors.stratego.race import race_lag
    lag = race_lag(sq("H4"), True, sq("E1"), frozenset({sq("D1"), sq("E2"), sq("F1")}))
    assert lag is not None
    assert lag[sq("D2")] > 0 and lag[sq("F2")] == 0


def test_the_race_charges_only_the_best_placed_defender():
    """The Captain (E3), the one piece of ours to meet the Miner, pays per
    step of its lag; a second Captain far off changes nothing, and when it
    comes into time the charge is gone whatever the first one does. An
    unmoved hidden piece is no threat."""
    from doors.stratego.belief import R_OF
    from doors.stratego.race import RACE, Race
    cells = race_cells(race_position("H3"))
    race = Race(cells, 0, sq("A1"), frozenset({sq("E9")}))
    assert race.charge() == -2 * RACE
    captain = R_OF["5"]
    assert race.move(captain, sq("E3"), sq("D3")) == RACE
    assert race.move(captain, sq("D3"), sq("E3")) == -RACE
    assert race.move(captain, -1, sq("J5")) == 0.0           # a second Captain, far off
    assert race.move(captain, sq("J5"), sq("C3")) == 2 * RACE
    assert race.move(captain, sq("E3"), sq("J4")) == 0.0     # the first one goes free
    assert race.charge() == 0.0
    assert race.move(R_OF["9"], -1, sq("J3")) == 0.0         # a Scout cannot stop a Miner
    assert not Race(cells, 0, sq("A1"), frozenset({sq("A6"), sq("E9")}))


def test_the_search_keeps_the_race_charge_through_moves_and_undoes():
    """Played and undone in the search, strikes included, the race charge
    is always what it would be counted afresh on that board."""
    from doors.stratego.race import Race
    from doors.stratego.search import Search
    cells = race_cells(race_position("H3"))
    search = Search(list(cells), 0, 2, True, frozenset({sq("A6"), sq("H3")}), frozenset({sq("E9")}))
    assert search.race is not None
    start = search.score
    done = []
    for s, t in ((sq("E3"), sq("D3")), (sq("D3"), sq("C3")), (sq("C3"), sq("B3")), (sq("B3"), sq("B4"))):
        a, d = search.b[s], search.b[t]
        done.append((s, t, a, d, search.play(s, t)))
        fresh = Race(search.b, 0, sq("A1"), frozenset({sq("E9")}))
        assert search.race.charge() == fresh.charge()
    for s, t, a, d, delta in reversed(done):
        search.unplay(s, t, a, d, delta)
    assert search.b == cells and abs(search.score - start) < 1e-9
    assert search.race.charge() == Race(cells, 0, sq("A1"), frozenset({sq("E9")})).charge()


def test_a_threat_taken_is_charged_no_more():
    """The race follows a threat as it moves: a step nearer our flag, our
    Captain is a step later; taken, it is charged nothing; undone, the
    charge is back."""
    from doors.stratego.race import DOOM, RACE, Race
    cells = race_cells(race_position("H3"))
    race = Race(cells, 0, sq("A1"), frozenset({sq("E9")}))
    assert race.charge() == -2 * RACE
    cells[sq("A5")], cells[sq("A6")] = cells[sq("A6")], -1     # the search moves the board first
    # four steps off, our Captain late: a step more and it is at our last bomb (the doom)
    assert race.enemy(sq("A6"), sq("A5")) == -RACE - DOOM
    assert race.charge() == -3 * RACE - DOOM
    assert race.enemy(sq("H3"), sq("H4")) == 0.0     # not a threat: nothing changes
    assert race.charge() == -3 * RACE - DOOM
    cells[sq("A5")] = -1
    assert race.enemy(sq("A5"), -1) == 3 * RACE + DOOM
    assert race.charge() == 0.0
    for _ in range(3):
        race.enemy_back()
    assert race.charge() == -2 * RACE
    assert race.enemy(sq("A6"), -1) == 2 * RACE



def test_a_threat_at_the_last_bombs_that_none_of_ours_stops_costs_the_game():
    """Three steps from our flag (A4: the bomb on A2, then the flag) with
    our Captain too late, their Miner takes the flag in that line: the
    charge is ``DOOM`` on top of the steps; a Captain in time lifts it all."""
    from doors.stratego.belief import R_OF
    from doors.stratego.race import DOOM, RACE, Race
    cells = race_cells(race_position("H3"))
    race = Race(cells, 0, sq("A1"), frozenset({sq("E9")}))
    assert race.charge() == -2 * RACE               # five steps off: only the lag
    cells[sq("A4")], cells[sq("A6")] = cells[sq("A6")], -1
    change = race.enemy(sq("A6"), sq("A4"))
    assert race.charge() == Race(cells, 0, sq("A1"), frozenset({sq("E9")})).charge()
    assert race.charge() <= -DOOM - RACE and change == race.charge() + 2 * RACE
    before = race.charge()
    cells[sq("A3")] = cells[sq("E3")]                # a second Captain, in its way
    assert race.move(R_OF["5"], -1, sq("A3")) == -before
    assert race.charge() == 0.0


def blocked_cells() -> list[int]:
    """Their revealed Miner on A5, four steps from our flag (A5-A4-A3, the
    bomb A2, A1); our Captain on C2 is in time through B2 alone (C2-B2,
    then it strikes the Miner on A2), and our Scout stands on B2."""
    s = position({"A1": (0, "F"), "B1": (0, "B"), "A2": (0, "B"), "C2": (0, "5"), "B2": (0, "9"),
                  "A5": (1, "8"), "J10": (1, "F"), "I10": (1, "B"), "J9": (1, "B")})
    s.board[sq("A5")] = s.board[sq("A5")]._replace(revealed=True, moved=True)
    return race_cells(with_losses(s))


def test_a_piece_of_ours_on_the_defenders_way_costs_it_a_step():
    """Near our flag, the Captain in time only through the square our Scout
    holds is a step late (the Scout must first step aside): the doom is
    charged. The Scout steps off the way and the charge is gone; back on
    it, the charge is back, as counted afresh."""
    from doors.stratego.race import DOOM, RACE, Race
    cells = blocked_cells()
    race = Race(cells, 0, sq("A1"), frozenset())
    assert race.least(0) == 0                   # in time, were the way clear
    assert race.charge() == -RACE - DOOM
    cells[sq("B3")], cells[sq("B2")] = cells[sq("B2")], -1
    assert race.move(R_OF["9"], sq("B2"), sq("B3")) == RACE + DOOM
    assert race.charge() == 0.0 == Race(cells, 0, sq("A1"), frozenset()).charge()
    cells[sq("B2")], cells[sq("B3")] = cells[sq("B3")], -1
    assert race.move(R_OF["9"], sq("B3"), sq("B2")) == -RACE - DOOM
    assert race.charge() == Race(cells, 0, sq("A1"), frozenset()).charge()


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 10_000), min_size=1, max_size=8))
def test_the_race_charge_with_blockers_is_kept_through_any_line(picks: list[int]) -> None:
    """Any line of moves of both sides from that board (strikes included,
    bar their Miner on our bombs, which the search counts at the root
    only): after each move the search's race charge is the one counted
    afresh on its board, and undone it is the root's again."""
    from doors.stratego.race import _CLEAR, Race
    from doors.stratego.search import Search
    cells = blocked_cells()
    search = Search(list(cells), 0, 2, True, frozenset({sq("A5")}), frozenset())
    assert search.race is not None
    start, root = search.score, search.race.charge()
    done = []
    for i, pick in enumerate(picks):
        side = i % 2
        moves = [(s, t) for s, t in search.moves(side) if search.b[t] < 0 or search.b[t] >> 4 == side
                 or search.b[t] & 15 not in (R_OF["B"], R_OF["F"])]
        if not moves:
            break
        s, t = moves[pick % len(moves)]
        a, d = search.b[s], search.b[t]
        delta = search.play(s, t)
        assert delta is not None
        done.append((s, t, a, d, delta))
        _CLEAR.clear()      # counted afresh, not from the cache the search filled
        assert search.race.charge() == Race(search.b, 0, sq("A1"), frozenset()).charge()
    for s, t, a, d, delta in reversed(done):
        search.unplay(s, t, a, d, delta)
    assert search.b == cells and abs(search.score - start) < 1e-9
    assert search.race.charge() == root


def test_a_scout_does_not_park_on_the_square_our_miner_needs():
    """A lost game, replayed (seed 9696, game 20, turn 235): their revealed
    Miner walks down the I file to our bombs round the flag (I1). Our Miner
    (F2) meets it in time only through H2; the Scout beside it (G2) stepped
    onto H2, the race saw our Miner in time behind it, and the Miner came a
    step late. Now the Scout goes elsewhere."""
    pieces = {"A1": (0, "B"), "B1": (0, "4"), "C1": (0, "9"), "D1": (0, "B"), "G1": (0, "9"),
              "H1": (0, "B"), "I1": (0, "F"), "J1": (0, "B"), "A2": (0, "8"), "B2": (0, "5"),
              "F2": (0, "8"), "G2": (0, "9"), "I2": (0, "B"), "I6": (1, "8"), "D7": (1, "3"),
              "C9": (1, "6"), "H9": (1, "7"), "B10": (1, "B"), "C10": (1, "F"), "D10": (1, "B"),
              "G10": (1, "B"), "H10": (1, "9"), "I10": (1, "B")}
    s = position(pieces)
    for name in ("B1", "C1", "G1", "A2", "B2", "F2", "G2"):
        moved(s, name)
    s.board[sq("I6")] = s.board[sq("I6")]._replace(revealed=True, moved=True)
    for name in ("B10", "G10", "I10"):
        s.board[sq(name)] = s.board[sq(name)]._replace(revealed=True)
    with_losses(s)
    for seed in range(3):
        assert make_bot(5, seed).choose(s.observation(0), 0) != Move(sq("G2"), sq("H2"))


def test_a_threat_a_step_from_the_doom_hides_no_piece_left_to_be_taken():
    """Their Miner four steps from our flag, none of ours in time: the doom
    is charged already (its next step brings it to our last bombs, and our
    lag is judged after that step). Charged only once it stepped there, that
    step was their best reply to every move of ours, and our General, left
    beside their Marshal, was never seen taken: our Marshal stepped up to
    offer a trade of Marshals instead of the General fleeing (a lost game,
    replayed: the General was taken)."""
    from doors.stratego.race import DOOM, Race
    from doors.stratego.search import Search
    pieces = {"A1": (0, "F"), "B1": (0, "B"), "A2": (0, "B"), "F1": (0, "B"), "J4": (0, "2"), "I2": (0, "1"),
              "A5": (1, "8"), "I4": (1, "1"), "J10": (1, "F"), "I10": (1, "B"), "J9": (1, "B"), "E9": (1, "7")}
    cells = race_cells(with_losses(position(pieces)))
    known = frozenset(sq(n) for n in ("J4", "I2", "A5", "I4"))
    unknown = frozenset(sq(n) for n in ("J10", "I10", "J9", "E9"))
    assert Race(cells, 0, sq("A1"), frozenset({sq("A2"), sq("B1"), sq("F1")})).charge() <= -DOOM

    def value(frm: str, to: str) -> float:
        return Search(list(cells), 0, 2, True, known, unknown).root_value(0, sq(frm), sq(to), 3)

    fled = max(value("J4", "J3"), value("J4", "J5"))
    assert fled > value("I2", "I3") + 100     # the Marshal beside theirs, our General left to it


def test_a_rank_changed_at_the_root_is_raced_as_it_now_is():
    """The root's strike on a hidden piece sets its rank (``set_cell``,
    swapping ranks with another square): the race is counted again, so a
    Scout that took a Miner's place is not raced as a Miner."""
    from doors.stratego.belief import R_OF
    from doors.stratego.race import Race
    from doors.stratego.search import Search
    cells = race_cells(race_position("H3"))
    search = Search(list(cells), 0, 2, True, frozenset({sq("A6"), sq("H3")}), frozenset({sq("E9")}))
    start = search.score
    search.set_cell(sq("A6"), 16 + R_OF["9"])      # the Miner's square now holds a Scout
    search.rerace()
    assert search.race is None                      # a Scout cannot pass our bombs
    search.set_cell(sq("A6"), cells[sq("A6")])
    search.rerace()
    assert search.race is not None and abs(search.score - start) < 1e-9
    assert search.race.charge() == Race(cells, 0, sq("A1"), frozenset({sq("E9")})).charge()

def test_a_threat_coming_nearer_in_a_line_makes_our_defender_later():
    """Played in the search, their Miner's step down the A file makes our
    Captain a step later: the charge is what it would be counted afresh
    with the Miner where it now stands (a race that kept the Miner's root
    square gave our two moves of a three-ply line against its none)."""
    from doors.stratego.race import Race
    from doors.stratego.search import Search
    cells = race_cells(race_position("H3"))
    search = Search(list(cells), 0, 2, True, frozenset({sq("A6"), sq("H3")}), frozenset({sq("E9")}))
    assert search.race is not None
    before = search.race.charge()
    a, d = search.b[sq("A6")], search.b[sq("A5")]
    delta = search.play(sq("A6"), sq("A5"))
    assert search.race.charge() < before
    assert search.race.charge() == Race(search.b, 0, sq("A1"), frozenset({sq("E9")})).charge()
    search.unplay(sq("A6"), sq("A5"), a, d, delta)
    assert search.race.charge() == before


def test_the_search_lifts_the_race_charge_when_our_defender_takes_the_threat():
    """Our Captain meets the Miner and takes it: in the search the charge is
    then what it would be counted afresh (none: no threat is left), and all
    of it comes back when the line is undone."""
    from doors.stratego.race import Race
    from doors.stratego.search import Search
    cells = race_cells(race_position("H3"))
    search = Search(list(cells), 0, 2, True, frozenset({sq("A6"), sq("H3")}), frozenset({sq("E9")}))
    assert search.race is not None
    start, charge = search.score, search.race.charge()
    assert charge < 0
    done = []
    for a, b in (("E3", "D3"), ("A6", "A5"), ("D3", "C3"), ("A5", "A4"), ("C3", "B3"), ("B3", "B4"),
                 ("B4", "A4")):
        s, t = sq(a), sq(b)
        before = search.b[s], search.b[t]
        done.append((s, t, *before, search.play(s, t)))
    assert search.b[sq("A4")] == cells[sq("E3")]           # the Captain took the Miner
    assert search.race.charge() == 0.0 == Race(search.b, 0, sq("A1"), frozenset({sq("E9")})).charge()
    for s, t, a, d, delta in reversed(done):
        search.unplay(s, t, a, d, delta)
    assert search.b == cells and abs(search.score - start) < 1e-9
    assert search.race.charge() == charge


def test_a_defender_races_a_miner_to_our_flag_rather_than_hunting():
    """Our Captain goes to meet the Miner on its way to our flag; it does not
    step towards the Sergeant it could take elsewhere."""
    away = {Move(sq("E3"), sq("F3")), Move(sq("E3"), sq("E4"))}
    for seed in range(3):
        move = make_bot(5, seed).choose(race_position("H3").observation(0), 0)
        assert move not in away, move



def test_a_piece_that_moved_goes_rather_than_one_that_might_be_a_bomb():
    """With nothing to win either way, a piece that already moved makes the
    quiet move: an unmoved one stays, still possibly a bomb to them."""
    s = position({"A1": (0, "F"), "B1": (0, "B"), "A2": (0, "B"), "E2": (0, "7"), "F2": (0, "6"),
                  "G2": (0, "7"), "H3": (0, "7"), "J10": (1, "F"), "I10": (1, "B"), "J9": (1, "B"),
                  "E9": (1, "4"), "C9": (1, "5")})
    moved(s, "H3")
    with_losses(s)
    for seed in range(4):
        assert make_bot(5, seed).choose(s.observation(0), 0).frm == sq("H3")


def test_our_two_square_rule_is_searched_a_last_piece_without_a_move_loses():
    """Our last piece in a dead end (A1-A2, walled by our bombs): going back
    to A1 after coming from there leaves it, by our own two-square rule, no
    move next time, which loses; the search sees it when told the ban."""
    from doors.stratego.belief import R_OF
    from doors.stratego.search import WIN, Search
    cells = [-1] * 100
    cells[sq("A2")] = R_OF["7"]
    for name in ("B1", "B2", "A3"):
        cells[sq(name)] = R_OF["B"]
    cells[sq("J1")] = R_OF["F"]
    cells[sq("J10")], cells[sq("E9")] = 16 + R_OF["F"], 16 + R_OF["4"]
    back = (sq("A2"), sq("A1"))
    assert Search(list(cells), 0, 2).root_value(0, *back, 3) > -WIN / 2
    assert Search(list(cells), 0, 2).root_value(0, *back, 3, (sq("A1"), sq("A2"))) < -WIN


def test_a_strike_that_leaves_neither_side_a_move_is_a_draw():
    """Our last movable piece trades itself for their last (Marshal for
    Marshal): neither side can move, a draw, not a win for the side that
    moved last (before, the search scored it as their loss)."""
    from doors.stratego.search import Search
    cells = [-1] * 100
    cells[sq("E5")], cells[sq("E6")] = R_OF["1"], 16 + R_OF["1"]
    cells[sq("A1")], cells[sq("B1")] = R_OF["F"], R_OF["B"]
    cells[sq("J10")], cells[sq("I10")] = 16 + R_OF["F"], 16 + R_OF["B"]
    known = frozenset({sq("E5"), sq("E6")})
    assert Search(list(cells), 0, 2, True, known).root_value(0, sq("E5"), sq("E6"), 3) == 0.0


def test_a_lone_marshal_blocks_the_way_to_the_flag_and_draws_rather_than_lose():
    """Our last movable piece, our Marshal (I3), and theirs (H2), beside the
    one open square (I2) in front of our flag (I1, bombs on H1 and J1).
    Any other move lets their Marshal step onto I2 and take the flag;
    blocking it there, their strike ends both Marshals and the game is
    drawn. Before, the search scored that draw as our loss too (we could
    not move), so every move lost and the block was not told apart."""
    from doors.stratego.search import WIN, Search
    cells = [-1] * 100
    cells[sq("I3")], cells[sq("H2")] = R_OF["1"], 16 + R_OF["1"]
    cells[sq("I1")], cells[sq("H1")], cells[sq("J1")] = R_OF["F"], R_OF["B"], R_OF["B"]
    cells[sq("A10")], cells[sq("B10")], cells[sq("A9")] = 16 + R_OF["F"], 16 + R_OF["B"], 16 + R_OF["B"]
    known = frozenset({sq("I3"), sq("H2")})

    def value(to: str) -> float:
        return Search(list(cells), 0, 2, True, known).root_value(0, sq("I3"), sq(to), 3)
    assert value("I2") > -WIN / 2
    for to in ("H3", "J3", "I4"):
        assert value(to) < -WIN / 2


def test_with_the_flag_lost_in_every_line_a_defender_still_heads_for_the_intruder():
    """Their Miner stands next to our flag and nothing of ours can strike it
    this move: every line loses, yet the move that brings our Lieutenant
    nearer the Miner scores best (their player may not know it is our flag)."""
    from doors.stratego.search import bfs
    s = position({"F1": (0, "F"), "E1": (0, "B"), "G1": (0, "B"), "I3": (0, "6"), "A4": (0, "9"),
                  "F2": (1, "8"), "J10": (1, "F"), "I10": (1, "B"), "J9": (1, "B"), "E9": (1, "4")})
    s.board[sq("F2")] = s.board[sq("F2")]._replace(revealed=True, moved=True)
    moved(s, "I3")
    moved(s, "A4")
    with_losses(s)
    near = bfs([sq("F2")])
    for seed in range(3):
        move = make_bot(5, seed).choose(s.observation(0), 0)
        assert move.frm == sq("I3") and near[move.to] < near[move.frm], move


def test_a_piece_closing_on_our_known_marshal_is_likelier_but_not_surely_the_spy():
    """A Spy may walk up to our revealed Marshal, most wait: a hidden piece
    whose step brought it to two squares of our revealed Marshal is likelier
    the Spy than its plain odds (one of four), yet far from sure."""
    s = position({"A1": (0, "F"), "B1": (0, "B"), "A2": (0, "B"), "C2": (0, "1"), "J1": (0, "6"),
                  "C4": (1, "S"), "H8": (1, "9"), "J7": (1, "7"), "A7": (1, "5"), "J10": (1, "F"),
                  "I10": (1, "B"), "J9": (1, "B")})
    s.board[sq("C2")] = s.board[sq("C2")]._replace(revealed=True, moved=True)
    for name in ("C4", "H8", "J7", "A7", "J1"):
        moved(s, name)
    s.moves = [(1, sq("C5"), sq("C4"))]
    marg = Belief(with_losses(s).observation(0), 0).marginals(random.Random(1), 2000)
    assert 0.35 < marg.p(sq("C4"), "S") < 0.7


def closing_position(their_marshal: bool, quiet: int = QUIET) -> StrategoState:
    """Our General by their camp, bombs and unmoved pieces round their
    flag; one piece of theirs that moved, hidden, far off on the right;
    ``quiet`` plies played since the last strike."""
    pieces = {"A1": (0, "F"), "B1": (0, "B"), "A2": (0, "B"), "J1": (0, "6"), "C8": (0, "2"),
              "A10": (1, "F"), "B10": (1, "B"), "A9": (1, "B"), "C10": (1, "7"), "H5": (1, "4")}
    if their_marshal:
        pieces["J10"] = (1, "1")
    s = position(pieces)
    s.board[sq("C8")] = s.board[sq("C8")]._replace(revealed=True, moved=True)
    moved(s, "H5")
    lake = sq("C5")     # moves with no square of the board in play: only their count matters
    s.moves = [(i % 2, lake, lake) for i in range(quiet)]
    return with_losses(s)


def test_a_general_that_beats_all_they_have_left_hunts_their_moved_piece():
    """The closing hunt: their Marshal and General gone, our General beats
    whatever moves, so once the game has gone quiet (``QUIET`` plies
    without a strike) it heads for their piece that moved, not for the
    pieces round their flag (a won endgame is taken, not circled)."""
    from doors.stratego.tables import bfs
    away = bfs([sq("H5")])
    s = closing_position(their_marshal=False)
    for seed in range(3):
        move = make_bot(5, seed).choose(s.observation(0), 0)
        assert move.frm == sq("C8") and away[move.to] < away[sq("C8")], move
    # while strikes still come, no hunt: the General keeps by their flag
    s = closing_position(their_marshal=False, quiet=QUIET - 2)
    for seed in range(3):
        move = make_bot(5, seed).choose(s.observation(0), 0)
        assert move.frm != sq("C8") or away[move.to] >= away[sq("C8")], move


def test_the_closing_hunt_pulls_only_a_piece_that_beats_all_they_have_left():
    """The pull is there for our General while nothing of theirs beats it,
    and gone once their Marshal lives; our Marshal gets none while their
    Spy lives (the Spy strikes first)."""
    from doors.stratego.search import Search
    from doors.stratego.tables import closing_hunt
    general, marshal = R_OF["2"], R_OF["1"]
    for their_marshal in (False, True):
        s = closing_position(their_marshal)
        cells = race_cells(s)
        unknown = frozenset(sq(n) for n in ("A10", "B10", "A9", "C10", "J10"))
        search = Search(list(cells), 0, 2, True, frozenset({sq("C8")}), unknown, closing=True)
        tables: list[list[float] | None] = [None] * 12
        closing_hunt(list(cells), 0, unknown, search.val, tables)
        if their_marshal:
            assert tables[general] is None
        else:
            table = tables[general]
            assert table is not None
            assert table[sq("H4")] > 0.0                 # a step from their Major: pulled there
            assert table[sq("C8")] < table[sq("D8")] < table[sq("H4")]
            assert table[sq("A10")] == 0.0      # twelve steps off: no pull
            # the hunter loses the pull towards their flag, which it cannot strike blind
            attack = [float(x) for x in range(100)]
            tables = [None] * 12
            closing_hunt(list(cells), 0, unknown, search.val, tables, attack)
            assert tables[general] == [p - a for p, a in zip(table, attack, strict=True)]
            assert search.hunt[0][general] is not None   # the search adds it itself
    cells[sq("C8")] = R_OF["1"]             # our Marshal now, their Spy alive
    cells[sq("J10")] = 16 + R_OF["S"]
    tables = [None] * 12
    closing_hunt(list(cells), 0, unknown, search.val, tables)
    assert tables[marshal] is None
    cells[sq("J10")] = 16 + R_OF["7"]       # no Spy: the Marshal hunts
    closing_hunt(list(cells), 0, unknown, search.val, tables)
    assert tables[marshal] is not None


def test_well_ahead_the_closing_hunt_pulls_each_piece_towards_what_it_beats():
    """``wide`` (well ahead): with their Marshal alive, no piece of ours
    beats all they have left, yet our General is pulled towards their
    moved Major, which it beats; our Marshal, their Spy alive, towards
    the pieces it beats, and not at all where the Spy is the only one."""
    from doors.stratego.search import Search
    from doors.stratego.tables import closing_hunt
    general, marshal = R_OF["2"], R_OF["1"]
    cells = race_cells(closing_position(their_marshal=True))
    unknown = frozenset(sq(n) for n in ("A10", "B10", "A9", "C10", "J10"))
    search = Search(list(cells), 0, 2, True, frozenset({sq("C8")}), unknown, closing=True)
    tables: list[list[float] | None] = [None] * 12
    closing_hunt(list(cells), 0, unknown, search.val, tables, wide=True)
    table = tables[general]
    assert table is not None
    assert table[sq("C8")] < table[sq("D8")] < table[sq("H4")]
    narrow: list[list[float] | None] = [None] * 12
    closing_hunt(list(cells), 0, unknown, search.val, narrow)
    assert narrow[general] is None
    cells[sq("C8")] = R_OF["1"]             # our Marshal now, their Spy alive (J10)
    cells[sq("J10")] = 16 + R_OF["S"]
    tables = [None] * 12
    closing_hunt(list(cells), 0, unknown, search.val, tables, wide=True)
    assert tables[marshal] is not None and tables[marshal][sq("H4")] > tables[marshal][sq("C8")]
    cells[sq("H5")] = 16 + R_OF["S"]        # the Spy the only piece that moved
    cells[sq("J10")] = 16 + R_OF["7"]
    tables = [None] * 12
    closing_hunt(list(cells), 0, unknown, search.val, tables, wide=True)
    assert tables[marshal] is None


def marshal_walker_position() -> StrategoState:
    """Our revealed Marshal on E4; Blue's pieces moved, its Spy among them
    (on E8), none of them yet near our Marshal."""
    s = position({"A1": (0, "F"), "E4": (0, "1"), "J1": (0, "7"),
                  "E8": (1, "S"), "B9": (1, "5"), "H7": (1, "7"), "J10": (1, "F"), "A8": (1, "6"),
                  "I10": (1, "B"), "J9": (1, "B"), "C8": (1, "9")})
    s.board[sq("E4")] = s.board[sq("E4")]._replace(revealed=True, moved=True)
    for name in ("B9", "H7", "A8", "E8", "C8"):
        moved(s, name)
    with_losses(s)
    s.turn = 1
    return s


def test_a_piece_that_closes_on_our_marshal_is_likelier_the_spy():
    """A Spy may walk up to our revealed Marshal: a piece whose step brings
    it to two steps of it is likelier the Spy than before the step, and
    likelier than the pieces that stayed away."""
    s = marshal_walker_position()

    def spy(name: str) -> float:
        return Belief(s.observation(0), 0).marginals(random.Random(4), 600).p(sq(name), "S")

    before = spy("E8")
    s.apply(1, Move(sq("E8"), sq("E7")))
    s.apply(0, Move(sq("J1"), sq("J2")))
    s.apply(1, Move(sq("E7"), sq("E6")))      # two steps from our Marshal
    assert spy("E6") > 1.5 * before
    assert spy("E6") > 1.5 * spy("B9")


def test_a_piece_that_walks_up_to_our_marshal_is_struck_by_it():
    """The walker stands next to our revealed Marshal: the Marshal does not
    wait for the Spy's strike (it takes the walker, or steps away)."""
    s = marshal_walker_position()
    s.apply(1, Move(sq("E8"), sq("E7")))
    s.apply(0, Move(sq("J1"), sq("J2")))
    s.apply(1, Move(sq("E7"), sq("E6")))
    s.apply(0, Move(sq("J2"), sq("J1")))
    s.apply(1, Move(sq("E6"), sq("E5")))      # next to our Marshal
    obs = s.observation(0)
    assert Belief(obs, 0).marginals(random.Random(4), 600).p(sq("E5"), "S") > 0.5
    move = make_bot(5, 1).choose(obs, 0)
    assert move.frm == sq("E4")


def charge_board(officer: str, rank: str, walker: str, b9: str) -> StrategoState:
    """Our revealed officer of ``rank`` on ``officer``; Blue's Sergeant on
    ``walker``; Blue's other movable pieces (``b9`` on B9, its Marshal on
    H9, A8, C9) have moved, as has the Sergeant. Blue to move."""
    s = position({"A1": (0, "F"), officer: (0, rank), "J1": (0, "7"), "A2": (0, "8"),
                  walker: (1, "7"), "B9": (1, b9), "H9": (1, "1"), "J10": (1, "F"), "A8": (1, "6"),
                  "I10": (1, "B"), "J9": (1, "B"), "C9": (1, "4")})
    s.board[sq(officer)] = s.board[sq(officer)]._replace(revealed=True, moved=True)
    for name in ("B9", "H9", "A8", walker, "C9"):
        moved(s, name)
    with_losses(s)
    s.turn = 1
    return s


def bluff_position() -> StrategoState:
    """Blue's Sergeant walked up next to our revealed General (E5) and
    stayed there through a turn of Blue's without striking it."""
    s = charge_board("E5", "2", "E8", "5")
    s.apply(1, Move(sq("E8"), sq("E7")))
    s.apply(0, Move(sq("J1"), sq("J2")))
    s.apply(1, Move(sq("E7"), sq("E6")))      # next to our General: a Marshal's walk
    return s


def test_a_piece_that_lets_our_general_be_is_hardly_the_marshal():
    """Stepping next to our revealed General makes the walker likely the
    Marshal; having then let a turn pass without striking it, it is hardly
    the Marshal any more (a Marshal takes a General whenever it can)."""
    s = bluff_position()
    charged = Belief(s.observation(0), 0).marginals(random.Random(4), 600).p(sq("E6"), "1")
    s.apply(0, Move(sq("A2"), sq("A3")))      # our General stays
    s.apply(1, Move(sq("B9"), sq("B8")))      # and Blue lets it be
    passed = Belief(s.observation(0), 0).marginals(random.Random(4), 600).p(sq("E6"), "1")
    assert charged > 0.5
    assert passed < 0.2
    assert passed < Belief(s.observation(0), 0).marginals(random.Random(4), 600).p(sq("H9"), "1")


def feint_position(broke_off: bool) -> StrategoState:
    """Blue's Sergeant (E6) charges our revealed Colonel (E4) like a
    General: it steps up to E5. Blue's General and Marshal are hidden among
    its moved pieces. ``broke_off``: it has charged once before, our Colonel
    stepped off (F4), it broke off (E6) and came round (F6, F5)."""
    s = charge_board("E4", "3", "E6", "2")
    if broke_off:
        for theirs, ours in (("E6 E5", "E4 F4"), ("E5 E6", "F4 E4"), ("E6 F6", "J1 J2"), ("F6 F5", "J2 J3")):
            s.apply(1, Move(*map(sq, theirs.split())))
            s.apply(0, Move(*map(sq, ours.split())))
        s.apply(1, Move(sq("F5"), sq("E5")))
    else:
        s.apply(1, Move(sq("E6"), sq("E5")))
    return s


def test_a_piece_that_charges_and_breaks_off_is_hardly_a_general():
    """A piece that steps next to our revealed Colonel is likely a General
    or the Marshal; once it has broken off a charge (our Colonel stepped
    off and it went away, where a General would follow), its next charge
    is hardly one's. The record keeps it game-long: the break-off is
    out of the last moves the threat reads."""
    def officer_odds(obs: StrategoObservation) -> float:
        marg = Belief(obs, 0).marginals(random.Random(4), 600)
        return marg.p(sq("E5"), "1") + marg.p(sq("E5"), "2")
    first = feint_position(False).observation(0)
    again = feint_position(True).observation(0)
    assert (1, sq("E5"), sq("E6")) not in again.moves[-6:]
    assert first.track(sq("E5")).feints == ()
    assert again.track(sq("E5")).feints == (("3", 1),)
    assert officer_odds(first) > 0.6
    assert officer_odds(again) < 0.2


def edge_walker_position() -> StrategoState:
    """Our flag in the corner (A1), ringed by two bombs; a hidden piece of
    Blue's walks down the edge column to the bombs; our Captain (F3) can
    come."""
    s = position({"A1": (0, "F"), "B1": (0, "B"), "A2": (0, "B"), "F3": (0, "4"), "J1": (0, "7"),
                  "A5": (1, "8"), "E8": (1, "5"), "H8": (1, "3"), "J10": (1, "F"), "I10": (1, "B"),
                  "J9": (1, "B"), "C9": (1, "6")})
    for name in ("A5", "E8", "H8", "C9"):
        moved(s, name)
    with_losses(s)
    s.turn = 1
    return s


def test_the_walk_to_our_bomb_wall_weighs_by_what_this_opponent_did_to_our_bombs():
    """The same walk to our bombs, after Blue opened one of our bombs (J1's
    neighbour) with a Miner earlier in the game, or after it lost a
    Lieutenant on one: a side that opens bombs with Miners makes its walker
    at our bombs likelier a Miner, one that bumps into them unawares less
    likely, than a side whose strikes on our bombs we have not seen."""
    def miner_after(attacker: str | None) -> float:
        s = edge_walker_position()
        s.apply(1, Move(sq("A5"), sq("A4")))
        s.apply(0, Move(sq("J1"), sq("J2")))
        s.apply(1, Move(sq("A4"), sq("A3")))     # next to our bomb on A2
        if attacker is not None:
            s.strikes.append(Strike(1, 1, sq("G2"), sq("G1"), attacker, "B", attacker == "8", attacker != "8",
                                    True, False))
        return Belief(s.observation(0), 0).marginals(random.Random(4), 600).p(sq("A3"), "8")

    plain, opener, bumper = miner_after(None), miner_after("8"), miner_after("6")
    assert opener > plain + 0.1
    assert bumper < plain - 0.1
    assert miner_after("9") == plain        # a Scout's probe says nothing of what walks up


def test_a_piece_that_walks_up_to_our_bomb_wall_is_likelier_a_miner():
    s = edge_walker_position()

    def miner() -> float:
        return Belief(s.observation(0), 0).marginals(random.Random(4), 600).p(sq("A3"), "8")

    s.apply(1, Move(sq("A5"), sq("A4")))
    s.apply(0, Move(sq("J1"), sq("J2")))
    s.apply(1, Move(sq("A4"), sq("A3")))     # next to our bomb on A2
    near = miner()
    assert near > 0.4      # four hidden movers, one a Miner: a quarter without the walk
    # and a defender heads for it before the bomb falls
    from doors.stratego.search import bfs
    home = bfs([sq("A3")])
    move = make_bot(5, 1).choose(s.observation(0), 0)
    assert move.frm == sq("F3") and home[move.to] < home[move.frm], move


def walled_position(quiet: int) -> StrategoState:
    """Our General on E1 walled in at home by our own unmoved pieces (bombs
    on D1 and F1, a Captain on E2); their Marshal and General gone, so it
    beats all they have left: a Lieutenant that moved, far off on H5, and
    a Sergeant by their flag. Our Sergeant on J1 has moved. ``quiet``
    plies played since the last strike."""
    pieces = {"A1": (0, "F"), "B1": (0, "B"), "A2": (0, "B"), "D1": (0, "B"), "F1": (0, "B"),
              "E1": (0, "2"), "E2": (0, "5"), "J1": (0, "7"),
              "A10": (1, "F"), "B10": (1, "B"), "A9": (1, "B"), "C10": (1, "7"), "H5": (1, "6")}
    s = position(pieces)
    moved(s, "H5")
    s.board[sq("J1")] = s.board[sq("J1")]._replace(moved=True)
    lake = sq("C5")     # moves with no square of the board in play: only their count matters
    s.moves = [(i % 2, lake, lake) for i in range(quiet)]
    return with_losses(s)


def test_a_walled_in_hunter_has_its_way_freed():
    """Once the game has gone quiet, the General that beats all they have
    left sets out, and the Captain walling it in steps aside first: its
    first move costs nothing (``FIRST_MOVE_COST``). While strikes still
    come, the Captain stays and keeps its secret."""
    for quiet, frees in ((QUIET, True), (QUIET - 2, False)):
        s = walled_position(quiet)
        for seed in range(3):
            move = make_bot(5, seed).choose(s.observation(0), 0)
            assert (move.frm == sq("E2")) == frees, (quiet, seed, move)
