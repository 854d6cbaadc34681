package clockface_test

import (
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/internal/testkit/longtest"
)

// takenOver is the hall as a browser whose clock another browser took
// over sees it: once taken, every ClockLink it opens is ended with the
// status ABORTED (close 4010), as the hall ends the older of two browsers
// with one device's credentials. Until then it relays to the hall.
type takenOver struct {
	hall  *httputil.ReverseProxy
	taken atomic.Bool
	links atomic.Int32 // ClockLinks opened after the takeover
}

func (p *takenOver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/clocklink" || !p.taken.Load() {
		p.hall.ServeHTTP(w, r)
		return
	}
	p.links.Add(1)
	c, err := websocket.Accept(w, r, &websocket.AcceptOptions{Subprotocols: []string{"clocklink.v1"}})
	if err != nil {
		return
	}
	c.Close(4010, "another browser is device CLK-001 now")
}

// When the hall says another browser has taken this clock over, the face
// says so plainly and does not come back.
func TestFaceTakenOverStops(t *testing.T) {
	longtest.Skip(t)
	h := halltest.Start(t)
	h.Round(t, "5m", 1)
	hallURL, _ := url.Parse(h.HTTP(t))
	p := &takenOver{hall: httputil.NewSingleHostReverseProxy(hallURL)}
	srv := httptest.NewServer(p)
	t.Cleanup(srv.Close)
	door := openDoor(t, srv.URL)
	f := openFace(t, 1280, 800)
	f.enrol(door.url(), "CLK-001", h.DeviceToken(t, "CLK-001"))
	f.poll("online, on its board", `document.getElementById("link").textContent === "online" && JSON.parse(hallclockDevice.state()).assigned`, 10*time.Second)

	p.taken.Store(true)
	door.shut() // the link is cut; the face comes back to a hall that says another browser has it
	door.open(srv.URL)
	f.poll("the face says another browser has it", `!document.getElementById("message").hidden &&
		document.getElementById("message-title").textContent === "Another browser is this clock now"`, 10*time.Second)
	if n := p.links.Load(); n != 1 {
		t.Errorf("the face opened %d links to learn it was taken over, want 1", n)
	}
	// It does not come back: nothing within more than its longest wait
	// between attempts (2 s). Only waiting can show that nothing happens.
	time.Sleep(5 * time.Second)
	if n := p.links.Load(); n != 1 {
		t.Errorf("the face came back %d times after it was taken over", n-1)
	}
}
