"""The sqlite record (aiosqlite), the one owner of the database: users,
games, moves, saved setups, ratings, by-turns records and the queries of
the record screens. Nothing outside the store layer (``store*.py``, with
the schema in ``schema.py``) touches the connection or writes SQL.

``Store`` puts the parts together, one module per subject, all on the one
connection of ``store_core.StoreCore`` (one transaction at a time).
"""
from __future__ import annotations

from server.services.store_accounts import AccountsRecord
from server.services.store_core import StoreCore, StoreError, WriteFailed
from server.services.store_games import GameRow, GamesRecord
from server.services.store_known import KnownAddressesRecord
from server.services.store_ratings import NewRating, RatingsRecord, RatingWrite
from server.services.store_records import RecordsQueries
from server.services.store_turns import ByTurnsRecord, Turns, WaitingChallengeRow
from server.services.store_users import (
    KINDS,
    AccountKind,
    UserRow,
    UsersRecord,
    check_password,
    handle_key,
    handle_skeleton,
    hash_password,
)

__all__ = ["Store", "StoreCore", "StoreError", "WriteFailed", "UserRow", "GameRow", "WaitingChallengeRow",
           "AccountKind", "KINDS", "Turns", "NewRating", "RatingWrite", "hash_password",
           "check_password", "handle_key", "handle_skeleton"]


class Store(UsersRecord, GamesRecord, ByTurnsRecord, RatingsRecord, RecordsQueries,
            KnownAddressesRecord, AccountsRecord):
    """The record: every part's methods on one connection."""
