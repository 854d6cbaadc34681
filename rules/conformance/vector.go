// Package conformance reads and runs the clock conformance vectors described
// in spec/conformance.md: small JSON files that replay one board's history
// through the rules and check the state at chosen instants.
//
// # Usage
//
//	vs, err := conformance.LoadDir("testdata")
//	for _, v := range vs {
//		if f := v.Run(); f != nil {
//			fmt.Println(f)
//		}
//	}
//
// Decoding is strict: an unknown key in a vector is an error, so a typo in
// a vector cannot make a check silently pass.
package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Vector is one conformance vector.
type Vector struct {
	File        string       `json:"-"` // where it was read from
	Name        string       `json:"name"`
	Law         string       `json:"law"`
	Ruleset     string       `json:"ruleset"`
	TimeControl string       `json:"time_control"`
	Regulations *Regulations `json:"regulations,omitempty"`
	Steps       []Step       `json:"steps"`
}

// Regulations are the vector's regulations; absent keys take the ruleset's
// defaults. Scoring (win, draw, loss) and ResumptionDefaultS (the default
// time at the resumption of an adjourned game, Guidelines I.10) are
// extensions of this project.
type Regulations struct {
	Supervision         string      `json:"supervision,omitempty"`
	QuickplayFinish     bool        `json:"quickplay_finish,omitempty"`
	DefaultTimeS        *int64      `json:"default_time_s,omitempty"`
	PeriodChange        string      `json:"period_change,omitempty"`
	IncrementAtStart    bool        `json:"increment_at_start,omitempty"`
	IllegalMovePenaltyS *int64      `json:"illegal_move_penalty_s,omitempty"`
	DrawClaimPenaltyS   *int64      `json:"draw_claim_penalty_s,omitempty"`
	Scoring             *[3]float64 `json:"scoring,omitempty"`
	ResumptionDefaultS  *int64      `json:"resumption_default_time_s,omitempty"`
}

// Step is an action (Do), a check (Expect), or both (the action first).
// ScheduleOverride, NoExtraTime, By ("players" or "arbiter", for result;
// default arbiter), SAN, Move and SessionEnd are extensions of this
// project; so is Absent on resume (the resumption of an adjourned game).
type Step struct {
	T                int64    `json:"t"`
	Do               string   `json:"do,omitempty"`
	Side             string   `json:"side,omitempty"`
	Absent           []string `json:"absent,omitempty"`
	Move             int      `json:"move,omitempty"`
	SessionEnd       int64    `json:"session_end,omitempty"`
	Ms               int64    `json:"ms,omitempty"`
	WhiteMs          *int64   `json:"white_ms,omitempty"`
	BlackMs          *int64   `json:"black_ms,omitempty"`
	WhiteMoves       *int     `json:"white_moves,omitempty"`
	BlackMoves       *int     `json:"black_moves,omitempty"`
	Decision         string   `json:"decision,omitempty"`
	FEN              string   `json:"fen,omitempty"`
	SAN              string   `json:"san,omitempty"`
	Result           string   `json:"result,omitempty"`
	Termination      string   `json:"termination,omitempty"`
	By               string   `json:"by,omitempty"`
	ScheduleOverride bool     `json:"schedule_override,omitempty"`
	NoExtraTime      bool     `json:"no_extra_time,omitempty"`
	Refused          bool     `json:"refused,omitempty"`
	Expect           *Expect  `json:"expect,omitempty"`
}

// Expect holds the checks of a step; only the keys given are compared.
// WhiteScore, BlackScore, WhiteTimeTrouble, BlackTimeTrouble and
// ReferredBy are extensions of this project.
type Expect struct {
	WhiteMs      *int64   `json:"white_ms,omitempty"`
	BlackMs      *int64   `json:"black_ms,omitempty"`
	Running      *string  `json:"running,omitempty"`
	WhiteMoves   *int     `json:"white_moves,omitempty"`
	BlackMoves   *int     `json:"black_moves,omitempty"`
	WhitePeriod  *int     `json:"white_period,omitempty"`
	BlackPeriod  *int     `json:"black_period,omitempty"`
	Status       *string  `json:"status,omitempty"`
	Flag         *string  `json:"flag,omitempty"`
	Result       *string  `json:"result,omitempty"`
	Termination  *string  `json:"termination,omitempty"`
	Category     *string  `json:"category,omitempty"`
	WhiteIllegal *int     `json:"white_illegal,omitempty"`
	BlackIllegal *int     `json:"black_illegal,omitempty"`
	WhiteScore   *float64 `json:"white_score,omitempty"`
	BlackScore   *float64 `json:"black_score,omitempty"`

	WhiteTimeTrouble *bool   `json:"white_time_trouble,omitempty"`
	BlackTimeTrouble *bool   `json:"black_time_trouble,omitempty"`
	ReferredBy       *string `json:"referred_by,omitempty"`
}

// Parse reads one vector or an array of vectors.
func Parse(data []byte, file string) ([]Vector, error) {
	trimmed := bytes.TrimSpace(data)
	var vs []Vector
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.DisallowUnknownFields()
	if len(trimmed) > 0 && trimmed[0] == '[' {
		if err := dec.Decode(&vs); err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
	} else {
		var v Vector
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		vs = []Vector{v}
	}
	for i := range vs {
		vs[i].File = file
	}
	return vs, nil
}

// LoadDir reads every *.json file below dir (or dir itself if it is a
// file), in lexical order. A file that cannot be read or parsed is
// returned in errs; the other files' vectors are still returned.
func LoadDir(dir string) (vs []Vector, errs []error) {
	var files []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(path, ".json") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		return nil, []error{err}
	}
	sort.Strings(files)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		got, err := Parse(data, f)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		vs = append(vs, got...)
	}
	return vs, errs
}
