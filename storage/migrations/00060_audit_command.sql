-- The dashboard's timeline (issue 9): an audit entry names the arbiter
-- command it concerns (issued, refused), so that a command and the board
-- event that carried it out are read as one ruling. '' for none.

-- +goose Up
ALTER TABLE audit ADD COLUMN command_id TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE audit DROP COLUMN command_id;
