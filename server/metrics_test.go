package server_test

import (
	"io"
	"regexp"
	"strconv"
	"testing"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// /metrics exposes the gRPC calls and the hall's counters for Prometheus.
func TestMetrics(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t)
	boards := h.Round(t, "300+2", 1)
	d := h.Device(t, boards[0].GetDeviceId())
	arb, ctx := h.Arbiter(t)
	if _, err := arb.BoardAction(ctx, &pb.BoardActionRequest{BoardId: boards[0].GetBoardId(), Action: &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_START}, WaitMs: 5000}); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		if err := d.Press(d.State().ToMove, "", ""); err != nil {
			t.Fatal(err)
		}
	}
	halltest.Synced(t, d)
	resp := get(t, h.HTTP(t)+"/metrics", "")
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("GET /metrics = %d", resp.StatusCode)
	}
	value := func(pattern string) float64 {
		m := regexp.MustCompile(`(?m)^` + pattern + ` ([0-9.e+]+)$`).FindSubmatch(body)
		if m == nil {
			t.Errorf("/metrics has no %s", pattern)
			return -1
		}
		v, _ := strconv.ParseFloat(string(m[1]), 64)
		return v
	}
	// The start command and three presses came back from the device as events.
	if v := value(`hall_device_events_applied_total`); v != 4 {
		t.Errorf("hall_device_events_applied_total = %v, want 4", v)
	}
	if v := value(`hall_devices_online`); v != 1 {
		t.Errorf("hall_devices_online = %v, want 1", v)
	}
	if v := value(`hall_boards\{status="BOARD_STATUS_RUNNING"\}`); v != 1 {
		t.Errorf("running boards = %v, want 1", v)
	}
	if v := value(`grpc_server_handled_total\{grpc_code="OK",grpc_method="BoardAction",grpc_service="hall.v1.Arbiter",grpc_type="unary"\}`); v != 1 {
		t.Errorf("BoardAction calls handled OK = %v, want 1", v)
	}
	if c, w := value(`hall_store_commits_total`), value(`hall_store_writes_total`); c <= 0 || w < c {
		t.Errorf("store commits %v, writes %v; want writes ≥ commits > 0", c, w)
	}
}
