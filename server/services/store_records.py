"""The store's read-only queries behind the record screens, the CLI and
the bulletin: finished games with their rating changes, a door's top
ratings and results. A part of ``store.Store``; ``records.py`` makes
tables of them."""
from __future__ import annotations

from server.services.store_core import JSONObject, StoreCore, read_object

__all__ = ["RecordsQueries", "HistoryTuple"]

# (id, door, (player0, player1), outcome, ended, rated, before per seat, after per seat)
HistoryTuple = tuple[int, str, tuple[str, str], JSONObject, float, bool,
                     tuple[float | None, float | None], tuple[float | None, float | None]]

_HISTORY_SQL = ("SELECT g.id, g.door, g.player0, g.player1, g.outcome, g.ended,"
                " COALESCE(r.rated, 0), r.before0, r.after0, r.before1, r.after1"
                " FROM games g LEFT JOIN game_ratings r ON r.game_id = g.id"
                " WHERE g.status = 'finished'")


class RecordsQueries(StoreCore):
    async def finished_games(self, door: str | None = None, handle: str | None = None,
                             limit: int | None = None, oldest_first: bool = False) -> list[HistoryTuple]:
        """Finished games, newest first (or oldest first), of a door and/or a
        caller (matched ASCII-case-blind here: the caller checks the key)."""
        sql, args = _HISTORY_SQL, list[object]()
        if door:
            sql += " AND g.door = ?"
            args.append(door)
        if handle:
            sql += " AND (lower(g.player0) = ? OR lower(g.player1) = ?)"
            args += [handle.lower(), handle.lower()]
        sql += " ORDER BY g.ended, g.id" if oldest_first else " ORDER BY g.ended DESC, g.id DESC"
        if limit:
            sql += " LIMIT ?"
            args.append(limit)
        rows = await self._rows(sql, args)
        return [(int(r[0]), str(r[1]), (str(r[2]), str(r[3])),
                 (read_object(r[4], f"game {r[0]}'s outcome") or {}) if r[4] else {},
                 float(r[5] or 0), bool(r[6]), (r[7], r[9]), (r[8], r[10])) for r in rows]

    async def top_ratings(self, door: str) -> list[tuple[str, str, float, float]]:
        """(player key, handle, rating, deviation) of a door, best first."""
        rows = await self._rows("SELECT player, handle, rating, deviation FROM ratings WHERE door = ?"
                                " ORDER BY rating DESC, handle", (door,))
        return [(str(k), str(h), float(r), float(d)) for k, h, r, d in rows]

    async def results(self, door: str) -> list[tuple[tuple[str, str], int | None, bool]]:
        """Each finished, not aborted game of a door in the order they ended:
        (seat labels, winner, rated); an outcome that is not JSON is left out."""
        rows = await self._rows(
            "SELECT g.player0, g.player1, json_extract(g.outcome, '$.winner'), COALESCE(r.rated, 0)"
            " FROM games g LEFT JOIN game_ratings r ON r.game_id = g.id"
            " WHERE g.door = ? AND g.status = 'finished' AND json_valid(g.outcome)"
            " AND json_extract(g.outcome, '$.termination') IS NOT 'aborted'"
            " ORDER BY g.ended, g.id", (door,))
        return [((str(a), str(b)), None if w is None else int(w), bool(rated)) for a, b, w, rated in rows]
