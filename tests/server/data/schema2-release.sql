-- The database of the release before by-turns games (schema 2), as SQL:
-- made by that release, dumped with sqlite3's iterdump (and its user_version).
BEGIN TRANSACTION;
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
INSERT INTO "games" VALUES(1,'towers','{"first": 0}','Alice','Bob','active',NULL,1.79553801126718640332e+09,NULL);
INSERT INTO "games" VALUES(2,'awari','{}','Alice','computer:3','finished','{"winner": 0, "termination": "resign", "reason": "Computer (3) resigned", "score": null}',1.79553801126898670195e+09,1.7955380112694261074e+09);
CREATE TABLE moves (
        game_id INTEGER NOT NULL REFERENCES games(id),
        ply INTEGER NOT NULL,
        player INTEGER NOT NULL,
        action TEXT NOT NULL,
        at REAL NOT NULL,
        PRIMARY KEY (game_id, ply)
    );
INSERT INTO "moves" VALUES(1,1,0,'a1',1.79553801126784896846e+09);
CREATE TABLE setups (
        user_id INTEGER NOT NULL REFERENCES users(id),
        door TEXT NOT NULL,
        name TEXT NOT NULL,
        data TEXT NOT NULL,
        PRIMARY KEY (user_id, door, name)
    );
INSERT INTO "setups" VALUES(1,'stratego','wall','xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx');
CREATE TABLE users (
        id INTEGER PRIMARY KEY,
        handle TEXT NOT NULL,
        handle_key TEXT NOT NULL UNIQUE,
        pw_salt BLOB NOT NULL,
        pw_hash BLOB NOT NULL,
        charset TEXT,
        created REAL NOT NULL,
        last_login REAL
    , kind TEXT NOT NULL DEFAULT 'telnet', skeleton TEXT NOT NULL DEFAULT '');
INSERT INTO "users" VALUES(1,'Alice','alice',X'0AA9A630265AF4232BD03474CDA1B8E6',X'21F5FEBD73A537ABFF266DA20B12CFB6B05606386214A60C415E53AEA8E57E28','cp437',1.79553801125770807261e+09,1.79553801125770807261e+09,'telnet','aiice');
INSERT INTO "users" VALUES(2,'Bob','bob',X'0AA9A630265AF4232BD03474CDA1B8E6',X'21F5FEBD73A537ABFF266DA20B12CFB6B05606386214A60C415E53AEA8E57E28','utf8',1.7955380112602732181e+09,1.7955380112602732181e+09,'telnet','bob');
CREATE INDEX games_status ON games(status);
CREATE INDEX users_skeleton ON users(skeleton);
PRAGMA user_version = 2;
COMMIT;
