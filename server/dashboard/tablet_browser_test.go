package dashboard_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/chesshall/hallclock/internal/testkit/browsertest"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/internal/testkit/longtest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// "Use a tablet as this table's clock": the board panel shows a one-time
// clock link and its QR code (read back by a QR reader). A phone opens it
// (the page fits 360 px), presses its button and keeps the new device's
// credentials in localStorage "hallclock.device" for the clock face
// (/clock); the hall lists the device as a tablet keeping that board, and
// so does the dashboard.
func TestTabletEnrolsByClockLink(t *testing.T) {
	longtest.Skip(t)
	t.Parallel()
	h := halltest.Start(t)
	tb := newTable(t, h, "5m+3s", []boardSpec{{}, {}})
	board := tb.boards[1]
	base := h.HTTP(t)

	p := openPage(t, base, 1280, 800)
	p.signIn(h.Token(t, pb.Role_ROLE_ARBITER, "Anna", ""))
	p.waitHall(2)
	p.click("open board 2", tile(board.GetBoardId()))
	p.click("use a tablet", "#board .bdevice button.tablet")
	p.poll("the link shown", `!document.getElementById("tablet-out").hidden && document.getElementById("tablet-qr").complete &&
		document.getElementById("tablet-qr").naturalWidth > 0`, 5*time.Second)
	link := evalAs[string](p, `document.getElementById("tablet-url").value`)
	if !strings.HasPrefix(link, base+"/clock/enrol?code=cl_") {
		t.Fatalf("the dialog's link is %q, want %s/clock/enrol?code=cl_...", link, base)
	}
	if says := p.text("#tablet-says"); !contains(says, "board 2 of", "once") {
		t.Errorf("the dialog says %q; want the board the link makes a clock of, and that it works once", says)
	}
	readQR(t, p, "#tablet-qr", link)
	p.do("close the dialog", keyEscape())

	phone := openPage(t, base, 360, 740)
	phone.do("open the link", navigate(link))
	phone.poll("the enrolment page", `!!document.getElementById("enrol")`, 5*time.Second)
	if what := phone.text("#enrol-what"); !strings.HasPrefix(what, "board 2 of") {
		t.Errorf("the page makes a clock of %q, want board 2", what)
	}
	if wide, err := browsertest.Wider(phone.ctx); err != nil || len(wide) > 0 {
		t.Errorf("the enrolment page at 360 px: wider than the screen: %v %v", wide, err)
	}
	phone.click("use this device as the clock", "#enrol")
	phone.poll("the clock face opened, the device kept", `location.pathname === "/clock" && !!localStorage.getItem("hallclock.device")`, 10*time.Second)
	var kept struct {
		DeviceID string `json:"device_id"`
		Token    string `json:"token"`
		Label    string `json:"label"`
	}
	if err := json.Unmarshal([]byte(evalAs[string](phone, `localStorage.getItem("hallclock.device")`)), &kept); err != nil ||
		!strings.HasPrefix(kept.DeviceID, "tablet-") || !strings.HasPrefix(kept.Token, "hc_") || !strings.Contains(kept.Label, "board 2") {
		t.Fatalf("localStorage hallclock.device = %+v (%v); want the tablet's device_id, token and label", kept, err)
	}
	arb, ctx := h.Arbiter(t)
	ds, err := arb.ListDevices(ctx, &pb.ListDevicesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	listed := false
	for _, d := range ds.GetDevices() {
		listed = listed || d.GetDeviceId() == kept.DeviceID && d.GetKind() == "tablet" && d.GetBoardId() == board.GetBoardId()
	}
	if !listed {
		t.Errorf("ListDevices does not list %s as a tablet keeping board 2: %v", kept.DeviceID, ds.GetDevices())
	}
	// The dashboard, reloaded, names the board's clock a tablet.
	p.do("reload", navigate(base+"/"))
	p.waitHall(2)
	p.click("open board 2", tile(board.GetBoardId()))
	p.poll("the tablet named", `document.querySelector("#board .bdevice").textContent.startsWith("Tablet `+kept.DeviceID+` offline")`, 20*time.Second)
}
