package arbiter

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/server/auth"
	"github.com/chesshall/hallclock/server/hallerr"
)

// The Arbiter service for the web pages.
//
//	POST /api/arbiter/{Method}    body: the request in protojson ("" is {})
//
// calls the Arbiter method of that name (BoardAction, ListBoards,
// AuditLog, AssignDevice, ...) as the caller of the request — the session
// of a signed-in browser (with its CSRF token), or a bearer token — and
// answers its response in protojson. It is not a second set of handlers:
// the call goes through the generated service descriptor to the same
// method the gRPC door calls, after the same role table (methodRoles) and
// the same validation, and errors map through the hall's one table
// (hallerr.Codes) to the HTTP status of their gRPC code, as {"code": "PermissionDenied", "message": "..."}.
// So the page may do exactly what its token may do over gRPC, no more.
// The response carries the server's clock (X-Server-Unix-Ms), which the
// page uses to extrapolate running clocks.

// maxArbiterBody bounds a request body. An imported round's files are
// the largest: at their limit (MaxImportBytes), in base64 as protojson
// writes bytes, with room for the rest of the request — so that a file
// too large reaches ImportRound, which says how large it is and what it
// takes.
const maxArbiterBody = pb.MaxImportBytes/3*4 + 1<<20

// maxSmallBody bounds the body of any other method's request.
const maxSmallBody = 1 << 20

// importMethod is the one method whose body may be maxArbiterBody; it
// holds maxArbiterBody and its files decoded in the budget of bodies
// (Options.Bodies) while it is read and run.
const (
	importMethod = "ImportRound"
	importRoom   = maxArbiterBody + pb.MaxImportBytes
)

var arbiterMethods = func() map[string]grpc.MethodDesc {
	m := map[string]grpc.MethodDesc{}
	for _, d := range pb.Arbiter_ServiceDesc.Methods {
		m[d.MethodName] = d
	}
	return m
}()

func (s *Service) serveJSON(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("method")
	desc, ok := arbiterMethods[name]
	if !ok {
		s.codes.WriteJSON(w, fmt.Errorf("%w: the Arbiter service has no method %q", hallerr.ErrUnknownMethod, name))
		return
	}
	full := "/" + pb.Arbiter_ServiceDesc.ServiceName + "/" + name
	id, err := s.sessions.WebIdentity(r, auth.RoleChief, auth.RoleArbiter, auth.RoleBroadcast, auth.RoleAssistant)
	if err == nil {
		err = auth.MayCall(id, full)
	}
	if err != nil {
		s.codes.WriteJSON(w, err)
		return
	}
	// The caller is known and may call the method: only now is the body
	// read, at most what the method takes.
	most := int64(maxSmallBody)
	if name == importMethod {
		most = maxArbiterBody
		if b := s.opts.Bodies; b != nil {
			if !b.TryAcquire(importRoom) {
				s.codes.WriteJSON(w, fmt.Errorf("%w: the hall is reading as many imports as its memory budget holds; try again in a moment", hallerr.ErrBodiesBusy))
				return
			}
			defer b.Release(importRoom)
		}
	}
	if r.ContentLength > most {
		s.codes.WriteJSON(w, tooLarge(name, r.ContentLength, most))
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, most))
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		s.codes.WriteJSON(w, tooLarge(name, -1, most))
		return
	}
	if err != nil {
		s.codes.WriteJSON(w, hallerr.BadRequest("request body: %v", err))
		return
	}
	if len(body) == 0 {
		body = []byte("{}")
	}
	dec := func(m any) error {
		if err := protojson.Unmarshal(body, m.(proto.Message)); err != nil {
			return hallerr.BadRequest("%s request: %v", name, err)
		}
		// The door's validation, as over gRPC.
		if v, ok := m.(interface{ Validate() error }); ok {
			if err := v.Validate(); err != nil {
				return hallerr.Invalid(err)
			}
		}
		return nil
	}
	ctx := auth.WithIdentity(r.Context(), id)
	resp, err := s.callArbiter(ctx, desc, dec)
	if err != nil {
		s.codes.WriteJSON(w, err)
		return
	}
	b, err := protojson.Marshal(resp.(proto.Message))
	if err != nil {
		s.codes.WriteJSON(w, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Server-Unix-Ms", strconv.FormatInt(s.clock.Now().UnixMilli(), 10))
	_, _ = w.Write(b)
}

// tooLarge is the refusal of a body over the method's limit (n < 0: not
// known, it was cut).
func tooLarge(method string, n, most int64) error {
	size := "larger than that"
	if n >= 0 {
		size = pb.Bytes(int(n))
	}
	return fmt.Errorf("%w: the body of a %s request is %s; it takes at most %s (only ImportRound takes more: up to %s, its files at most %s)",
		hallerr.ErrTooLarge, method, size, pb.Bytes(int(most)), pb.Bytes(maxArbiterBody), pb.Bytes(pb.MaxImportBytes))
}

// callArbiter runs one Arbiter method through its generated handler, with
// the door's validation, turning a panic into an internal error as the
// gRPC door's recovery does.
func (s *Service) callArbiter(ctx context.Context, desc grpc.MethodDesc, dec func(any) error) (resp any, err error) {
	defer func() {
		if p := recover(); p != nil {
			s.log.Error("panic in handler", "method", desc.MethodName, "panic", p)
			resp, err = nil, status.Error(codes.Internal, fmt.Sprintf("internal error: %v", p))
		}
	}()
	return desc.Handler(s, ctx, dec, nil)
}
