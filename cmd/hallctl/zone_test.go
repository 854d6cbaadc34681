package main

import (
	"context"
	"encoding/json"
	"html"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/server"
)

// A hall in Yerevan (UTC+4, no summer time) read from a machine in UTC:
// hallctl signin-link, hallctl audit, the sign-in page and the API give
// the same instants in the hall's zone, each saying it — or in UTC with
// -utc — never in the zone of the machine that reads them.
func TestTimesSayTheHallsZone(t *testing.T) {
	t.Parallel()
	yerevan, err := time.LoadLocation("Asia/Yerevan")
	if err != nil {
		t.Fatal(err)
	}
	h := halltest.Start(t, halltest.WithOptions(server.Options{Zone: yerevan}), halltest.OnLoopback())
	h.Token(t, pb.Role_ROLE_ARBITER, "Bo", "", "A")
	do, expect := runner(t, chiefEnv(h))

	out := do("signin-link", "-for", "Bo", "-no-qr")
	m := regexp.MustCompile(`once, until (\d\d:\d\d):\d\d \+04 \(Asia/Yerevan\)\.`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("signin-link does not say its expiry in the hall's zone:\n%s", out)
	}
	until := m[1] + " +04 (Asia/Yerevan)" // the expiry, to the minute, as every other place says it
	link := strings.Fields(out)[0]

	// The API: the link's audit entry, its instant, and the hall's zone.
	arb, ctx := h.Arbiter(t)
	log, err := arb.AuditLog(ctx, &pb.AuditLogRequest{Kinds: []string{"sign-in"}})
	if err != nil {
		t.Fatal(err)
	}
	if log.GetTimeZone() != "Asia/Yerevan" || len(log.GetEntries()) != 1 || !strings.Contains(log.GetEntries()[0].GetWhat(), "valid until "+until) {
		t.Fatalf("AuditLog: zone %q, entries %v; want Asia/Yerevan and the link made, valid until %s", log.GetTimeZone(), log.GetEntries(), until)
	}
	made := time.UnixMilli(log.GetEntries()[0].GetUnixMs())

	// hallctl audit: the same instant, in the hall's zone, saying it.
	out = do("audit", "-kind", "sign-in")
	expect(out, "times in Asia/Yerevan\n", made.In(yerevan).Format("15:04:05.000")+" +04  ", "valid until "+until)
	// -utc: the same instant in UTC.
	out = do("-utc", "audit", "-kind", "sign-in")
	expect(out, made.UTC().Format("15:04:05.000")+" UTC  ")
	if strings.Contains(out, "times in") || strings.Contains(out, made.In(yerevan).Format("15:04:05.000")) {
		t.Errorf("-utc audit says the hall's zone:\n%s", out)
	}
	if out := do("-utc", "signin-link", "-for", "Bo", "-no-qr"); !regexp.MustCompile(`once, until \d\d:\d\d:\d\d UTC\.`).MatchString(out) {
		t.Errorf("-utc signin-link:\n%s", out)
	}
	// -since in clock time is the hall's: a minute after the link was
	// made (in Yerevan) leaves it out, a minute before keeps it.
	expect(do("audit", "-kind", "sign-in", "-since", made.In(yerevan).Add(-time.Minute).Format("15:04")), "valid until "+until)
	if out := do("audit", "-kind", "sign-in", "-since", made.In(yerevan).Add(time.Minute).Format("15:04")); !strings.Contains(out, "no entries") {
		t.Errorf("-since a minute after the link was made, in Yerevan, still lists it:\n%s", out)
	}

	// The sign-in page says the link's expiry with its zone.
	web := h.HTTP(t)
	res, err := h.HTTPClient().Get(web + link[strings.Index(link, "/signin"):])
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if !strings.Contains(html.UnescapeString(string(page)), "until "+until) {
		t.Errorf("the sign-in page does not say until %s:\n%s", until, page)
	}
	// The pages learn the zone from the session they sign in to.
	req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, web+"/api/session", strings.NewReader(url.Values{"token": {h.Chief}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	res, err = h.HTTPClient().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var info struct {
		TimeZone string `json:"time_zone"`
	}
	err = json.NewDecoder(res.Body).Decode(&info)
	res.Body.Close()
	if err != nil || info.TimeZone != "Asia/Yerevan" {
		t.Errorf("GET /api/session: time_zone %q, %v; want Asia/Yerevan", info.TimeZone, err)
	}
}
