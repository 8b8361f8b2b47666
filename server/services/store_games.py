"""The store's games: each game's door, options, seats (as ``seats.py``
labels them) and outcome, its moves in order, and callers' saved setups.
A part of ``store.Store``."""
from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import cast

from server.services.store_core import JSONObject, Params, Statements, StoreCore, read_object
from server.services.store_ratings import RatingWrite, rating_statements
from server.services.store_turns import Turns

__all__ = ["GameRow", "GamesRecord"]


def _answer_offers(game_id: int) -> tuple[str, Params]:
    return ("DELETE FROM game_offers WHERE game_id=?", (game_id,))


@dataclass(frozen=True)
class GameRow:
    id: int
    door: str
    options: JSONObject
    players: tuple[str, str]
    status: str
    outcome: JSONObject | None
    created: float
    ended: float | None
    moves: int = 0
    damaged: str = ""            # what of it the database holds unreadable: "options", "outcome"


class GamesRecord(StoreCore):
    # ----- games and moves --------------------------------------------------
    async def create_game(self, door: str, options: Mapping[str, object],
                          players: tuple[str, str],
                          on_retry: Callable[[], None] | None = None,
                          by_turns: tuple[float, Turns] | None = None,
                          settles: int | None = None) -> int:
        """A new game; ``by_turns`` (time per move, turn starts) makes it a
        by-turns game, and ``settles`` (a waiting challenge's id) takes the
        challenge it answers out of the store, in the same transaction."""
        statements: Statements = [(
            "INSERT INTO games(door, options, player0, player1, created) VALUES (?,?,?,?,?)",
            (door, json.dumps(options, sort_keys=True), players[0], players[1], time.time()))]
        if by_turns is not None:
            seconds, (turn0, turn1) = by_turns
            statements.append(("INSERT INTO by_turns(game_id, move_seconds, turn0, turn1)"
                               " VALUES (last_insert_rowid(),?,?,?)", (seconds, turn0, turn1)))
        if settles is not None:          # (first: the last statement's rowid is the game's id)
            statements.insert(0, ("DELETE FROM waiting_challenges WHERE id=?", (settles,)))
        cur = await self.transaction(statements, on_retry)
        return int(cur.lastrowid or 0)     # (by_turns.game_id is its rowid: the same id)

    async def add_move(self, game_id: int, ply: int, player: int, action: str,
                       on_retry: Callable[[], None] | None = None,
                       turns: Turns | None = None, answers_offers: bool = False) -> None:
        """Store one move and commit it before returning (retrying while the
        database is locked by another program; ``on_retry`` hears of it).
        ``turns``: a by-turns game's new turn starts, in the same commit;
        ``answers_offers``: the offers standing go with it (a move answers them)."""
        statements: Statements = [(
            "INSERT INTO moves(game_id, ply, player, action, at) VALUES (?,?,?,?,?)",
            (game_id, ply, player, action, time.time()))]
        if turns is not None:
            statements.append(("UPDATE by_turns SET turn0=?, turn1=? WHERE game_id=?",
                               (turns[0], turns[1], game_id)))
        if answers_offers:
            statements.append(_answer_offers(game_id))
        await self.transaction(statements, on_retry)

    async def finish_game(self, game_id: int, outcome: Mapping[str, object],
                          on_retry: Callable[[], None] | None = None,
                          final: tuple[int, int, str] | None = None,
                          rating: RatingWrite | None = None, answers_offers: bool = False) -> None:
        """Record a game's end in one transaction: its ``final`` move (ply,
        player, action) if the end came with one, the outcome, what the game
        did to the ratings, and (``answers_offers``) the offers it ends."""
        statements: Statements = []
        if final is not None:
            ply, player, action = final
            statements.append(("INSERT INTO moves(game_id, ply, player, action, at) VALUES (?,?,?,?,?)",
                               (game_id, ply, player, action, time.time())))
        statements.append(("UPDATE games SET status='finished', outcome=?, ended=? WHERE id=?",
                           (json.dumps(outcome), time.time(), game_id)))
        if rating is not None:
            statements += rating_statements(game_id, rating)
        if answers_offers:
            statements.append(_answer_offers(game_id))
        await self.transaction(statements, on_retry)

    # ----- offers standing in a game (a draw, an auto finish) -----------------
    async def set_offer(self, game_id: int, kind: str, player: int) -> None:
        """``player`` offers ``kind`` in the game, until a move or the end."""
        await self._write("INSERT OR REPLACE INTO game_offers(game_id, kind, player) VALUES (?,?,?)",
                          (game_id, kind, player))

    async def offers(self) -> dict[int, dict[str, int]]:
        """The offers standing in unfinished games: kind -> player, by game id."""
        rows = await self._rows("SELECT o.game_id, o.kind, o.player FROM game_offers o"
                                " JOIN games g ON g.id=o.game_id WHERE g.status='active'")
        found: dict[int, dict[str, int]] = {}
        for game_id, kind, player in rows:
            if player in (0, 1):
                found.setdefault(int(game_id), {})[str(kind)] = int(player)
        return found

    def _game(self, row: sqlite3.Row) -> GameRow:
        options = read_object(row[2], f"game {row[0]}'s options")
        outcome = read_object(row[6], f"game {row[0]}'s outcome") if row[6] else None
        damaged = "options" if options is None else "outcome" if row[6] and outcome is None else ""
        return GameRow(row[0], row[1], options or {}, (row[3], row[4]), row[5],
                       outcome, row[7], row[8], row[9], damaged)

    _GAME_SQL = ("SELECT g.id, g.door, g.options, g.player0, g.player1, g.status, g.outcome,"
                 " g.created, g.ended, (SELECT COUNT(*) FROM moves m WHERE m.game_id=g.id)"
                 " FROM games g")

    async def get_game(self, game_id: int) -> GameRow | None:
        row = await self._row(self._GAME_SQL + " WHERE g.id=?", (game_id,))
        return self._game(row) if row else None

    async def list_games(self, status: str | None = None, limit: int = 50) -> list[GameRow]:
        sql, args = self._GAME_SQL, cast(tuple[str, ...], ())
        if status:
            sql, args = sql + " WHERE g.status=?", (status,)
        rows = await self._rows(sql + " ORDER BY g.id DESC LIMIT ?", (*args, limit))
        return [self._game(r) for r in rows]

    async def moves(self, game_id: int) -> list[tuple[int, str]]:
        rows = await self._rows("SELECT player, action FROM moves WHERE game_id=? ORDER BY ply",
                                (game_id,))
        return [(int(p), str(a)) for p, a in rows]

    # ----- saved setups (DoorInfo.saved_setups)---------------------------------------
    async def save_setup(self, user_id: int, door: str, name: str, data: str) -> None:
        await self._write("INSERT OR REPLACE INTO setups(user_id, door, name, data) VALUES (?,?,?,?)",
                          (user_id, door, name, data))

    async def load_setup(self, user_id: int, door: str, name: str) -> str | None:
        row = await self._row("SELECT data FROM setups WHERE user_id=? AND door=? AND name=?",
                              (user_id, door, name))
        return str(row[0]) if row else None

    async def setup_names(self, user_id: int, door: str) -> list[str]:
        rows = await self._rows("SELECT name FROM setups WHERE user_id=? AND door=? ORDER BY name",
                                (user_id, door))
        return [str(r[0]) for r in rows]
