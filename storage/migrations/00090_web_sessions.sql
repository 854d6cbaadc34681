-- The web pages' sign-ins outlive a restart: sessions and one-time sign-in
-- links are kept here instead of the server's memory. Only hashes of
-- their secrets are stored (SHA-256 of the cookie's session id, of the
-- link's code), as for tokens: a copy of the database signs nobody in.

-- +goose Up
-- A browser's session: it acts as its token until expires_ms (server
-- wall clock), its sign-out (the row deleted) or its token's revocation
-- (the rows of a revoked token are deleted with it).
CREATE TABLE web_sessions (
    hash       TEXT PRIMARY KEY,
    token_id   TEXT NOT NULL REFERENCES tokens (id),
    created_ms INTEGER NOT NULL,
    expires_ms INTEGER NOT NULL
) STRICT;
CREATE INDEX web_sessions_token ON web_sessions (token_id);

-- A one-time sign-in link: its code signs one browser in as token_id,
-- once (used_ms set), before expires_ms. made_by is who made it (an
-- actor of the audit log).
CREATE TABLE signin_links (
    hash       TEXT PRIMARY KEY,
    token_id   TEXT NOT NULL REFERENCES tokens (id),
    made_by    TEXT NOT NULL,
    created_ms INTEGER NOT NULL,
    expires_ms INTEGER NOT NULL,
    used_ms    INTEGER
) STRICT;
CREATE INDEX signin_links_token ON signin_links (token_id);

-- +goose Down
DROP TABLE signin_links;
DROP TABLE web_sessions;
