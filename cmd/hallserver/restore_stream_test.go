package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/chesshall/hallclock/formats/hallstream"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/internal/testkit/streamtest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/server"
)

// hallAt is a hall served in the test process on a data directory, with
// its chief token and the embedded NATS server's URL.
type hallAt struct {
	t     *testing.T
	dir   string
	r     *running
	chief string
	nats  string
}

func (h *hallAt) start() {
	h.t.Helper()
	h.r = serve(h.t, &Main{DataDir: h.dir, HallID: "restored"})
	if c := tokenRE.FindString(h.r.out.String()); c != "" {
		h.chief = c
	}
	m := regexp.MustCompile(`NATS   embedded (nats://\S+),`).FindStringSubmatch(h.r.out.String())
	if m == nil {
		h.t.Fatalf("no embedded NATS in the banner:\n%s", h.r.out)
	}
	h.nats = m[1]
}

func (h *hallAt) ctx() context.Context { return halltest.Ctx(context.Background(), h.chief) }

func (h *hallAt) conn() *grpc.ClientConn {
	c, err := grpc.NewClient(h.r.grpc.String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		h.t.Fatal(err)
	}
	h.t.Cleanup(func() { c.Close() })
	return c
}

func (h *hallAt) tournament(name string) {
	h.t.Helper()
	if _, err := pb.NewArbiterClient(h.conn()).CreateTournament(h.ctx(), &pb.CreateTournamentRequest{Name: name, DefaultConfig: &pb.ClockConfig{TimeControl: "180+2"}}); err != nil {
		h.t.Fatal(err)
	}
}

// backup takes a backup as hallctl backup does.
func (h *hallAt) backup() string {
	h.t.Helper()
	stream, err := pb.NewAdminClient(h.conn()).Backup(h.ctx(), &pb.BackupRequest{})
	if err != nil {
		h.t.Fatal(err)
	}
	var file bytes.Buffer
	for {
		c, err := stream.Recv()
		if err == io.EOF {
			break
		}
		if err != nil {
			h.t.Fatal(err)
		}
		file.Write(c.GetData())
	}
	path := filepath.Join(h.t.TempDir(), "backup.db")
	if err := os.WriteFile(path, file.Bytes(), 0o600); err != nil {
		h.t.Fatal(err)
	}
	return path
}

// stream reads GET /api/stream.
func (h *hallAt) stream() (server.StreamStatus, error) {
	var st server.StreamStatus
	req, _ := http.NewRequest(http.MethodGet, "http://"+h.r.http.String()+"/api/stream", nil)
	req.Header.Set("Authorization", "Bearer "+h.chief)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return st, err
	}
	defer resp.Body.Close()
	return st, json.NewDecoder(resp.Body).Decode(&st)
}

// published waits until the stream has everything the hall committed.
func (h *hallAt) published() server.StreamStatus {
	h.t.Helper()
	var st server.StreamStatus
	halltest.Eventually(h.t, 15*time.Second, func() error {
		var err error
		if st, err = h.stream(); err != nil {
			return err
		}
		if !st.Connected || st.Backlog > 0 || st.Ahead {
			return fmt.Errorf("stream %+v", st)
		}
		return nil
	})
	return st
}

// tournaments returns the tournaments the stream holds, and whether its
// first message starts the hall.
func (h *hallAt) tournaments() ([]string, bool) {
	h.t.Helper()
	seed, err := nats.NkeyOptionFromSeed(filepath.Join(h.dir, "nats", "gateway.nk"))
	if err != nil {
		h.t.Fatal(err)
	}
	nc, err := nats.Connect(h.nats, seed)
	if err != nil {
		h.t.Fatal(err)
	}
	defer nc.Close()
	msgs, err := streamtest.ReadEach(context.Background(), nc, "restored") // the gateways' user creates no pull consumer
	if err != nil {
		h.t.Fatal(err)
	}
	var names []string
	for _, m := range msgs {
		if m.Kind == hallstream.KindTournament {
			names = append(names, m.Tournament.Name)
		}
	}
	return names, len(msgs) > 0 && msgs[0].Header.Get(hallstream.HeaderStart) == "1"
}

// After hallserver restore, the hall's stream — which holds what the hall
// wrote after the backup — is started again: it converges on the restored
// hall (its first message telling gateways to start the hall anew), and
// the publisher never loops.
func TestRestoreStartsTheStreamAgain(t *testing.T) {
	h := &hallAt{t: t, dir: t.TempDir()}
	h.start()
	h.tournament("before the backup")
	backup := h.backup()
	h.tournament("after the backup")
	h.published()
	if names, _ := h.tournaments(); len(names) != 2 {
		t.Fatalf("the stream holds tournaments %q before the restore, want both", names)
	}
	if err := h.r.stop(); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := restore(context.Background(), []string{"-data-dir", h.dir, backup}, &out, func(string) string { return "" }); err != nil {
		t.Fatal(err)
	}
	h.start()
	h.tournament("after the restore")
	h.published()
	names, starts := h.tournaments()
	if strings.Join(names, "|") != "before the backup|after the restore" || !starts {
		t.Errorf("the stream after the restore holds tournaments %q (starting the hall: %v), want the restored hall's, starting it", names, starts)
	}
}

// A hall whose database was put back by hand (no hallserver restore)
// does not write into the stream that went on without it: one alarm,
// with the command that fixes it; that command converges.
func TestRestoredByHandAlarmsUntilTheStreamIsReset(t *testing.T) {
	h := &hallAt{t: t, dir: t.TempDir()}
	h.start()
	h.tournament("before the backup")
	backup := h.backup()
	h.tournament("after the backup")
	h.tournament("after the backup too")
	h.published()
	if err := h.r.stop(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(backup)
	if err != nil {
		t.Fatal(err)
	}
	for _, ext := range []string{"-wal", "-shm"} {
		os.Remove(filepath.Join(h.dir, "hall.db"+ext))
	}
	if err := os.WriteFile(filepath.Join(h.dir, "hall.db"), b, 0o600); err != nil {
		t.Fatal(err)
	}
	h.start()
	var st server.StreamStatus
	halltest.Eventually(t, 15*time.Second, func() error {
		if st, err = h.stream(); err != nil {
			return err
		}
		if !st.Ahead {
			return fmt.Errorf("stream %+v: want it reported ahead", st)
		}
		return nil
	})
	fix := "hallserver stream-reset -data-dir " + h.dir
	if !strings.Contains(st.LastError, fix) || st.Connected {
		t.Errorf("stream %+v: want the alarm to name %q", st, fix)
	}
	if names, _ := h.tournaments(); len(names) != 3 {
		t.Errorf("the stream holds tournaments %q, want the three of before: the restored hall wrote into it", names)
	}
	if err := h.r.stop(); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := streamReset(context.Background(), []string{"-data-dir", h.dir}, &out, func(string) string { return "" }); err != nil {
		t.Fatal(err)
	}
	h.start()
	h.published()
	if names, starts := h.tournaments(); strings.Join(names, "|") != "before the backup" || !starts {
		t.Errorf("after stream-reset the stream holds %q (starting the hall: %v), want the restored hall's, starting it", names, starts)
	}
}
