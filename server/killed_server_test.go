package server_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/proto"

	"github.com/chesshall/hallclock/clockdev"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/internal/testkit/longtest"
	"github.com/chesshall/hallclock/internal/wire"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
	"github.com/chesshall/hallclock/server"
	"github.com/chesshall/hallclock/storage"
)

// Durability by killing the server process (DESIGN §4: acknowledged means
// durable). The test binary re-executes itself as the server
// (TestKillChildServer with killChildEnv set), kills it with SIGKILL while
// a clock device presses, starts it again on the same database, and checks
// the log against what the device was told.

const (
	killChildEnv   = "HALLCLOCK_KILL_CHILD"
	killChildDB    = "HALLCLOCK_KILL_DB"
	killChildAddr  = "HALLCLOCK_KILL_ADDR"
	killReadyTitle = "HALL-READY"
)

// TestKillChildServer is not a test of its own: it is the server process
// that TestKillServerMidStream starts and kills. It serves the database
// killChildDB on killChildAddr, prints "HALL-READY chief=<token>" (empty
// if a chief token exists) and serves until its stdin closes.
func TestKillChildServer(t *testing.T) {
	t.Parallel()
	if os.Getenv(killChildEnv) != "1" {
		t.Skip("the server process of TestKillServerMidStream")
	}
	ctx := context.Background()
	st, err := storage.Open(ctx, os.Getenv(killChildDB), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	srv, err := server.New(ctx, st, server.Options{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", os.Getenv(killChildAddr))
	if err != nil {
		t.Fatal(err)
	}
	go srv.ServeGRPC(l)
	chief, err := srv.Tokens().EnsureChief(ctx)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("%s chief=%s\n", killReadyTitle, chief)
	_, _ = io.Copy(io.Discard, os.Stdin)
	srv.Shutdown(2 * time.Second)
}

// hallProcess is a server child process.
type hallProcess struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stderr *bytes.Buffer
	chief  string
	exited chan struct{} // closed when the process has exited
	err    error         // how it exited, once exited is closed
}

func startHallProcess(t *testing.T, db, addr string) *hallProcess {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestKillChildServer$", "-test.timeout=2m")
	cmd.Env = append(os.Environ(), killChildEnv+"=1", killChildDB+"="+db, killChildAddr+"="+addr)
	p := &hallProcess{cmd: cmd, stderr: &bytes.Buffer{}, exited: make(chan struct{})}
	cmd.Stderr = p.stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if p.stdin, err = cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ready := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if rest, ok := strings.CutPrefix(sc.Text(), killReadyTitle+" chief="); ok {
				ready <- rest
			}
		}
		p.err = cmd.Wait()
		close(p.exited)
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		select {
		case <-p.exited:
		case <-time.After(5 * time.Second):
		}
		if t.Failed() && p.stderr.Len() > 0 {
			t.Logf("server process %d stderr:\n%s", cmd.Process.Pid, p.stderr)
		}
	})
	select {
	case p.chief = <-ready:
	case <-p.exited:
		t.Fatalf("server process exited before it was ready: %v\n%s", p.err, p.stderr)
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		<-p.exited
		t.Fatalf("server process not ready after 30s\n%s", p.stderr)
	}
	return p
}

// kill ends the process with SIGKILL: no shutdown, no flush, no goodbye.
func (p *hallProcess) kill(t *testing.T) {
	t.Helper()
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-p.exited
}

