package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"google.golang.org/protobuf/proto"

	"github.com/chesshall/hallclock/clockdev"
	"github.com/chesshall/hallclock/clockdev/sim"
	"github.com/chesshall/hallclock/formats/hallstream"
	"github.com/chesshall/hallclock/internal/natsrun"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/internal/testkit/longtest"
	"github.com/chesshall/hallclock/internal/testkit/streamtest"
	"github.com/chesshall/hallclock/internal/wire"
	"github.com/chesshall/hallclock/server"
	"github.com/chesshall/hallclock/server/gateway"
	"github.com/chesshall/hallclock/storage"
)

// The hall's stream under faults: a real hallserver process (this test
// binary run as hallserver's Main) publishing to a three-node JetStream
// cluster (R3 stream) while a simulated fleet plays, killed with SIGKILL
// mid-publish and restarted, a NATS node restarted, all of NATS cut for a
// while and brought back. At the end every event the hall committed is
// in the stream exactly once and in board order, and a gateway that
// followed through it all, and one started afresh, hold every board as
// the hall's log replays.
//
// HALL_STREAM_SOAK=1 runs more kill cycles and longer phases.

const childArgsEnv = "HALLSERVER_TEST_ARGS"

// TestHallserverChild is not a test of its own: it is the hallserver
// process of TestStreamFaults (its flags in HALLSERVER_TEST_ARGS).
func TestHallserverChild(t *testing.T) {
	args := os.Getenv(childArgsEnv)
	if args == "" {
		t.Skip("the hallserver process of TestStreamFaults")
	}
	m := &Main{Stdout: os.Stdout, Stderr: os.Stderr}
	if err := m.ParseFlags(strings.Split(args, "\x1f"), func(string) string { return "" }); err != nil {
		t.Fatal(err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	if err := m.Run(ctx); err != nil {
		t.Fatal(err)
	}
}

// hallProc is a hallserver process on a data directory and ports kept
// across restarts.
type hallProc struct {
	t          *testing.T
	args       []string
	run        string   // the test that is the process (default TestHallserverChild)
	env        []string // added to the process's environment
	grpc, http string
	cmd        *exec.Cmd
	out        *halltest.SyncBuffer
	exited     chan struct{}
}

// start starts the process and waits until it serves.
func (p *hallProc) start() {
	t := p.t
	t.Helper()
	run := p.run
	if run == "" {
		run = "TestHallserverChild"
	}
	cmd := exec.Command(os.Args[0], "-test.run=^"+run+"$")
	cmd.Env = append(append(os.Environ(), childArgsEnv+"="+strings.Join(p.args, "\x1f")), p.env...)
	p.out = &halltest.SyncBuffer{}
	cmd.Stdout, cmd.Stderr = p.out, p.out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p.cmd, p.exited = cmd, make(chan struct{})
	exited := p.exited
	go func() { _ = cmd.Wait(); close(exited) }()
	t.Cleanup(func() { _ = cmd.Process.Kill(); <-exited })
	halltest.Eventually(t, 60*time.Second, func() error {
		select {
		case <-exited:
			t.Fatalf("hallserver exited before serving:\n%s", p.out)
		default:
		}
		resp, err := http.Get("http://" + p.http + "/healthz")
		if err != nil {
			return err
		}
		resp.Body.Close()
		if !strings.Contains(p.out.String(), "hall server:") {
			return fmt.Errorf("no banner yet")
		}
		return nil
	})
}

// kill ends the process with SIGKILL: no shutdown, nothing flushed.
func (p *hallProc) kill() {
	_ = p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.exited
}

// stop shuts the process down cleanly.
func (p *hallProc) stop() {
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.exited:
	case <-time.After(20 * time.Second):
		p.t.Fatalf("hallserver still running 20 s after SIGTERM\n%s", p.out)
	}
}

// stream reads GET /api/stream.
func (p *hallProc) stream(chief string) (server.StreamStatus, error) {
	var st server.StreamStatus
	req, _ := http.NewRequest(http.MethodGet, "http://"+p.http+"/api/stream", nil)
	req.Header.Set("Authorization", "Bearer "+chief)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return st, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		return st, fmt.Errorf("GET /api/stream: %s", resp.Status)
	}
	return st, json.NewDecoder(resp.Body).Decode(&st)
}

