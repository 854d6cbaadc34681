package main

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/storage"
)

// hallctl backup FILE writes a consistent copy of the hall (the chief
// arbiter only), never over an existing file; GET /api/backup gives the
// same to a chief's bearer token.
func TestBackup(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t, halltest.OnLoopback())
	h.Round(t, "180+2", 3)
	dir := t.TempDir()
	do := func(token string, args ...string) (string, error) {
		var out bytes.Buffer
		err := run(context.Background(), append([]string{"-addr", h.Addr(), "-token", token}, args...), &out, func(string) string { return "" })
		return out.String(), err
	}
	file := filepath.Join(dir, "hall-backup.db")
	out, err := do(h.Chief, "backup", file)
	if err != nil {
		t.Fatalf("hallctl backup: %v\n%s", err, out)
	}
	if !strings.Contains(out, "3 boards") || !strings.Contains(out, "hallserver restore") {
		t.Errorf("hallctl backup printed %q, want the summary and how to restore", out)
	}
	sum, err := storage.Inspect(context.Background(), file)
	if err != nil || sum.Boards != 3 {
		t.Errorf("the backup file: %v, %v; want a sound hall of 3 boards", sum, err)
	}
	if _, err := os.Stat(file + ".part"); err == nil {
		t.Error("the partial file was left behind")
	}
	if _, err := do(h.Chief, "backup", file); err == nil || !strings.Contains(err.Error(), "exists") {
		t.Errorf("a second backup to the same file: %v, want a refusal", err)
	}
	arbiter := h.Token(t, pb.Role_ROLE_ARBITER, "Anna", "")
	if _, err := do(arbiter, "backup", filepath.Join(dir, "b2.db")); err == nil || !strings.Contains(err.Error(), "PermissionDenied") {
		t.Errorf("an arbiter's backup: %v, want PermissionDenied", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "b2.db")); err == nil {
		t.Error("a refused backup left a file")
	}

	base := h.HTTP(t)
	for _, c := range []struct {
		token string
		want  int
	}{{h.Chief, 200}, {arbiter, 403}} {
		req, _ := http.NewRequest("GET", base+"/api/backup", nil)
		req.Header.Set("Authorization", "Bearer "+c.token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body := new(bytes.Buffer)
		body.ReadFrom(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != c.want {
			t.Errorf("GET /api/backup = %d, want %d", resp.StatusCode, c.want)
		}
		if c.want == 200 && !bytes.HasPrefix(body.Bytes(), []byte("SQLite format 3\x00")) {
			t.Errorf("GET /api/backup body is not a SQLite file (%d bytes)", body.Len())
		}
	}
}
