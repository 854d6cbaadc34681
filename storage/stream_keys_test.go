package storage

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"testing"
)

func newKey(t *testing.T) ed25519.PrivateKey {
	t.Helper()
	_, k, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// The hall's signing keys: the first without an endorsement, each later
// one with its predecessor's, read back oldest first; a reopened store
// has them.
func TestStreamKeys(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := t.TempDir() + "/hall.db"
	s := mustOpenAt(t, path, Options{})
	if ks, err := s.StreamKeys(ctx); err != nil || len(ks) != 0 {
		t.Fatalf("StreamKeys of a new hall = %v, %v; want none", ks, err)
	}
	k1, k2 := newKey(t), newKey(t)
	if err := s.AddStreamKey(ctx, k1, []byte("an endorsement of nothing")); !errors.Is(err, ErrConflict) {
		t.Errorf("a first key with an endorsement: %v, want ErrConflict", err)
	}
	if err := s.AddStreamKey(ctx, k1, nil); err != nil {
		t.Fatal(err)
	}
	if err := s.AddStreamKey(ctx, k2, nil); !errors.Is(err, ErrConflict) {
		t.Errorf("a second key without an endorsement: %v, want ErrConflict", err)
	}
	endorsement := ed25519.Sign(k1, k2.Public().(ed25519.PublicKey))
	if err := s.AddStreamKey(ctx, k1, endorsement); !errors.Is(err, ErrDuplicate) {
		t.Errorf("the same key again: %v, want ErrDuplicate", err)
	}
	if err := s.AddStreamKey(ctx, k2, endorsement); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s = mustOpenAt(t, path, Options{})
	ks, err := s.StreamKeys(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(ks) != 2 || !ks[0].Private.Equal(k1) || !ks[1].Private.Equal(k2) || ks[0].Endorsement != nil || string(ks[1].Endorsement) != string(endorsement) {
		t.Errorf("StreamKeys = %+v, want k1 then k2 with k1's endorsement", ks)
	}
}

// A restore marks the stream's messages after the database's last outbox
// row as not the hall's; an explicit reset marks all; once handled, the
// mark is gone and, with reseed, the outbox holds the whole hall.
func TestStreamRestartMarks(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := MustOpen(t)
	mustBoards(t, s, 2)
	st, err := s.OutboxState(ctx)
	if err != nil {
		t.Fatal(err)
	}
	m, err := s.StreamMarks(ctx)
	if err != nil || m.Restart {
		t.Fatalf("StreamMarks of a new hall = %+v, %v; want no restart", m, err)
	}
	if err := s.RestartStream(ctx, false, "restored"); err != nil {
		t.Fatal(err)
	}
	if m, _ = s.StreamMarks(ctx); !m.Restart || m.RestartAfter != st.Last {
		t.Errorf("after a restore: %+v, want a restart after row %d", m, st.Last)
	}
	if err := s.RestartStream(ctx, true, "asked"); err != nil {
		t.Fatal(err)
	}
	if m, _ = s.StreamMarks(ctx); !m.Restart || m.RestartAfter != 0 {
		t.Errorf("after a reset: %+v, want a restart after row 0", m)
	}
	// The purged stream held rows up to st.Last+100 (a hall restored from
	// an older backup): the new rows come after them.
	if err := s.StreamRestarted(ctx, true, st.Last+100); err != nil {
		t.Fatal(err)
	}
	if m, _ = s.StreamMarks(ctx); m.Restart {
		t.Errorf("after the restart: %+v, want none pending", m)
	}
	after, _ := s.OutboxState(ctx)
	if after.Published != st.Last+100 || after.Last <= st.Last+100 {
		t.Errorf("outbox after a reseed = %+v, want new rows after %d", after, st.Last+100)
	}
}
