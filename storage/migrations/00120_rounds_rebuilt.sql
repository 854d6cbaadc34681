-- A round rebuilt from the clocks' records by a hall restored from a
-- backup older than the round: when (server wall time, Unix ms), NULL for
-- a round that was imported or set up by hand. Its byes and the boards
-- without a clock are not known.

-- +goose Up
ALTER TABLE rounds ADD COLUMN rebuilt_ms INTEGER;

-- +goose Down
ALTER TABLE rounds DROP COLUMN rebuilt_ms;