func TestStreamFaults(t *testing.T) {
	longtest.Skip(t)
	if testing.Short() {
		t.Skip("starts hallserver processes and a NATS cluster")
	}
	soak := os.Getenv("HALL_STREAM_SOAK") == "1"
	kills, phase := 2, time.Second
	if soak {
		kills, phase = 8, 3*time.Second
	}
	const hallID, speed = "faults", 20
	cluster, err := natsrun.StartCluster("halls", t.TempDir(), 3)
	if err != nil {
		t.Fatal(err)
	}
	defer cluster.Shutdown()
	dir := t.TempDir()
	if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() {
		if d, err := os.MkdirTemp("/dev/shm", "stream-faults-"); err == nil {
			dir = d
			defer os.RemoveAll(d)
		}
	}
	p := &hallProc{t: t, grpc: halltest.FreeAddr(t), http: halltest.FreeAddr(t)}
	p.args = []string{"-data-dir", dir, "-grpc-addr", p.grpc, "-http-addr", p.http, "-nats", cluster.URLs(), "-nats-replicas", "3",
		"-hall-id", hallID, "-speed", strconv.Itoa(speed), "-log-level", "error", "-shutdown-grace", "2s"}
	p.start()
	m := regexp.MustCompile(`hc_[A-Za-z0-9_-]+`).FindString(p.out.String())
	if m == "" {
		t.Fatalf("no chief token in the banner:\n%s", p.out)
	}
	chief := m

	nc, err := nats.Connect(cluster.URLs(), nats.MaxReconnects(-1), nats.ReconnectWait(50*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	follower := startTestGateway(t, nc, hallID)

	var acked atomic.Int64
	f, err := sim.New(sim.Config{Target: p.grpc, ChiefToken: chief, Speed: speed, Seed: 13, Loop: true,
		Rounds: []sim.RoundSpec{{Tournament: "Stream Faults", TimeControl: "60+1", Boards: 6}},
		OnAck:  func(string, clockdev.Acked) { acked.Add(1) }, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	fctx, stopFleet := context.WithCancel(context.Background())
	fleetDone := make(chan sim.Summary, 1)
	go func() { s, _ := f.Run(fctx); fleetDone <- s }()
	defer stopFleet()
	began := time.Now()

	for i := 1; i <= kills; i++ {
		time.Sleep(phase)
		p.kill()
		p.start()
		t.Logf("kill %d: %d events acknowledged so far", i, acked.Load())
	}

	// The node leading the hall's stream goes down and comes back.
	time.Sleep(phase)
	leader := streamLeader(t, nc, hallID, cluster)
	leader.Shutdown()
	time.Sleep(phase)
	if err := leader.Restart(); err != nil {
		t.Fatal(err)
	}
	st0, _ := p.stream(chief)
	t.Logf("NATS node leading the stream restarted: %d events acknowledged so far; stream backlog %d", acked.Load(), st0.Backlog)

	time.Sleep(phase)
	cluster.Shutdown()
	before := acked.Load()
	time.Sleep(2 * phase)
	during := acked.Load() - before
	st, err := p.stream(chief)
	if err != nil {
		t.Fatal(err)
	}
	if during == 0 || st.Connected || st.Backlog == 0 {
		t.Errorf("with NATS cut: %d events acknowledged, stream status %+v; want presses acknowledged and a backlog waiting", during, st)
	}
	t.Logf("NATS cut: %d events acknowledged meanwhile, backlog %d, oldest %d ms", during, st.Backlog, st.OldestAgeMs)
	for _, n := range cluster.Nodes {
		if err := n.Restart(); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(phase / 2)
	p.kill() // while the backlog drains
	p.start()
	time.Sleep(phase)
	stopFleet()
	sum := <-fleetDone

	halltest.Eventually(t, 60*time.Second, func() error {
		st, err := p.stream(chief)
		if err != nil {
			return err
		}
		if !st.Connected || st.Backlog != 0 {
			return fmt.Errorf("stream: %+v", st)
		}
		return nil
	})
	p.stop()

	ctx := context.Background()
	store, err := storage.Open(ctx, filepath.Join(dir, "hall.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	committed, err := streamtest.Committed(ctx, store)
	if err != nil {
		t.Fatal(err)
	}
	msgs, err := streamtest.ReadAll(ctx, nc, hallID)
	if err != nil {
		t.Fatal(err)
	}
	figs, err := streamtest.Check(msgs, committed)
	if err != nil {
		t.Fatalf("the stream after the faults: %v", err)
	}
	last, _ := store.LastSeq(ctx)
	fresh := startTestGateway(t, nc, hallID)
	for name, g := range map[string]*gateway.Gateway{"the gateway that followed": follower, "a new gateway": fresh} {
		halltest.Eventually(t, 30*time.Second, func() error {
			if _, seq, _ := g.Progress(hallID); seq < last {
				return fmt.Errorf("%s is at change %d of %d", name, seq, last)
			}
			return nil
		})
		for board, log := range committed {
			replayed, n, err := store.Replay(ctx, board)
			if err != nil {
				t.Fatal(err)
			}
			want := wire.State(replayed)
			want.BoardId, want.BoardSeq = board, n
			got, _, ok := g.BoardState(hallID, board)
			if !ok || !proto.Equal(halltest.Ruled(got), halltest.Ruled(want)) {
				t.Errorf("%s: board %s (%d events) is\n%v\nthe hall's log replays to\n%v", name, board, len(log), got, want)
			}
		}
	}
	t.Logf("stream faults: %d kill -9 of the hall, the stream leader restarted, NATS cut %v, in %v: %v exactly once and in board order; fleet %d presses",
		kills+1, 2*phase, time.Since(began).Round(time.Second), figs, sum.Presses)
	if figs.Events < 100 {
		t.Errorf("only %d events: the fleet hardly played", figs.Events)
	}
}

// streamLeader returns the node leading the hall's stream.
func streamLeader(t *testing.T, nc *nats.Conn, hall string, c *natsrun.Cluster) *natsrun.Node {
	t.Helper()
	js, _ := jetstream.New(nc)
	var leader *natsrun.Node
	halltest.Eventually(t, 10*time.Second, func() error {
		s, err := js.Stream(context.Background(), hallstream.StreamName(hall))
		if err != nil {
			return err
		}
		info, err := s.Info(context.Background())
		if err != nil {
			return err
		}
		for _, n := range c.Nodes {
			if info.Cluster != nil && n.Name() == info.Cluster.Leader {
				leader = n
				return nil
			}
		}
		return fmt.Errorf("no leader of the stream yet")
	})
	return leader
}

// startTestGateway runs a gateway following one hall until the test ends.
func startTestGateway(t *testing.T, nc *nats.Conn, hall string) *gateway.Gateway {
	t.Helper()
	g, err := gateway.New(gateway.Options{Conn: nc, Halls: []string{hall}, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); g.Run(ctx) }()
	t.Cleanup(func() { cancel(); g.Shutdown(time.Second); <-done })
	return g
}
