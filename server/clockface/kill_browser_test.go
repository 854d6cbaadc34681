package clockface_test

import (
	"context"
	"fmt"
	"net/http"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/internal/testkit/longtest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// server is a hallserver process on fixed addresses and a data directory,
// kept across a kill and a start.
type server struct {
	t          *testing.T
	bin, dir   string
	grpc, http string
	cmd        *exec.Cmd
	out        *halltest.SyncBuffer
	exited     chan struct{}
}

var chiefRE = regexp.MustCompile(`chief-arbiter token.*?(hc_[A-Za-z0-9_-]+)`)

// start runs hallserver and waits until it serves; it returns the chief's
// token on a first start.
func (s *server) start() string {
	s.t.Helper()
	s.cmd = exec.Command(s.bin, "-data-dir", s.dir, "-grpc-addr", s.grpc, "-http-addr", s.http, "-log-level", "warn")
	s.out = &halltest.SyncBuffer{}
	s.cmd.Stdout, s.cmd.Stderr = s.out, s.out
	if err := s.cmd.Start(); err != nil {
		s.t.Fatal(err)
	}
	exited := make(chan struct{})
	s.exited = exited
	cmd := s.cmd
	go func() { _ = cmd.Wait(); close(exited) }()
	s.t.Cleanup(func() { _ = cmd.Process.Kill(); <-exited })
	deadline := time.Now().Add(60 * time.Second)
	for {
		select {
		case <-exited:
			s.t.Fatalf("hallserver exited before serving:\n%s", s.out)
		default:
		}
		if resp, err := http.Get("http://" + s.http + "/healthz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 && strings.Contains(s.out.String(), "hall server:") {
				break
			}
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("hallserver not serving after 60 s:\n%s", s.out)
		}
		time.Sleep(50 * time.Millisecond) // waiting for another process to listen
	}
	if m := chiefRE.FindStringSubmatch(s.out.String()); m != nil {
		return m[1]
	}
	return ""
}

// kill ends the process with SIGKILL: no shutdown, nothing flushed.
func (s *server) kill() {
	_ = s.cmd.Process.Signal(syscall.SIGKILL)
	<-s.exited
}

// The hall's process is killed in the middle of a game and started again:
// the page kept counting and kept every press, and the hall's database
// holds every press the page showed once, in order, at the page's
// instants.
func TestFaceThroughAHallKilled(t *testing.T) {
	longtest.Skip(t)
	bin := filepath.Join(t.TempDir(), "hallserver")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/chesshall/hallclock/cmd/hallserver").CombinedOutput(); err != nil {
		t.Fatalf("go build hallserver: %v\n%s", err, out)
	}
	s := &server{t: t, bin: bin, dir: t.TempDir(), grpc: halltest.FreeAddr(t), http: halltest.FreeAddr(t)}
	chief := s.start()
	if chief == "" {
		t.Fatalf("no chief token in the banner:\n%s", s.out)
	}
	conn, err := grpc.NewClient(s.grpc, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	arb, ctx := pb.NewArbiterClient(conn), halltest.Ctx(context.Background(), chief)
	tr, err := arb.CreateTournament(ctx, &pb.CreateTournamentRequest{Name: "Killed", DefaultConfig: &pb.ClockConfig{TimeControl: "5m"}})
	if err != nil {
		t.Fatal(err)
	}
	r, err := arb.CreateRound(ctx, &pb.CreateRoundRequest{TournamentId: tr.GetTournamentId(), Number: 1})
	if err != nil {
		t.Fatal(err)
	}
	b, err := arb.AddBoard(ctx, &pb.AddBoardRequest{RoundId: r.GetRoundId(), Number: 1, DeviceId: "TAB-1",
		White: &pb.Player{Name: "Anna"}, Black: &pb.Player{Name: "Boris"}})
	if err != nil {
		t.Fatal(err)
	}
	tok, err := arb.IssueToken(ctx, &pb.IssueTokenRequest{Role: pb.Role_ROLE_DEVICE, Label: "tablet", DeviceId: "TAB-1"})
	if err != nil {
		t.Fatal(err)
	}

	f := openFace(t, 1280, 800)
	f.enrol("http://"+s.http, "TAB-1", tok.GetToken())
	f.poll("online, on its board", `document.getElementById("link").textContent === "online" && JSON.parse(hallclockDevice.state()).assigned`, 10*time.Second)
	if st, err := arb.StartRound(ctx, &pb.StartRoundRequest{RoundId: r.GetRoundId()}); err != nil || st.GetBoards()[0].GetStatus() != pb.CommandStatus_COMMAND_STATUS_APPLIED {
		t.Fatalf("start: %v %v", st, err)
	}
	f.poll("White's clock runs", `JSON.parse(hallclockDevice.state()).running === "white"`, 15*time.Second)
	f.pressTo("white", "black")
	f.pressTo("black", "white")
	f.pressTo("white", "black") // the hall may die before it acknowledges this one

	s.kill()
	f.poll("offline", `document.getElementById("link").textContent.startsWith("offline")`, 10*time.Second)
	at := f.state().At
	f.pressTo("black", "white")
	f.pressTo("white", "black")
	f.poll("the presses kept, said", `/^offline — [2-9] presses kept$/.test(document.getElementById("link").textContent)`, 2*time.Second)
	f.poll("the clock counts on", fmt.Sprintf(`JSON.parse(hallclockDevice.state()).at > %d + 500`, at), 3*time.Second)

	s.start()
	f.poll("online again, everything sent", `document.getElementById("link").textContent === "online" &&
		JSON.parse(hallclockDevice.state()).outbox === 0`, 30*time.Second)

	page := f.recorded("TAB-1")
	if len(page) != 6 { // the start, five presses
		t.Fatalf("the page recorded %d events, want the start and five presses: %+v", len(page), page)
	}
	sameEvents(t, page, auditEvents(t, arb, ctx, b.GetBoardId()), "TAB-1")
}
