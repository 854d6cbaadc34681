-- The hall's event store. Times ending in _ms are wall-clock Unix
-- milliseconds (the server's clock), except events.t_ms, which is on the
-- board's own time line (the clock device's oscillator).

-- +goose Up
CREATE TABLE tournaments (
    id          TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    config_json TEXT NOT NULL,     -- {"config": rules.Config, "time_control": "90+30"}
    created_ms  INTEGER NOT NULL
) STRICT;

CREATE TABLE rounds (
    id            TEXT PRIMARY KEY,
    tournament_id TEXT NOT NULL REFERENCES tournaments(id),
    number        INTEGER NOT NULL,
    config_json   TEXT NOT NULL,   -- {"config": null} inherits the tournament's
    created_ms    INTEGER NOT NULL,
    UNIQUE (tournament_id, number)
) STRICT;

CREATE TABLE boards (
    id          TEXT PRIMARY KEY,
    round_id    TEXT NOT NULL REFERENCES rounds(id),
    number      INTEGER NOT NULL,
    section     TEXT NOT NULL DEFAULT '',
    white_json  TEXT NOT NULL,
    black_json  TEXT NOT NULL,
    config_json TEXT NOT NULL,     -- the effective rules.Config of the board
    device_id   TEXT UNIQUE,       -- the clock device assigned, NULL if none
    source      INTEGER NOT NULL DEFAULT 0 CHECK (source IN (0, 1)), -- 0 device, 1 virtual clock
    created_ms  INTEGER NOT NULL,
    UNIQUE (round_id, section, number)
) STRICT;

-- The log: the only truth. seq is the hall-wide change number, assigned in
-- commit order and never reused; board_seq counts each board's events 1, 2, 3...
CREATE TABLE events (
    seq        INTEGER PRIMARY KEY AUTOINCREMENT,
    board_id   TEXT NOT NULL REFERENCES boards(id),
    board_seq  INTEGER NOT NULL CHECK (board_seq > 0),
    kind       TEXT NOT NULL,      -- rules.Kind name, for people reading the database
    t_ms       INTEGER NOT NULL,   -- board time line
    event_json TEXT NOT NULL,      -- rules.Event
    device_id  TEXT,               -- NULL for arbiter and virtual-clock events
    device_seq INTEGER,
    command_id TEXT,               -- the arbiter command this event carries out, if any
    actor      TEXT NOT NULL DEFAULT '',
    reason     TEXT NOT NULL DEFAULT '',
    wall_ms    INTEGER NOT NULL,
    UNIQUE (board_id, board_seq),
    UNIQUE (device_id, device_seq),
    CHECK ((device_id IS NULL) = (device_seq IS NULL))
) STRICT;

-- The highest sequence number committed for each device, counting device
-- events the rules refused (those are only in the audit log).
CREATE TABLE device_seqs (
    device_id TEXT PRIMARY KEY,
    acked_seq INTEGER NOT NULL
) STRICT, WITHOUT ROWID;

-- A cache: the board's rules.State after board_seq events. state_type
-- fingerprints the Go type that was marshalled; others are ignored.
CREATE TABLE snapshots (
    board_id   TEXT PRIMARY KEY REFERENCES boards(id),
    board_seq  INTEGER NOT NULL,
    state_type TEXT NOT NULL,
    state_json TEXT NOT NULL,
    wall_ms    INTEGER NOT NULL
) STRICT;

-- Who did what, when, why, and what came of it.
CREATE TABLE audit (
    seq         INTEGER PRIMARY KEY AUTOINCREMENT,
    board_id    TEXT NOT NULL DEFAULT '',  -- '' for hall-wide actions
    wall_ms     INTEGER NOT NULL,
    actor       TEXT NOT NULL,
    what        TEXT NOT NULL,
    reason      TEXT NOT NULL DEFAULT '',
    outcome     TEXT NOT NULL,             -- applied | refused: ... | pending | alert: ...
    action_json TEXT,
    board_seq   INTEGER NOT NULL DEFAULT 0 -- the board's event it produced or concerns, 0 if none
) STRICT;
CREATE INDEX audit_board ON audit (board_id, seq);

-- Arbiter commands sent through the clock.
CREATE TABLE commands (
    id          TEXT PRIMARY KEY,
    board_id    TEXT NOT NULL REFERENCES boards(id),
    action_json TEXT NOT NULL,
    reason      TEXT NOT NULL DEFAULT '',
    issued_by   TEXT NOT NULL,
    issued_ms   INTEGER NOT NULL,
    status      TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'applied', 'refused')),
    message     TEXT NOT NULL DEFAULT '',
    resolved_ms INTEGER
) STRICT;
CREATE INDEX commands_pending ON commands (board_id, issued_ms) WHERE status = 'pending';

-- Credentials. hash is the SHA-256 (hex) of the secret; the secret is never stored.
CREATE TABLE tokens (
    id            TEXT PRIMARY KEY,
    hash          TEXT NOT NULL UNIQUE,
    role          TEXT NOT NULL,
    label         TEXT NOT NULL DEFAULT '',
    device_id     TEXT NOT NULL DEFAULT '',
    sections_json TEXT NOT NULL DEFAULT '[]',
    created_ms    INTEGER NOT NULL,
    revoked_ms    INTEGER
) STRICT;

CREATE TABLE devices (
    id           TEXT PRIMARY KEY,
    firmware     TEXT NOT NULL DEFAULT '',
    last_seen_ms INTEGER NOT NULL,
    battery_pct  INTEGER NOT NULL DEFAULT -1,
    drift_ppm    REAL NOT NULL DEFAULT 0
) STRICT;

-- +goose Down
DROP TABLE devices;
DROP TABLE tokens;
DROP TABLE commands;
DROP TABLE audit;
DROP TABLE snapshots;
DROP TABLE device_seqs;
DROP TABLE events;
DROP TABLE boards;
DROP TABLE rounds;
DROP TABLE tournaments;
