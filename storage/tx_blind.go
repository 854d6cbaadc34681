package storage

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/chesshall/hallclock/rules"
)

// SetBoardBlind changes how a board is played under the rules for
// visually disabled players (its Config.Blind), which the rules check
// against the board's configuration as rules.NewState does. Nothing else
// of the configuration changes, and no event does: the appendix changes
// who may act on the clock and what a talking clock says, never how an
// event is applied, so the board's log folds as before. An unknown board
// is ErrNotFound.
func (t *Tx) SetBoardBlind(boardID string, blind rules.BlindPlay) error {
	var js string
	switch err := t.queryRow(`SELECT config_json FROM boards WHERE id = ?`, boardID).Scan(&js); {
	case errors.Is(err, sql.ErrNoRows):
		return errorf(ErrNotFound, "board %s: no such board", boardID)
	case err != nil:
		return fmt.Errorf("storage: board %s: %w", boardID, err)
	}
	var cfg rules.Config
	cj := configJSON{Config: &cfg}
	if err := json.Unmarshal([]byte(js), &cj); err != nil {
		return fmt.Errorf("storage: board %s: config: %w", boardID, err)
	}
	cfg.Blind = blind
	if _, err := rules.NewState(cfg); err != nil {
		return fmt.Errorf("storage: board %s: %w", boardID, err)
	}
	out, err := json.Marshal(cj)
	if err != nil {
		return fmt.Errorf("storage: board %s: %w", boardID, err)
	}
	if _, err := t.exec(`UPDATE boards SET config_json = ? WHERE id = ?`, string(out), boardID); err != nil {
		return fmt.Errorf("storage: board %s: %w", boardID, err)
	}
	return t.outbox(OutboxBoard, boardID, nil)
}
