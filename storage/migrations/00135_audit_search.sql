-- The hall-wide audit (issue 30): who did what across boards, by time.
-- The audit log's rows by time, and the events that are not a clock
-- device's own presses (the arbiters' actions, results, flags, virtual
-- clocks): a few per game, so the index costs the press path nothing.

-- +goose Up
CREATE INDEX audit_wall ON audit (wall_ms);
CREATE INDEX events_audit ON events (wall_ms) WHERE device_id IS NULL OR kind <> 'press';

-- +goose Down
DROP INDEX events_audit;
DROP INDEX audit_wall;
