package storage

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
)

// SetTieBreaks changes a tournament's tie-break list (section "") or a
// section's own list ("" list: the section has the tournament's again),
// kept in its configuration as CreateTournament keeps it. Nothing else of
// the tournament changes. An unknown tournament is ErrNotFound.
func (t *Tx) SetTieBreaks(tournamentID, section, list string) (TournamentRecord, error) {
	row := t.queryRow(`SELECT `+tournamentCols+` FROM tournaments WHERE id = ?`, tournamentID)
	tr, err := scanTournament(row)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return tr, errorf(ErrNotFound, "tournament %s: no such tournament", tournamentID)
	case err != nil:
		return tr, err
	}
	if section == "" {
		tr.TieBreaks = list
	} else {
		secs := maps.Clone(tr.SectionTieBreaks)
		if secs == nil {
			secs = map[string]string{}
		}
		if list == "" {
			delete(secs, section)
		} else {
			secs[section] = list
		}
		if len(secs) == 0 {
			secs = nil
		}
		tr.SectionTieBreaks = secs
	}
	js, err := json.Marshal(configJSON{Config: &tr.Config, TimeControl: tr.TimeControl, TieBreaks: tr.TieBreaks, SectionTieBreaks: tr.SectionTieBreaks})
	if err != nil {
		return tr, fmt.Errorf("storage: tournament %s: %w", tournamentID, err)
	}
	if _, err := t.exec(`UPDATE tournaments SET config_json = ? WHERE id = ?`, string(js), tournamentID); err != nil {
		return tr, fmt.Errorf("storage: tournament %s: %w", tournamentID, err)
	}
	return tr, t.outbox(OutboxTournament, tournamentID, nil)
}
