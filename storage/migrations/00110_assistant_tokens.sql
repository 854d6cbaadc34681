-- Play with visually disabled players: the assistant of a player (FIDE
-- 2018 Appendix D.2.10) signs in with a token scoped to one board and one
-- side. '' for every other token.

-- +goose Up
ALTER TABLE tokens ADD COLUMN board_id TEXT NOT NULL DEFAULT '';
ALTER TABLE tokens ADD COLUMN side TEXT NOT NULL DEFAULT '' CHECK (side IN ('', 'white', 'black'));

-- +goose Down
ALTER TABLE tokens DROP COLUMN side;
ALTER TABLE tokens DROP COLUMN board_id;
