package auth

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	grpcauth "github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/auth"
	"google.golang.org/grpc"

	"github.com/chesshall/hallclock/internal/ident"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/server/hallerr"
	"github.com/chesshall/hallclock/storage"
)

// Role is what a token may do. Roles are enforced at the door: each gRPC
// method lists the roles it admits (methodRoles), and board-level limits
// (a device's board, an arbiter's sections) are checked by the handlers.
type Role string

const (
	RoleDevice    Role = "device"    // a clock device: ClockLink, for its assigned board only
	RoleArbiter   Role = "arbiter"   // board actions and reads, possibly limited to sections
	RoleChief     Role = "chief"     // everything, including events, rounds and tokens
	RoleBroadcast Role = "broadcast" // read-only: watch streams and board lists
	// RoleAssistant is the assistant of a visually disabled player (FIDE
	// 2018 Appendix D.2.10): one board and one side, and on it only what
	// the Laws let an assistant do (rules.AssistantMay), checked by the
	// handlers with Identity.MayBoard.
	RoleAssistant Role = "assistant"
)

// RoleFromWire is the role the contract names; an unspecified or unknown
// one is a bad request.
func RoleFromWire(r pb.Role) (Role, error) {
	switch r {
	case pb.Role_ROLE_DEVICE:
		return RoleDevice, nil
	case pb.Role_ROLE_ARBITER:
		return RoleArbiter, nil
	case pb.Role_ROLE_CHIEF_ARBITER:
		return RoleChief, nil
	case pb.Role_ROLE_BROADCAST:
		return RoleBroadcast, nil
	case pb.Role_ROLE_ASSISTANT:
		return RoleAssistant, nil
	}
	return "", hallerr.BadRequest("role %s: want ROLE_DEVICE, ROLE_ARBITER, ROLE_CHIEF_ARBITER, ROLE_BROADCAST or ROLE_ASSISTANT", r)
}

// Wire is the role as the contract names it.
func (r Role) Wire() pb.Role {
	switch r {
	case RoleDevice:
		return pb.Role_ROLE_DEVICE
	case RoleArbiter:
		return pb.Role_ROLE_ARBITER
	case RoleChief:
		return pb.Role_ROLE_CHIEF_ARBITER
	case RoleBroadcast:
		return pb.Role_ROLE_BROADCAST
	case RoleAssistant:
		return pb.Role_ROLE_ASSISTANT
	}
	return pb.Role_ROLE_UNSPECIFIED
}

// Identity is who is calling, put into the context once by the door.
type Identity struct {
	TokenID  string
	Role     Role
	Label    string
	DeviceID string   // devices: the device the token speaks for
	Sections []string // arbiters: the sections they may act on; empty: all
	// BoardID and Side: an assistant's board and the player he assists
	// ("white" or "black").
	BoardID string
	Side    string
}

// Actor names the identity in the audit log.
func (id *Identity) Actor() string {
	switch id.Role {
	case RoleDevice:
		return "device:" + id.DeviceID
	case RoleChief:
		return "chief:" + id.Label
	}
	return string(id.Role) + ":" + id.Label
}

// MayBoard reports whether the identity may reach board at all: an
// assistant his own board only, everyone else any (an arbiter's sections
// are MaySection's).
func (id *Identity) MayBoard(board string) bool {
	return id.Role != RoleAssistant || id.BoardID == board
}

// SectionsSeen returns the sections whose boards the identity may see, or
// nil for every section (and the hall's own entries, of no board).
func (id *Identity) SectionsSeen() []string {
	if id.Role == RoleChief || len(id.Sections) == 0 {
		return nil
	}
	return slices.Clone(id.Sections)
}

// MaySection reports whether the identity may act on boards of section.
func (id *Identity) MaySection(section string) bool {
	if id.Role == RoleChief || len(id.Sections) == 0 {
		return true
	}
	return slices.Contains(id.Sections, section)
}

type identityKey struct{}

// IdentityFrom returns the caller's identity (nil if the door put none:
// health checks, reflection).
func IdentityFrom(ctx context.Context) *Identity {
	id, _ := ctx.Value(identityKey{}).(*Identity)
	return id
}

