package faults

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/internal/testkit/longtest"
)

// floodBound is the resident memory the hall must stay under while it is
// flooded: the figure (it reached 4.28 GB).
const floodBound = 1 << 30

// 200 requests of 10 MiB each with a made-up token, 20 at a time, to a
// real hallserver once took it from 158 MB to 4.28 GB resident in 6.5 s,
// each answered INVALID_ARGUMENT after it was read and decoded. Every one
// is refused UNAUTHENTICATED on its headers now (or for its size before
// it is read), and the hall's high-water mark of resident memory stays
// under floodBound. The web pages' bridge is flooded the same way: 401.
func TestFloodWithMadeUpToken(t *testing.T) {
	longtest.Skip(t)
	h := newHall(t, t.TempDir(), 1)
	p := h.start()
	pid := p.cmd.Process.Pid
	before := procStatus(t, pid, "VmRSS")

	conn, err := grpc.NewClient(h.grpc, grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.MaxCallSendMsgSize(64<<20)))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	body := bytes.Repeat([]byte{0x0a}, 10<<20) // junk: a field 1 that never ends
	methods := []string{"/hall.v1.Arbiter/ImportRound", "/hall.v1.Arbiter/GetBoard", "/hall.v1.Arbiter/CreateTournament", "/hall.v1.Arbiter/SetPlan"}
	const n, at = 200, 20
	var mu sync.Mutex
	got := map[codes.Code]int{}
	sem := make(chan struct{}, at)
	var wg sync.WaitGroup
	start := time.Now()
	for i := range n {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			ctx, cancel := context.WithTimeout(halltest.Ctx(context.Background(), fmt.Sprintf("hc_made-up-%d", i)), time.Minute)
			defer cancel()
			var out []byte
			err := conn.Invoke(ctx, methods[i%len(methods)], body, &out, grpc.ForceCodecV2(halltest.RawCodec{}))
			mu.Lock()
			got[status.Code(err)]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	took := time.Since(start)
	for c, k := range got {
		if c != codes.Unauthenticated && c != codes.ResourceExhausted {
			t.Errorf("%d of %d requests answered %v; want each UNAUTHENTICATED (or refused for its size)", k, n, c)
		}
	}

	// The bridge: 50 bodies of 10 MiB, 10 at a time.
	client := &http.Client{Timeout: time.Minute}
	var hwg sync.WaitGroup
	hsem := make(chan struct{}, 10)
	var bad []string
	for i := range 50 {
		hsem <- struct{}{}
		hwg.Add(1)
		go func() {
			defer func() { <-hsem; hwg.Done() }()
			req, _ := http.NewRequest("POST", "http://"+h.http+"/api/arbiter/ImportRound", bytes.NewReader(body))
			req.Header.Set("Authorization", fmt.Sprintf("Bearer hc_made-up-%d", i))
			req.Header.Set("Content-Type", "application/json")
			resp, err := client.Do(req)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err != nil:
				// The hall answered and closed without reading the rest:
				// the client may see its write fail instead of the answer.
				if !strings.Contains(err.Error(), "connection reset") && !strings.Contains(err.Error(), "broken pipe") {
					bad = append(bad, err.Error())
				}
			case resp.StatusCode != http.StatusUnauthorized:
				bad = append(bad, resp.Status)
				resp.Body.Close()
			default:
				resp.Body.Close()
			}
		}()
	}
	hwg.Wait()
	if len(bad) > 0 {
		t.Errorf("the bridge under the flood: %d answers not 401: %v", len(bad), bad[:min(len(bad), 5)])
	}

	hwm := procStatus(t, pid, "VmHWM")
	figures("flood of %d × 10 MiB gRPC (%d at a time) and 50 × 10 MiB HTTP with made-up tokens: answers %v in %v; resident %s before, high-water mark %s (bound %s)",
		n, at, got, took.Round(time.Millisecond), mb(before), mb(hwm), mb(floodBound))
	if hwm >= floodBound {
		t.Errorf("the hall's resident high-water mark is %s under the flood; want under %s", mb(hwm), mb(floodBound))
	}
	if code, why := h.ready(); code != http.StatusOK {
		t.Errorf("after the flood, /readyz = %d %s; want 200", code, why)
	}
}

// procStatus reads a field of /proc/<pid>/status, in bytes.
func procStatus(t *testing.T, pid int, field string) int64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Skipf("no /proc here: %v", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, field+":"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				t.Fatalf("%s: %q: %v", field, line, err)
			}
			return kb << 10
		}
	}
	t.Fatalf("/proc/%d/status has no %s", pid, field)
	return 0
}

func mb(n int64) string { return fmt.Sprintf("%.0f MB", float64(n)/1e6) }
