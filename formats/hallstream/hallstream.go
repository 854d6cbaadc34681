// Package hallstream is the format of a hall's event stream: the subjects,
// message ids and messages a hall publishes to NATS JetStream and its
// followers (gateways, a federation's view) read. It is pure: no I/O, no
// clock.
//
// # Subjects
//
// Every message of hall H is on a subject under hall.H (one stream per
// hall, named HALL_H, holds them: StreamName, Subjects):
//
//	hall.H.board.B            an event of board B (Event), in board order
//	hall.H.meta.hall          the hall's settings (Hall)
//	hall.H.meta.tournament.T  a tournament (Tournament)
//	hall.H.meta.round.R       a round, with whether it is public (Round)
//	hall.H.meta.board.B       a board: players, rules, section (Board); withdrawn: drop it
//	hall.H.meta.token.K       a broadcast token's hash, or its revocation (Token)
//
// A follower reads the stream in order: a record's message comes before
// the events that need it, and a later message of the same record
// replaces it. Ids are escaped into one subject token (SubjectToken): '.', '*',
// '>', '%', spaces and control characters become %XX.
//
// # Message ids and order
//
// Each message carries Nats-Msg-Id (MsgID: H.b.B.N for event N of board B,
// H.m.O for the outbox row O of a record), on which JetStream
// de-duplicates, and the header Hall-Outbox-Id (the hall's outbox row,
// increasing in commit order), from which a publisher learns how far the
// stream has the hall. Messages are JSON.
//
// # Signatures (format 2)
//
// Only the hall writes its stream: each message carries the hall's
// ed25519 signature in its headers, and followers check it before they
// apply anything. The body is as in format 1; the headers are
//
//	Hall-Format: 2
//	Hall-Outbox-Id: N           as in format 1
//	Hall-Key: K                 the public key that signed it (KeyString)
//	Hall-Signature: S           ed25519 over SignedBytes (base64url, no padding)
//	Hall-Key-Chain: K1:E1 ...   after a key rotation: each earlier key with its endorsement of the next
//	Hall-Start: 1               the stream starts the hall here: a follower forgets what it had of it
//
// SignedBytes covers the subject, the outbox row, the start mark and the
// body: a signature cannot be moved to another record, row or subject.
// Format 1 messages (no Hall-Format header) are unsigned; followers read
// them only when told to (NewTrust), and never once a signed
// message of the hall has come.
//
// # Signatures in batches (format 3)
//
// The hall's publisher signs up to MaxBatch messages at once: the root of
// a Merkle tree over them (RFC 9162's), each message's leaf being
// SHA-256 of 0x00 and its bytes as SignedBytes writes them with
// "hallstream 3". Each message carries format 2's headers (Hall-Format: 3,
// the signature being of "hallstream 3 batch\n", the batch's size, "\n"
// and the root) and
//
//	Hall-Leaf: i/n              its place in the batch, from 0, of n
//	Hall-Proof: P               the audit path from its leaf to the root (base64url, no padding)
//
// so that each message verifies on its own (Seal.Verify), in any order,
// and a follower checks a batch's signature once (Trust).
//
// A key is rotated by endorsing the next one: the hall signs "this key
// follows me" with the key it replaces, and every message signed by the
// new key carries the whole chain from the hall's first key. A follower
// that trusts a key of the chain moves its trust along it to the newest
// key and no longer accepts the older ones.
package hallstream

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/chesshall/hallclock/rules"
)

// Headers of every message besides Nats-Msg-Id.
const (
	// HeaderOutbox is the hall's outbox row the message was published
	// from: 1, 2, 3... in commit order.
	HeaderOutbox = "Hall-Outbox-Id"
)

// Kinds of message: the subject's word after "meta", or KindEvent.
const (
	KindHall       = "hall"
	KindTournament = "tournament"
	KindRound      = "round"
	KindBoard      = "board"
	KindToken      = "token"
	KindEvent      = "event"
)

// StreamName is the JetStream stream that holds hall's messages.
func StreamName(hall string) string { return "HALL_" + hall }

// Subjects is the subject filter of one hall's messages.
func Subjects(hall string) string { return "hall." + hall + ".>" }

// AllHalls is the subject filter of every hall's messages.
const AllHalls = "hall.>"

// Hall is what followers are told of the hall.
type Hall struct {
	// DelayMs: the hall's broadcast delay in milliseconds. Followers show
	// every viewer the hall at least this late.
	DelayMs int64 `json:"delay_ms"`
	// AllPublic: every round's feeds need no token (the demo).
	AllPublic bool `json:"all_public,omitempty"`
}

// Tournament is an event held in the hall.
type Tournament struct {
	ID            string `json:"id"`
	Name          string `json:"name"`
	TimeControl   string `json:"time_control,omitempty"` // as the organiser wrote it
	Venue         string `json:"venue,omitempty"`
	CreatedUnixMs int64  `json:"created_unix_ms"`
}

