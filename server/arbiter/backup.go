package arbiter

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"time"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/server/auth"
	"github.com/chesshall/hallclock/storage"
)

// Backups while the hall plays: the chief arbiter's Admin.Backup (hallctl
// backup FILE) and GET /api/backup (Bearer token or session) stream a
// consistent copy of the database (storage.Backup), written first to a
// temporary file beside the database and removed once sent.

// Admin implements the Admin service.
type Admin struct {
	pb.UnsafeAdminServer
	s *Service
}

const backupChunk = 256 << 10

// backup makes a copy in a temporary file and returns it open, with its
// summary; the caller closes and removes it (done).
func (s *Service) backup(ctx context.Context) (f *os.File, sum storage.Summary, done func(), err error) {
	dir, err := os.MkdirTemp(filepath.Dir(s.store.Path()), ".backup-")
	if err != nil {
		return nil, sum, nil, fmt.Errorf("backup: a temporary directory beside the database: %w", err)
	}
	cleanup := func() { os.RemoveAll(dir) }
	path := filepath.Join(dir, "hall.db")
	if sum, err = s.store.Backup(ctx, path); err != nil {
		cleanup()
		return nil, sum, nil, err
	}
	if f, err = os.Open(path); err != nil {
		cleanup()
		return nil, sum, nil, err
	}
	s.log.Info("backup taken", "summary", sum.String())
	return f, sum, func() { f.Close(); cleanup() }, nil
}

func (a *Admin) Backup(_ *pb.BackupRequest, stream pb.Admin_BackupServer) error {
	s := a.s
	ctx := stream.Context()
	f, sum, done, err := s.backup(ctx)
	if err != nil {
		return err
	}
	defer done()
	h := sha256.New()
	buf := make([]byte, backupChunk)
	first := &pb.BackupChunk{TotalBytes: sum.Bytes, Summary: &pb.BackupSummary{Boards: int32(sum.Boards), Events: int64(sum.Events),
		LastSeq: sum.LastSeq, LastEventUnixMs: unixMs(sum.LastEvent)}}
	for chunk := first; ; chunk = new(pb.BackupChunk) {
		n, rerr := io.ReadFull(f, buf)
		if rerr != nil && rerr != io.ErrUnexpectedEOF && rerr != io.EOF {
			return fmt.Errorf("backup: reading the copy: %w", rerr)
		}
		h.Write(buf[:n])
		chunk.Data = buf[:n]
		last := rerr != nil
		if last {
			chunk.Sha256 = hex.EncodeToString(h.Sum(nil))
		}
		if err := stream.Send(chunk); err != nil {
			return err
		}
		if last {
			return nil
		}
	}
}

// serveBackup: GET /api/backup, the chief arbiter's download of a copy.
func (s *Service) serveBackup(w http.ResponseWriter, r *http.Request) {
	if _, err := s.sessions.WebIdentity(r, auth.RoleChief); err != nil {
		s.codes.WriteHTTP(w, err)
		return
	}
	f, sum, done, err := s.backup(r.Context())
	if err != nil {
		s.codes.WriteHTTP(w, err)
		return
	}
	defer done()
	// A large hall to a slow link takes what it takes: the chief's
	// download is not held to the port's bound on answers.
	_ = http.NewResponseController(w).SetWriteDeadline(time.Time{})
	name := "hall-" + time.Now().UTC().Format("20060102T150405Z") + ".db"
	w.Header().Set("Content-Type", "application/vnd.sqlite3")
	w.Header().Set("Content-Disposition", `attachment; filename="`+name+`"`)
	w.Header().Set("Content-Length", strconv.FormatInt(sum.Bytes, 10))
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Hall-Backup", sum.String())
	_, _ = io.Copy(w, f)
}
