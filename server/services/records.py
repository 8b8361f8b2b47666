"""What the record says about callers: finished games with their rating
changes (history), and the hall of fame of a door (top ratings, most games,
longest win streaks, a caller's own record). Tables made from the store's read-only queries (``store_records.py``).

``open_readonly`` opens an existing database for reading only (the bulletin:
a read-only command never creates or migrates a database).
"""
from __future__ import annotations

import dataclasses
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path

from server.services.seats import is_computer, parse_seat_label
from server.services.store import Store, handle_key
from server.services.store_core import JSONObject

__all__ = ["HistoryRow", "Hall", "Tally", "history", "hall_of_fame", "open_readonly", "MIN_RATED_GAMES",
           "LeagueRow", "bbs_league", "bbs_members",
           "result_text"]


@dataclasses.dataclass(frozen=True)
class HistoryRow:
    id: int
    door: str
    players: tuple[str, str]         # as the games table writes them
    outcome: JSONObject
    ended: float
    rated: bool
    before: tuple[float | None, float | None]
    after: tuple[float | None, float | None]

    @property
    def names(self) -> tuple[str, str]:
        return (parse_seat_label(self.players[0])[1], parse_seat_label(self.players[1])[1])

    @property
    def aborted(self) -> bool:
        return self.outcome.get("termination") == "aborted"

    def seat_of(self, handle: str) -> int | None:
        key = handle_key(handle)
        return next((i for i, label in enumerate(self.players)
                     if not is_computer(label) and handle_key(label) == key), None)

    def result_for(self, seat: int) -> str:
        """"won", "lost", "draw" or "aborted" for ``seat``."""
        if self.aborted:
            return "aborted"
        winner = self.outcome.get("winner")
        return "draw" if winner is None else ("won" if winner == seat else "lost")

    def change(self, seat: int) -> str:
        """The rating change of ``seat``: "1500->1562 +62", or "unrated"."""
        b, a = self.before[seat], self.after[seat]
        if b is None or a is None:
            return "unrated" if not is_computer(self.players[seat]) else ""
        return f"{b:.0f}->{a:.0f} {round(a) - round(b):+d}"


def result_text(row: HistoryRow) -> str:
    """"Alice won (flag captured)", "draw (agreed draw)", "aborted (...)"."""
    reason = str(row.outcome.get("reason", ""))
    if row.aborted:
        return f"aborted ({reason})"
    winner = row.outcome.get("winner")
    who = "draw" if winner is None else f"{row.names[winner]} won"
    return f"{who} ({reason})" if reason else who


async def history(store: Store, door: str | None = None, handle: str | None = None,
                  limit: int | None = None, oldest_first: bool = False) -> list[HistoryRow]:
    """Finished games, newest first (or oldest first), of a door and/or a caller."""
    out = [HistoryRow(*row) for row in await store.finished_games(door, handle, limit, oldest_first)]
    if handle:      # lower() in SQL is ASCII only: check with the real key
        out = [row for row in out if row.seat_of(handle) is not None]
    return out


@dataclasses.dataclass
class Tally:
    wins: int = 0
    losses: int = 0
    draws: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.draws

    def add(self, result: str) -> None:
        if result == "won":
            self.wins += 1
        elif result == "lost":
            self.losses += 1
        elif result == "draw":
            self.draws += 1


@dataclasses.dataclass
class Hall:
    """A door's hall of fame, and one caller's own record in it."""
    door: str
    top_rated: list[tuple[str, float, float]]        # (handle, rating, deviation)
    most_games: list[tuple[str, int]]
    longest_streaks: list[tuple[str, int]]
    mine: Tally | None = None
    my_streak: int = 0
    my_opponents: list[tuple[str, Tally]] = dataclasses.field(default_factory=list)


MIN_RATED_GAMES = 5     # the hall of fame and the bulletin list callers with this many rated games


async def bbs_members(store: Store, tag: str) -> set[str]:
    """Handle keys of the callers a BBS tagged ``tag`` (``[MYS]``) sent."""
    want = tag.casefold()
    return {key for key, bbs in (await store.bbs_tags()).items() if bbs == want}


