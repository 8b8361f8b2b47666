"""The store's by-turns (correspondence) records: each game's time per move
and turn starts, its chat thread, challenges waiting for the opponent's
next call, and the sysop's pause of every by-turns clock. A part of
``store.Store`` (its schema is in ``schema.MIGRATIONS``)."""
from __future__ import annotations

import json
import time
from dataclasses import dataclass

from server.services.store_core import JSONObject, StoreCore, read_object

__all__ = ["ByTurnsRecord", "Turns", "WaitingChallengeRow"]

Turns = tuple[float | None, float | None]    # clock time each side's current turn began


@dataclass(frozen=True)
class WaitingChallengeRow:
    """A by-turns challenge waiting for its target's next call."""
    id: int
    challenger: str
    target: str
    door: str
    options: JSONObject
    move_seconds: float
    made: float


class ByTurnsRecord(StoreCore):
    # ----- by turns (correspondence) -------------------------------------------
    async def by_turns(self) -> dict[int, tuple[float, Turns]]:
        """Every by-turns game's time per move and turn starts, by game id."""
        rows = await self._rows("SELECT game_id, move_seconds, turn0, turn1 FROM by_turns")
        return {int(g): (float(s), (t0, t1)) for g, s, t0, t1 in rows}

    async def add_chat(self, game_id: int, who: str, text: str) -> None:
        """One line of a by-turns game's chat thread."""
        await self._write(
            "INSERT INTO game_chat(game_id, seq, who, text, at) VALUES (?, (SELECT COALESCE(MAX(seq),0)+1"
            " FROM game_chat WHERE game_id=?), ?, ?, ?)", (game_id, game_id, who, text, time.time()))

    async def chat_thread(self, game_id: int) -> list[tuple[str, str]]:
        rows = await self._rows("SELECT who, text FROM game_chat WHERE game_id=? ORDER BY seq",
                                (game_id,))
        return [(str(w), str(t)) for w, t in rows]

    async def save_waiting_challenge(self, row: WaitingChallengeRow) -> None:
        await self._write(
            "INSERT INTO waiting_challenges(id, challenger, target, door, options, move_seconds, made)"
            " VALUES (?,?,?,?,?,?,?)", (row.id, row.challenger, row.target, row.door,
                                       json.dumps(row.options, sort_keys=True), row.move_seconds, row.made))

    async def drop_waiting_challenge(self, challenge_id: int) -> None:
        await self._write("DELETE FROM waiting_challenges WHERE id=?", (challenge_id,))

    async def waiting_challenges(self) -> list[WaitingChallengeRow]:
        rows = await self._rows("SELECT id, challenger, target, door, options, move_seconds, made"
                                   " FROM waiting_challenges ORDER BY id")
        return [WaitingChallengeRow(int(r[0]), str(r[1]), str(r[2]), str(r[3]),
                                    read_object(r[4], f"waiting challenge {r[0]}'s options") or {},
                                    float(r[5]), float(r[6])) for r in rows]      # (unreadable: the door's own)

    async def turn_clock(self) -> tuple[float | None, float]:
        """The sysop's pause of the by-turns clocks: (paused since, total paused before)."""
        row = await self._row("SELECT paused_since, paused_total FROM turn_clock WHERE id=1")
        return (None, 0.0) if row is None else (row[0], float(row[1]))

    async def last_alive(self) -> float | None:
        """When the server was last known to be running (wall time), if ever."""
        row = await self._row("SELECT alive FROM heartbeat WHERE id=1")
        return None if row is None else float(row[0])

    async def set_alive(self, at: float) -> None:
        await self._write("INSERT OR REPLACE INTO heartbeat(id, alive) VALUES (1,?)", (at,))

    async def forgive_downtime(self, paused_total: float, alive: float) -> None:
        """The by-turns clocks' paused total grown by the time the server was
        down, and the heartbeat moved to now, together (never forgiven twice)."""
        await self.transaction([
            ("INSERT OR REPLACE INTO turn_clock(id, paused_since, paused_total) VALUES (1,NULL,?)",
             (paused_total,)),
            ("INSERT OR REPLACE INTO heartbeat(id, alive) VALUES (1,?)", (alive,))])

    async def set_turn_clock(self, paused_since: float | None, paused_total: float) -> None:
        await self._write("INSERT OR REPLACE INTO turn_clock(id, paused_since, paused_total)"
                          " VALUES (1,?,?)", (paused_since, paused_total))
