"""The Stratego bots: only observations, legal moves, sensible setups."""
from __future__ import annotations

import random
from itertools import pairwise
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from doors._core.game import SIMULTANEOUS
from doors.stratego import INFO, root
from doors.stratego import ai as ai_module
from doors.stratego.ai import Search, StrategoBot, _all_free, make_bot, make_setup
from doors.stratego.belief import R_OF, Belief, unknown_pool
from doors.stratego.pieces import COUNTS, NEIGHBOURS, Fill, Move, Ready
from doors.stratego.rules import Piece, StrategoState
from doors.stratego.search import WIN
from doors.stratego.setup import board_row
from doors.stratego.tables import bfs
from doors.stratego.values import HANG

from .helpers import played_cells, position, random_line, sq, started, undo_line, with_losses
from .test_props import scramble


def test_setup_is_sensible_and_varied():
    seen = set()
    for seed in range(30):
        for player in (0, 1):
            fill = make_setup(player, random.Random(seed))
            grid = dict(fill.placements)
            assert sorted(grid.values()) == sorted(r for r, n in COUNTS.items() for _ in range(n))
            flag = next(s for s, r in grid.items() if r == "F")
            assert flag // 10 == board_row(player, 3), "flag on the back row"
            assert all(grid[n] == "B" for n in NEIGHBOURS[flag] if n in grid), "flag ringed"
            assert _all_free(player, grid)
            marshal, general = (next(s for s, r in grid.items() if r == k) for k in "12")
            assert abs(marshal % 10 - general % 10) >= 2, "Marshal and General two columns apart"
            seen.add(tuple(sorted(grid.items())))
    assert len(seen) == 60


def test_bot_setup_then_ready():
    s = StrategoState({})
    bot = make_bot(3, 1)
    a = bot.choose(s.observation(1), 1)
    assert isinstance(a, Fill)
    s.apply(1, a)
    assert bot.choose(s.observation(1), 1) == Ready()
    s.apply(1, Ready())


def test_bot_sees_only_the_observation():
    """The bot's choice depends on the observation only: with the same seed,
    two games that differ only in hidden enemy ranks give the same move."""
    for seed in range(3):
        state = started(seed)
        rng = random.Random(seed)
        for _ in range(30):
            state.apply(state.turn, rng.choice(state.legal_actions()))
            if state.outcome():
                break
        if state.outcome():
            continue
        me = state.turn
        twin = scramble(state, {1 - me}, random.Random(9))
        for level in (1, 3, 5):
            a = StrategoBot(level, 5, time_cap=None).choose(state.observation(me), me)
            b = StrategoBot(level, 5, time_cap=None).choose(twin.observation(me), me)
            assert a == b and state.why_illegal(me, a) is None


def test_make_bot_signature_and_determinism():
    assert INFO.make_bot is make_bot
    state = started(4)
    a = make_bot(2, 3).choose(state.observation(0), 0)
    b = make_bot(2, 3).choose(state.observation(0), 0)
    assert a == b


def test_bots_play_legal_games():
    state = StrategoState({"scout_strike": 1, "two_square": "tournament"})
    bots = {0: make_bot(2, 1), 1: make_bot(1, 2)}
    plies = 0
    while state.to_move() and state.ply < 150:
        player = state.to_move()[0]
        action = bots[player].choose(state.observation(player), player)
        assert state.why_illegal(player, action) is None, action
        state.apply(player, action)
        plies += 1
    assert state.phase in ("play",) or state.outcome() is not None
    assert plies > 20


def test_belief_respects_facts():
    s = started(7)
    rng = random.Random(1)
    for _ in range(60):
        if s.outcome():
            break
        s.apply(s.turn, rng.choice(s.legal_actions()))
    obs = s.observation(0)
    belief = Belief(obs, 0)
    pool = unknown_pool(obs, 1)
    assert len(pool) == len(obs.hidden_squares(1))
    for k in range(20):
        sample = belief.sample(random.Random(k))
        assert sorted(sample) == sorted(obs.hidden_squares(1))
        assert sorted(sample.values()) == sorted(pool)
        for square, rank in sample.items():
            if obs.squares[square].moved:
                assert rank not in ("B", "F")


def test_search_takes_the_flag_and_avoids_bombs():
    s = position({"A1": (0, "F"), "E4": (0, "8"), "E5": (1, "F"), "D4": (1, "B"),
                  "J10": (1, "B"), "A2": (0, "1"), "A3": (1, "B")})
    s.board[44] = s.board[44]._replace(revealed=True)
    obs = s.observation(0)
    # the flag (revealed here) is taken at once
    move = make_bot(3, 1).choose(obs, 0)
    assert move == Move(34, 44)
    cells = [-1] * 100
    cells[0] = R_OF["F"]
    cells[33] = R_OF["1"]
    cells[34] = 16 + R_OF["B"]
    cells[89] = 16 + R_OF["9"]
    cells[99] = 16 + R_OF["F"]
    search = Search(cells, 0, 2)
    assert search.root_value(0, 33, 34, 2) < search.root_value(0, 33, 23, 2)


