-- Words for people are data (issue 34): an audit entry keeps what it
-- tells a person — a refusal's reason, an alert — as a kind and its
-- parameters (formats/words), which each page writes in its reader's
-- language. The rows written before keep their English words as the
-- kind "text", whose one parameter is them.

-- +goose Up
ALTER TABLE audit ADD COLUMN kind TEXT NOT NULL DEFAULT '';
ALTER TABLE audit ADD COLUMN params_json TEXT NOT NULL DEFAULT '{}';
UPDATE audit SET kind = 'text', params_json = json_object('text', substr(outcome, 10)) WHERE outcome LIKE 'refused: %';
UPDATE audit SET kind = 'text', params_json = json_object('text', substr(outcome, 8)) WHERE outcome LIKE 'alert: %';

-- +goose Down
ALTER TABLE audit DROP COLUMN params_json;
ALTER TABLE audit DROP COLUMN kind;
