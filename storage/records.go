package storage

import (
	"encoding/json"
	"time"

	"github.com/chesshall/hallclock/rules"
)

// IDs of tournaments, rounds, boards, commands, tokens and devices are
// chosen by the caller. Times are wall-clock times of the server (stored as
// Unix milliseconds, read back in UTC); a zero time given to a write means
// "now" (Options.Now) where a time is required.

// TournamentRecord is an event (in the chess sense) held in the hall.
type TournamentRecord struct {
	ID          string
	Name        string
	Config      rules.Config // the event's rules, the default of its rounds and boards
	TimeControl string       // the time control as the organiser wrote it, e.g. "90m+30s"
	Venue       string       // where it plays: the hall plan its rounds use ("" the hall)
	Created     time.Time
	// TieBreaks is the ordered tie-break list as the arbiter wrote it
	// ("BH-C1,BH,SB"), checked by the server; "": FIDE's defaults.
	TieBreaks string
	// SectionTieBreaks are sections' own lists, by section name.
	SectionTieBreaks map[string]string
}

// RoundRecord is one round of a tournament.
type RoundRecord struct {
	ID           string
	TournamentID string
	Number       int           // 1, 2, 3...; unique within the tournament
	Config       *rules.Config // nil: the tournament's
	TimeControl  string        // as written, if Config is set
	Venue        string        // whose hall plan gives its boards their clocks
	Created      time.Time
	// Rebuilt is when a hall restored from an older backup rebuilt the
	// round from its clocks' records (zero if it did not): its byes and
	// its boards without a clock are not known.
	Rebuilt time.Time
}

// Source says what keeps a board's time.
type Source int8

// Append only: do not reorder (stored).
const (
	SourceDevice  Source = 0 // the clock device on the table
	SourceVirtual Source = 1 // a server-hosted virtual clock (the device died, 6.10.1)
)

func (s Source) String() string {
	if s == SourceVirtual {
		return "virtual"
	}
	return "device"
}

// PlayerRecord is a player as the pairing shows them.
type PlayerRecord struct {
	Name       string `json:"name"`
	FideID     string `json:"fide_id,omitempty"`
	Rating     int    `json:"rating,omitempty"`
	StartRank  int    `json:"start_rank,omitempty"` // the pairing number, when the pairings gave one
	Title      string `json:"title,omitempty"`
	Federation string `json:"federation,omitempty"`
}

// BoardRecord is one game of a round, at one table.
type BoardRecord struct {
	ID           string
	RoundID      string
	Number       int    // the table number; unique within the round and section
	Section      string // "" if the event has no sections
	White, Black PlayerRecord
	Config       rules.Config // the effective rules of the board's clock
	TimeControl  string       // as written, e.g. "90m+30s"
	DeviceID     string       // the clock device assigned, "" if none
	Source       Source
	Table        int // the table in the round's venue (hall plan), 0 if none
	Created      time.Time
}

// EventRecord is one event of a board's log.
type EventRecord struct {
	Seq       uint64 // hall-wide change number, assigned by AppendEvent
	BoardID   string
	BoardSeq  uint64      // 1, 2, 3... within the board
	Event     rules.Event // Event.T is on the board's time line
	DeviceID  string      // the device that reported it, "" for arbiter and virtual-clock events
	DeviceSeq uint64      // the device's sequence number, when DeviceID is set
	CommandID string      // the arbiter command it carries out, if any
	Actor     string      // who caused it: a device, an arbiter, "server"
	Reason    string      // why, for arbiter actions
	Wall      time.Time   // when the server received it
}

// Audit outcomes.
const (
	OutcomeApplied = "applied"
	OutcomePending = "pending"
)

// KindText is the kind of an audit record's words that are only English
// (formats/words.KindText): its parameter "text" is them.
const KindText = "text"

// OutcomeRefused returns the outcome "refused: why".
func OutcomeRefused(why string) string { return "refused: " + why }

