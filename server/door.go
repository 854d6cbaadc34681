package server

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"google.golang.org/grpc"
	"google.golang.org/grpc/tap"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/server/auth"
	"github.com/chesshall/hallclock/server/hallerr"
)

// The gRPC door's first look at a call: its headers, before a byte of its
// request is read (grpc.InTapHandle). A flood of requests of 10 MiB with
// a made-up token once took the hall from 158 MB to 4 GB in seconds: each
// was read and decoded before the interceptors could refuse its token.
// Now:
//
//   - the call's token and role are checked on its headers (the same
//     Tokens.AuthenticateCall the interceptors run): a call without a
//     valid token, or to a method its role may not call, is refused
//     UNAUTHENTICATED or PERMISSION_DENIED and its body is never read;
//   - a call to a method that takes files (ImportRound, the chief's) holds
//     its request's room in the budget of request bodies (BodyBudget)
//     until it ends; when the budget is spent, the call is refused
//     RESOURCE_EXHAUSTED before it is read;
//   - every other request is at most SmallRequestBytes (a clock's
//     messages DeviceRequestBytes): a larger one is refused
//     RESOURCE_EXHAUSTED, naming the limit, before it is decoded
//     (hallerr.DecodeCheck.WithLimit).
//
// Health checks and reflection pass the first look without a token, as
// they pass the interceptors.

// SmallRequestBytes is the most a request may be, an import's and a
// clock's messages aside: a round's start of 10,000 boards is some
// 700 KB.
const SmallRequestBytes = 1 << 20

// DeviceRequestBytes is the most a clock's message may be: a Hello
// carries the events of up to MaxHeldBoards boards it holds.
const DeviceRequestBytes = 4 << 20

// DefaultBodyBudget is Options.BodyBudget's default: room for eleven
// imports at their limit read at once.
const DefaultBodyBudget = 256 << 20

// largeRequests are the methods that take files, and the room each call
// holds in the budget: its request as read, and its files decoded.
var largeRequests = map[string]int64{
	"/hall.v1.Arbiter/ImportRound": 2 * MaxRequestBytes,
}

// requestLimit is the most bytes a request of msg's type may be.
func requestLimit(msg any) int {
	switch msg.(type) {
	case *pb.ImportRoundRequest:
		return MaxRequestBytes
	case *pb.DeviceMessage:
		return DeviceRequestBytes
	}
	return SmallRequestBytes
}

// callDoor is the first look's state: the budget of bodies and what it
// refused.
type callDoor struct {
	tokens *auth.Tokens
	codes  hallerr.Codes
	budget int64
	bodies bodyBudget
	known  map[string]bool // the methods served: any other is answered UNIMPLEMENTED by gRPC, unread
	// refusals by reason, for /metrics
	unauthenticated, denied, busy atomic.Uint64
}

func newCallDoor(tokens *auth.Tokens, codes hallerr.Codes, budget int64) *callDoor {
	return &callDoor{tokens: tokens, codes: codes, budget: budget, bodies: bodyBudget{free: budget}}
}

// bodyBudget is a semaphore of bytes that never waits.
type bodyBudget struct {
	mu   sync.Mutex
	free int64
}

func (b *bodyBudget) TryAcquire(n int64) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if n > b.free {
		return false
	}
	b.free -= n
	return true
}

func (b *bodyBudget) Release(n int64) {
	b.mu.Lock()
	b.free += n
	b.mu.Unlock()
}

// serves records the methods g serves.
func (d *callDoor) serves(g *grpc.Server) {
	d.known = map[string]bool{}
	for name, info := range g.GetServiceInfo() {
		for _, m := range info.Methods {
			d.known["/"+name+"/"+m.Name] = true
		}
	}
}

// publicMethod reports whether method passes without a token: health
// checks and reflection (needsAuth's exceptions).
func publicMethod(method string) bool {
	return strings.HasPrefix(method, "/grpc.health.v1.Health/") || strings.HasPrefix(method, "/grpc.reflection.")
}

// tap is the grpc.InTapHandle: it runs on the connection's reading
// goroutine, so it never waits.
func (d *callDoor) tap(ctx context.Context, info *tap.Info) (context.Context, error) {
	if publicMethod(info.FullMethodName) || !d.known[info.FullMethodName] {
		return ctx, nil
	}
	ctx, err := d.tokens.AuthenticateCall(ctx, info.FullMethodName)
	if err != nil {
		d.count(err)
		return nil, d.codes.Status(err)
	}
	if n, ok := largeRequests[info.FullMethodName]; ok {
		if !d.bodies.TryAcquire(n) {
			d.busy.Add(1)
			return nil, d.codes.Status(fmt.Errorf("%w: the hall is reading as many large requests as its budget of %s holds (each takes %s); try again in a moment",
				hallerr.ErrBodiesBusy, pb.Bytes(int(d.budget)), pb.Bytes(int(n))))
		}
		// The call's context ends with the call, however it ends:
		// answered, cancelled, or cut before it reached a handler.
		context.AfterFunc(ctx, func() { d.bodies.Release(n) })
	}
	return ctx, nil
}

func (d *callDoor) count(err error) {
	if errors.Is(err, hallerr.ErrPermission) {
		d.denied.Add(1)
		return
	}
	d.unauthenticated.Add(1)
}
