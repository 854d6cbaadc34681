package enrol

import (
	"context"
	"crypto/rand"
	"encoding/base32"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/chesshall/hallclock/internal/ident"
	"github.com/chesshall/hallclock/server/auth"
	"github.com/chesshall/hallclock/server/hall"
	"github.com/chesshall/hallclock/server/hallerr"
	"github.com/chesshall/hallclock/storage"
)

const (
	// Path is the enrolment page: GET shows what the link makes, POST
	// spends it.
	Path = "/clock/enrol"
	// StorageKey is where the page keeps the device's credentials in the
	// browser's localStorage, for the clock face (/clock): JSON
	// {"device_id", "token", "label"}.
	StorageKey = "hallclock.device"
	// FacePath is the clock face the page opens once enrolled.
	FacePath = "/clock"
	// codePrefix starts every clock link's code (a sign-in link's is "sc_").
	codePrefix = "cl_"
	// CodeTTL is how long a clock link is valid: as a sign-in link.
	CodeTTL = auth.CodeTTL
)

// Links issues and spends clock links.
type Links struct {
	Store  *storage.Store
	Tokens *auth.Tokens
	Hall   *hall.Hall
	Now    func() time.Time // the server's wall clock
	Log    *slog.Logger
	// Zone is the hall's time zone: the audit says a link's expiry in it,
	// naming it (auth.Clock). nil: UTC.
	Zone *time.Location
}

// Target is what a link makes the browser the clock of: a board, or a
// table of a venue's hall plan.
type Target struct {
	BoardID string
	Venue   string // with Table; "" the hall
	Table   int
}

// Issued is a link just made.
type Issued struct {
	Code    string // for Path?code=
	Expires time.Time
	What    string // for people: "board 3 of Blitz Night, round 1"
}

// Enrolled is what spending a link made: the device and its token (shown
// to the browser once, kept there).
type Enrolled struct {
	DeviceID string `json:"device_id"`
	Token    string `json:"token"`
	Label    string `json:"label"`
}

// Issue makes a clock link for t on behalf of maker: a board the maker
// may act on (its section), or a table (chief arbiter only, as the hall
// plan is theirs). A table the venue knows neither from its plan nor from
// its rounds is refused.
func (l *Links) Issue(ctx context.Context, maker *auth.Identity, t Target) (Issued, error) {
	what, err := l.check(ctx, maker, t)
	if err != nil {
		return Issued{}, err
	}
	code, now := codePrefix+randomCode(), l.Now()
	out := Issued{Code: code, Expires: now.Add(CodeTTL), What: what}
	err = l.Store.Write(ctx, func(tx *storage.Tx) error {
		if err := tx.PutClockLink(storage.ClockLink{Hash: ident.HashSecret(code), BoardID: t.BoardID, Venue: t.Venue, Table: t.Table,
			MadeBy: maker.Actor(), MakerToken: maker.TokenID, Created: now, Expires: out.Expires}); err != nil {
			return err
		}
		zone := l.Zone
		if zone == nil {
			zone = time.UTC
		}
		until := auth.Clock(out.Expires, zone)
		text := fmt.Sprintf("clock link made for %s, valid until %s", what, until)
		return tx.AddAudit(&storage.AuditRecord{BoardID: t.BoardID, Actor: maker.Actor(), What: text, Outcome: storage.OutcomeApplied,
			Kind: "did.clock_link", Params: map[string]string{"what": what, "until": until,
				"until_unix_ms": strconv.FormatInt(out.Expires.UnixMilli(), 10), "text": text}})
	})
	if err != nil {
		return Issued{}, err
	}
	return out, nil
}

// check says what t is for people, or why maker may not make its link.
func (l *Links) check(ctx context.Context, maker *auth.Identity, t Target) (string, error) {
	if t.BoardID != "" {
		b, err := l.Hall.Board(t.BoardID)
		if err == nil && !maker.MaySection(b.Section()) {
			err = fmt.Errorf("%w %q", hallerr.ErrUnknownBoard, t.BoardID) // out of reach: as if it did not exist
		}
		if err != nil {
			return "", err
		}
		return l.boardName(b), nil
	}
	if maker.Role != auth.RoleChief {
		return "", fmt.Errorf("%w: a table's clock is the chief arbiter's, as the hall plan is: make a link for a board instead", hallerr.ErrPermission)
	}
	if t.Table < 1 {
		return "", hallerr.BadRequest("table %d: a table is a number from 1", t.Table)
	}
	known, err := l.tables(ctx, t.Venue)
	if err != nil {
		return "", err
	}
	if !known[t.Table] {
		return "", fmt.Errorf("%w: unknown table: %s has no table %d in its hall plan or its rounds%s", storage.ErrNotFound,
			venueName(t.Venue), t.Table, tableRange(known))
	}
	return fmt.Sprintf("table %d of %s", t.Table, venueName(t.Venue)), nil
}

