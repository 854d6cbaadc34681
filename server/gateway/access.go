package gateway

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/chesshall/hallclock/internal/ident"
	"github.com/chesshall/hallclock/server/broadcast"
	"github.com/chesshall/hallclock/server/hallerr"
)

// Errors, mapped to gRPC codes (the interceptor) and HTTP statuses by the
// hall's own table: the same refusal reads the same on the hall and here.
var (
	errBadRequest = hallerr.ErrBadRequest
	errNotFound   = broadcast.ErrNotFound
	// refusals is the table without a store's kinds: a gateway has none.
	refusals hallerr.Codes
)

// viewerOf reads an Authorization header for a hall: no credentials is
// (false, nil), one of the hall's broadcast tokens (true, nil); anything
// else is refused, so that a mistyped or revoked token says so instead of
// showing only the public rounds.
func (g *Gateway) viewerOf(authorization string, h *hall) (bool, error) {
	if authorization == "" {
		return false, nil
	}
	token, ok := strings.CutPrefix(authorization, "Bearer ")
	if !ok || token == "" {
		return false, fmt.Errorf("%w: want Authorization: Bearer <broadcast token>", hallerr.ErrUnauthenticated)
	}
	if !h.token(ident.HashSecret(token)) {
		return false, fmt.Errorf("%w: not a broadcast token of hall %s (or revoked)", hallerr.ErrUnauthenticated, h.id)
	}
	return true, nil
}

// mayWatch checks that a viewer may watch a round of a hall ("" for the
// whole hall): a public round needs nothing, any other a broadcast token
// of the hall.
func (g *Gateway) mayWatch(authorization string, h *hall, roundID string) error {
	ok, err := g.viewerOf(authorization, h)
	if err != nil || ok {
		return err
	}
	h.mu.Lock()
	public := h.settings.AllPublic || (roundID != "" && h.rounds[roundID].Public)
	h.mu.Unlock()
	if public {
		return nil
	}
	if roundID == "" {
		return fmt.Errorf("%w: watching the whole of hall %s needs one of its broadcast tokens (Authorization: Bearer ...); its public rounds need none", hallerr.ErrUnauthenticated, h.id)
	}
	return fmt.Errorf("%w: round %s of hall %s is not public: send one of the hall's broadcast tokens (Authorization: Bearer ...)", hallerr.ErrUnauthenticated, roundID, h.id)
}

// credentialed says whether r shows a broadcast token of a hall the
// gateway follows (httpdoor: its connection is then trusted).
func (g *Gateway) credentialed(r *http.Request) bool {
	token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok || token == "" {
		return false
	}
	hash := ident.HashSecret(token)
	for _, h := range g.hallList() {
		if h.token(hash) {
			return true
		}
	}
	return false
}
