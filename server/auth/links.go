package auth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/chesshall/hallclock/server/hallerr"
	"github.com/chesshall/hallclock/storage"
)

// One-time sign-in links: /signin?code=sc_..., made for a token by someone
// who may (MayLinkFor), kept in the store by the code's hash, spent by the
// one sign-in they make (Sessions.SignIn).

// codePrefix starts every sign-in link's code (a token starts "hc_").
const codePrefix = "sc_"

// MayLinkFor says whether maker may make a sign-in link that signs a
// browser in as target:
//
//   - the chief arbiter, for any token but a clock device's (a deputy's
//     tablet, a screen's broadcast session, the chief's own phone);
//   - an arbiter, for themself (another device of theirs) and for their
//     deputies: arbiter tokens limited to sections the maker holds too
//     (an arbiter of every section: any arbiter token). A link never
//     gives more than its maker has;
//   - a broadcast token, for itself.
//
// A token the maker may not make a link for is refused as if it did not
// exist (storage.ErrNotFound), so asking tells nothing of it.
func MayLinkFor(maker, target *Identity) error {
	switch {
	case maker.Role == RoleChief && target.Role == RoleDevice:
		return fmt.Errorf("%w: clock devices do not sign in to the web pages", hallerr.ErrBadRequest)
	case maker.TokenID == target.TokenID, maker.Role == RoleChief:
		return nil
	case maker.Role == RoleArbiter && target.Role == RoleArbiter:
		if len(maker.Sections) == 0 {
			return nil
		}
		if len(target.Sections) == 0 {
			return unknownToken(target.Label)
		}
		for _, s := range target.Sections {
			if !maker.MaySection(s) {
				return unknownToken(target.Label)
			}
		}
		return nil
	}
	return unknownToken(target.Label)
}

func unknownToken(ref string) error {
	return fmt.Errorf("%w: no token you may make a sign-in link for is named %q (give its label or its id)", storage.ErrNotFound, ref)
}

// Find returns the active token named ref: its id (tok-...) or its label.
// A label that several active tokens share is refused: name it by its id.
func (t *Tokens) Find(ref string) (*Identity, error) {
	ref = strings.TrimSpace(ref)
	if id, ok := t.LookupID(ref); ok {
		return id, nil
	}
	t.mu.RLock()
	var found []*Identity
	for _, r := range t.byHash {
		if strings.EqualFold(r.Label, ref) {
			found = append(found, identityOf(r))
		}
	}
	t.mu.RUnlock()
	switch len(found) {
	case 0:
		return nil, unknownToken(ref)
	case 1:
		return found[0], nil
	}
	return nil, hallerr.BadRequest("%d active tokens are labelled %q: name one by its id (tok-..., hallctl token list)", len(found), ref)
}

// IssueLink makes a one-time sign-in link for the active token tokenID,
// audited as made by madeBy; it returns the link's code (for
// /signin?code=) and when it expires. The caller checks MayLinkFor.
func (ss *Sessions) IssueLink(ctx context.Context, tokenID, madeBy string) (code string, expires time.Time, err error) {
	id, ok := ss.tokens.LookupID(tokenID)
	if !ok {
		return "", time.Time{}, unknownToken(tokenID)
	}
	if id.Role == RoleDevice {
		return "", time.Time{}, fmt.Errorf("%w: clock devices do not sign in to the web pages", hallerr.ErrBadRequest)
	}
	code = codePrefix + randomID(18)
	now := ss.now()
	expires = now.Add(CodeTTL)
	err = ss.store.Write(ctx, func(tx *storage.Tx) error {
		if err := tx.PutSignInLink(storage.SignInLink{Hash: hashOf(code), TokenID: tokenID, MadeBy: madeBy, Created: now, Expires: expires}); err != nil {
			return err
		}
		until := Clock(expires, ss.zoneOrUTC())
		what := fmt.Sprintf("sign-in link made for %s (%s), valid until %s", id.Actor(), tokenID, until)
		return tx.AddAudit(&storage.AuditRecord{Actor: madeBy, What: what, Outcome: storage.OutcomeApplied,
			Kind: "did.signin_link", Params: map[string]string{"who": id.Actor(), "token": tokenID, "until": until,
				"until_unix_ms": strconv.FormatInt(expires.UnixMilli(), 10), "text": what}})
	})
	if err != nil {
		return "", time.Time{}, err
	}
	return code, expires, nil
}

// IssueCode makes a one-time sign-in link for the token secret, made by
// its own holder (the demo's link, tests), and returns its code.
func (ss *Sessions) IssueCode(ctx context.Context, secret string) (string, error) {
	id, ok := ss.tokens.Lookup(secret)
	if !ok {
		return "", fmt.Errorf("%w: unknown or revoked token", hallerr.ErrUnauthenticated)
	}
	code, _, err := ss.IssueLink(ctx, id.TokenID, id.Actor())
	return code, err
}

// Link says who a sign-in link's code signs in as and until when, without
// spending it; a code that is unknown, used, expired or whose token was
// revoked is refused, all alike.
func (ss *Sessions) Link(ctx context.Context, code string) (*Identity, time.Time, error) {
	code = strings.TrimSpace(code)
	if !strings.HasPrefix(code, codePrefix) {
		return nil, time.Time{}, signInError()
	}
	l, err := ss.store.SignInLinkByHash(ctx, hashOf(code))
	if errors.Is(err, storage.ErrNotFound) {
		return nil, time.Time{}, signInError()
	}
	if err != nil {
		return nil, time.Time{}, err
	}
	id, ok := ss.tokens.LookupID(l.TokenID)
	if !ok || !l.Used.IsZero() || !ss.now().Before(l.Expires) {
		return nil, time.Time{}, signInError()
	}
	return id, l.Expires, nil
}

// zoneOrUTC is the hall's time zone, UTC if none was set.
func (ss *Sessions) zoneOrUTC() *time.Location {
	if ss.zone == nil {
		return time.UTC
	}
	return ss.zone
}

// SameOrigin refuses a request whose Origin, when a browser sends one, is
// not this server: a one-time link's button (sign-in, a tablet's
// enrolment) is pressed on the hall's own page.
func SameOrigin(r *http.Request) error { return sameOrigin(r) }
