"""Nim's rules: one pile, take 1 to 3 stones, whoever takes the last wins."""
from __future__ import annotations

from doors._core.game import GameState, InvalidNotation, Options, Outcome, Player, Termination

TAKES = (1, 2, 3)


class NimState(GameState[int, "NimState"]):
    """One pile; an action is how many stones to take. Every player sees
    the whole state, so an observation is a copy of it."""

    key = "nim"

    def __init__(self, options: Options):
        super().__init__(options)
        self.pile = int(self.options.get("pile", 15))
        self.turn: Player = 0
        self.winner: Player | None = None

    def _to_move(self) -> tuple[Player, ...]:
        return (self.turn,)

    def _legal(self, player: Player) -> list[int]:
        return [take for take in TAKES if take <= self.pile]

    def _apply(self, player: Player, action: int) -> None:
        self.pile -= action
        if self.pile == 0:
            self.winner = player
        self.turn = 1 - player

    def outcome(self) -> Outcome | None:
        if self.winner is None:
            return None
        return Outcome(self.winner, Termination.RULES, "took the last stone")

    def observation(self, player: Player | None) -> NimState:
        return self.clone()

    def clone(self) -> NimState:
        new = NimState(self.options)
        new.pile, new.turn, new.winner = self.pile, self.turn, self.winner
        new.history = list(self.history)
        return new

    def action_to_str(self, action: int) -> str:
        return f"take {action}"

    def parse_action(self, text: str) -> int:
        words = text.split()
        if len(words) != 2 or words[0] != "take" or words[1] not in ("1", "2", "3"):
            raise InvalidNotation(f"not a Nim move: {text!r}")
        return int(words[1])
