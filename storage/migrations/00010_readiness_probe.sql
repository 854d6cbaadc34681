-- The readiness probe: a row the server rewrites now and then, while no
-- other write commits, to learn whether the store can still commit (a
-- full disk, a file system gone read-only). Nothing reads it but people.

-- +goose Up
CREATE TABLE readiness_probe (
    id      INTEGER PRIMARY KEY CHECK (id = 1),
    wall_ms INTEGER NOT NULL
) STRICT;

-- +goose Down
DROP TABLE readiness_probe;
