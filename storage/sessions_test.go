package storage

import (
	"context"
	"errors"
	"testing"
	"time"
)

// Sessions and sign-in links are kept across a reopen (a restart), a
// link is spent once, and revoking a token ends both.
func TestSignInsOutliveAReopenAndEndWithTheirToken(t *testing.T) {
	path := t.TempDir() + "/hall.db"
	s, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	now := time.UnixMilli(1_750_000_000_000).UTC()
	mustWrite(t, s, func(tx *Tx) error {
		for _, id := range []string{"tok-a", "tok-b"} {
			if err := tx.PutToken(&TokenRecord{ID: id, Hash: "h-" + id, Role: "arbiter", Created: now}); err != nil {
				return err
			}
		}
		for _, ws := range []WebSession{
			{Hash: "s1", TokenID: "tok-a", Created: now, Expires: now.Add(time.Hour)},
			{Hash: "s2", TokenID: "tok-b", Created: now, Expires: now.Add(time.Hour)},
			{Hash: "s3", TokenID: "tok-a", Created: now.Add(-2 * time.Hour), Expires: now.Add(-time.Hour)},
		} {
			if err := tx.PutWebSession(ws); err != nil {
				return err
			}
		}
		return tx.PutSignInLink(SignInLink{Hash: "l1", TokenID: "tok-a", MadeBy: "chief:c", Created: now, Expires: now.Add(15 * time.Minute)})
	})
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = mustOpenAt(t, path, Options{})
	ctx := context.Background()
	got, err := s.WebSessions(ctx, now)
	if err != nil || len(got) != 2 || got[0].Hash != "s1" || got[1].Hash != "s2" || !got[0].Expires.Equal(now.Add(time.Hour)) {
		t.Fatalf("WebSessions after a reopen = %+v, %v; want s1 and s2 (s3 expired)", got, err)
	}
	if l, err := s.SignInLinkByHash(ctx, "l1"); err != nil || !l.Used.IsZero() || l.TokenID != "tok-a" || l.MadeBy != "chief:c" {
		t.Fatalf("SignInLinkByHash = %+v, %v; want tok-a's link, unused", l, err)
	}
	if _, err := s.SignInLinkByHash(ctx, "nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("SignInLinkByHash(unknown) = %v, want ErrNotFound", err)
	}
	// Spent once: the second time is ErrLinkUsed; after its time, expired.
	mustWrite(t, s, func(tx *Tx) error {
		l, err := tx.SpendSignInLink("l1", now.Add(time.Minute))
		if err != nil || l.TokenID != "tok-a" {
			t.Errorf("SpendSignInLink = %+v, %v; want tok-a's link", l, err)
		}
		return nil
	})
	_ = s.Write(ctx, func(tx *Tx) error {
		if _, err := tx.SpendSignInLink("l1", now.Add(2*time.Minute)); !errors.Is(err, ErrLinkUsed) || !errors.Is(err, ErrConflict) {
			t.Errorf("SpendSignInLink a second time = %v, want ErrLinkUsed", err)
		}
		if _, err := tx.SpendSignInLink("nope", now); !errors.Is(err, ErrNotFound) {
			t.Errorf("SpendSignInLink(unknown) = %v, want ErrNotFound", err)
		}
		return tx.PutSignInLink(SignInLink{Hash: "l2", TokenID: "tok-a", MadeBy: "chief:c", Created: now, Expires: now.Add(15 * time.Minute)})
	})
	_ = s.Write(ctx, func(tx *Tx) error {
		if _, err := tx.SpendSignInLink("l2", now.Add(15*time.Minute)); !errors.Is(err, ErrLinkExpired) {
			t.Errorf("SpendSignInLink at its expiry = %v, want ErrLinkExpired", err)
		}
		return nil
	})
	mustWrite(t, s, func(tx *Tx) error { return tx.RevokeToken("tok-a", now) })
	if got, _ := s.WebSessions(ctx, now); len(got) != 1 || got[0].TokenID != "tok-b" {
		t.Errorf("WebSessions after tok-a's revocation = %+v, want tok-b's only", got)
	}
	if _, err := s.SignInLinkByHash(ctx, "l2"); !errors.Is(err, ErrNotFound) {
		t.Errorf("tok-a's link after its revocation: %v, want it gone", err)
	}
	mustWrite(t, s, func(tx *Tx) error { return tx.EndWebSession("s2") })
	mustWrite(t, s, func(tx *Tx) error { return tx.PruneSignIns(now.Add(time.Hour)) })
	if got, _ := s.WebSessions(ctx, now.Add(-3*time.Hour)); len(got) != 0 {
		t.Errorf("WebSessions after sign-out and pruning = %+v, want none", got)
	}
}
