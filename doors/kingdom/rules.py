"""Kingdom: a 19x19 chess variant with rocks, crushing, castles and
double-jumping knights (rules: /work/shared/RULES.md "Kingdom" and the seed
002_dc6841c2cf0ca38f.txt). The board and move generator live in
``position.py``; this module is the ``GameState`` (options, record, text).

Player 0 (the challenger) moves first and starts at the bottom (rank 1);
player 1 starts at the top (rank 19). Squares are named a1..s19 for both.

Actions (``Move``): "k10-k12" (a move; for a pushing bishop/rook the
square where the pusher ends), "e3-f5-g7" (knight double jump through f5),
"a18-a19=Q" (promotion, Q B N or R), "pass".

Decisions (where the source is silent or unclear):
 1. Attacked square (for the king): a square an enemy piece could move to
    by a legal move taking our king there: queen/bishop/rook lines, a
    pawn's forward diagonals, a pawn pushed onto it by a friendly pawn
    right behind it (strength in numbers), a knight's single jumps and
    double jumps (first landing empty or one of our Q/B/N/P), the enemy
    king's neighbours and a castle's diagonal neighbours (its king steps
    out) when that king would be safe there himself. The castle proper
    takes nothing. Rock crushes do not count: the rock moves, not a piece.
 2. The king may never step onto an attacked square, even to take the
    enemy king. A king move that does not move him (converting a rook) has
    no such limit; nor does stepping into his own rook (a castle cannot be
    put in check).
 3. A king attacking an enemy rook moves onto it (destroying it) when the
    square is safe and either he is in check or the rook was converted by
    the previous move; otherwise the rook is converted and he stays.
 4. "Attacked twice in two moves": a rook converted by a move is destroyed
    if any piece attacks it on the very next move (a pass ends the chance);
    the attacker moves in. The rule does not apply to castles.
 5. Knight double jump: the first landing must be empty or hold an enemy
    queen, bishop, knight or pawn (taken on the way); a rook, castle or
    king there ends the move, so only a single jump may land on it. The
    second landing may hold any enemy piece and may not be the knight's
    own start square. Landing on an enemy rook converts it: a single jump
    leaves the knight at home, a double jump at the first square (source).
 6. Rocks are pushed by bishops and rooks for as long as they move (the
    rock travels ahead of them), by pawns one square. Only enemy pieces can
    be crushed: pawns always; kings, queens, bishops, knights only with a
    rock, or the board's edge, right behind them in the push direction.
    A rock never leaves the board, never moves onto a rock, rook or castle.
 7. A rook leaving a square that is between two rocks or a rock and the
    edge (on its row or its column) always leaves a new rock there; it does
    not when it stays put (converting a rook) or dies (breaking a castle).
 8. A castle taken by an enemy rook: both rooks are removed, the king stays
    on the square, now a plain king. By any other piece: the game is over.
 9. Castle: the king steps out diagonally to an empty square or onto an
    enemy piece that is not a rook (king rules apply: the square must be
    safe); he moves straight into an own rook on any of the 8 neighbours.
10. Pawns: forward 1-4 squares ("Pawns Push": 1) into empty squares; take
    one square diagonally forward; push a rock one square left,
    forward-left, forward, forward-right or right (moving into its square);
    push an adjacent pawn (either side) one square forward, back, left or
    right, into an empty square; a pushed friendly pawn may instead take
    the enemy piece there (strength in numbers). An enemy pawn may not be
    pushed onto its own promotion rank. Pushes only reach adjacent things.
11. Promotion: a pawn of the mover that ends the move on the far rank
    (moving or pushed forward by a friend) becomes the piece named in the
    action (the player's panel choice); such a move without a piece is
    refused ("Choose the promotion piece").
12. The game ends when a king (or the castle holding him) is taken or
    crushed. A player may always pass; two passes in a row end the game
    as a draw (so two bots cannot stall forever).
"""
from __future__ import annotations

import re

from doors._core.game import GameState, InvalidNotation, Options, Outcome, Player, Termination

from . import boards
from .position import KIND_LETTERS, NSQ, PASS, Move, Position, parse_square, square_name

__all__ = ["KingdomState", "Move", "PASS"]

_MOVE_RE = re.compile(r"([a-s]\d{1,2})(?:-([a-s]\d{1,2}))?-([a-s]\d{1,2})(?:=([qbnr]))?")


