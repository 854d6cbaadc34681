package auth

import (
	"context"
	"fmt"
	"sync"

	"google.golang.org/grpc"

	"github.com/chesshall/hallclock/server/hallerr"
)

// Streams are the open streams of each token. They cost the server memory
// and a goroutine or two for as long as they are open, so a token may
// hold only so many at once (Acquire: a clock needs one, briefly two while
// it reconnects; a dashboard a few); and revoking a token ends them all at
// once (Track, Cut), however they are served (gRPC, server-sent events).
type Streams struct {
	perToken, perDevice int // the limits: any token, a device's token

	mu    sync.Mutex
	open  map[string]int // token id → open streams
	total int            // all tokens' open streams
	cuts  map[string]map[*func()]bool
}

// NewStreams returns the streams of a server whose tokens may each hold
// perToken streams at once, a device's perDevice.
func NewStreams(perToken, perDevice int) *Streams {
	return &Streams{perToken: perToken, perDevice: perDevice, open: map[string]int{}, cuts: map[string]map[*func()]bool{}}
}

// Open is how many counted streams are open now.
func (sl *Streams) Open() uint64 {
	sl.mu.Lock()
	defer sl.mu.Unlock()
	return uint64(sl.total)
}

// Acquire takes a slot for a stream of id, or fails with
// hallerr.ErrTooManyStreams; release gives it back (once, however often
// it is called).
func (sl *Streams) Acquire(id *Identity) (release func(), err error) {
	limit := sl.perToken
	if id.Role == RoleDevice {
		limit = sl.perDevice
	}
	sl.mu.Lock()
	defer sl.mu.Unlock()
	if n := sl.open[id.TokenID]; n >= limit {
		return nil, fmt.Errorf("%w: token %s (%s) has %d streams open, at most %d are allowed; close one first",
			hallerr.ErrTooManyStreams, id.TokenID, id.Role, n, limit)
	}
	sl.open[id.TokenID]++
	sl.total++
	var once sync.Once
	return func() {
		once.Do(func() {
			sl.mu.Lock()
			sl.total--
			if sl.open[id.TokenID]--; sl.open[id.TokenID] <= 0 {
				delete(sl.open, id.TokenID)
			}
			sl.mu.Unlock()
		})
	}, nil
}

// StreamServerInterceptor is the door's stream limit, after auth (health
// and reflection streams carry no identity and are not counted).
func (sl *Streams) StreamServerInterceptor() grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, _ *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		id := IdentityFrom(ss.Context())
		if id == nil {
			return handler(srv, ss)
		}
		release, err := sl.Acquire(id)
		if err != nil {
			return err
		}
		defer release()
		return handler(srv, ss)
	}
}

// Track registers cut, the way to end an open stream of a token, so that
// revoking the token (Cut) ends it; untrack unregisters it.
func (sl *Streams) Track(tokenID string, cut func()) (untrack func()) {
	key := &cut
	sl.mu.Lock()
	if sl.cuts[tokenID] == nil {
		sl.cuts[tokenID] = map[*func()]bool{}
	}
	sl.cuts[tokenID][key] = true
	sl.mu.Unlock()
	return func() {
		sl.mu.Lock()
		delete(sl.cuts[tokenID], key)
		if len(sl.cuts[tokenID]) == 0 {
			delete(sl.cuts, tokenID)
		}
		sl.mu.Unlock()
	}
}

// TrackContext makes *ctx end when the token is revoked or done ends (the
// server shuts down); the returned func releases it.
func (sl *Streams) TrackContext(done context.Context, tokenID string, ctx *context.Context) (release func()) {
	c, cancel := context.WithCancel(*ctx)
	*ctx = c
	untrack := sl.Track(tokenID, cancel)
	stop := context.AfterFunc(done, cancel)
	return func() { stop(); untrack(); cancel() }
}

// Cut ends every open stream of a revoked token.
func (sl *Streams) Cut(tokenID string) {
	sl.mu.Lock()
	var cuts []func()
	for k := range sl.cuts[tokenID] {
		cuts = append(cuts, *k)
	}
	sl.mu.Unlock()
	for _, c := range cuts {
		c()
	}
}
