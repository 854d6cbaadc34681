package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/storage"
)

// The documented restore: a backup taken while the hall serves (Admin
// Backup, as hallctl backup does), then hallserver restore with the server
// stopped, which keeps the replaced database; refused while a server runs.
func TestRestoreCommand(t *testing.T) {
	dir := t.TempDir()
	r := serve(t, &Main{DataDir: dir})
	chief := tokenRE.FindString(r.out.String())
	conn, err := grpc.NewClient(r.grpc.String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	ctx := halltest.Ctx(context.Background(), chief)
	arb := pb.NewArbiterClient(conn)
	tournament := func(name string) {
		if _, err := arb.CreateTournament(ctx, &pb.CreateTournamentRequest{Name: name, DefaultConfig: &pb.ClockConfig{TimeControl: "180+2"}}); err != nil {
			t.Fatal(err)
		}
	}
	tournament("before the backup")
	backup := filepath.Join(t.TempDir(), "backup.db")
	stream, err := pb.NewAdminClient(conn).Backup(ctx, &pb.BackupRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var file bytes.Buffer
	for {
		c, err := stream.Recv()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		file.Write(c.GetData())
	}
	if err := os.WriteFile(backup, file.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	tournament("after the backup")

	var out bytes.Buffer
	noenv := func(string) string { return "" }
	err = restore(context.Background(), []string{"-data-dir", dir, backup}, &out, noenv)
	if err == nil || !strings.Contains(err.Error(), "PID "+strconv.Itoa(os.Getpid())) {
		t.Errorf("restore while the server runs: %v, want a refusal naming it", err)
	}
	if err := r.stop(); err != nil {
		t.Fatal(err)
	}
	if err := restore(context.Background(), []string{"-data-dir", dir, filepath.Join(dir, "nothing.db")}, &out, noenv); err == nil {
		t.Error("restore of a missing file succeeded")
	}
	out.Reset()
	if err := restore(context.Background(), []string{"-data-dir", dir, backup}, &out, noenv); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "restored") || !strings.Contains(out.String(), "before-restore-") {
		t.Errorf("restore printed %q", out.String())
	}
	kept, _ := filepath.Glob(filepath.Join(dir, "before-restore-*", "hall.db"))
	if len(kept) != 1 {
		t.Fatalf("the replaced database was not kept: %v", kept)
	}
	count := func(path string) int {
		st, err := storage.Open(context.Background(), path, storage.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		ts, err := st.Tournaments(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return len(ts)
	}
	if n := count(filepath.Join(dir, "hall.db")); n != 1 {
		t.Errorf("the restored hall has %d tournaments, want the backup's 1", n)
	}
	if n := count(kept[0]); n != 2 {
		t.Errorf("the kept hall has %d tournaments, want 2", n)
	}
	// The restored hall serves, with the backup's chief token.
	r = serve(t, &Main{DataDir: dir})
	if tokenRE.MatchString(r.out.String()) {
		t.Errorf("the restored hall issued a new chief token:\n%s", r.out)
	}
}