def test_at_the_horizon_the_side_to_move_takes_a_revealed_piece_it_beats():
    """Level 5's search stops with their General to move beside our Colonel.
    The Colonel revealed, it counts as taken (``HANG`` of its value: the
    strike is a ply past the horizon); hidden, they do not know what it is
    and it is not. With us to move, our Miner beside their revealed Scout takes it
    the same way, and a piece that does not beat the one beside it takes
    nothing."""
    cells = [-1] * 100
    for name, c in (("A1", R_OF["F"]), ("E4", R_OF["3"]), ("J1", R_OF["8"]), ("E6", 16 + R_OF["2"]),
                    ("J10", 16 + R_OF["F"]), ("J2", 16 + R_OF["9"]), ("B5", R_OF["9"]),
                    ("B6", 16 + R_OF["5"])):
        cells[sq(name)] = c
    theirs = {}
    for shown in (True, False):
        known = {sq("E6"), sq("J2"), sq("B6")} | ({sq("E4")} if shown else set())
        search = Search(list(cells), 0, 2, known=known, hang=HANG)
        search.play(sq("E4"), sq("E5"))     # the Colonel steps beside the General
        theirs[shown] = search.negamax(1, 0, -WIN, WIN) + search.score     # their gain on the board's
        scout = search.val[1][R_OF["9"]]
        assert search.negamax(0, 0, -WIN, WIN) - search.score == pytest.approx(HANG * scout)
        assert HANG * scout > 5
    colonel = search.val[0][R_OF["3"]]
    assert theirs[False] == pytest.approx(0)
    assert theirs[True] == pytest.approx(HANG * colonel)
    assert HANG * colonel > 40


def test_searching_bot_is_bounded_by_its_budget_and_its_time_cap(monkeypatch):
    """The node budget bounds the work on any machine (on a clock that never
    moves the bot still answers); on a machine so slow that one sample takes
    a second, the time cap stops it after that sample. Seconds per move are
    measured by bench/stratego_ai.py, not here."""
    state = started(11)
    obs = state.observation(0)
    monkeypatch.setattr(ai_module, "time", SimpleNamespace(perf_counter=lambda: 0.0))
    frozen = make_bot(5, 1)
    assert frozen.choose(obs, 0) in state.legal_actions(0)
    budget = ai_module.LEVELS[5].budget
    assert 0 < frozen.last_nodes <= 2 * budget     # no sample starts once the budget is spent
    ticks = iter(range(1000))
    monkeypatch.setattr(ai_module, "time", SimpleNamespace(perf_counter=lambda: float(next(ticks))))
    slow = make_bot(5, 1)
    assert slow.choose(obs, 0) in state.legal_actions(0)
    assert 0 < slow.last_nodes < frozen.last_nodes
    assert state.current_player() != SIMULTANEOUS


def test_marshal_does_not_gamble_on_a_hidden_unmoved_piece():
    """A flag guessed in a few samples must not send the marshal into what is
    most likely a bomb (the flag value is capped at the root)."""
    s = position({"A1": (0, "F"), "E9": (0, "1"), "D10": (1, "B"), "E10": (1, "B"),
                  "F10": (1, "F"), "A7": (1, "B"), "J7": (1, "B"), "J1": (0, "B"),
                  "B1": (0, "9")})
    for seed in range(3):
        move = make_bot(5, seed).choose(s.observation(0), 0)
        assert move != Move(84, 94)      # E9xE10: a flag in a third of the guesses


def test_a_search_past_its_node_limit_stops():
    from doors.stratego.search import Spent
    state = started(11)
    cells = [-1] * 100
    for x, piece in enumerate(state.board):
        if piece is not None:
            cells[x] = piece.owner * 16 + R_OF[piece.rank]
    search = Search(cells, 0, 2)
    search.limit = 10
    move = state.legal_actions(0)[0]
    try:
        search.root_value(0, move.frm, move.to, 3)
    except Spent:
        assert search.nodes == 11
    else:
        raise AssertionError("no stop at the node limit")


class _NoKillers(list):
    """A killer table that never remembers a move (the plain search)."""

    def __getitem__(self, depth):
        return None

    def __setitem__(self, depth, move):
        pass


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**6), plies=st.integers(0, 160))
def test_killer_moves_change_no_value(seed, plies):
    """The search tries the quiet move that last cut it off first: every
    root move keeps its value (alpha-beta with any order; one position
    may cost more nodes, the sum costs fewer: below)."""
    cells = played_cells(seed, plies)
    plain = Search(list(cells), 0, 2)
    plain.killers = _NoKillers()
    fast = Search(list(cells), 0, 2)
    roots = [(s, t) for s, t in plain.moves(0)][:12]
    for s, t in roots:       # the incremental score may differ in the last bits
        assert abs(fast.root_value(0, s, t, 3) - plain.root_value(0, s, t, 3)) < 1e-6
    assert fast.b == plain.b == cells


