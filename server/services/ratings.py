"""The rating book: one Glicko-2 rating per caller per door.

It owns the ratings (a copy in memory for the lobby and game screens, the
record in the store) and rates each finished game once: as the match
records its result, from the match's own facts, in the same transaction
(``finish``); at start, only for games an older release finished unrated.

Which games count: a finished game between two callers, or between a caller
and the computer at a fixed level. A resignation or a forfeit counts as the
loss it is; an aborted game, a game of the computer against itself and a
game of a caller against themselves do not. Nor, so that a rating cannot
be farmed, does a game in which a side made fewer than ``MIN_MOVES``
moves, a game against the computer that the computer finished for the
caller (auto finish), a game between two accounts that logged in from one address
(``addresses.address_key``) in the last ``SHARED_ADDRESS_DAYS`` days, or
the same two callers' game after ``PAIR_PER_DAY`` rated ones in 24 hours.
The reason is kept with the game and told at game over.

The computer's anchors: the computer at a given level does not learn, so it
is not rated from its games but holds a fixed rating, and the callers'
ratings are measured against it. A door that measured its levels against
each other declares the ratings they earned (``DoorInfo.anchors``: its
lowest level 1000, each level above it by the Elo difference its games
against the one below gave). A door without one: the lowest level 1000
(a beginner's strength on the Glicko scale, where a newcomer starts at
1500 with a deviation of 350) and the highest 1800 (a strong club player),
the levels between spaced evenly: 1000, 1200, 1400, 1600, 1800 for a door
with five levels. The anchors' deviation is 50, as for a player whose
strength is well known, so a game against the computer moves a caller's
rating by what the result says about them and never moves the computer.
Fixed anchors also keep the pool from drifting on a board with few callers.
"""
from __future__ import annotations

import asyncio
import dataclasses
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING

from doors import registry
from doors._core.game import Termination
from server.services.glicko2 import Rating, rate_game
from server.services.seats import is_computer
from server.services.store import NewRating, RatingWrite, handle_key
from server.services.store_core import JSONObject

if TYPE_CHECKING:
    from server.services.store import GameRow, Store

__all__ = ["RatingBook", "GameRating", "GameFacts", "computer_anchor", "ANCHOR_LOW", "ANCHOR_HIGH",
           "ANCHOR_DEVIATION", "is_computer"]

log = logging.getLogger("gatehouse.ratings")

ANCHOR_LOW = 1000.0
ANCHOR_HIGH = 1800.0
ANCHOR_DEVIATION = 50.0

MIN_MOVES = 2                   # a game counts once each side made this many moves
SHARED_ADDRESS_DAYS = 30        # accounts seen at one address this recently: not against each other
PAIR_PER_DAY = 3                # rated games of the same two callers in 24 hours


def computer_anchor(door: str, level: int) -> Rating:
    """The fixed rating of the computer at ``level`` in ``door``."""
    info = registry().get(door)
    low, high = info.levels if info is not None else (1, 5)
    level = min(max(level, low), high)
    if info is not None and len(info.anchors) == high - low + 1:
        return Rating(float(info.anchors[level - low]), ANCHOR_DEVIATION, 0.06)
    share = (level - low) / (high - low) if high > low else 1.0
    return Rating(ANCHOR_LOW + share * (ANCHOR_HIGH - ANCHOR_LOW), ANCHOR_DEVIATION, 0.06)


@dataclasses.dataclass(frozen=True)
class GameRating:
    """What one game did to the ratings: ``before``/``after`` per seat
    (None for the computer's seat, or for both when the game is unrated)."""
    game_id: int
    rated: bool
    before: tuple[float | None, float | None] = (None, None)
    after: tuple[float | None, float | None] = (None, None)
    why: str = ""            # why an ended game is not rated ("" if rated, or not told)

    def change(self, player: int) -> float | None:
        b, a = self.before[player], self.after[player]
        return None if b is None or a is None else a - b

    def describe(self, player: int) -> str:
        """"1500 -> 1562 (+62)" for seat ``player``, "" if it did not count."""
        b, a = self.before[player], self.after[player]
        if b is None or a is None:
            return ""
        return f"{b:.0f} -> {a:.0f} ({round(a) - round(b):+d})"


@dataclasses.dataclass(frozen=True)
class GameFacts:
    """A game as its match knows it when it ends: nothing is read back."""
    game_id: int
    door: str
    labels: tuple[str, str]              # the seats as ``seats.seat_label`` writes them
    outcome: JSONObject                  # ``Outcome.to_json()``
    moves: tuple[int, int] = (2, 2)      # game moves each side made (setup not counted)
    computer_finished: bool = False      # the computer played a caller's side against itself


def _score(outcome: dict[str, object]) -> float:
    winner = outcome.get("winner")
    return 0.5 if winner is None else (1.0 if winner == 0 else 0.0)


def counts(game: GameRow) -> bool:
    """Whether a finished game is rated (see the module's text)."""
    if game.status != "finished" or not game.outcome:
        return False
    return _why_not(game.players, game.outcome) is None


def _why_not(labels: tuple[str, str], outcome: Mapping[str, object]) -> str | None:
    """Why a game does not count by its seats and end alone; None if it may."""
    if outcome.get("termination") == Termination.ABORTED.value:
        return ""                      # (the result says it was aborted)
    a, b = labels
    if is_computer(a) and is_computer(b):
        return "the computer played itself"
    if not (is_computer(a) or is_computer(b)) and handle_key(a) == handle_key(b):
        return "a caller played themselves"
    return None