// WithIdentity returns ctx carrying id: what the door does for a gRPC
// call, and the web pages' bridges for an HTTP request.
func WithIdentity(ctx context.Context, id *Identity) context.Context {
	return context.WithValue(ctx, identityKey{}, id)
}

// methodRoles says which roles may call each method. A method missing here
// is refused to everyone (so a new rpc is closed until it is listed).
var methodRoles = map[string][]Role{
	"/hall.v1.ClockLink/Connect":           {RoleDevice},
	"/hall.v1.Arbiter/CreateTournament":    {RoleChief},
	"/hall.v1.Arbiter/CreateRound":         {RoleChief},
	"/hall.v1.Arbiter/AddBoard":            {RoleChief, RoleArbiter},
	"/hall.v1.Arbiter/AssignDevice":        {RoleChief, RoleArbiter},
	"/hall.v1.Arbiter/SwapDevices":         {RoleChief, RoleArbiter},
	"/hall.v1.Arbiter/UseVirtualClock":     {RoleChief, RoleArbiter},
	"/hall.v1.Arbiter/StartRound":          {RoleChief, RoleArbiter},
	"/hall.v1.Arbiter/BoardAction":         {RoleChief, RoleArbiter, RoleAssistant},
	"/hall.v1.Arbiter/ListBoards":          {RoleChief, RoleArbiter, RoleBroadcast},
	"/hall.v1.Arbiter/GetBoard":            {RoleChief, RoleArbiter, RoleBroadcast, RoleAssistant},
	"/hall.v1.Arbiter/AuditLog":            {RoleChief, RoleArbiter},
	"/hall.v1.Arbiter/ListDevices":         {RoleChief, RoleArbiter},
	"/hall.v1.Arbiter/IssueToken":          {RoleChief},
	"/hall.v1.Arbiter/RevokeToken":         {RoleChief},
	"/hall.v1.Arbiter/ListTokens":          {RoleChief},
	"/hall.v1.Arbiter/DescribeTimeControl": {RoleChief, RoleArbiter, RoleBroadcast},
	"/hall.v1.Arbiter/ListTournaments":     {RoleChief, RoleArbiter, RoleBroadcast},
	"/hall.v1.Arbiter/ListRounds":          {RoleChief, RoleArbiter, RoleBroadcast},
	"/hall.v1.Arbiter/GetRound":            {RoleChief, RoleArbiter, RoleBroadcast},
	"/hall.v1.Arbiter/ImportRound":         {RoleChief},
	"/hall.v1.Arbiter/ExportRound":         {RoleChief, RoleArbiter},
	"/hall.v1.Arbiter/Standings":           {RoleChief, RoleArbiter},
	"/hall.v1.Arbiter/SetTieBreaks":        {RoleChief},
	"/hall.v1.Arbiter/GetPlan":             {RoleChief, RoleArbiter},
	"/hall.v1.Arbiter/SetPlan":             {RoleChief},
	"/hall.v1.Arbiter/SetBroadcast":        {RoleChief},
	"/hall.v1.Arbiter/ListBroadcasts":      {RoleChief, RoleArbiter},
	"/hall.v1.Arbiter/IssueSignInLink":     {RoleChief, RoleArbiter, RoleBroadcast},
	"/hall.v1.Watch/WatchBoard":            {RoleChief, RoleArbiter, RoleBroadcast},
	"/hall.v1.Watch/WatchRound":            {RoleChief, RoleArbiter, RoleBroadcast},
	"/hall.v1.Watch/WatchHall":             {RoleChief, RoleArbiter, RoleBroadcast},
	"/hall.v1.Admin/Backup":                {RoleChief},
	"/hall.v1.Arbiter/SetBlindPlay":        {RoleChief, RoleArbiter},
	"/hall.v1.Arbiter/Announce":            {RoleChief, RoleArbiter, RoleAssistant},
	"/hall.v1.Arbiter/IssueAssistantLink":  {RoleChief, RoleArbiter},
	"/hall.v1.Arbiter/IssueClockLink":      {RoleChief, RoleArbiter},
}

// Tokens holds the hall's credentials: hashed in the store, cached in memory.
type Tokens struct {
	store  *storage.Store
	now    func() time.Time
	mu     sync.RWMutex
	byHash map[string]storage.TokenRecord
	byID   map[string]string // token id → hash
}

