-- Only the hall writes its stream: the publisher (storage/publish) signs
-- every message with the hall's ed25519 key (formats/hallstream, format 2),
-- and the stream is started again after a restore.

-- +goose Up
-- The hall's signing keys, oldest first; the newest signs. A rotated key
-- is endorsed by the one before it (its signature of the new public key),
-- which followers check to move their trust along.
CREATE TABLE stream_keys (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    public_key  BLOB NOT NULL UNIQUE CHECK (length(public_key) = 32),
    seed        BLOB NOT NULL CHECK (length(seed) = 32), -- the private key (RFC 8032 seed)
    endorsement BLOB CHECK (endorsement IS NULL OR length(endorsement) = 64),
    created_ms  INTEGER NOT NULL
) STRICT;

-- unsigned_upto: the outbox rows up to it may have been published
-- unsigned, before this version: the stream's last message may be an
-- unsigned one of the hall's own only up to there.
ALTER TABLE hall ADD COLUMN unsigned_upto INTEGER NOT NULL DEFAULT 0;
UPDATE hall SET unsigned_upto = COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'outbox'), 0);

-- restart_after: set by a restore. The stream's messages after this
-- outbox row were written before the restore, by a hall whose history
-- this database does not share: the publisher purges the stream and
-- publishes the hall whole if it holds any. NULL: nothing pending.
ALTER TABLE hall ADD COLUMN restart_after INTEGER;

-- stream_tag: set when the stream was started again after a restore. The
-- restored hall numbers its outbox rows and board events as the hall it
-- replaced did after the backup: its message ids carry the tag, or the
-- stream would take them for duplicates of the replaced hall's.
ALTER TABLE hall ADD COLUMN stream_tag TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE hall DROP COLUMN stream_tag;
ALTER TABLE hall DROP COLUMN restart_after;
ALTER TABLE hall DROP COLUMN unsigned_upto;
DROP TABLE stream_keys;
