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
//
// # Vocabulary beyond spec/conformance.md
//
// This project's vectors (rules/testdata) use the vocabulary of
// spec/conformance.md and these extensions; a vector written only in the
// spec's vocabulary means the same here.
//
// Time control: also one per side (time odds, Armageddon), "white
// 60/5m:0+2s | black 60/4m:0+2s" (rules.ParseTimeControl).
//
// Regulations:
//
//	scoring                     [win, draw, loss] points, e.g. [3, 1, 0]
//	resumption_default_time_s   how late a player may be for the resumption of an
//	                            adjourned game (default: the ruleset's, Guidelines I.10)
//	draw_odds                   "white" or "black": a draw counts as that side's win
//	                            (an Armageddon game); the board's result stays the draw
//
// Actions (every field optional unless said):
//
//	press              san: the move in SAN, for the record; refused while no clock runs
//	result             by: "arbiter" (default) or "players"; results also "1/2-0", "0-1/2"
//	set_clock          schedule_override: past the rapid/blitz lock (2023 A.5.1.1,
//	                   2018 A.4.1.1; refused in 2009 and 2005, whose A4(a) and B4 have
//	                   no exception for the schedule); to_move: "white" or "black",
//	                   a retrace to an earlier position (2018 D.2.9, 2009 E2.8): that
//	                   side has the move when the clock restarts, his move starts
//	                   afresh, no illegal move is counted; fen: the position there
//	                   (else unknown). Only while paused
//	announce           side: the player told the completed moves and the time used
//	                   by both (2018 D.2.6.1 by his clock, D.2.10.4 by his assistant
//	                   at his request); refused when the appendix gives him none.
//	                   Not a clock event: it changes nothing
//	quickplay_claim    decision "refer": no arbiter present; the claim ends the game and is
//	                   referred (III.6, 2009 Appendix D); no_extra_time on "postpone"
//	adjourn            session_end: board time (ms, like t) of the session's nominal end;
//	                   adjourning before it charges the time to it (Guidelines I.1.2)
//	resume             absent: players not at the resumption of an adjourned game (I.9);
//	                   they lose once its default time has passed (I.10, 2005 A10)
//	illegal_move       naming the sealer after the resumption, before his opponent's
//	                   next press: the sealed move is the one found illegal; the sealer
//	                   loses in every edition, no penalty time (I.8.3, 2009 guideline
//	                   8(c), 2005 A8(c)); drawn if the opponent cannot checkmate. The
//	                   claim deadline of the appendices is the opponent's press: a
//	                   position showing his reply made does not end it (the clock cannot
//	                   tell a move made from a move completed)
//	arbiter_flag       side: whose fallen flag the arbiter calls, where the appendices
//	                   govern (elsewhere the flag ended the game when it fell): the game
//	                   ends as on a valid claim (2023 A.5.5, 2018 A.4.5), or refused
//	                   (2009 A4(d), 2005 B7: he refrains, only a claim counts). Refused
//	                   while the flag is up
//	sealed_move_ends   result: the sealer's win (checkmate) or 1/2-1/2 (stalemate, dead
//	                   position): the sealed move, made at the resumption, ended the
//	                   game (termination normal); also after a default or a flag since
//	                   the resumption (I.10, 2009 guideline 10, 2005 A10). Refused while
//	                   adjourned, without a resumed sealed move, or once it is answered
//	envelope_lost      absent as for resume; only while adjourned: play resumes from the
//	                   adjourned position with the recorded times (set_clock first when
//	                   they cannot be re-established), the sealer to move; his move
//	                   completes at his press (I.12.1, 2009 guideline 11(a), 2005 A11(a))
//	illegal_move_found side (the offender), move (his move found illegal, from 1),
//	                   white_ms, black_ms (the times the arbiter sets), fen (the position
//	                   before it); only while paused, and only where the Competition
//	                   Rules govern the game (7.5.1)
//	flags_unordered    the clock shows both flags down without their order (6.10.1;
//	                   III.3, 2009 6.11, 2005 6.11 and B8)
//	declare_lost       side (the offender), result (the score the arbiter decides,
//	                   optional where the ruleset gives it: 12.9, 2009 12.2(b))
//
// Play with visually disabled players (2023/2018 Appendix D, 2009
// Appendix E):
//
//	blind_play         on the vector: {"white": {...}, "black": {...}}, each side
//	                   optional with visually_disabled, assistant, language (a
//	                   BCP 47 tag for the clock's announcements); absent, the board
//	                   is not played under the appendix
//	actor              on an action step: who does it. "player" (the players at the
//	                   board: start, arrive, press, pause, adjourn, flag_claim, a
//	                   result by the players, announce), "assistant" (the
//	                   appendix's list, D.2.10 and D.2.11, then the action is
//	                   judged as the player's own) or "arbiter" (any action).
//	                   Absent, nobody's permission is checked: the action is
//	                   judged as the rules see it, as in the vectors written
//	                   before actors
//	assists            with actor "assistant": the player he assists (default:
//	                   the step's side)
//
// Checks:
//
//	status                                 also "referred" (a claim awaits the arbiter)
//	referred_by                            "white", "black" or "none"
//	white_time_trouble, black_time_trouble true once under five minutes in the period
//	                                       without a 30 s increment (8.4)
//	white_score, black_score               points under the event's scoring (of the
//	                                       result that counts, under draw odds)
//	counting_result                        the result that counts under draw odds
//	                                       ("0-1" for a drawn Armageddon); result
//	                                       stays what happened on the board
//	to_move                                "white" or "black": who has the move,
//	                                       even while no clock runs
//	white_used_ms, black_used_ms           time the player's clock has run in the
//	                                       game (delays included, times the arbiter
//	                                       gave, took or set not counted): the time
//	                                       used a visually disabled player is told
//	                                       (D.2.10.4)
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
	BlindPlay   *BlindPlay   `json:"blind_play,omitempty"`
	Steps       []Step       `json:"steps"`
}