class KingdomState(GameState[Move, "KingdomState"]):
    """A game of Kingdom; every player sees it all."""

    key = "kingdom"

    def __init__(self, options: Options):
        super().__init__(options)
        self.options.setdefault("board", "default")
        self.options.setdefault("pawns", "move")
        layout = self.options.get("layout")
        if layout:
            board = boards.decode_layout(layout)
        else:
            spec = boards.load_board(str(self.options["board"]))
            board = list(spec.board)
            self.options["layout"] = spec.layout
            self.options.setdefault("title", spec.title)
        steps = 1 if self.options["pawns"] == "push" else 4
        self.pos = Position(board, 0, steps)
        self.captured: tuple[list[str], list[str]] = ([], [])   # letters taken by each
        self.events: list[str] = []                             # what the last move did

    # ----- protocol ---------------------------------------------------------
    def _to_move(self) -> tuple[Player, ...]:
        return (self.pos.turn,)

    def _legal(self, player: Player) -> list[Move]:
        return self.pos.moves()

    def _why_illegal(self, player: Player, action: Move) -> str | None:
        if not isinstance(action, Move):
            return "That is not a Kingdom move."
        if action.is_pass:
            return None if action == PASS else "That is not a Kingdom move."
        if not (0 <= action.frm < NSQ and 0 <= action.to < NSQ):
            return "That square is off the board."
        code = self.pos.board[action.frm]
        if not code & 7 or code >> 4 != player:
            return "You have no piece there."
        legal = self.pos.moves_from(action.frm)
        if action in legal:
            return None
        if any(m.to == action.to and m.mid == action.mid for m in legal):
            return "Choose the promotion piece (queen, bishop, knight or rook)."
        kind = code & 7
        if kind == 1:
            return "The king may not move there (attacked or blocked)."
        if kind == 4 and action.mid >= 0:
            return "The knight cannot make that double jump."
        return f"The {_NAME[kind]} cannot move there."

    def _apply(self, player: Player, action: Move) -> None:
        log: list[str] = []
        taken: list[int] = []
        self.pos.apply(action, log, taken)
        for code in taken:
            self.captured[player].append(KIND_LETTERS[code & 7])
        self.events = log

    def outcome(self) -> Outcome | None:
        pos = self.pos
        if pos.winner is not None:
            reason = next((e for e in reversed(self.events)
                           if e.startswith(("king", "castle"))), "king taken")
            return Outcome(pos.winner, Termination.RULES, reason)
        if pos.draw:
            return Outcome(None, Termination.RULES, "both players passed")
        return None

    def observation(self, player: Player | None) -> KingdomState:
        return self.clone()

    def clone(self) -> KingdomState:
        new = KingdomState.__new__(KingdomState)
        new.options = dict(self.options)
        new.history = list(self.history)
        new.pos = self.pos.copy()
        new.captured = (list(self.captured[0]), list(self.captured[1]))
        new.events = list(self.events)
        return new

    # ----- notation ---------------------------------------------------------
    def action_to_str(self, action: Move) -> str:
        if action.is_pass:
            return "pass"
        text = square_name(action.frm)
        if action.mid >= 0:
            text += "-" + square_name(action.mid)
        text += "-" + square_name(action.to)
        if action.promo:
            text += "=" + action.promo
        return text

    def parse_action(self, text: str) -> Move:
        t = text.strip().lower()
        if t == "pass":
            return PASS
        m = _MOVE_RE.fullmatch(t)
        if not m:
            raise InvalidNotation(f"not a Kingdom move: {text!r}")
        try:
            frm = parse_square(m.group(1))
            mid = parse_square(m.group(2)) if m.group(2) else -1
            to = parse_square(m.group(3))
        except ValueError as err:
            raise InvalidNotation(str(err)) from None
        return Move(frm, to, mid, (m.group(4) or "").upper())

    # ----- helpers for views and bots ---------------------------------------
    @property
    def board(self) -> list[int]:
        return self.pos.board

    def status_text(self) -> str:
        """What the last move did, for the status line."""
        return ", ".join(self.events)


_NAME = {1: "king", 2: "queen", 3: "bishop", 4: "knight", 5: "rook", 6: "castle", 7: "pawn"}
