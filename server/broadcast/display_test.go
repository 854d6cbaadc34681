package broadcast_test

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/chesshall/hallclock/internal/mono"
	"github.com/chesshall/hallclock/server/broadcast"
)

// shown is what a display shows of a round at the moment it is read: the
// boards with the running clock run on by the message's age.
func shown(t *testing.T, raw string) []map[string]any {
	t.Helper()
	var msg struct {
		AgeMs int64 `json:"age_ms"`
		View  struct {
			Boards []map[string]any `json:"boards"`
		} `json:"view"`
	}
	if err := json.Unmarshal([]byte(raw), &msg); err != nil {
		t.Fatalf("display JSON %q: %v", raw, err)
	}
	for _, b := range msg.View.Boards {
		if side, ok := b["running"].(string); ok {
			b[side+"_ms"] = b[side+"_ms"].(float64) - float64(msg.AgeMs)
		}
	}
	return msg.View.Boards
}

// The display page shows a delayed round as the live display showed it
// delay ago: positions, last moves, results and both clocks to the
// millisecond, however old the view it was made from.
func TestDisplayIsDelayedLikeThePGN(t *testing.T) {
	clock := mono.NewFake(start)
	h := newHall(t, clock, "180+2", 2)
	const delay = 10 * time.Second
	_, base := serve(t, broadcast.Options{Source: h, Clock: clock, Delay: delay})
	url := base + "/api/display/round/r5"
	live := map[int][]map[string]any{}
	for s := 0; s <= 50; s++ {
		if s > 0 {
			clock.Advance(time.Second)
		}
		script(h, s)
		live[s] = shown(t, body(t, get(t, url, "arbiter")))
		if s < 10 {
			continue
		}
		if got := shown(t, body(t, get(t, url, "broadcast"))); !reflect.DeepEqual(got, live[s-10]) {
			t.Fatalf("at %ds the delayed display shows\n%v\nwant the live one at %ds:\n%v", s, got, s-10, live[s-10])
		}
	}
	b1 := live[30][0]
	if b1["last_move"] != "5... a6" || b1["running"] != "white" || b1["fen"] != "" || b1["status"] != "running" {
		t.Errorf("board 1 at 30 s: %v", b1)
	}
	if b2 := live[45][1]; b2["result"] != "1/2-1/2" || b2["termination"] != "agreement" || b2["running"] != nil {
		t.Errorf("board 2 after its draw: %v", b2)
	}
}