class RatingBook:
    """The ratings of every caller in every door (see the module's text)."""

    def __init__(self, store: Store):
        self.store = store
        self._ratings: dict[str, dict[str, Rating]] = {}     # player's key -> door -> rating
        self._lock = asyncio.Lock()

    async def load(self) -> None:
        """Read the ratings, then rate the finished games not yet rated. A
        game ending meanwhile (a reload after a rename) waits, and nobody
        ever reads the book half filled."""
        async with self._lock:
            ratings: dict[str, dict[str, Rating]] = {}
            for p, d, r, dev, vol in await self.store.all_ratings():
                ratings.setdefault(p, {})[d] = Rating(r, dev, vol)
            self._ratings = ratings
        await self.catch_up()

    # ----- what screens read (no waiting) ------------------------------------
    def get(self, handle: str, door: str) -> Rating | None:
        """The caller's rating in ``door``; None if they have no rated game there."""
        return self._ratings.get(handle_key(handle), {}).get(door)

    def of_label(self, label: str, door: str) -> Rating | None:
        """The rating of a seat as the games table writes it (a handle or computer:N)."""
        if is_computer(label):
            return computer_anchor(door, int(label.split(":", 1)[1] or 1))
        return self.get(label, door)

    def best(self, handle: str) -> tuple[str, Rating] | None:
        """The caller's highest rating over all doors, with its door."""
        mine = self._ratings.get(handle_key(handle))        # (a who-list asks for each row it shows)
        return max(mine.items(), key=lambda item: item[1].rating) if mine else None

    # ----- rating games ---------------------------------------------------------
    async def record(self, game_id: int) -> GameRating | None:
        """Rate one finished game (once: a game already rated gives its
        record back). Never raises: a failure is logged and gives None."""
        try:
            async with self._lock:
                done = await self._done(game_id)
                if done is not None:
                    return done
                game = await self.store.get_game(game_id)
                if game is None or game.status != "finished" or game.outcome is None:
                    return None         # (an outcome the store cannot read: it said so)
                return await self._rate(game)
        except Exception:
            log.exception("rating game %s failed", game_id)
            return None

    async def catch_up(self) -> int:
        """Rate, in the order they ended, the finished games without a rating
        record (games an older Gatehouse finished: a game's end and its
        rating are one transaction now)."""
        ids = await self.store.unrated_finished_games()
        for game_id in ids:
            await self.record(game_id)
        return len(ids)

    async def _done(self, game_id: int) -> GameRating | None:
        stored = await self.store.game_rating(game_id)
        return None if stored is None else GameRating(game_id, *stored)

    async def finish(self, facts: GameFacts,
                     write: Callable[[RatingWrite], Awaitable[None]]) -> GameRating:
        """Rate a game as it ends: ``write`` stores the result together with
        the rating changes (one transaction); the book changes only once it
        has. Games end one at a time here, so each sees the other's rating."""
        async with self._lock:
            change = await self._judge(facts)
            await write(change)
            self._apply(facts.door, change)
            return GameRating(facts.game_id, change.rated, change.before, change.after, change.why)

    async def _judge(self, facts: GameFacts, fair: bool = True) -> RatingWrite:
        """What the game does to the ratings (nothing is written); ``fair``:
        with the rules against farming (not for an older release's games)."""
        why = _why_not(facts.labels, facts.outcome)
        if why is None and fair:       # ("" : not rated, nothing more to say)
            why = await self._why_not_fair(facts)
        if why is not None:
            return RatingWrite(False, why=why)
        old = [self.of_label(label, facts.door) or Rating() for label in facts.labels]
        new = list(rate_game(old[0], old[1], _score(facts.outcome)))
        before: list[float | None] = [None, None]
        after: list[float | None] = [None, None]
        changed: list[NewRating] = []
        for seat, label in enumerate(facts.labels):
            if is_computer(label):
                continue                      # the anchor does not move
            before[seat], after[seat] = old[seat].rating, new[seat].rating
            changed.append(NewRating(handle_key(label), facts.door, label, new[seat].rating,
                                     new[seat].deviation, new[seat].volatility))
        return RatingWrite(True, (before[0], before[1]), (after[0], after[1]), tuple(changed))

    async def _why_not_fair(self, facts: GameFacts) -> str | None:
        """The rules against farming (see the README): too short a game,
        two accounts seen at one address, or the same pair too often."""
        if min(facts.moves) < MIN_MOVES:
            return f"a side made fewer than {MIN_MOVES} moves"
        if facts.computer_finished:
            return "the computer finished the game for the caller"
        a, b = facts.labels
        if is_computer(a) or is_computer(b):
            return None
        now = time.time()
        ka, kb = handle_key(a), handle_key(b)
        if await self.store.shared_address(ka, kb, now - SHARED_ADDRESS_DAYS * 86400):
            return f"both accounts used one address in the last {SHARED_ADDRESS_DAYS} days"
        pair = {ka, kb}
        played = sum(1 for x, y in await self.store.rated_pairs_since(now - 86400)
                     if {handle_key(x), handle_key(y)} == pair)
        if played >= PAIR_PER_DAY:
            return f"the same two callers had {PAIR_PER_DAY} rated games in 24 hours"
        return None

    def _apply(self, door: str, change: RatingWrite) -> None:
        for new in change.new:
            self._ratings.setdefault(new.key, {})[door] = Rating(new.rating, new.deviation,
                                                                 new.volatility)

    async def _rate(self, game: GameRow) -> GameRating:
        """Rate a game an older release finished without rating it."""
        assert game.outcome is not None
        change = await self._judge(GameFacts(game.id, game.door, game.players, game.outcome),
                                   fair=False)
        await self.store.save_rating(game.id, change)
        self._apply(game.door, change)
        return GameRating(game.id, change.rated, change.before, change.after, change.why)
