-- Tournaments in and results out (issue 10): where a tournament plays,
-- the table each board is at, the files a round was imported from, the
-- byes of a round (results without a board), and the hall plan: which
-- clock device sits at which table of a venue. Times are wall-clock Unix
-- milliseconds.

-- +goose Up
ALTER TABLE tournaments ADD COLUMN venue TEXT NOT NULL DEFAULT '';  -- '' is the hall
ALTER TABLE rounds ADD COLUMN venue TEXT NOT NULL DEFAULT '';       -- the venue whose plan gives its boards their clocks
ALTER TABLE boards ADD COLUMN table_no INTEGER CHECK (table_no IS NULL OR table_no > 0); -- table in the round's venue, NULL if none

-- The file(s) a round was imported from, as received: a TRF-16 (with the
-- pairing program's output) or a CSV.
CREATE TABLE round_files (
    round_id    TEXT PRIMARY KEY REFERENCES rounds(id),
    format      TEXT NOT NULL,            -- trf | csv
    content     TEXT NOT NULL,
    pairings    TEXT NOT NULL DEFAULT '', -- JaVaFo / bbpPairings output, with a TRF
    imported_ms INTEGER NOT NULL
) STRICT;

-- A player's round without a game: a result without a board.
CREATE TABLE round_byes (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    round_id    TEXT NOT NULL REFERENCES rounds(id),
    section     TEXT NOT NULL DEFAULT '',
    player_json TEXT NOT NULL,
    kind        TEXT NOT NULL CHECK (kind IN ('H', 'F', 'U', 'Z')) -- half-point, full-point, pairing-allocated, zero-point
) STRICT;
CREATE INDEX round_byes_round ON round_byes (round_id, id);

-- The hall plan: the clock device at each table of a venue.
CREATE TABLE hall_plan (
    venue      TEXT NOT NULL,
    table_no   INTEGER NOT NULL CHECK (table_no > 0),
    device_id  TEXT NOT NULL,
    updated_ms INTEGER NOT NULL,
    PRIMARY KEY (venue, table_no),
    UNIQUE (venue, device_id)
) STRICT;

-- +goose Down
DROP TABLE hall_plan;
DROP TABLE round_byes;
DROP TABLE round_files;
ALTER TABLE boards DROP COLUMN table_no;
ALTER TABLE rounds DROP COLUMN venue;
ALTER TABLE tournaments DROP COLUMN venue;