// LoadTokens reads the active tokens of the store; now is the server's
// clock (a token's creation, its revocation).
func LoadTokens(ctx context.Context, st *storage.Store, now func() time.Time) (*Tokens, error) {
	recs, err := st.Tokens(ctx)
	if err != nil {
		return nil, err
	}
	t := &Tokens{store: st, now: now, byHash: map[string]storage.TokenRecord{}, byID: map[string]string{}}
	for _, r := range recs {
		if r.Active() {
			t.byHash[r.Hash] = r
			t.byID[r.ID] = r.Hash
		}
	}
	return t, nil
}

// Issue creates a token and returns its record and secret (shown once).
func (t *Tokens) Issue(ctx context.Context, role Role, label, deviceID string, sections []string, actor string) (storage.TokenRecord, string, error) {
	return t.issue(ctx, storage.TokenRecord{Role: string(role), Label: label, DeviceID: deviceID, Sections: sections}, actor)
}

// IssueAssistant creates the token of the assistant of side ("white" or
// "black") on board and returns its record and secret. The caller checks
// that the board has an assistant for that side.
func (t *Tokens) IssueAssistant(ctx context.Context, label, board, side, actor string) (storage.TokenRecord, string, error) {
	if board == "" || side != "white" && side != "black" {
		return storage.TokenRecord{}, "", hallerr.BadRequest("an assistant's token needs board_id and side (white or black), the player he assists")
	}
	return t.issue(ctx, storage.TokenRecord{Role: string(RoleAssistant), Label: label, BoardID: board, Side: side}, actor)
}

// issue creates the token rec describes: its role, label, and its
// device, sections or board and side.
func (t *Tokens) issue(ctx context.Context, rec storage.TokenRecord, actor string) (storage.TokenRecord, string, error) {
	role, deviceID, sections := Role(rec.Role), rec.DeviceID, rec.Sections
	if role == RoleAssistant && rec.BoardID == "" {
		return storage.TokenRecord{}, "", hallerr.BadRequest("an assistant's token needs board_id and side, the player he assists")
	}
	if role != RoleAssistant && (rec.BoardID != "" || rec.Side != "") {
		return storage.TokenRecord{}, "", hallerr.BadRequest("board_id, side: only an assistant's token is bound to a board")
	}
	if role == RoleDevice && deviceID == "" {
		return storage.TokenRecord{}, "", hallerr.BadRequest("a device token needs device_id, the device it is bound to")
	}
	if role != RoleDevice && deviceID != "" {
		return storage.TokenRecord{}, "", hallerr.BadRequest("device_id: only device tokens are bound to a device")
	}
	if role != RoleArbiter && len(sections) > 0 {
		return storage.TokenRecord{}, "", hallerr.BadRequest("only arbiter tokens are limited to sections")
	}
	secret, err := randomSecret()
	if err != nil {
		return storage.TokenRecord{}, "", err
	}
	// The id is public (lists, audit log): taken from the hash, never
	// from the secret.
	rec.ID, rec.Hash, rec.Created = "tok-"+ident.HashSecret(secret)[:12], ident.HashSecret(secret), t.now()
	err = t.store.Write(ctx, func(tx *storage.Tx) error {
		if err := tx.PutToken(&rec); err != nil {
			return err
		}
		what := "issue_token " + string(role) + " " + rec.Label
		kind, params := "did.issue_token", map[string]string{"role": string(role), "label": rec.Label, "token": rec.ID}
		if role == RoleAssistant {
			what += " (the assistant of " + rec.Side + ")"
			kind, params["side"] = "did.issue_assistant_token", rec.Side
		}
		params["text"] = what
		return tx.AddAudit(&storage.AuditRecord{BoardID: rec.BoardID, Actor: actor, What: what, Outcome: storage.OutcomeApplied, Kind: kind, Params: params})
	})
	if err != nil {
		return rec, "", err
	}
	t.mu.Lock()
	t.byHash[rec.Hash] = rec
	t.byID[rec.ID] = rec.Hash
	t.mu.Unlock()
	return rec, secret, nil
}