// tables are the tables a venue knows: its plan's and its rounds' boards'.
func (l *Links) tables(ctx context.Context, venue string) (map[int]bool, error) {
	plan, err := l.Store.Plan(ctx, venue)
	if err != nil {
		return nil, err
	}
	known := map[int]bool{}
	for _, e := range plan {
		known[e.Table] = true
	}
	for _, b := range l.boardsOf(venue) {
		rec, err := b.Record(ctx)
		if err != nil {
			return nil, err
		}
		if rec.Table > 0 {
			known[rec.Table] = true
		}
	}
	return known, nil
}

// boardsOf returns the boards of the venue's rounds.
func (l *Links) boardsOf(venue string) []*hall.Board {
	var out []*hall.Board
	for _, r := range l.Hall.Rounds("") {
		if r.Venue == venue {
			out = append(out, l.Hall.Boards(r.ID)...)
		}
	}
	return out
}

// Peek says what a link's code makes, without spending it; an unknown,
// spent or expired link is refused plainly.
func (l *Links) Peek(ctx context.Context, code string) (storage.ClockLink, string, error) {
	link, err := l.Store.ClockLinkByHash(ctx, hashOf(code))
	if err == nil {
		err = l.usable(link, l.Now())
	}
	if err != nil {
		return link, "", plain(err)
	}
	what := fmt.Sprintf("table %d of %s", link.Table, venueName(link.Venue))
	if link.BoardID != "" {
		b, err := l.Hall.Board(link.BoardID)
		if err != nil {
			return link, "", err
		}
		what = l.boardName(b)
	}
	return link, what, nil
}

// usable refuses a link used or expired at now.
func (l *Links) usable(link storage.ClockLink, now time.Time) error {
	switch {
	case !link.Used.IsZero():
		return storage.ErrLinkUsed
	case !now.Before(link.Expires):
		return storage.ErrLinkExpired
	}
	return nil
}

// plain words for a link that cannot be used.
func plain(err error) error {
	switch {
	case errors.Is(err, storage.ErrNotFound):
		return fmt.Errorf("%w: this clock link is unknown: check it was copied whole, or ask the arbiter for a new one (hallctl clock-link)", storage.ErrNotFound)
	case errors.Is(err, storage.ErrLinkUsed):
		return fmt.Errorf("%w: this clock link was used already (a link makes one clock, once): ask the arbiter for a new one", storage.ErrConflict)
	case errors.Is(err, storage.ErrLinkExpired):
		return fmt.Errorf("%w: this clock link has expired (a link is valid %s after it was made): ask the arbiter for a new one", storage.ErrConflict, CodeTTL)
	}
	return err
}

// Spend makes the browser that spends code a clock: a tablet device with
// a token of its own, assigned to the link's board or put at its table.
// The link is spent first, so that two browsers never both get a clock
// from it.
func (l *Links) Spend(ctx context.Context, code string) (Enrolled, error) {
	// Whoever made the link must still hold their token: a link is no
	// stronger than its maker (read first, so that such a link is not
	// spent for nothing).
	if peek, err := l.Store.ClockLinkByHash(ctx, hashOf(code)); err == nil {
		if err := l.usable(peek, l.Now()); err != nil {
			return Enrolled{}, plain(err)
		}
		if _, ok := l.Tokens.LookupID(peek.MakerToken); !ok {
			return Enrolled{}, fmt.Errorf("%w: the token of %s, who made this clock link, was revoked since: ask the arbiter for a new link",
				hallerr.ErrPermission, peek.MadeBy)
		}
	}
	dev := "tablet-" + strings.ToLower(randomCode()[:8])
	now := l.Now()
	var link storage.ClockLink
	err := l.Store.Write(ctx, func(tx *storage.Tx) error {
		var err error
		if link, err = tx.SpendClockLink(hashOf(code), dev, now); err != nil {
			return err
		}
		return tx.PutDeviceKind(dev, storage.DeviceTablet, now)
	})
	if err != nil {
		return Enrolled{}, plain(err)
	}
	maker, ok := l.Tokens.LookupID(link.MakerToken)
	if !ok {
		return Enrolled{}, fmt.Errorf("%w: the token of %s, who made this clock link, was revoked since: ask the arbiter for a new link", hallerr.ErrPermission, link.MadeBy)
	}
	label := "tablet at table " + fmt.Sprint(link.Table)
	if link.BoardID != "" {
		b, err := l.Hall.Board(link.BoardID)
		if err != nil {
			return Enrolled{}, err
		}
		label = "tablet for " + l.boardName(b)
	} else if link.Venue != "" {
		label += " of " + link.Venue
	}
	rec, token, err := l.Tokens.Issue(ctx, auth.RoleDevice, label, dev, nil, maker.Actor())
	if err != nil {
		return Enrolled{}, err
	}
	if err := l.place(ctx, maker, link, dev); err != nil {
		// The device stays (listed, revocable) but keeps no board: say why.
		return Enrolled{}, fmt.Errorf("the tablet %s was made (token %s) but could not be given its board: %w", dev, rec.ID, err)
	}
	l.Log.Info("tablet enrolled", "device", dev, "token", rec.ID, "by", link.MadeBy, "board", link.BoardID, "table", link.Table)
	return Enrolled{DeviceID: dev, Token: token, Label: label}, nil
}

