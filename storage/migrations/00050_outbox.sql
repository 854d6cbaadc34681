-- Beyond one hall (issue 13): the hall's id, and the outbox its publisher
-- drains into NATS JetStream. Every committed board event, and every
-- change of what a follower needs to rebuild a board (tournaments,
-- rounds, boards, broadcast tokens, the hall's own settings), adds an
-- outbox row in the same transaction. A row names what changed; the
-- publisher reads the record when it publishes (an event never changes;
-- for the other kinds the record as it is then, which a later row would
-- publish anyway). Rows are published in id order, which is commit
-- order. Times are wall-clock Unix milliseconds.

-- +goose Up
-- The hall itself: one row. hall_id names its subjects (hall.<id>.>) and
-- its stream; info_json is what followers are told of the hall
-- (the broadcast delay, whether every round is public).
CREATE TABLE hall (
    id         INTEGER PRIMARY KEY CHECK (id = 1),
    hall_id    TEXT NOT NULL,
    info_json  TEXT NOT NULL DEFAULT '{}',
    created_ms INTEGER NOT NULL
) STRICT;
INSERT INTO hall (id, hall_id, created_ms)
    VALUES (1, 'hall-' || lower(hex(randomblob(4))), CAST(unixepoch('subsec') * 1000 AS INTEGER));

CREATE TABLE outbox (
    id         INTEGER PRIMARY KEY AUTOINCREMENT, -- publishing order
    kind       TEXT NOT NULL CHECK (kind IN ('hall', 'tournament', 'round', 'board', 'token', 'event')),
    ref        TEXT NOT NULL DEFAULT '',          -- the record's id ('' for hall and event)
    event_seq  INTEGER,                           -- events.seq, for kind 'event'
    created_ms INTEGER NOT NULL,
    CHECK ((kind = 'event') = (event_seq IS NOT NULL))
) STRICT;

-- How far the outbox is published: every row with id <= published_id is
-- in the stream (the stream's PubAck said so). Rows published are pruned
-- after a while; the stream keeps them.
CREATE TABLE outbox_state (
    id           INTEGER PRIMARY KEY CHECK (id = 1),
    published_id INTEGER NOT NULL,
    wall_ms      INTEGER NOT NULL
) STRICT;
INSERT INTO outbox_state (id, published_id, wall_ms) VALUES (1, 0, 0);

-- A hall that played before this version publishes what it has, in the
-- order a follower needs it: the records, then every event in commit order.
INSERT INTO outbox (kind, ref, created_ms) VALUES ('hall', '', CAST(unixepoch('subsec') * 1000 AS INTEGER));
INSERT INTO outbox (kind, ref, created_ms) SELECT 'tournament', id, created_ms FROM tournaments ORDER BY created_ms, id;
INSERT INTO outbox (kind, ref, created_ms) SELECT 'round', id, created_ms FROM rounds ORDER BY created_ms, id;
INSERT INTO outbox (kind, ref, created_ms) SELECT 'board', id, created_ms FROM boards ORDER BY created_ms, id;
INSERT INTO outbox (kind, ref, created_ms) SELECT 'token', id, created_ms FROM tokens WHERE role = 'broadcast' ORDER BY created_ms, id;
INSERT INTO outbox (kind, event_seq, created_ms) SELECT 'event', seq, wall_ms FROM events ORDER BY seq;

-- +goose Down
DROP TABLE outbox_state;
DROP TABLE outbox;
DROP TABLE hall;