// Revoke revokes a token by id; it stops working at once.
func (t *Tokens) Revoke(ctx context.Context, id, actor string) error {
	err := t.store.Write(ctx, func(tx *storage.Tx) error {
		if err := tx.RevokeToken(id, t.now()); err != nil {
			return err
		}
		return tx.AddAudit(&storage.AuditRecord{Actor: actor, What: "revoke_token " + id, Outcome: storage.OutcomeApplied,
			Kind: "did.revoke_token", Params: map[string]string{"token": id, "text": "revoke_token " + id}})
	})
	if err != nil {
		return err
	}
	t.mu.Lock()
	if h, ok := t.byID[id]; ok {
		delete(t.byHash, h)
		delete(t.byID, id)
	}
	t.mu.Unlock()
	return nil
}

// Count returns how many active tokens have the role.
func (t *Tokens) Count(role Role) int {
	t.mu.RLock()
	defer t.mu.RUnlock()
	n := 0
	for _, r := range t.byHash {
		if Role(r.Role) == role {
			n++
		}
	}
	return n
}

// LookupID returns the identity of an active token by its id.
func (t *Tokens) LookupID(id string) (*Identity, bool) {
	t.mu.RLock()
	h, ok := t.byID[id]
	r := t.byHash[h]
	t.mu.RUnlock()
	if !ok {
		return nil, false
	}
	return identityOf(r), true
}

func identityOf(r storage.TokenRecord) *Identity {
	return &Identity{TokenID: r.ID, Role: Role(r.Role), Label: r.Label, DeviceID: r.DeviceID, Sections: r.Sections,
		BoardID: r.BoardID, Side: r.Side}
}

// Lookup returns the identity of a bearer secret.
func (t *Tokens) Lookup(secret string) (*Identity, bool) {
	t.mu.RLock()
	r, ok := t.byHash[ident.HashSecret(secret)]
	t.mu.RUnlock()
	if !ok {
		return nil, false
	}
	return identityOf(r), true
}

func randomSecret() (string, error) {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return "hc_" + base64.RawURLEncoding.EncodeToString(b), nil
}

// Authenticate is the door of gRPC calls (go-grpc-middleware's auth
// function): it reads the bearer token, finds its identity, checks that its
// role may call the method, and puts the identity into the context.
func (t *Tokens) Authenticate(ctx context.Context) (context.Context, error) {
	method, _ := grpc.Method(ctx)
	return t.AuthenticateCall(ctx, method)
}

// AuthenticateCall is Authenticate of a call to method whose incoming
// metadata ctx carries: what the gRPC door's tap (grpc.InTapHandle) asks
// from the call's headers alone, before a byte of its request is read.
func (t *Tokens) AuthenticateCall(ctx context.Context, method string) (context.Context, error) {
	secret, err := grpcauth.AuthFromMD(ctx, "bearer")
	if err != nil {
		return nil, fmt.Errorf("%w: send 'authorization: Bearer <token>'", hallerr.ErrUnauthenticated)
	}
	id, ok := t.Lookup(secret)
	if !ok {
		return nil, fmt.Errorf("%w: unknown or revoked token", hallerr.ErrUnauthenticated)
	}
	if err := MayCall(id, method); err != nil {
		return nil, err
	}
	return WithIdentity(ctx, id), nil
}

// MayCall checks in methodRoles that the identity's role may call the
// method (its full name, "/hall.v1.Arbiter/BoardAction"): the door of
// gRPC and of the web pages' calls (arbiter's JSON bridge) alike.
func MayCall(id *Identity, method string) error {
	roles, known := methodRoles[method]
	if known && slices.Contains(roles, id.Role) {
		return nil
	}
	allowed := make([]string, len(roles))
	for i, r := range roles {
		allowed[i] = string(r)
	}
	return fmt.Errorf("%w: role %s may not call %s (allowed: %s)", hallerr.ErrPermission, id.Role, method, strings.Join(allowed, ", "))
}

// Live reports whether the identity reads the hall as it is. A broadcast
// token reads it as it was the broadcast delay ago, on every path (watch
// streams, server-sent events, boards, rounds, PGN, the display page), so
// that nothing it relays can help a player at the board.
func (id *Identity) Live() bool { return id.Role != RoleBroadcast }