// OutcomeAlert returns the outcome "alert: what".
func OutcomeAlert(what string) string { return "alert: " + what }

// AuditRecord says who did what, when, why, and what came of it.
type AuditRecord struct {
	Seq      uint64 // assigned by AddAudit
	BoardID  string // "" for hall-wide actions (tokens, devices)
	Wall     time.Time
	Actor    string          // a token's label or id, a device id, "server"
	What     string          // e.g. "press", "add_time", "revoke_token"
	Reason   string          // the arbiter's reason, if given
	Outcome  string          // OutcomeApplied, OutcomePending, OutcomeRefused(...), OutcomeAlert(...)
	Action   json.RawMessage // the request as received, nil if none
	BoardSeq uint64          // the board event it produced or concerns, 0 if none
	// CommandID is the arbiter command it concerns (issued, or refused by
	// the rules on the clock), "" if none.
	CommandID string
	// Kind and Params are the record in words for people, as a kind and
	// its parameters (formats/words) written in each reader's language: a
	// refusal's reason, an alert, or what an action of the hall did; ""
	// if Action says it. Refusals and alerts written before kinds have the
	// kind "text", whose parameter "text" is the outcome's English words.
	Kind   string
	Params map[string]string
}

// Command statuses.
const (
	CommandPending = "pending"
	CommandApplied = "applied"
	CommandRefused = "refused"
)

// CommandRecord is an arbiter command on its way through a board's clock.
type CommandRecord struct {
	ID       string
	BoardID  string
	Action   json.RawMessage // what the device is to do
	Reason   string
	IssuedBy string
	Issued   time.Time
	Status   string // CommandPending, CommandApplied or CommandRefused
	Message  string // the refusal, or a note on how it was applied
	Resolved time.Time
}

// TokenRecord is a credential. Only the hash of its secret is stored.
type TokenRecord struct {
	ID       string
	Hash     string // ident.HashSecret(secret)
	Role     string // "device", "arbiter", "chief", "broadcast", ...
	Label    string
	DeviceID string   // for device tokens: the device it speaks for
	Sections []string // sections an arbiter may act on; empty: all
	// BoardID and Side: an assistant's token acts for the player of that
	// side ("white", "black") on that board only; "" for other tokens.
	BoardID string
	Side    string
	Created time.Time
	Revoked time.Time // zero while valid
}

// Active reports whether the token has not been revoked.
func (t TokenRecord) Active() bool { return t.Revoked.IsZero() }

// DeviceRecord is what the hall last heard from a clock device.
type DeviceRecord struct {
	ID         string
	Firmware   string
	LastSeen   time.Time
	BatteryPct int     // -1 if unknown
	DriftPPM   float64 // the oscillator's measured drift against the server
	Kind       string  // DeviceTablet for a browser enrolled by a clock link; "" a clock device (kept by TouchDevice)
}

// RoundFile is the file a round was imported from, as received.
type RoundFile struct {
	RoundID  string
	Format   string // "trf" or "csv"
	Content  []byte // byte for byte
	Pairings []byte // the pairing program's output, with a TRF
	Encoding string // what Content was read in: "utf-8", "windows-1250"...; "" for a file stored before the hall kept it
	Imported time.Time
}

// Bye kinds: the TRF's letters.
const (
	ByeHalf    = "H" // half-point bye
	ByeFull    = "F" // full-point bye
	ByePairing = "U" // pairing-allocated bye
	ByeZero    = "Z" // zero-point bye (a known absence)
)

// ByeRecord is a player's round without a game: a result without a board.
type ByeRecord struct {
	RoundID string
	Section string
	Player  PlayerRecord
	Kind    string // ByeHalf, ByeFull, ByePairing or ByeZero
	// Points is what the bye scores when its file says (a TRF's own point
	// system); nil: what the scoring of the round gives its kind.
	Points *float64
}

// PlanEntry is one table of a venue's hall plan.
type PlanEntry struct {
	Venue    string
	Table    int
	DeviceID string
	Updated  time.Time
}
