"""The database's schema: ordered migrations, each run once in one
transaction; ``PRAGMA user_version`` is how many have run. A new release
adds a migration at the end and never edits an old one (``Store`` refuses a
database whose version is newer than the list)."""
from __future__ import annotations

__all__ = ["MIGRATIONS"]

MIGRATIONS: list[str] = [
    # 1: the first schema
    """
    CREATE TABLE users (
        id INTEGER PRIMARY KEY,
        handle TEXT NOT NULL,
        handle_key TEXT NOT NULL UNIQUE,
        pw_salt BLOB NOT NULL,
        pw_hash BLOB NOT NULL,
        charset TEXT,
        created REAL NOT NULL,
        last_login REAL
    );
    CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        door TEXT NOT NULL,
        options TEXT NOT NULL,
        player0 TEXT NOT NULL,
        player1 TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'active',
        outcome TEXT,
        created REAL NOT NULL,
        ended REAL
    );
    CREATE INDEX games_status ON games(status);
    CREATE TABLE moves (
        game_id INTEGER NOT NULL REFERENCES games(id),
        ply INTEGER NOT NULL,
        player INTEGER NOT NULL,
        action TEXT NOT NULL,
        at REAL NOT NULL,
        PRIMARY KEY (game_id, ply)
    );
    CREATE TABLE setups (
        user_id INTEGER NOT NULL REFERENCES users(id),
        door TEXT NOT NULL,
        name TEXT NOT NULL,
        data TEXT NOT NULL,
        PRIMARY KEY (user_id, door, name)
    );
    """,
    # 2: kinds of account (a BBS caller can never log in as a telnet caller,
    # the sysop or the computer) and the look-alike key of each handle
    """
    ALTER TABLE users ADD COLUMN kind TEXT NOT NULL DEFAULT 'telnet';
    ALTER TABLE users ADD COLUMN skeleton TEXT NOT NULL DEFAULT '';
    UPDATE users SET skeleton = replace(replace(replace(handle_key, 'l', 'i'), '1', 'i'), '0', 'o');
    UPDATE users SET kind = 'sysop' WHERE handle_key = 'sysop';
    UPDATE users SET kind = 'reserved'
        WHERE handle_key IN ('computer', 'new', 'all', 'guest', 'nobody');
    CREATE INDEX users_skeleton ON users(skeleton);
    """,
    # 3: ratings (one per caller per door, keyed by handle key) and what
    # each finished game did to them (rated 0: a game that does not count)
    """
    CREATE TABLE ratings (
        player TEXT NOT NULL,
        door TEXT NOT NULL,
        handle TEXT NOT NULL,
        rating REAL NOT NULL,
        deviation REAL NOT NULL,
        volatility REAL NOT NULL,
        PRIMARY KEY (player, door)
    );
    CREATE TABLE game_ratings (
        game_id INTEGER PRIMARY KEY REFERENCES games(id),
        rated INTEGER NOT NULL,
        before0 REAL, after0 REAL, before1 REAL, after1 REAL
    );
    CREATE INDEX games_door_ended ON games(door, status, ended);
    """,
    # 4: a BBS caller's account is found by the BBS's full alias (tag + name as
    # the BBS sent it), not by the shortened handle shown here, so two long or
    # differently spelled aliases never share an account
    """
    ALTER TABLE users ADD COLUMN bbs_key TEXT;
    CREATE UNIQUE INDEX users_bbs_key ON users(bbs_key) WHERE bbs_key IS NOT NULL;
    """,
    # 5: by turns (correspondence): a game's time per move and the clock time at
    # which each side's current turn began (NULL: not its turn); its chat
    # thread; challenges waiting on the board for the opponent's next call;
    # the sysop's pause of every by-turns clock (one row)
    """
    CREATE TABLE by_turns (
        game_id INTEGER PRIMARY KEY REFERENCES games(id),
        move_seconds REAL NOT NULL,
        turn0 REAL,
        turn1 REAL
    );
    CREATE TABLE game_chat (
        game_id INTEGER NOT NULL REFERENCES games(id),
        seq INTEGER NOT NULL,
        who TEXT NOT NULL,
        text TEXT NOT NULL,
        at REAL NOT NULL,
        PRIMARY KEY (game_id, seq)
    );
    CREATE TABLE waiting_challenges (
        id INTEGER PRIMARY KEY,
        challenger TEXT NOT NULL,
        target TEXT NOT NULL,
        door TEXT NOT NULL,
        options TEXT NOT NULL,
        move_seconds REAL NOT NULL,
        made REAL NOT NULL
    );
    CREATE TABLE turn_clock (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        paused_since REAL,
        paused_total REAL NOT NULL DEFAULT 0
    );
    INSERT INTO turn_clock(id, paused_since, paused_total) VALUES (1, NULL, 0);
    """,
    # 6: when the server was last alive (a heartbeat): the time it was down
    # is nobody's time on a by-turns clock
    """
    CREATE TABLE heartbeat (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        alive REAL NOT NULL
    );
    """,
    # 7: the addresses each account logged in from (the login guard's known
    # addresses, newest kept), so a restart does not forget them
    """
    CREATE TABLE known_addresses (
        account TEXT NOT NULL,
        address TEXT NOT NULL,
        last REAL NOT NULL,
        PRIMARY KEY (account, address)
    );
    """,
    # 8: the sysop's bans (an account, and with it an address or /64, if
    # given) and messages between callers kept for the receiver's next call
    """
    CREATE TABLE bans (
        handle_key TEXT PRIMARY KEY,
        handle TEXT NOT NULL,
        address TEXT,
        reason TEXT NOT NULL,
        by_whom TEXT NOT NULL,
        at REAL NOT NULL
    );
    CREATE INDEX bans_address ON bans(address);
    CREATE TABLE messages (
        id INTEGER PRIMARY KEY,
        to_key TEXT NOT NULL,
        sender TEXT NOT NULL,
        text TEXT NOT NULL,
        at REAL NOT NULL
    );
    CREATE INDEX messages_to ON messages(to_key);
    """,
    # 9: why a game was not rated, and the addresses each password account
    # logged in from, with the last time (a caller's address key: IPv4 as
    # is, IPv6 by /64), so that games between accounts that share an
    # address are not rated
    """
    ALTER TABLE game_ratings ADD COLUMN why TEXT;
    CREATE TABLE address_logins (
        player TEXT NOT NULL,
        address TEXT NOT NULL,
        at REAL NOT NULL,
        PRIMARY KEY (player, address)
    );
    CREATE INDEX address_logins_address ON address_logins(address);
    """,
    # 10: the offers standing in an unfinished game (a draw, an auto finish:
    # the player who made it), so that a restart does not forget one that
    # waits for the other side's next call
    """
    CREATE TABLE game_offers (
        game_id INTEGER NOT NULL REFERENCES games(id),
        kind TEXT NOT NULL,
        player INTEGER NOT NULL,
        PRIMARY KEY (game_id, kind)
    );
    """,
]