def _streaks(games: list[tuple[tuple[str, str], int | None]],
             key_of: Callable[[str], str | None]) -> tuple[Counter[str], Counter[str], dict[str, str]]:
    """(games played, longest win streak, handle as last written) per caller key."""
    handles: dict[str, str] = {}
    played: Counter[str] = Counter()
    run: Counter[str] = Counter()
    best: Counter[str] = Counter()
    for players, winner in games:
        for seat, label in enumerate(players):
            key = key_of(label)
            if key is None:
                continue
            handles[key] = label
            played[key] += 1
            if winner == seat:
                run[key] += 1
                best[key] = max(best[key], run[key])
            else:
                run[key] = 0
    return played, best, handles


async def hall_of_fame(store: Store, door: str, me: str | None = None, top: int = 10,
                       only: set[str] | None = None) -> Hall:
    """A door's leaders (rated games only, callers with ``MIN_RATED_GAMES``
    of them: a farmed or brand-new account is not on the board; ``only``:
    the handle keys the tables may list, one BBS's callers) and ``me``'s
    own record (every finished game)."""
    results = await store.results(door)
    keys: dict[str, str | None] = {}                   # label -> handle key (None: the computer)

    def key_of(label: str) -> str | None:
        if label not in keys:
            keys[label] = None if is_computer(label) else handle_key(label)
        return keys[label]

    played, best, handles = _streaks([(p, w) for p, w, rated in results if rated], key_of)
    listed = {k for k in handles if played[k] >= MIN_RATED_GAMES and (only is None or k in only)}
    top_rated = [(h, r, d) for k, h, r, d in await store.top_ratings(door) if k in listed][:top]
    order = sorted(listed, key=lambda k: (-played[k], k))
    most = [(handles[k], played[k]) for k in order[:top]]
    streaky = sorted((k for k in listed if best[k] > 0), key=lambda k: (-best[k], k))
    streaks = [(handles[k], best[k]) for k in streaky[:top]]
    hall = Hall(door, top_rated, most, streaks)
    if me:
        games = [(p, w) for p, w, _rated in results]
        my_key = handle_key(me)
        hall.mine, hall.my_streak = Tally(), _streaks(games, key_of)[1][my_key]
        against: dict[str, Tally] = defaultdict(Tally)
        for players, winner in games:
            for seat, label in enumerate(players):
                if key_of(label) == my_key:
                    result = "draw" if winner is None else ("won" if winner == seat else "lost")
                    hall.mine.add(result)
                    against[parse_seat_label(players[1 - seat])[1]].add(result)
                    break
        hall.my_opponents = sorted(against.items(), key=lambda item: (-item[1].games, item[0]))
    return hall


@dataclasses.dataclass
class LeagueRow:
    """One BBS's record in games between callers of different BBSes."""
    tag: str
    won: int = 0
    lost: int = 0
    drawn: int = 0

    @property
    def games(self) -> int:
        return self.won + self.lost + self.drawn


async def bbs_league(store: Store, doors: list[str]) -> list[LeagueRow]:
    """BBS against BBS: every rated game of ``doors`` between callers of two
    different BBSes, by BBS (most wins first). A game the rating rules set
    aside (one address, too few moves) counts no more here than in a rating:
    otherwise a BBS could farm its standing."""
    tags = await store.bbs_tags()
    rows: dict[str, LeagueRow] = {}
    for door in doors:
        for players, winner, rated in await store.results(door):
            if not rated or any(is_computer(label) for label in players):
                continue
            keys = [tags.get(handle_key(label), "") for label in players]
            if not all(keys) or keys[0] == keys[1]:
                continue
            names = [parse_seat_label(label)[1] for label in players]
            pair = [name[:len(key)] for name, key in zip(names, keys, strict=True)]  # as written
            for seat, tag in enumerate(pair):
                row = rows.setdefault(tag.casefold(), LeagueRow(tag))
                if winner is None:
                    row.drawn += 1
                elif winner == seat:
                    row.won += 1
                else:
                    row.lost += 1
    return sorted(rows.values(), key=lambda r: (-r.won, r.lost, r.tag))


async def open_readonly(path: str | Path) -> Store:
    """Open an existing database for reading only; StoreError (one line) if
    there is none, it cannot be read, or it is not of this Gatehouse's schema."""
    return await Store(path).open_readonly()