// stop asks the process to shut down cleanly and waits for it.
func (p *hallProcess) stop(t *testing.T) {
	t.Helper()
	p.stdin.Close()
	select {
	case <-p.exited:
		if p.err != nil {
			t.Errorf("server process ended with %v, want a clean exit\n%s", p.err, p.stderr)
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("server process still running 20s after stdin closed")
	}
}

// DESIGN §4: acknowledged means durable. Every event the device saw
// acknowledged before the server was killed is in the log exactly once; the
// device resends the rest to the restarted server, and the log ends up
// holding exactly the device's history.
func TestKillServerMidStream(t *testing.T) {
	longtest.Skip(t)
	t.Parallel()
	if testing.Short() {
		t.Skip("starts and kills server processes")
	}
	db := filepath.Join(t.TempDir(), "hall.db")
	addr := halltest.FreeAddr(t)
	first := startHallProcess(t, db, addr)
	if first.chief == "" {
		t.Fatal("the first server printed no chief token")
	}

	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	arb := pb.NewArbiterClient(conn)
	ctx := halltest.Ctx(context.Background(), first.chief)
	const dev = "CLK-KILL"
	tr, err := arb.CreateTournament(ctx, &pb.CreateTournamentRequest{Name: "kill", DefaultConfig: &pb.ClockConfig{TimeControl: "5400+30"}})
	if err != nil {
		t.Fatal(err)
	}
	rd, err := arb.CreateRound(ctx, &pb.CreateRoundRequest{TournamentId: tr.GetTournamentId(), Number: 1})
	if err != nil {
		t.Fatal(err)
	}
	b, err := arb.AddBoard(ctx, &pb.AddBoardRequest{RoundId: rd.GetRoundId(), Number: 1, DeviceId: dev,
		White: &pb.Player{Name: "W"}, Black: &pb.Player{Name: "B"}})
	if err != nil {
		t.Fatal(err)
	}
	tok, err := arb.IssueToken(ctx, &pb.IssueTokenRequest{Role: pb.Role_ROLE_DEVICE, Label: dev, DeviceId: dev})
	if err != nil {
		t.Fatal(err)
	}

	d, err := clockdev.New(clockdev.Config{
		DeviceID: dev, Token: tok.GetToken(), Firmware: "kill-test", Target: addr,
		DialOptions: []grpc.DialOption{grpc.WithTransportCredentials(insecure.NewCredentials())},
		Logger:      slog.New(slog.DiscardHandler),
		MinBackoff:  10 * time.Millisecond, MaxBackoff: 100 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	// Every acknowledgement the device saw, from its notices.
	var mu sync.Mutex
	var ackSeen uint64
	notices := make(chan struct{})
	go func() {
		defer close(notices)
		for n := range d.Events() {
			if n.Kind == clockdev.NoticeAck {
				mu.Lock()
				ackSeen = max(ackSeen, n.UpTo)
				mu.Unlock()
			}
		}
	}()
	runCtx, stopRun := context.WithCancel(context.Background())
	ran := make(chan struct{})
	go func() { defer close(ran); d.Run(runCtx) }()
	defer func() {
		stopRun()
		<-ran
		d.Close()
		<-notices
	}()
	halltest.Eventually(t, 10*time.Second, func() error {
		if d.Assignment() == nil {
			return fmt.Errorf("device not assigned (connected %v, last error %q)", d.Status().Connected, d.Status().LastError)
		}
		return nil
	})
	if err := d.Do(rules.Event{Kind: rules.KindStart}); err != nil {
		t.Fatal(err)
	}

	// The players press, and go on pressing whatever the server does.
	const presses = 300
	pressed := make(chan error, 1)
	go func() {
		for range presses {
			if err := d.Press(d.State().ToMove, "", ""); err != nil {
				pressed <- err
				return
			}
			time.Sleep(time.Millisecond)
		}
		pressed <- nil
	}()

	// Kill the server twice mid-stream; each time the database, as the
	// killed process left it, holds every event acknowledged so far.
	hall := first
	var ackedAtFirstKill uint64
	for i, after := range []uint64{40, 160} {
		halltest.Eventually(t, 20*time.Second, func() error {
			if a := d.Status().AckedSeq; a < after {
				return fmt.Errorf("device has %d events acknowledged, want %d before the kill", a, after)
			}
			return nil
		})
		hall.kill(t)
		halltest.Eventually(t, 5*time.Second, func() error {
			if d.Status().Connected {
				return fmt.Errorf("device still connected to a killed server")
			}
			return nil
		})
		// What the device was told is committed: it will never send these again.
		ackedAtKill := d.Status().AckedSeq
		mu.Lock()
		if ackSeen > ackedAtKill {
			t.Errorf("notices acknowledged up to %d, the outbox only %d", ackSeen, ackedAtKill)
		}
		ackedAtKill = max(ackedAtKill, ackSeen)
		mu.Unlock()
		sentAtKill := d.Status().NextSeq - 1
		t.Logf("killed after %d of %d sent events were acknowledged", ackedAtKill, sentAtKill)
		checkAckedInLog(t, db, b.GetBoardId(), dev, ackedAtKill)
		if i == 0 {
			ackedAtFirstKill = ackedAtKill
		}

		hall = startHallProcess(t, db, addr)
		if hall.chief != "" {
			t.Errorf("the restarted server issued a new chief token, want the stored one kept")
		}
	}
	second := hall
	if err := <-pressed; err != nil {
		t.Fatalf("press: %v", err)
	}
	halltest.Eventually(t, 20*time.Second, func() error {
		if st := d.Status(); st.Outbox > 0 || !st.Connected {
			return fmt.Errorf("device: %d events unacknowledged, connected %v", st.Outbox, st.Connected)
		}
		return nil
	})
	final := d.Status()
	hist := d.History()
	got, err := arb.GetBoard(ctx, &pb.GetBoardRequest{BoardId: b.GetBoardId()})
	if err != nil {
		t.Fatal(err)
	}
	if got.GetState().GetBoardSeq() != uint64(len(hist)) {
		t.Errorf("GetBoard board_seq = %d, want %d (the device's history)", got.GetState().GetBoardSeq(), len(hist))
	}
	stopRun()
	<-ran
	second.stop(t)
	if ackedAtFirstKill >= final.AckedSeq {
		t.Errorf("acknowledged at the first kill %d, finally %d: want the kill mid-game, with events still to come", ackedAtFirstKill, final.AckedSeq)
	}

	st, err := storage.Open(context.Background(), db, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	evs, err := st.Events(context.Background(), b.GetBoardId(), 0)
	if err != nil {
		t.Fatal(err)
	}
	count := map[uint64]int{}
	for i, e := range evs {
		if e.BoardSeq != uint64(i+1) {
			t.Errorf("event %d has board_seq %d, want %d (contiguous)", i, e.BoardSeq, i+1)
		}
		if e.DeviceID != dev {
			t.Errorf("event %d from %q, want %s", e.BoardSeq, e.DeviceID, dev)
		}
		count[e.DeviceSeq]++
	}
	for seq := uint64(1); seq <= final.AckedSeq; seq++ {
		if count[seq] != 1 {
			t.Errorf("device event %d is in the log %d times, want exactly once", seq, count[seq])
		}
	}
	if len(evs) != len(hist) || uint64(len(evs)) != final.AckedSeq {
		t.Errorf("log holds %d events, device history %d, device acked %d; want all equal", len(evs), len(hist), final.AckedSeq)
	}
	for i := range min(len(evs), len(hist)) {
		if a := wire.Action(evs[i].Event); !proto.Equal(a, hist[i]) {
			t.Errorf("event %d: log %v, device %v", i+1, a, hist[i])
		}
	}
	if acked, err := st.DeviceAcked(context.Background(), dev); err != nil || acked != final.AckedSeq {
		t.Errorf("DeviceAcked = %d, %v; want %d", acked, err, final.AckedSeq)
	}
}

// checkAckedInLog opens the database a killed server left and checks that
// each of the device's events 1..acked is in the board's log exactly once.
func checkAckedInLog(t *testing.T, db, boardID, dev string, acked uint64) {
	t.Helper()
	st, err := storage.Open(context.Background(), db, storage.Options{})
	if err != nil {
		t.Fatalf("opening the database of the killed server: %v", err)
	}
	defer st.Close()
	evs, err := st.Events(context.Background(), boardID, 0)
	if err != nil {
		t.Fatal(err)
	}
	count := map[uint64]int{}
	for _, e := range evs {
		if e.DeviceID == dev {
			count[e.DeviceSeq]++
		}
	}
	for seq := uint64(1); seq <= acked; seq++ {
		if count[seq] != 1 {
			t.Errorf("after the kill, acknowledged device event %d is in the log %d times, want exactly once", seq, count[seq])
		}
	}
	if got, err := st.DeviceAcked(context.Background(), dev); err != nil || got < acked {
		t.Errorf("after the kill DeviceAcked = %d, %v; want at least %d", got, err, acked)
	}
}
