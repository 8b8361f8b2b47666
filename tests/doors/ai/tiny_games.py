"""Tiny games for testing the generic AI players."""
from __future__ import annotations

from functools import cache
from typing import Any

from doors._core.game import GameState, InvalidNotation, Options, Outcome, Player, Termination

TAKES = (1, 2, 3)


class ExtraTurnNim(GameState[int, "ExtraTurnNim"]):
    """Nim on one pile: take 1, 2 or 3 stones; taking the last stone wins.
    Leaving a non-zero multiple of 5 stones gives the mover another turn, so
    the players do not simply alternate."""

    key = "extra_turn_nim"

    def __init__(self, options: Options):
        super().__init__(options)
        self.pile = int(self.options.get("pile", 10))
        self.turn: Player = int(self.options.get("first", 0))
        self.winner: Player | None = None

    def _to_move(self) -> tuple[Player, ...]:
        return (self.turn,)

    def _legal(self, player: Player) -> list[int]:
        return [k for k in TAKES if k <= self.pile]

    def _apply(self, player: Player, action: int) -> None:
        self.pile -= action
        if self.pile == 0:
            self.winner = player
        elif self.pile % 5 != 0:
            self.turn = 1 - player

    def outcome(self) -> Outcome | None:
        if self.winner is None:
            return None
        return Outcome(self.winner, Termination.RULES, "last stone taken")

    def observation(self, player: Player | None) -> ExtraTurnNim:
        return self.clone()

    def clone(self) -> ExtraTurnNim:
        new = ExtraTurnNim(self.options)
        new.pile, new.turn, new.winner = self.pile, self.turn, self.winner
        new.history = list(self.history)
        return new

    def key_for_tt(self) -> tuple[int, int]:
        return self.pile, self.turn

    def action_to_str(self, action: int) -> str:
        return str(action)

    def parse_action(self, text: str) -> int:
        if text not in ("1", "2", "3"):
            raise InvalidNotation(text)
        return int(text)


@cache
def mover_wins(pile: int) -> bool:
    """Exact solution of ExtraTurnNim: does the player to move win?"""
    return bool(winning_takes(pile))


def winning_takes(pile: int) -> list[int]:
    out = []
    for k in TAKES:
        if k > pile:
            continue
        left = pile - k
        if left == 0 or (mover_wins(left) if left % 5 == 0 else not mover_wins(left)):
            out.append(k)
    return out


def alternating_winning_takes(pile: int) -> list[int]:
    """What a search that assumed alternation would believe wins."""
    return [k for k in TAKES if k <= pile and (pile - k) % 4 == 0]


def nim_eval(state: GameState[Any, Any], player: Player) -> float:
    """A deliberately uninformative evaluation."""
    return 0.0
