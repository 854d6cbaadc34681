-- Tablets and phones as clocks (issue 32): a one-time clock link makes the
-- browser that spends it a clock device of the hall, with a token of its
-- own. The device's kind tells such a clock from a hardware one.

-- +goose Up
-- kind: 'tablet' for a browser enrolled by a clock link; '' for a clock
-- device (hardware, or the simulator).
ALTER TABLE devices ADD COLUMN kind TEXT NOT NULL DEFAULT '';

-- A one-time clock link: its code makes one browser the clock of board_id,
-- or of table_no of venue's hall plan (board_id ''), once (used_ms set,
-- device_id the device it made), before expires_ms. made_by is who made
-- it (an actor of the audit log), maker_token the token they made it with:
-- it must still be valid, and still reach the board, when the link is
-- spent. Only the hash of the code is kept (SHA-256), as for sign-in links.
CREATE TABLE clock_links (
    hash        TEXT PRIMARY KEY,
    board_id    TEXT NOT NULL DEFAULT '',
    venue       TEXT NOT NULL DEFAULT '',
    table_no    INTEGER NOT NULL DEFAULT 0,
    made_by     TEXT NOT NULL,
    maker_token TEXT NOT NULL,
    created_ms  INTEGER NOT NULL,
    expires_ms  INTEGER NOT NULL,
    used_ms     INTEGER,
    device_id   TEXT NOT NULL DEFAULT ''
) STRICT;

-- +goose Down
DROP TABLE clock_links;
ALTER TABLE devices DROP COLUMN kind;
