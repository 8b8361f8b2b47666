"""The store's ratings: one Glicko-2 rating per caller per door (keyed by
handle key), and what each finished game did to them. A part of
``store.Store``; ``ratings.RatingBook`` decides, this keeps."""
from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass

from server.services.store_core import Statements, StoreCore

__all__ = ["RatingsRecord", "RatingWrite", "NewRating", "StoredRating", "rating_statements"]


@dataclass(frozen=True)
class NewRating:
    """A caller's rating in a door after a game."""
    key: str               # the caller's handle key
    door: str
    handle: str            # as last written
    rating: float
    deviation: float
    volatility: float


@dataclass(frozen=True)
class RatingWrite:
    """What one finished game does to the ratings: rated or not (and why
    not), each seat's rating before and after (None: the computer's seat,
    or an unrated game), and the callers' new ratings."""
    rated: bool
    before: tuple[float | None, float | None] = (None, None)
    after: tuple[float | None, float | None] = (None, None)
    new: tuple[NewRating, ...] = ()
    why: str = ""


def rating_statements(game_id: int, write: RatingWrite) -> Statements:
    """The writes that record ``write`` for ``game_id`` (for one transaction)."""
    out: Statements = [(
        "INSERT OR REPLACE INTO ratings(player, door, handle, rating, deviation, volatility)"
        " VALUES (?,?,?,?,?,?)", (r.key, r.door, r.handle, r.rating, r.deviation, r.volatility))
        for r in write.new]
    out.append((
        "INSERT INTO game_ratings(game_id, rated, before0, after0, before1, after1, why)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)", (game_id, int(write.rated), write.before[0], write.after[0],
                                          write.before[1], write.after[1], write.why or None)))
    return out


# (rated, before per seat, after per seat, why not rated)
StoredRating = tuple[bool, tuple[float | None, float | None], tuple[float | None, float | None], str]


def _stored(row: sqlite3.Row, at: int = 0) -> StoredRating:
    """The rating columns of ``row`` from column ``at`` on."""
    return bool(row[at]), (row[at + 1], row[at + 3]), (row[at + 2], row[at + 4]), str(row[at + 5] or "")


class RatingsRecord(StoreCore):
    async def all_ratings(self) -> list[tuple[str, str, float, float, float]]:
        """Every (player key, door, rating, deviation, volatility)."""
        rows = await self._rows("SELECT player, door, rating, deviation, volatility FROM ratings")
        return [(str(p), str(d), float(r), float(dev), float(vol)) for p, d, r, dev, vol in rows]

    async def game_rating(self, game_id: int) -> StoredRating | None:
        """(rated, before per seat, after per seat) of a game, if recorded."""
        row = await self._row("SELECT rated, before0, after0, before1, after1, why FROM game_ratings"
                              " WHERE game_id=?", (game_id,))
        return None if row is None else _stored(row)

    async def game_ratings(self, game_ids: Iterable[int]) -> dict[int, StoredRating]:
        ids = list(game_ids)
        marks = ",".join("?" * len(ids)) or "NULL"
        rows = await self._rows("SELECT game_id, rated, before0, after0, before1, after1, why"
                                f" FROM game_ratings WHERE game_id IN ({marks})", ids)
        return {int(r[0]): _stored(r, 1) for r in rows}

    async def unrated_finished_games(self) -> list[int]:
        """Finished games with no rating record (an older release's), in the
        order they ended."""
        rows = await self._rows(
            "SELECT g.id FROM games g LEFT JOIN game_ratings r ON r.game_id = g.id"
            " WHERE g.status = 'finished' AND r.game_id IS NULL ORDER BY g.ended, g.id")
        return [int(row[0]) for row in rows]

    async def rated_pairs_since(self, since: float) -> list[tuple[str, str]]:
        """The seats (as labelled) of every rated game that ended since ``since``."""
        rows = await self._rows(
            "SELECT g.player0, g.player1 FROM games g JOIN game_ratings r ON r.game_id = g.id"
            " WHERE r.rated = 1 AND g.ended >= ?", (since,))
        return [(str(a), str(b)) for a, b in rows]

    async def save_rating(self, game_id: int, write: RatingWrite) -> None:
        await self.transaction(rating_statements(game_id, write))