def test_killer_moves_spare_nodes_in_the_middle_game():
    """Summed over middle-game boards of random games: at least a tenth
    fewer nodes for the same values (18 % on these boards; 28 % over
    125 positions of games against ``peternlewis``)."""
    plain_nodes = fast_nodes = 0
    for seed in range(6):
        cells = played_cells(seed, 60)
        plain = Search(list(cells), 0, 2)
        plain.killers = _NoKillers()
        fast = Search(list(cells), 0, 2)
        for s, t in plain.moves(0):
            assert abs(fast.root_value(0, s, t, 3) - plain.root_value(0, s, t, 3)) < 1e-6
        plain_nodes += plain.nodes
        fast_nodes += fast.nodes
    assert fast_nodes < 0.9 * plain_nodes


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), plies=st.integers(0, 160),
       picks=st.lists(st.integers(0, 10_000), min_size=1, max_size=10))
def test_the_searchs_moves_stay_those_of_its_board_through_any_line(seed, plies, picks):
    """The search keeps each side's movable pieces as it plays and undoes
    (strikes, trades and bombs included): after each move its moves are
    those of a search started on that board, and undone it is the root's.
    A strike on the flag, where there is one, comes first (it ends the
    search: searched after the others, it cost an endgame 20 times the
    nodes)."""
    def flag_first(moves: list[tuple[int, int]], side: int) -> bool:
        on_flag = [m for m in moves if search.b[m[1]] == (1 - side) * 16 + R_OF["F"]]
        return not on_flag or moves[0] in on_flag

    cells = played_cells(seed, plies)
    for x in (sq("E4"), sq("F7")):      # a flag of each may stand in reach
        if cells[x] < 0:
            cells[x] = (x // 50) * 16 + R_OF["F"]
    known = {x for x in range(100) if cells[x] >= 0 and x % 3 == 0}     # some revealed, some not
    search = Search(list(cells), 0, 2, known=known)
    shown = tuple(set(x) for x in search.shown)
    start = [sorted(search.moves(p)) for p in (0, 1)]

    def check(s: int, t: int, d: int) -> None:
        fresh = Search(list(search.b), 0, 2)
        for p in (0, 1):
            assert sorted(search.moves(p)) == sorted(fresh.moves(p))
            assert flag_first(search.moves(p), p)
        for p in (0, 1):        # the revealed pieces go where they go; a strike shows both
            assert all(search.b[x] >= 0 and search.b[x] >> 4 == p for x in search.shown[p])
        left = search.b[t]
        if d >= 0 and left >= 0 and 0 < left & 15 < R_OF["B"]:
            assert t in search.shown[left >> 4]

    undo_line(search, random_line(search, picks, check))
    assert search.b == cells
    assert [sorted(search.moves(p)) for p in (0, 1)] == start
    assert search.shown == shown


def test_a_deepening_level_looks_further_only_when_few_pieces_are_left():
    """With ``Level.deepen``, a level searches two or four plies more when a
    sample there costs little: in an endgame of a few pieces, not in the
    opening."""
    import dataclasses
    endgame = position({"A1": (0, "F"), "B1": (0, "B"), "C3": (0, "4"), "H2": (0, "8"),
                        "J10": (1, "F"), "I10": (1, "B"), "E8": (1, "5"), "B8": (1, "7")})
    for state, depth in ((endgame, 7), (started(11), 3)):
        bot = StrategoBot(5, 1, time_cap=None)
        bot.cfg = dataclasses.replace(ai_module.LEVELS[5], deepen=4)
        assert bot.choose(state.observation(0), 0) in state.legal_actions(0)
        assert bot.last_depth == depth


def test_a_deepened_search_keeps_every_sample_within_a_node_limit():
    """An endgame from a game against ``peternlewis`` (our Marshal out on
    its own, their Miner beside our flag): the first sample searched seven
    plies cost a few hundred nodes, so every sample went seven plies deep,
    and one (seed 10) cost a million nodes, 9 s. Now each sample past the
    first has a node limit (``DEEP_LIMIT``): the move stays within twice
    the budget."""
    from doors.stratego.pieces import COLS

    def name(x: int, y: int) -> str:
        return f"{COLS[x]}{y + 1}"

    ours = {"F": [(0, 0)], "B": [(1, 0), (5, 0), (1, 1), (7, 1), (3, 2)], "8": [(2, 0), (3, 0), (6, 0), (7, 0),
            (2, 1)], "9": [(4, 0), (9, 0), (4, 1), (4, 2)], "7": [(8, 0), (3, 1), (8, 1)], "4": [(5, 1), (7, 3)],
            "3": [(6, 1)], "5": [(7, 2)], "2": [(6, 3)], "1": [(0, 7)]}
    theirs = {"8": [(0, 1), (6, 9), (7, 9), (9, 9)], "7": [(5, 3), (5, 8), (5, 9)], "4": [(8, 4)], "6": [(3, 6)],
              "1": [(5, 6)], "B": [(2, 8), (3, 8), (6, 8), (8, 8), (1, 9), (8, 9)], "2": [(7, 8)], "S": [(2, 9)],
              "F": [(3, 9)], "3": [(4, 9)]}
    pieces = {name(x, y): (0, r) for r, squares in ours.items() for x, y in squares}
    pieces.update({name(x, y): (1, r) for r, squares in theirs.items() for x, y in squares})
    s = position(pieces)
    for x, y in ((0, 1), (5, 3), (8, 4), (5, 6), (0, 7), (1, 9), (9, 9), (6, 3), (7, 3)):
        piece = s.board[y * 10 + x]
        s.board[y * 10 + x] = piece._replace(moved=piece.rank != "B" and (x, y) != (9, 9),
                                             revealed=(x, y) not in ((6, 3), (7, 3)))
    with_losses(s)
    budget = ai_module.LEVELS[5].budget
    depths = set()
    for seed in (9, 10, 11):
        bot = StrategoBot(5, seed, time_cap=None)
        assert bot.choose(s.observation(0), 0) in s.legal_actions(0)
        assert bot.last_nodes <= 2 * budget, (seed, bot.last_nodes)
        depths.add(bot.last_depth)
    assert 7 in depths


def test_with_every_line_lost_our_defender_still_goes_for_the_intruder():
    """Their Miner, known, stands beside our flag (A1) and our nearest
    piece that beats it is three steps off: every line loses the flag. Far
    ahead in material (a score past the tie-break's bound, which once made
    every move equal), the General still steps towards the Miner: their
    player may not know it stands beside our flag. The tie-break's steps
    are a fraction of a point and no noise is added to them: with level 5's
    noise, seed 48 of these 60 took a Colonel's step (24 samples), seed 1 a
    Captain's (36 samples)."""
    s = position({"A1": (0, "F"), "B1": (0, "B"), "D3": (0, "2"), "J1": (0, "1"), "I1": (0, "3"),
                  "H1": (0, "3"), "G1": (0, "4"), "F1": (0, "4"), "E1": (0, "5"), "A2": (1, "8"),
                  "J10": (1, "F"), "I10": (1, "B"), "J9": (1, "B"), "E9": (1, "9")})
    for name in ("D3", "A2", "E9"):
        piece = s.board[sq(name)]
        s.board[sq(name)] = piece._replace(moved=True, revealed=name != "E9")
    with_losses(s)
    towards = {Move(sq("D3"), sq("C3")), Move(sq("D3"), sq("D2"))}
    for seed in range(60):
        bot = StrategoBot(5, seed, time_cap=None)
        assert bot.choose(s.observation(0), 0) in towards, seed


def _stalled(plies: int, ahead: bool = False) -> StrategoState:
    """Both sides walk one piece round a square of four for ``plies`` plies,
    no strike made; Red's Scout on E4 sees Blue's unmoved Captain on E7.
    ``ahead``: Red also has its Marshal and two Colonels at home, Blue
    its Spy (so no piece of Red's beats all Blue has left)."""
    red = dict.fromkeys(("C1", "D1", "E1", "F1", "G1", "H1", "I1", "J1", "C2", "D2", "E2", "F2"))
    blue = dict.fromkeys(("A10", "B10", "C10", "D10", "E10", "F10", "G10", "H10", "C9", "D9"))
    pieces = {sq: (0, r) for sq, r in zip(red, "665488393975", strict=True)}
    pieces |= {sq: (1, r) for sq, r in zip(blue, "3989659856", strict=True)}
    pieces |= {"A1": (0, "F"), "B1": (0, "B"), "A2": (0, "B"), "E4": (0, "9"), "J3": (0, "7"),
               "J10": (1, "F"), "I10": (1, "B"), "J9": (1, "B"), "E7": (1, "6"), "F8": (1, "5"),
               "G8": (1, "4"), "A8": (1, "7")}
    if ahead:
        pieces |= {"G2": (0, "1"), "H2": (0, "3"), "I2": (0, "3"), "H9": (1, "S")}
    s = with_losses(position(pieces, scout_strike=2))
    return _walk_rounds(s, (["J3", "J4", "I4", "I3"], ["A8", "A7", "B7", "B8"]), plies)


def _walk_rounds(s: StrategoState, rounds: tuple[list[str], list[str]], plies: int) -> StrategoState:
    """Red and Blue in turn each walk one piece round its square of four
    (``rounds``) for ``plies`` plies, no strike made."""
    struck = s.last_strike
    for i in range(plies):
        walk = rounds[i % 2]
        k = i // 2 % 4
        s.apply(i % 2, Move(sq(walk[k]), sq(walk[(k + 1) % 4])))
    assert s.last_strike is struck and s.turn == 0
    return s


def _scout_probes(state: StrategoState, seed: int) -> bool:
    """Red's level-5 move strikes an unmoved hidden piece with a Scout."""
    obs = state.observation(0)
    m = make_bot(5, seed, time_cap=None).choose(obs, 0)
    mine, target = obs.squares[m.frm], obs.squares[m.to]
    return mine.rank == "9" and target is not None and target.rank is None \
        and not target.moved


def test_a_stalled_game_sends_a_scout_to_show_an_unmoved_piece():
    """Once ``STALL`` plies have passed without a strike, a Scout strikes an
    unmoved hidden piece to see what stands there; before, none throws
    itself away."""
    early = _stalled(root.STALL - 20)
    late = _stalled(root.STALL)
    for seed in range(3):
        assert not _scout_probes(early, seed)
        assert _scout_probes(late, seed)


def test_a_quiet_game_well_ahead_sends_a_scout_to_show_an_unmoved_piece():
    """Well ahead (``LEAD``), a quiet game (``QUIET`` plies without a
    strike) is probed as a stalled one is: the Scout on E4 strikes the
    unmoved piece it sees on E7; what it shows, our stronger pieces take.
    Not sooner, and not when the sides are even (that waits for the
    stall)."""
    def probes(state: StrategoState, seed: int) -> bool:
        m = make_bot(5, seed, time_cap=None).choose(state.observation(0), 0)
        return (m.frm, m.to) == (sq("E4"), sq("E7"))
    assert root.ahead(_stalled(0, ahead=True).observation(0), 0)
    assert root.probing(_stalled(root.QUIET, ahead=True).observation(0), 0)
    assert not root.ahead(_stalled(0).observation(0), 0)
    for seed in range(3):
        assert probes(_stalled(root.QUIET, ahead=True), seed)
        assert not probes(_stalled(root.QUIET - 20, ahead=True), seed)
        assert not probes(_stalled(root.QUIET), seed)


def test_a_stalled_game_stays_stalled_after_one_strike():
    """A strike now and then does not open a stalled game: 20 plies after
    a Sergeant took a Scout that had stood shown since the start, a
    ``STALL`` of quiet plies before, the Scout still strikes the unmoved
    hidden piece; 20 plies before the stall, it does not."""
    late = _stalled(root.STALL)        # Red's Sergeant ends on I4, Blue's walker on B7
    late.board[sq("I5")] = Piece(1, "9", revealed=True)
    late.lost[1].remove("9")
    late.apply(0, Move(sq("I4"), sq("I5")))
    late.apply(1, Move(sq("B7"), sq("B8")))
    assert late.last_strike is not None and late.last_strike.defender == "9"
    late = _walk_rounds(late, (["I5", "J5", "J4", "I4"], ["B8", "A8", "A7", "B7"]), 20)
    for seed in range(3):
        assert _scout_probes(late, seed)
        assert not _scout_probes(_stalled(root.STALL - 20), seed)


def test_a_side_that_never_strikes_leaves_the_game_stalled():
    """Their side never comes out: our Sergeant takes eight of their shown
    pieces in a row after a ``STALL`` of quiet plies, they strike nothing,
    and the Scout on E4 still probes the unmoved piece on E7. The strikes
    were all ours: for their side, that struck nothing, the game is not
    stalled."""
    late = _stalled(root.STALL)        # Red's Sergeant ends on I4, Blue's walker on B7
    prey = {"I5": "9", "I6": "9", "I7": "9", "I8": "9", "J8": "9", "J7": "8", "J6": "8", "J5": "8"}
    for name, rank in prey.items():
        late.board[sq(name)] = Piece(1, rank, revealed=True)
        late.lost[1].remove(rank)
    path = ["I4", *prey]
    walker = ["B7", "B8", "A8", "A7"]
    for i, (frm, to) in enumerate(pairwise(path)):
        late.apply(0, Move(sq(frm), sq(to)))
        assert late.last_strike is not None and late.last_strike.player == 0
        late.apply(1, Move(sq(walker[i % 4]), sq(walker[(i + 1) % 4])))
    assert len(late.strikes) == len(prey) > root.STALL_STRIKES
    assert root.is_stalled(late.observation(0), 0)
    assert not root.is_stalled(late.observation(1), 1)
    for seed in range(3):
        assert _scout_probes(late, seed)


def _circled(plies: int, sergeant: str = "E6") -> StrategoState:
    """Blue's Captain steps from E8 to E7 (beside Red's Sergeant on E6, by
    default); then both sides walk one piece round a square of four for ``plies``
    plies, no strike made. Red has no Scout; Blue's hidden pieces are
    mostly officers, so the Captain is likely to beat the Sergeant."""
    red = dict.fromkeys(("C1", "D1", "E1", "F1", "G1", "H1", "I1", "J1", "C2", "D2", "E2", "F2"))
    blue = dict.fromkeys(("A10", "B10", "C10", "D10", "E10", "F10", "G10", "H10", "C9", "D9"))
    pieces = {sq: (0, r) for sq, r in zip(red, "665488373775", strict=True)}
    pieces |= {sq: (1, r) for sq, r in zip(blue, "33442155S6", strict=True)}
    pieces |= {"A1": (0, "F"), "B1": (0, "B"), "A2": (0, "B"), sergeant: (0, "7"), "J3": (0, "5"),
               "J10": (1, "F"), "I10": (1, "B"), "J9": (1, "B"), "E8": (1, "5"), "F8": (1, "6"),
               "G8": (1, "4"), "A8": (1, "7")}
    s = with_losses(position(pieces, scout_strike=2))
    s.apply(0, Move(sq("J3"), sq("J4")))
    s.apply(1, Move(sq("E8"), sq("E7")))
    return _walk_rounds(s, (["J4", "I4", "I3", "J3"], ["A8", "A7", "B7", "B8"]), plies - 2)


def test_a_stalled_game_sends_a_cheap_piece_at_a_hidden_one_that_moved():
    """Once ``STALL`` plies have passed without a strike, a Sergeant strikes
    the hidden piece that walked up beside it and stays there (no Scout of
    ours can reach one); before, it leaves it be."""
    def probes(state: StrategoState, seed: int) -> bool:
        m = make_bot(5, seed, time_cap=None).choose(state.observation(0), 0)
        return (m.frm, m.to) == (sq("E6"), sq("E7"))
    early = _circled(root.STALL - 20)
    late = _circled(root.STALL)
    for seed in range(3):
        assert not probes(early, seed)
        assert probes(late, seed)


def test_a_stalled_game_walks_a_cheap_piece_up_to_a_hidden_one():
    """Once ``STALL`` plies have passed without a strike, a cheap piece
    (Red's Sergeants, three steps or more short of any hidden piece: past
    what the search sees of a strike) sets out towards the nearest one,
    its first move no longer held back; before, none does."""
    def walks(state: StrategoState, seed: int) -> bool:
        obs = state.observation(0)
        m = make_bot(5, seed, time_cap=None).choose(obs, 0)
        near = bfs(obs.hidden_squares(1))
        return obs.squares[m.frm].rank in ("9", "7", "6") and near[m.to] < near[m.frm]
    early = _circled(root.STALL - 20, sergeant="E3")
    late = _circled(root.STALL, sergeant="E3")
    for seed in range(3):
        assert not walks(early, seed)
        assert walks(late, seed)


def _walled(plies: int, even: bool = True) -> StrategoState:
    """An endgame: Blue has a Captain it has shown, walking round A8, and
    its flag on J10 walled in by two bombs it has shown; Red has two
    unmoved Miners far off on H1 and I1, its Lieutenant walking round J3
    and a Sergeant at home, none of which beats the Captain. ``even``:
    Blue also has a shown Major at home (A10), so Red is not ahead."""
    pieces = {"A1": (0, "F"), "B1": (0, "B"), "A2": (0, "B"), "H1": (0, "8"), "I1": (0, "8"),
              "J3": (0, "6"), "C1": (0, "7"), "J10": (1, "F"), "A8": (1, "5"),
              "I10": (1, "B"), "J9": (1, "B"), **({"A10": (1, "4")} if even else {})}
    s = with_losses(position(pieces, scout_strike=2))
    for name in ("I10", "J9", "A8", *(("A10",) if even else ())):
        s.board[sq(name)] = s.board[sq(name)]._replace(revealed=True)
    return _walk_rounds(s, (["J3", "J4", "I4", "I3"], ["A8", "A7", "B7", "B8"]), plies)


def test_a_stalled_endgame_sends_a_miner_to_a_flag_walled_in_by_bombs():
    """Once ``STALL`` plies have passed without a strike, with few hidden
    pieces of theirs left unmoved, a Miner sets out for the one that
    shown bombs wall in (only a Miner gets there, through a bomb);
    before, none leaves home. Well ahead (``LEAD``), it sets out at once:
    a busy game runs out of turns before it stalls."""
    def sets_out(state: StrategoState, seed: int) -> bool:
        obs = state.observation(0)
        m = make_bot(5, seed, time_cap=None).choose(obs, 0)
        near = bfs([sq("J10")])
        return obs.squares[m.frm].rank == "8" and near[m.to] < near[m.frm]
    early = _walled(root.STALL - 20)
    late = _walled(root.STALL)
    ahead = _walled(20, even=False)
    for seed in range(3):
        assert not sets_out(early, seed)
        assert sets_out(late, seed)
        assert sets_out(ahead, seed)


def _bomb_wall(plies: int, shown: bool = True) -> StrategoState:
    """A middle game: Blue's flag in its corner (J10) behind two bombs
    (J9, I10), and a third (I9) beside I10; with ``shown``, Blue has shown
    J9 and I9. Twelve more of Blue's pieces stand unmoved and hidden on
    its back rows, so this is no endgame (``MINER_HIDDEN``). Red's two
    unmoved Miners (H1, I1) are far off, and it has no probe; Red is not
    ahead. Both sides walk a Captain round a square of four for ``plies``
    plies, no strike made."""
    pieces = {"A1": (0, "F"), "B1": (0, "B"), "A2": (0, "B"), "H1": (0, "8"), "I1": (0, "8"),
              "C3": (0, "5"),
              "J10": (1, "F"), "J9": (1, "B"), "I10": (1, "B"), "I9": (1, "B"), "A7": (1, "5"),
              **{f"{c}10": (1, r) for c, r in zip("ABCDEFGH", "55443679", strict=True)},
              **{f"{c}9": (1, r) for c, r in zip("ABCD", "9B87", strict=True)}}
    s = with_losses(position(pieces, scout_strike=2))
    for name in ("A7", *(("J9", "I9") if shown else ())):
        s.board[sq(name)] = s.board[sq(name)]._replace(revealed=True)
    return _walk_rounds(s, (["C3", "C4", "D4", "D3"], ["A7", "A6", "B6", "B7"]), plies)


def test_a_stalled_game_sends_a_miner_to_a_shown_bomb_wall():
    """Once the game has stalled, a Miner sets out for the hidden pieces
    beside the bombs they have shown, though many of their pieces are
    still hidden: a bomb wall keeps a flag, and only a Miner goes through.
    Before the stall, or while their bombs are hidden, no Miner leaves."""
    def sets_out(state: StrategoState, seed: int) -> bool:
        obs = state.observation(0)
        m = make_bot(5, seed, time_cap=None).choose(obs, 0)
        near = bfs([sq("J10")])
        return obs.squares[m.frm].rank == "8" and near[m.to] < near[m.frm]
    for seed in range(3):
        assert sets_out(_bomb_wall(root.STALL), seed)
        assert not sets_out(_bomb_wall(root.STALL - 20), seed)
        assert not sets_out(_bomb_wall(root.STALL, shown=False), seed)


def _even_armies(extra: dict[str, tuple[int, str]]) -> StrategoState:
    """Even armies with no probe (no Scout, Sergeant or Lieutenant) on
    Red's side: Red's General (E3) and Colonels (I1, J1) at home, unmoved;
    Blue's Marshal (D10) hidden and alive, so no piece of Red's beats all
    Blue has left; ``extra`` pieces added or put in place of others."""
    red = dict.fromkeys(("C1", "D1", "E1", "F1", "G1", "H1", "I1", "J1", "C2", "D2", "E2"))
    blue = dict.fromkeys(("A10", "B10", "C10", "E10", "F10", "G10", "H10", "C9", "D9", "E9", "F9"))
    pieces = {s: (0, r) for s, r in zip(red, "88445533884", strict=True)}
    pieces |= {s: (1, r) for s, r in zip(blue, "98659856398", strict=True)}
    pieces |= {"A1": (0, "F"), "B1": (0, "B"), "A2": (0, "B"), "E3": (0, "2"), "J3": (0, "5"),
               "J10": (1, "F"), "I10": (1, "B"), "J9": (1, "B"), "D10": (1, "1"), "A8": (1, "7")}
    return with_losses(position(pieces | extra, scout_strike=2))


def _shown_major(plies: int) -> StrategoState:
    """``_even_armies``, with Blue's Major shown on H7. Both sides walk
    one piece round a square of four for ``plies`` plies, no strike made."""
    s = _even_armies({})
    s.board[sq("H7")] = Piece(1, "4", moved=True, revealed=True)
    s.lost[1].remove("4")
    return _walk_rounds(s, (["J3", "J4", "I4", "I3"], ["A8", "A7", "B7", "B8"]), plies)


def test_a_stalled_game_sends_a_piece_after_a_shown_one_it_beats():
    """Once the game has stalled, a piece of ours that beats a shown piece
    of theirs (striking it and struck by it) sets out for it, though no
    piece of ours beats all they have left: a Colonel leaves home towards
    their Major. Probes alone do not open a game against a side that never
    comes out; its shown pieces are what our officers can take. Before the
    stall, none of our officers leaves home."""
    def sets_out(state: StrategoState, seed: int) -> bool:
        obs = state.observation(0)
        m = make_bot(5, seed, time_cap=None).choose(obs, 0)
        mine = obs.squares[m.frm]
        near = bfs([sq("H7")])
        return mine.rank in ("2", "3") and not mine.moved and near[m.to] < near[m.frm]
    for seed in range(3):
        assert sets_out(_shown_major(root.STALL), seed)
        assert not sets_out(_shown_major(root.STALL - 20), seed)


def _beside_lieutenant(plies: int) -> StrategoState:
    """``_even_armies`` with Blue's Spy (A9) and a Major (A10, for a Scout)
    hidden; Red's Marshal, hidden, has walked up to E5, and Blue's
    Lieutenant stands shown beside it on E6 with no other piece of Blue's
    beside either. Both sides walk one piece round a square of four for
    ``plies`` plies, no strike made."""
    s = _even_armies({"A9": (1, "S"), "A10": (1, "4")})
    s.board[sq("E5")] = Piece(0, "1", moved=True)
    s.board[sq("E6")] = Piece(1, "6", moved=True, revealed=True)
    s.lost[0].remove("1")
    s.lost[1].remove("6")
    return _walk_rounds(s, (["J3", "J4", "I4", "I3"], ["A8", "A7", "B7", "B8"]), plies)


def test_a_stalled_game_shows_our_marshal_to_take_a_shown_piece():
    """Our hidden Marshal beside their shown Lieutenant: while the game is
    only quiet it stays hidden (showing it would let their officers
    know which of our moved pieces to keep off); once the game has
    stalled it takes the Lieutenant, for their officers are not coming
    and hidden beside its prey it would wait out the game."""
    take = Move(sq("E5"), sq("E6"))
    for seed in range(3):
        assert make_bot(5, seed, time_cap=None).choose(_beside_lieutenant(root.STALL).observation(0), 0) == take
        assert make_bot(5, seed, time_cap=None).choose(
            _beside_lieutenant(root.STALL - 20).observation(0), 0) != take


def _last_wall(lead: bool) -> StrategoState:
    """Red's Miner (J8) beside the shown bomb (J9) that, with another (I10),
    walls in Blue's corner (J10); Blue's shown Lieutenant (I8) is beside
    the Miner, which may flee up the J file. Blue's other unmoved hidden
    pieces: A10, B10. ``lead``: Red also has its Marshal, General and
    Colonel (far off, A3 to C3), a lead of some 400 points."""
    pieces = {"A1": (0, "F"), "B1": (0, "B"), "A2": (0, "B"), "J8": (0, "8"), "E2": (0, "7"),
              "J10": (1, "F"), "I10": (1, "B"), "J9": (1, "B"), "I8": (1, "6"), "A10": (1, "B"),
              "B10": (1, "7"),
              **({"A3": (0, "1"), "B3": (0, "2"), "C3": (0, "3")} if lead else {})}
    s = with_losses(position(pieces, scout_strike=2))
    for name in ("I10", "J9", "I8"):
        s.board[sq(name)] = s.board[sq(name)]._replace(revealed=True)
    s.board[sq("J8")] = s.board[sq("J8")]._replace(moved=True)
    s.board[sq("I8")] = s.board[sq("I8")]._replace(moved=True)
    return s


def test_a_lead_does_not_make_the_miner_walk_away_from_the_flag():
    """Taking the bomb wins next move wherever their flag is the corner
    piece (the Lieutenant cannot reach our Miner in between); fleeing
    keeps the Miner. Ahead or not, the Miner takes the bomb: a flag line
    deeper than one move counts on top of the lead it ends, not in its
    place (before, with a lead, the flag line scored below playing on)."""
    take = Move(sq("J8"), sq("J9"))
    for lead in (False, True):
        obs = _last_wall(lead).observation(0)
        for seed in range(3):
            assert make_bot(5, seed, time_cap=None).choose(obs, 0) == take


def _walled_in(plies: int) -> StrategoState:
    """Red's only probes, a Lieutenant and a Sergeant (J1, J2), are walled
    in by Red's own unmoved pieces (I1, I2, J3); Blue's unmoved Scout on J7
    is the nearest hidden piece. Both sides walk a Captain round a square of
    four for ``plies`` plies, no strike made."""
    pieces = {"A1": (0, "F"), "B1": (0, "B"), "A2": (0, "B"), "I1": (0, "5"),
              "J1": (0, "6"), "J2": (0, "7"), "I2": (0, "4"), "J3": (0, "5"), "C3": (0, "5"),
              "D1": (0, "1"), "E1": (0, "3"),
              "A10": (1, "F"), "B10": (1, "B"), "A9": (1, "B"), "J7": (1, "9"), "E8": (1, "4"),
              "F8": (1, "3"), "D10": (1, "2"), "A7": (1, "5"), "E10": (1, "1"), "G8": (1, "3"),
              "H8": (1, "4"), "C10": (1, "5"), "F10": (1, "8")}
    s = with_losses(position(pieces, scout_strike=2))
    return _walk_rounds(s, (["C3", "C4", "D4", "D3"], ["A7", "A6", "B6", "B7"]), plies)


def test_a_stalled_game_frees_the_way_of_a_walled_in_probe():
    """In a stalled game, our probes walled in by our own unmoved pieces
    have their way freed: a piece beside them moves first at no cost, so
    one of the wall steps aside. Before the stall, the wall stays (a first
    move shows the piece is no bomb) and the Captain walks on."""
    walls = {sq("I1"), sq("I2"), sq("J3")}

    def frees(state: StrategoState, seed: int) -> bool:
        return make_bot(5, seed, time_cap=None).choose(state.observation(0), 0).frm in walls
    for seed in range(3):
        assert frees(_walled_in(root.STALL), seed)
        assert not frees(_walled_in(root.STALL - 20), seed)


def _general_boxed_in(beside: tuple[int, str]) -> StrategoState:
    """Red's shown General deep on E9 with no empty square to step to: its
    own Miner (E8) and Sergeant (F9) on two sides, Blue's unmoved hidden
    E10 behind it (among four unmoved pieces, two of them bombs) and
    ``beside`` on D9, shown."""
    s = with_losses(position({"A1": (0, "F"), "B1": (0, "B"), "A2": (0, "B"),
                              "E9": (0, "2"), "E8": (0, "8"), "F9": (0, "7"),
                              "A10": (1, "F"), "B10": (1, "B"), "E10": (1, "B"), "J10": (1, "9"),
                              "D9": beside}))
    for name in ("E9", "D9"):
        piece = s.board[sq(name)]
        s.board[sq(name)] = Piece(piece.owner, piece.rank, moved=True, revealed=True)
    return s


def test_a_boxed_in_general_beside_their_marshal_takes_the_gamble_on_a_hidden_piece():
    """The risk rule keeps our General off an unmoved hidden piece that may
    be a bomb. Boxed in beside their shown Marshal, the General is lost if
    it stays, so the strike on the hidden piece is its better chance and it
    takes it. Boxed in beside a piece it beats, it stays off the gamble and
    takes that piece instead."""
    gamble, take = Move(sq("E9"), sq("E10")), Move(sq("E9"), sq("D9"))
    for seed in range(3):
        assert make_bot(5, seed, time_cap=None).choose(_general_boxed_in((1, "1")).observation(0), 0) == gamble
        assert make_bot(5, seed, time_cap=None).choose(_general_boxed_in((1, "5")).observation(0), 0) == take