// BlindPlay is the board's setting for play with visually disabled
// players (2023/2018 Appendix D, 2009 Appendix E), per side; absent, the
// board is not played under the appendix. An extension of this project.
type BlindPlay struct {
	White *BlindPlayer `json:"white,omitempty"`
	Black *BlindPlayer `json:"black,omitempty"`
}

// BlindPlayer is one player's part: visually disabled, with an assistant
// (his own, or a sighted player's under D.2.11), and the language the
// clock announces in.
type BlindPlayer struct {
	VisuallyDisabled bool   `json:"visually_disabled,omitempty"`
	Assistant        bool   `json:"assistant,omitempty"`
	Language         string `json:"language,omitempty"`
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
	DrawOdds            string      `json:"draw_odds,omitempty"`
}

// Step is an action (Do), a check (Expect), or both (the action first).
// ScheduleOverride, NoExtraTime, By ("players" or "arbiter", for result;
// default arbiter), SAN, Move, SessionEnd, ToMove and Actor are extensions
// of this project; so is Absent on resume and envelope_lost (the
// resumption of an adjourned game), and so are the actions arbiter_flag,
// sealed_move_ends, envelope_lost and announce.
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
	ToMove           string   `json:"to_move,omitempty"`
	Actor            string   `json:"actor,omitempty"`
	Assists          string   `json:"assists,omitempty"`
	NoExtraTime      bool     `json:"no_extra_time,omitempty"`
	Refused          bool     `json:"refused,omitempty"`
	Expect           *Expect  `json:"expect,omitempty"`
}

// Expect holds the checks of a step; only the keys given are compared.
// WhiteScore, BlackScore, WhiteTimeTrouble, BlackTimeTrouble, ReferredBy,
// ToMove, WhiteUsedMs and BlackUsedMs are extensions of this project.
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

	ToMove      *string `json:"to_move,omitempty"`
	WhiteUsedMs *int64  `json:"white_used_ms,omitempty"`
	BlackUsedMs *int64  `json:"black_used_ms,omitempty"`

	CountingResult *string `json:"counting_result,omitempty"`
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