// place gives the new device its board, or its table of the hall plan and
// the board at that table whose game is not over, audited as the link's
// maker's.
func (l *Links) place(ctx context.Context, maker *auth.Identity, link storage.ClockLink, dev string) error {
	reason := "a tablet enrolled by a clock link made by " + link.MadeBy
	if link.BoardID != "" {
		b, err := l.Hall.Board(link.BoardID)
		if err != nil {
			return err
		}
		return l.Hall.AssignDevice(ctx, maker, b, dev, reason, false)
	}
	err := l.Store.Write(ctx, func(tx *storage.Tx) error {
		if err := tx.SetPlanTable(link.Venue, link.Table, dev); err != nil {
			return err
		}
		text := fmt.Sprintf("set_plan of %s: table %d %s (tablet)", venueName(link.Venue), link.Table, dev)
		return tx.AddAudit(&storage.AuditRecord{Actor: maker.Actor(), Reason: reason, Outcome: storage.OutcomeApplied, What: text,
			Kind: planKind(link.Venue, "did.plan_tablet"), Params: map[string]string{"venue": link.Venue, "table": strconv.Itoa(link.Table), "device": dev, "text": text}})
	})
	if err != nil {
		return err
	}
	b, err := l.playingAt(ctx, link.Venue, link.Table)
	if err != nil || b == nil {
		return err
	}
	return l.Hall.AssignDevice(ctx, maker, b, dev, reason, false)
}

// playingAt returns the board at a venue's table whose game is not over
// (the newest round's, if several), or nil.
func (l *Links) playingAt(ctx context.Context, venue string, table int) (*hall.Board, error) {
	var found *hall.Board
	var round int
	for _, b := range l.boardsOf(venue) {
		rec, st, err := b.Game(ctx)
		if err != nil {
			return nil, err
		}
		if rec.Table != table || st.Over() {
			continue
		}
		if n, _ := l.Hall.RoundInfo(rec.RoundID); found == nil || int(n) > round {
			found, round = b, int(n)
		}
	}
	return found, nil
}

// boardName names a board for people: "board 3 of Blitz Night, round 1".
func (l *Links) boardName(b *hall.Board) string {
	n, tournament := l.Hall.RoundInfo(b.RoundID())
	section := ""
	if b.Section() != "" {
		section = " (" + b.Section() + ")"
	}
	return fmt.Sprintf("board %d%s of %s, round %d", b.Number(), section, tournament, n)
}

// planKind is the kind of a hall plan's entry: kind for a venue,
// kind_hall for the hall's own plan.
func planKind(venue, kind string) string {
	if venue == "" {
		return kind + "_hall"
	}
	return kind
}

func venueName(v string) string {
	if v == "" {
		return "the hall"
	}
	return v
}

// tableRange says which tables a venue knows, for a refusal.
func tableRange(known map[int]bool) string {
	if len(known) == 0 {
		return " (it has none yet: set its plan with hallctl plan set)"
	}
	lo, hi := 0, 0
	for t := range known {
		if lo == 0 || t < lo {
			lo = t
		}
		hi = max(hi, t)
	}
	return fmt.Sprintf(" (it knows tables %d–%d)", lo, hi)
}

func hashOf(code string) string { return ident.HashSecret(strings.TrimSpace(code)) }

// randomCode is a code's random part: 120 bits, base32 (no padding).
func randomCode() string {
	return strings.TrimRight(base32.StdEncoding.EncodeToString(randomBytes(15)), "=")
}

func randomBytes(n int) []byte {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return b
}