// Round is one round of a tournament.
type Round struct {
	ID            string `json:"id"`
	TournamentID  string `json:"tournament_id"`
	Number        int    `json:"number"`
	Venue         string `json:"venue,omitempty"`  // the PGN Site
	Public        bool   `json:"public,omitempty"` // its feeds need no token
	CreatedUnixMs int64  `json:"created_unix_ms"`
}

// Player is a player as the pairing shows them.
type Player struct {
	Name       string `json:"name"`
	FideID     string `json:"fide_id,omitempty"`
	Rating     int    `json:"rating,omitempty"`
	Title      string `json:"title,omitempty"`
	Federation string `json:"federation,omitempty"`
}

// Board is one game of a round. Withdrawn: the board is gone (its round
// imported again before it started); only ID is set.
type Board struct {
	ID            string       `json:"id"`
	RoundID       string       `json:"round_id,omitempty"`
	Number        int          `json:"number,omitempty"`
	Section       string       `json:"section,omitempty"`
	White         Player       `json:"white"`
	Black         Player       `json:"black"`
	Config        rules.Config `json:"config"` // the effective rules of its clock
	TimeControl   string       `json:"time_control,omitempty"`
	Virtual       bool         `json:"virtual,omitempty"` // a server-hosted virtual clock keeps its time
	Table         int          `json:"table,omitempty"`   // the table in the venue, 0 if none
	CreatedUnixMs int64        `json:"created_unix_ms,omitempty"`
	Withdrawn     bool         `json:"withdrawn,omitempty"`
}

// Token is a broadcast token: the hex SHA-256 of its secret, which a
// follower checks a bearer token against, or its revocation.
type Token struct {
	ID      string `json:"id"`
	Hash    string `json:"hash"`
	Revoked bool   `json:"revoked,omitempty"`
}

// Event is one committed event of a board's log. It has no reason: an
// arbiter's free text is for the audit and the arbiters, and the stream's
// followers serve the public, which is told what happened (the event
// says it) but not why in the arbiter's words.
type Event struct {
	Seq       uint64      `json:"seq"` // the hall-wide change number (watchers resume by it)
	BoardID   string      `json:"board_id"`
	BoardSeq  uint64      `json:"board_seq"` // 1, 2, 3... within the board
	Event     rules.Event `json:"event"`
	Actor     string      `json:"actor,omitempty"`
	CommandID string      `json:"command_id,omitempty"`
	// WallUnixMs: when the hall committed it (its wall clock).
	WallUnixMs int64 `json:"wall_unix_ms"`
}

// Message is one message of a hall's stream: its hall, kind, the id of
// its record (the board of an event) and the record. Exactly one record
// field is set, matching Kind.
type Message struct {
	Hall string
	Kind string
	ID   string // the record's id; the board's for an event; "" for the hall

	Settings   *Hall
	Tournament *Tournament
	Round      *Round
	Board      *Board
	Token      *Token
	Event      *Event
}

// Subject returns the message's subject.
func (m Message) Subject() string {
	switch m.Kind {
	case KindEvent:
		return "hall." + m.Hall + ".board." + SubjectToken(m.ID)
	case KindHall:
		return "hall." + m.Hall + ".meta.hall"
	}
	return "hall." + m.Hall + ".meta." + m.Kind + "." + SubjectToken(m.ID)
}

// MsgID returns the message's de-duplication id: H.b.B.N for event N of
// board B, H.m.O for a record published from outbox row O.
func MsgID(m Message, outbox uint64) string {
	if m.Kind == KindEvent && m.Event != nil {
		return m.Hall + ".b." + SubjectToken(m.ID) + "." + strconv.FormatUint(m.Event.BoardSeq, 10)
	}
	return m.Hall + ".m." + strconv.FormatUint(outbox, 10)
}

// Encode returns the message's subject and JSON body.
func Encode(m Message) (subject string, body []byte, err error) {
	var v any
	var missing bool
	switch m.Kind {
	case KindHall:
		v, missing = m.Settings, m.Settings == nil
	case KindTournament:
		v, missing = m.Tournament, m.Tournament == nil
	case KindRound:
		v, missing = m.Round, m.Round == nil
	case KindBoard:
		v, missing = m.Board, m.Board == nil
	case KindToken:
		v, missing = m.Token, m.Token == nil
	case KindEvent:
		v, missing = m.Event, m.Event == nil
	default:
		return "", nil, fmt.Errorf("hallstream: unknown kind %q", m.Kind)
	}
	if missing || (m.Kind != KindHall && m.ID == "") {
		return "", nil, fmt.Errorf("hallstream: %s message without its record", m.Kind)
	}
	body, err = json.Marshal(v)
	if err != nil {
		return "", nil, fmt.Errorf("hallstream: %s %s: %w", m.Kind, m.ID, err)
	}
	return m.Subject(), body, nil
}

