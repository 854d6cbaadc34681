-- Broadcast (issue 11): a round the chief arbiter made public (its feeds
-- need no token), and the relay its PGN is pushed to. The relay's token is
-- kept as given: the hall sends it to the relay (unlike the hall's own
-- tokens, which it only checks and keeps hashed). Times are wall-clock
-- Unix milliseconds.

-- +goose Up
CREATE TABLE round_broadcast (
    round_id    TEXT PRIMARY KEY REFERENCES rounds(id),
    public      INTEGER NOT NULL DEFAULT 0 CHECK (public IN (0, 1)),
    relay_url   TEXT NOT NULL DEFAULT '',  -- '' pushes nowhere
    relay_token TEXT NOT NULL DEFAULT '',  -- sent as 'Authorization: Bearer <relay_token>'
    updated_ms  INTEGER NOT NULL
) STRICT;

-- +goose Down
DROP TABLE round_broadcast;
