"""Position evaluation for the Towers bots (pure; rules API only).

Scores are in line-of-sight points from one player's view. ``place_effect``
says how a tower put on an empty square changes both players' points (its
own new pairs, minus the enemy pair it splits); moving a tower is removing it
(the negative effect at its origin) and placing it at the target.
"""
from __future__ import annotations

from doors._core.game import Player

from .rules import MOVEMENT, PLACEMENT, RAYS, Action, Move, Place, TowersState, tower

__all__ = ["place_effect", "move_gain", "placement_gain", "potential",
           "evaluate_fast", "evaluate_full", "terminal_value", "order_actions"]

WIN = 1_000_000.0
MARGIN_WEIGHT = 100.0
POTENTIAL_WEIGHT = 0.5


def place_effect(cells: bytearray, sq: int, who: Player) -> int:
    """Change of ``who``'s points minus the opponent's if a tower of ``who``
    stood on the (empty) square ``sq``."""
    gain = 0
    rays = RAYS[sq]
    for d in (0, 2):                       # (up, down) then (right, left)
        owners = []
        dists = []
        for ray in (rays[d], rays[d + 1]):
            found, dist = -1, len(ray)
            for i, t in enumerate(ray, 1):
                cell = cells[t]
                if cell:
                    found, dist = (cell - 1) >> 1, i
                    break
            owners.append(found)
            dists.append(dist)
        oa, ob = owners
        if oa == who:
            gain += dists[0] - 1
        if ob == who:
            gain += dists[1] - 1
        if oa >= 0 and oa == ob:           # the pair a-b is split
            split = dists[0] + dists[1] - 1
            gain += -split if oa == who else split
    return gain


def move_gain(cells: bytearray, origin: int, target: int) -> int:
    """Change of the mover's points minus the opponent's for a move."""
    cell = cells[origin]
    who = (cell - 1) >> 1
    cells[origin] = 0
    try:
        return place_effect(cells, target, who) - place_effect(cells, origin, who)
    finally:
        cells[origin] = cell


def placement_gain(cells: bytearray, sq: int, who: Player) -> int:
    return place_effect(cells, sq, who)


def _best_gains(state: TowersState, player: Player) -> list[int]:
    """Best move gain of each of ``player``'s unmoved, mobile towers."""
    cells = state.cells
    mine = tower(player, False)
    gains: list[int] = []
    start = 0
    while True:
        sq = cells.find(mine, start)
        if sq < 0:
            return gains
        start = sq + 1
        cells[sq] = 0
        base = place_effect(cells, sq, player)
        best = None
        for ray in RAYS[sq]:
            for t in ray:
                if cells[t]:
                    break
                g = place_effect(cells, t, player)
                if best is None or g > best:
                    best = g
        cells[sq] = mine
        if best is not None:
            gains.append(best - base)


def potential(state: TowersState, player: Player) -> float:
    """What ``player``'s unmoved towers may still gain (roughly)."""
    return float(sum(_best_gains(state, player)))


def _static(state: TowersState, player: Player) -> float:
    s = state.score()
    return (state.total_margin(player) * 1.0 + s[player] - s[1 - player])


def evaluate_fast(state: TowersState, player: Player) -> float:
    """Finished games' margin plus the current line-of-sight margin."""
    return _static(state, player)


def evaluate_full(state: TowersState, player: Player) -> float:
    """``evaluate_fast`` plus the unmoved towers' prospects; the side to
    move gets its best prospect in full (the tempo)."""
    value = _static(state, player)
    if state.phase == MOVEMENT or state.phase == PLACEMENT:
        mine = _best_gains(state, player)
        theirs = _best_gains(state, 1 - player)
        value += POTENTIAL_WEIGHT * (sum(mine) - sum(theirs))
        if state.turn == player and mine:
            value += (1 - POTENTIAL_WEIGHT) * max(mine)
        elif state.turn == 1 - player and theirs:
            value -= (1 - POTENTIAL_WEIGHT) * max(theirs)
    return value


def terminal_value(state: TowersState, player: Player) -> float:
    """A win is worth ``WIN``; among wins (or losses) the margin counts."""
    out = state.outcome()
    score = out.score if out is not None and out.score else (0, 0)
    margin = score[player] - score[1 - player]
    return state.returns()[player] * WIN + MARGIN_WEIGHT * margin


def order_actions(state: TowersState, player: Player, actions: list[Action]) -> list[Action]:
    """Actions sorted by their immediate gain, best first (stable)."""
    cells = state.cells

    def gain(action: Action) -> int:
        if isinstance(action, Move):
            return move_gain(cells, action.origin, action.target)
        if isinstance(action, Place):
            return place_effect(cells, action.square, player)
        return 0
    return sorted(actions, key=gain, reverse=True)
