-- Results a rating officer can submit: a round's files kept byte for byte
-- (a TRF in Windows-1250 is not text SQLite should read as UTF-8), with
-- the encoding they were read in, so that the export writes them back as
-- they came; the points a bye scores when the file says (a TRF's own
-- point system, e.g. a pairing-allocated bye worth nothing); and one
-- tournament to a name, so that a name says which one is meant.

-- +goose Up
CREATE TABLE round_files_bytes (
    round_id    TEXT PRIMARY KEY REFERENCES rounds(id),
    format      TEXT NOT NULL,               -- trf | csv
    content     BLOB NOT NULL,               -- the file as received, byte for byte
    pairings    BLOB NOT NULL DEFAULT x'',   -- JaVaFo / bbpPairings output, with a TRF
    encoding    TEXT NOT NULL DEFAULT '',    -- what the file was read in: utf-8, windows-1250...; '' before this version
    imported_ms INTEGER NOT NULL
) STRICT;
INSERT INTO round_files_bytes (round_id, format, content, pairings, imported_ms)
    SELECT round_id, format, CAST(content AS BLOB), CAST(pairings AS BLOB), imported_ms FROM round_files;
DROP TABLE round_files;
ALTER TABLE round_files_bytes RENAME TO round_files;

-- NULL: the bye scores what the tournament's scoring gives its kind.
ALTER TABLE round_byes ADD COLUMN points REAL;

-- Names are compared as arbiters type them: without regard to case or
-- the blanks around them. Tournaments that share a name from before this
-- version keep the oldest's; the others get their id after it (and
-- followers are told).
INSERT INTO outbox (kind, ref, created_ms)
    SELECT 'tournament', t.id, CAST(unixepoch('subsec') * 1000 AS INTEGER) FROM tournaments t
    WHERE EXISTS (SELECT 1 FROM tournaments o WHERE trim(o.name) = trim(t.name) COLLATE NOCASE
        AND (o.created_ms < t.created_ms OR (o.created_ms = t.created_ms AND o.id < t.id)))
    ORDER BY t.created_ms, t.id;
UPDATE tournaments SET name = trim(name) || ' (' || id || ')'
    WHERE EXISTS (SELECT 1 FROM tournaments o WHERE trim(o.name) = trim(tournaments.name) COLLATE NOCASE
        AND (o.created_ms < tournaments.created_ms OR (o.created_ms = tournaments.created_ms AND o.id < tournaments.id)));
CREATE UNIQUE INDEX tournaments_name ON tournaments (trim(name) COLLATE NOCASE);

-- +goose Down
DROP INDEX tournaments_name;
ALTER TABLE round_byes DROP COLUMN points;
CREATE TABLE round_files_text (
    round_id    TEXT PRIMARY KEY REFERENCES rounds(id),
    format      TEXT NOT NULL,
    content     TEXT NOT NULL,
    pairings    TEXT NOT NULL DEFAULT '',
    imported_ms INTEGER NOT NULL
) STRICT;
INSERT INTO round_files_text (round_id, format, content, pairings, imported_ms)
    SELECT round_id, format, CAST(content AS TEXT), CAST(pairings AS TEXT), imported_ms FROM round_files;
DROP TABLE round_files;
ALTER TABLE round_files_text RENAME TO round_files;
