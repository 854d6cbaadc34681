package auth

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/chesshall/hallclock/internal/ident"
	"github.com/chesshall/hallclock/storage"
)

// EnsureChief issues a chief-arbiter token if none is active and returns
// its secret ("" if one exists). hallserver prints it on first start, once
// its listeners are bound: a start that fails before serving creates no
// token that nobody saw.
func (t *Tokens) EnsureChief(ctx context.Context) (string, error) {
	if t.Count(RoleChief) > 0 {
		return "", nil
	}
	_, secret, err := t.Issue(ctx, RoleChief, "chief arbiter", "", nil, "server")
	return secret, err
}

// ResetChief is the local recovery of a lost chief-arbiter token: it
// revokes every active chief token and issues a new one, in one
// transaction with its audit entry, and returns the new secret and the ids
// revoked. It works on the store alone (file access is the credential), so
// run it while no server uses the store: a running server would keep the
// revoked tokens in its memory (hallserver reset-chief takes the data
// directory's lock to make sure).
func ResetChief(ctx context.Context, st *storage.Store, actor string) (secret string, revoked []string, err error) {
	recs, err := st.Tokens(ctx)
	if err != nil {
		return "", nil, err
	}
	secret, err = randomSecret()
	if err != nil {
		return "", nil, err
	}
	now := time.Now()
	hash := ident.HashSecret(secret)
	rec := storage.TokenRecord{ID: "tok-" + hash[:12], Hash: hash, Role: string(RoleChief), Label: "chief arbiter (reset)", Created: now}
	for _, r := range recs {
		if r.Active() && Role(r.Role) == RoleChief {
			revoked = append(revoked, r.ID)
		}
	}
	err = st.Write(ctx, func(tx *storage.Tx) error {
		for _, id := range revoked {
			if err := tx.RevokeToken(id, now); err != nil {
				return err
			}
		}
		if err := tx.PutToken(&rec); err != nil {
			return err
		}
		text := fmt.Sprintf("reset_chief: issued %s, revoked %d chief token(s) %v", rec.ID, len(revoked), revoked)
		list := strings.Join(revoked, ", ")
		if list == "" {
			list = "—"
		}
		return tx.AddAudit(&storage.AuditRecord{Actor: actor, What: text, Outcome: storage.OutcomeApplied,
			Kind: "did.reset_chief", Params: map[string]string{"token": rec.ID, "revoked": list, "text": text}})
	})
	if err != nil {
		return "", nil, err
	}
	return secret, revoked, nil
}
