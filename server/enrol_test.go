package server_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"

	"github.com/chesshall/hallclock/clockdev"
	"github.com/chesshall/hallclock/internal/ident"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/server/enrol"
	"github.com/chesshall/hallclock/server/wslink"
	"github.com/chesshall/hallclock/storage"
)

// Tablets as clocks (package enrol): a one-time clock link for a board,
// opened any number of times without being spent, spent once by its
// button; the browser gets a device token of its own, the hall a tablet
// assigned to the board, listed as one, audited; the token plays like a
// clock's, and revoking it ends its stream.
func TestClockLinkEnrolsATablet(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t)
	b := h.Round(t, "300+2", 2)[1]
	// One HTTP port for the pages and the WebSocket (a second listener
	// would take the door's place).
	ws := h.WebSocket(t)
	web := "http://" + strings.TrimSuffix(strings.TrimPrefix(ws.URL, "ws://"), wslink.Path)
	arb, ctx := h.Arbiter(t)
	l, err := arb.IssueClockLink(ctx, &pb.IssueClockLinkRequest{BoardId: b.GetBoardId(), BaseUrl: web + "/"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(l.GetPath(), enrol.Path+"?code=cl_") || l.GetUrl() != web+l.GetPath() || !strings.Contains(l.GetQrSvg(), "<svg") ||
		!strings.Contains(l.GetWhat(), "board 2 of") {
		t.Fatalf("IssueClockLink = %v; want the enrolment path, its url and QR code, naming board 2", l)
	}
	if left := time.Until(time.UnixMilli(l.GetExpiresUnixMs())); left < 14*time.Minute || left > 15*time.Minute {
		t.Errorf("the link expires in %v, want 15 minutes", left)
	}
	for range 2 {
		st, body := getPage(t, l.GetUrl())
		if st != http.StatusOK || !strings.Contains(body, "board 2 of") || !strings.Contains(body, `id="enrol"`) {
			t.Fatalf("GET the link: %d\n%s\nwant the page naming board 2 with its button", st, body)
		}
	}
	code := strings.TrimPrefix(l.GetPath(), enrol.Path+"?code=")
	st, body := postCode(t, web, code)
	if st != http.StatusOK {
		t.Fatalf("POST the link: %d %s", st, body)
	}
	var e enrol.Enrolled
	if err := json.Unmarshal([]byte(body), &e); err != nil || !strings.HasPrefix(e.DeviceID, "tablet-") || !strings.HasPrefix(e.Token, "hc_") ||
		!strings.Contains(e.Label, "board 2") {
		t.Fatalf("POST answered %s (%v); want {device_id: tablet-..., token: hc_..., label naming board 2}", body, err)
	}
	if st, body := postCode(t, web, code); st != http.StatusConflict || !strings.Contains(body, "used already") {
		t.Errorf("POST the link again: %d %q, want 409 saying it was used already", st, body)
	}
	if st, body := getPage(t, l.GetUrl()); st != http.StatusConflict || !strings.Contains(body, "used already") {
		t.Errorf("GET the spent link: %d, want 409 saying it was used already:\n%s", st, body)
	}
	// Listed as a tablet, keeping board 2.
	ds, err := arb.ListDevices(ctx, &pb.ListDevicesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var listed *pb.Device
	for _, d := range ds.GetDevices() {
		if d.GetDeviceId() == e.DeviceID {
			listed = d
		} else if d.GetKind() != "" {
			t.Errorf("device %s listed as %q, want a clock (\"\")", d.GetDeviceId(), d.GetKind())
		}
	}
	if listed.GetKind() != storage.DeviceTablet || listed.GetBoardId() != b.GetBoardId() {
		t.Fatalf("ListDevices lists the new device as %v; want a tablet keeping %s", listed, b.GetBoardId())
	}
	// Audited: the link's making and the tablet's assignment.
	log, err := arb.AuditLog(ctx, &pb.AuditLogRequest{BoardId: b.GetBoardId()})
	if err != nil {
		t.Fatal(err)
	}
	var made, assigned bool
	for _, a := range log.GetEntries() {
		made = made || strings.HasPrefix(a.GetWhat(), "clock link made for board 2")
		assigned = assigned || strings.Contains(a.GetWhat(), "assign device "+e.DeviceID) && strings.Contains(a.GetReason(), "clock link")
	}
	if !made || !assigned {
		t.Errorf("audit of board 2 (made %v, assigned %v): %v", made, assigned, log.GetEntries())
	}
	// Its token is a clock's: over the WebSocket it keeps board 2.
	d := clockdevWith(t, ws, e)
	if a := d.Assignment(); a.GetBoardId() != b.GetBoardId() {
		t.Fatalf("the tablet keeps %q, want %s", a.GetBoardId(), b.GetBoardId())
	}
	// Revoked, its stream ends.
	var tokenID string
	toks, err := arb.ListTokens(ctx, &pb.ListTokensRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tk := range toks.GetTokens() {
		if tk.GetDeviceId() == e.DeviceID {
			tokenID = tk.GetTokenId()
		}
	}
	if _, err := arb.RevokeToken(ctx, &pb.RevokeTokenRequest{TokenId: tokenID}); err != nil {
		t.Fatalf("revoking the tablet's token %q: %v", tokenID, err)
	}
	n := waitForNotice(t, d, clockdev.NoticeDisconnected)
	var le *clockdev.LinkError
	if !errors.As(n.Err, &le) || le.Code != int(codes.Unauthenticated) {
		t.Errorf("the revoked tablet's stream ended with %v, want UNAUTHENTICATED", n.Err)
	}
}

// A table's link puts the tablet at the table of the hall plan and gives
// it the board played there; a table the venue does not know, a link past
// its time and an unknown code are refused plainly; only the chief makes
// a table's link.
func TestClockLinkForATable(t *testing.T) {
	t.Parallel()
	h, arb, ctx := openHall(t, 2)
	csv := "Round,Board,White,Black\n1,1,Berzins,Haugen\n1,2,Ottesen,Nguyen\n"
	r, err := arb.ImportRound(ctx, &pb.ImportRoundRequest{Tournament: "Nordic Autumn Open 2025", Content: []byte(csv), FirstTable: 1})
	if err != nil {
		t.Fatal(err)
	}
	atTable2 := r.GetBoards()[1]
	if _, err := arb.IssueClockLink(ctx, &pb.IssueClockLinkRequest{Table: 7}); codeOf(err) != codes.NotFound || !strings.Contains(err.Error(), "unknown table") {
		t.Errorf("a link for table 7 of a hall of 2 tables: %v, want NOT_FOUND: unknown table", err)
	}
	arbiter := halltest.Ctx(context.Background(), h.Token(t, pb.Role_ROLE_ARBITER, "Anna", ""))
	if _, err := arb.IssueClockLink(arbiter, &pb.IssueClockLinkRequest{Table: 2}); codeOf(err) != codes.PermissionDenied {
		t.Errorf("an arbiter's link for a table: %v, want PERMISSION_DENIED (the plan is the chief's)", err)
	}
	l, err := arb.IssueClockLink(ctx, &pb.IssueClockLinkRequest{Table: 2})
	if err != nil || l.GetUrl() != "" || l.GetWhat() != "table 2 of the hall" {
		t.Fatalf("IssueClockLink(table 2) = %v, %v; want a path only, for table 2 of the hall", l, err)
	}
	web := h.HTTP(t)
	st, body := postCode(t, web, strings.TrimPrefix(l.GetPath(), enrol.Path+"?code="))
	var e enrol.Enrolled
	if err := json.Unmarshal([]byte(body), &e); st != http.StatusOK || err != nil {
		t.Fatalf("POST the link: %d %s", st, body)
	}
	plan, err := arb.GetPlan(ctx, &pb.GetPlanRequest{})
	if err != nil || len(plan.GetTables()) != 2 || plan.GetTables()[1].GetDeviceId() != e.DeviceID {
		t.Errorf("plan after the tablet's enrolment: %v, %v; want %s at table 2", plan, err, e.DeviceID)
	}
	got, err := arb.GetBoard(ctx, &pb.GetBoardRequest{BoardId: atTable2.GetBoardId()})
	if err != nil || got.GetDeviceId() != e.DeviceID {
		t.Errorf("the board at table 2 is kept by %q (%v), want the tablet %s", got.GetDeviceId(), err, e.DeviceID)
	}
	// A link is no stronger than its maker: Anna's, after her token was
	// revoked, is refused and stays unspent.
	annaLink, err := arb.IssueClockLink(arbiter, &pb.IssueClockLinkRequest{BoardId: r.GetBoards()[0].GetBoardId()})
	if err != nil {
		t.Fatal(err)
	}
	toks, err := arb.ListTokens(ctx, &pb.ListTokensRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tk := range toks.GetTokens() {
		if tk.GetLabel() == "Anna" {
			if _, err := arb.RevokeToken(ctx, &pb.RevokeTokenRequest{TokenId: tk.GetTokenId()}); err != nil {
				t.Fatal(err)
			}
		}
	}
	annaCode := strings.TrimPrefix(annaLink.GetPath(), enrol.Path+"?code=")
	if st, body := postCode(t, web, annaCode); st != http.StatusForbidden || !strings.Contains(body, "was revoked") {
		t.Errorf("POST a link whose maker's token was revoked: %d %q, want 403 saying so", st, body)
	}
	if l, err := h.Store.ClockLinkByHash(context.Background(), ident.HashSecret(annaCode)); err != nil || !l.Used.IsZero() {
		t.Errorf("the refused link: %+v, %v; want it unspent", l, err)
	}
	// Past its time, and unknown.
	now := time.Now()
	if err := h.Store.Write(context.Background(), func(tx *storage.Tx) error {
		return tx.PutClockLink(storage.ClockLink{Hash: ident.HashSecret("cl_old"), Table: 1, MadeBy: "chief", MakerToken: "tok-x",
			Created: now.Add(-time.Hour), Expires: now.Add(-45 * time.Minute)})
	}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ code, want string }{{"cl_old", "has expired"}, {"cl_nope", "unknown"}} {
		if st, body := getPage(t, web+enrol.Path+"?code="+c.code); st/100 != 4 || !strings.Contains(body, c.want) {
			t.Errorf("GET a link %s: %d, want a refusal saying it %s:\n%s", c.code, st, c.want, body)
		}
		if st, body := postCode(t, web, c.code); st/100 != 4 || !strings.Contains(body, c.want) {
			t.Errorf("POST a link %s: %d %q, want a refusal saying it %s", c.code, st, body, c.want)
		}
	}
}

func getPage(t *testing.T, u string) (int, string) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func postCode(t *testing.T, web, code string) (int, string) {
	t.Helper()
	resp, err := http.PostForm(web+enrol.Path, url.Values{"code": {code}})
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// clockdevWith starts the device library over the WebSocket with an
// enrolled tablet's credentials and waits for its assignment.
func clockdevWith(t *testing.T, tr clockdev.Transport, e enrol.Enrolled) *clockdev.Device {
	t.Helper()
	d, err := clockdev.New(clockdev.Config{DeviceID: e.DeviceID, Token: e.Token, Firmware: "test-tablet", Transport: tr,
		MinBackoff: 10 * time.Millisecond, MaxBackoff: 100 * time.Millisecond, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	var runErr error
	go func() { defer close(done); runErr = d.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done; d.Close() })
	halltest.Eventually(t, 5*time.Second, func() error {
		if d.Assignment() == nil {
			select {
			case <-done:
				t.Fatalf("Run ended: %v", runErr)
			default:
			}
			return fmt.Errorf("no assignment yet (%+v)", d.Status())
		}
		return nil
	})
	return d
}
