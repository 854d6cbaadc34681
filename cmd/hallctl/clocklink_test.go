package main

import (
	"bytes"
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/chesshall/hallclock/internal/qr"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
)

// hallctl clock-link prints a board's one-time clock link, what it makes,
// and its QR code; spent, the tablet is listed by hallctl devices as one,
// keeping that board.
func TestClockLinkCommand(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t, halltest.OnLoopback())
	b := h.Round(t, "300+2", 3)[2]
	h.Device(t, "CLK-001") // a clock, listed beside the tablet
	web := h.HTTP(t)
	env := func(k string) string {
		if k == "HALL_WEB" {
			return web
		}
		return chiefEnv(h)(k)
	}
	do, expect := runner(t, env)
	out := do("clock-link", b.GetBoardId())
	expect(out, web+"/clock/enrol?code=cl_", "makes one tablet or phone the clock of board 3 of", ", once, until ")
	link := strings.Fields(out)[0]
	code, err := qr.Terminal(link)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(out, "\n"+code) {
		t.Errorf("the output does not end with the link's QR code:\n%s", out)
	}
	u, err := url.Parse(link)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.PostForm(web+u.Path, url.Values{"code": {u.Query().Get("code")}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("spending the link: %s", resp.Status)
	}
	devices := do("devices")
	if !regexp.MustCompile(`(?m)^tablet-\S+\s+false\s+\S+\s.*\stablet$`).MatchString(devices) ||
		!regexp.MustCompile(`(?m)^CLK-001\s.*\sclock$`).MatchString(devices) {
		t.Errorf("devices does not list the tablet as one, or CLK-001 as a clock:\n%s", devices)
	}
	var buf bytes.Buffer
	if err := run(context.Background(), []string{"clock-link", "99"}, &buf, env); err == nil || !strings.Contains(err.Error(), "unknown table") {
		t.Errorf("clock-link 99 in a hall without tables: %v, want unknown table", err)
	}
}