// EncodeEvent is Encode of an event message whose rules.Event the caller
// holds already encoded (event: json.Marshal of m.Event.Event, as the
// hall stores it): the same subject and body, without encoding the event
// again. m.Event.Event is not read.
func EncodeEvent(m Message, event json.RawMessage) (subject string, body []byte, err error) {
	if m.Kind != KindEvent || m.Event == nil || m.ID == "" {
		return "", nil, fmt.Errorf("hallstream: EncodeEvent of a %s message without its event", m.Kind)
	}
	e := m.Event
	body, err = json.Marshal(rawEvent{Seq: e.Seq, BoardID: e.BoardID, BoardSeq: e.BoardSeq, Event: event,
		Actor: e.Actor, CommandID: e.CommandID, WallUnixMs: e.WallUnixMs})
	if err != nil {
		return "", nil, fmt.Errorf("hallstream: event %s: %w", m.ID, err)
	}
	return m.Subject(), body, nil
}

// rawEvent is Event with its rules.Event already encoded: the same
// fields, names and order (TestEncodeEventIsEncode holds them equal).
type rawEvent struct {
	Seq        uint64          `json:"seq"`
	BoardID    string          `json:"board_id"`
	BoardSeq   uint64          `json:"board_seq"`
	Event      json.RawMessage `json:"event"`
	Actor      string          `json:"actor,omitempty"`
	CommandID  string          `json:"command_id,omitempty"`
	WallUnixMs int64           `json:"wall_unix_ms"`
}

// Decode reads a message from its subject and body.
func Decode(subject string, body []byte) (Message, error) {
	m, err := ParseSubject(subject)
	if err != nil {
		return m, err
	}
	var v any
	switch m.Kind {
	case KindHall:
		m.Settings = &Hall{}
		v = m.Settings
	case KindTournament:
		m.Tournament = &Tournament{}
		v = m.Tournament
	case KindRound:
		m.Round = &Round{}
		v = m.Round
	case KindBoard:
		m.Board = &Board{}
		v = m.Board
	case KindToken:
		m.Token = &Token{}
		v = m.Token
	case KindEvent:
		m.Event = &Event{}
		v = m.Event
	}
	if err := json.Unmarshal(body, v); err != nil {
		return m, fmt.Errorf("hallstream: %s: %w", subject, err)
	}
	return m, nil
}

// ParseSubject reads the hall, kind and record id of a subject.
func ParseSubject(subject string) (Message, error) {
	bad := func(why string) (Message, error) {
		return Message{}, fmt.Errorf("hallstream: subject %q: %s (want hall.<hall>.board.<board> or hall.<hall>.meta.<kind>[.<id>])", subject, why)
	}
	parts := strings.Split(subject, ".")
	if len(parts) < 3 || parts[0] != "hall" || parts[1] == "" {
		return bad("not a hall's subject")
	}
	m := Message{Hall: parts[1]}
	switch {
	case parts[2] == "board" && len(parts) == 4:
		m.Kind = KindEvent
	case parts[2] == "meta" && len(parts) == 4 && parts[3] == KindHall:
		m.Kind = KindHall
		return m, nil
	case parts[2] == "meta" && len(parts) == 5:
		switch parts[3] {
		case KindTournament, KindRound, KindBoard, KindToken:
			m.Kind = parts[3]
		default:
			return bad("unknown kind " + parts[3])
		}
	default:
		return bad("unknown shape")
	}
	id, err := FromSubjectToken(parts[len(parts)-1])
	if err != nil || id == "" {
		return bad("bad id")
	}
	m.ID = id
	return m, nil
}

// SubjectToken escapes an id into one subject token: '.', '*', '>', '%', spaces
// and control characters become %XX (upper-case hex).
func SubjectToken(id string) string {
	if !strings.ContainsFunc(id, escaped) {
		return id
	}
	var b strings.Builder
	for i := 0; i < len(id); i++ {
		c := id[i]
		if escaped(rune(c)) {
			fmt.Fprintf(&b, "%%%02X", c)
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}

func escaped(r rune) bool {
	return r <= ' ' || r == 0x7f || r == '.' || r == '*' || r == '>' || r == '%'
}

// FromSubjectToken reverses SubjectToken.
func FromSubjectToken(tok string) (string, error) {
	if !strings.Contains(tok, "%") {
		return tok, nil
	}
	var b strings.Builder
	for i := 0; i < len(tok); i++ {
		if tok[i] != '%' {
			b.WriteByte(tok[i])
			continue
		}
		if i+2 >= len(tok) {
			return "", fmt.Errorf("hallstream: token %q: %% at the end", tok)
		}
		v, err := strconv.ParseUint(tok[i+1:i+3], 16, 8)
		if err != nil {
			return "", fmt.Errorf("hallstream: token %q: %w", tok, err)
		}
		b.WriteByte(byte(v))
		i += 2
	}
	return b.String(), nil
}
