-- The events that are rulings changing a clock's time (storage.RulingKinds),
-- indexed so that a server starting up finds each board's last ruling
-- without reading the board's history.

-- +goose Up
CREATE INDEX events_rulings ON events (board_id, board_seq)
    WHERE kind IN ('illegal_move', 'illegal_move_found', 'draw_claim_rejected', 'quickplay_claim',
                   'quickplay_increment', 'add_time', 'set_clock');

-- +goose Down
DROP INDEX events_rulings;
