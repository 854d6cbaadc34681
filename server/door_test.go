package server_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/server"
)

// headersOnly opens a call to a unary method and sends its headers but
// never its request: a call the door can only judge on its headers.
func headersOnly(ctx context.Context, t *testing.T, conn *grpc.ClientConn, method, token string) grpc.ClientStream {
	t.Helper()
	s, err := conn.NewStream(halltest.Ctx(ctx, token), &grpc.StreamDesc{}, method, grpc.ForceCodecV2(halltest.RawCodec{}))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// answer waits for the server's answer to a call opened by headersOnly.
func answer(s grpc.ClientStream) codes.Code {
	var out []byte
	return status.Code(s.RecvMsg(&out))
}

// A call with a made-up token, or to a method its role may not call, is
// refused on its headers: the hall answers before the request is sent,
// and a made-up token with 10 MiB of junk is Unauthenticated, not a
// decoding error (the junk was once decoded before the token was read).
func TestCallDoorRefusesOnHeadersBeforeTheBody(t *testing.T) {
	h := halltest.Start(t)
	conn := h.Conn(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	broadcast := h.Token(t, pb.Role_ROLE_BROADCAST, "feed", "")
	for _, c := range []struct {
		method, token string
		want          codes.Code
	}{
		{"/hall.v1.Arbiter/GetBoard", "hc_made-up", codes.Unauthenticated},
		{"/hall.v1.Arbiter/ImportRound", "hc_made-up", codes.Unauthenticated},
		{"/hall.v1.ClockLink/Connect", "", codes.Unauthenticated},
		{"/hall.v1.Arbiter/ImportRound", broadcast, codes.PermissionDenied},
	} {
		if got := answer(headersOnly(ctx, t, conn, c.method, c.token)); got != c.want {
			t.Errorf("%s with token %q, request never sent: %v; want %v on the headers alone", c.method, c.token, got, c.want)
		}
	}

	junk := bytes.Repeat([]byte{0xff}, 10<<20)
	var out []byte
	err := conn.Invoke(halltest.Ctx(ctx, "hc_made-up"), "/hall.v1.Arbiter/ImportRound", junk, &out, grpc.ForceCodecV2(halltest.RawCodec{}))
	if status.Code(err) != codes.Unauthenticated {
		t.Errorf("10 MiB of junk with a made-up token: %v; want Unauthenticated", err)
	}
}

// Every request but an import is at most server.SmallRequestBytes,
// refused for its size (naming the limit) before it is decoded, even from
// a token that may call it; an import from the chief takes more.
func TestCallDoorLimitsEachMethodsRequest(t *testing.T) {
	h := halltest.Start(t)
	arb, ctx := h.Arbiter(t)
	_, err := arb.GetBoard(ctx, &pb.GetBoardRequest{BoardId: strings.Repeat("b", 2<<20)})
	if status.Code(err) != codes.ResourceExhausted || !strings.Contains(err.Error(), pb.Bytes(server.SmallRequestBytes)) {
		t.Errorf("a GetBoard of 2 MiB: %v; want ResourceExhausted naming the limit of %s", err, pb.Bytes(server.SmallRequestBytes))
	}
	// A file of 3 MiB that is not a round's: read, and refused for what
	// it is, not for its size.
	_, err = arb.ImportRound(ctx, &pb.ImportRoundRequest{Tournament: "Big", Format: pb.ImportFormat_IMPORT_FORMAT_CSV,
		Content: bytes.Repeat([]byte("x"), 3<<20)})
	if status.Code(err) != codes.InvalidArgument {
		t.Errorf("an import of 3 MiB: %v; want it read and refused for its content (imports take up to %s)", err, pb.Bytes(server.MaxRequestBytes))
	}
}

// Imports being read hold their room in the budget of request bodies
// until they end: one more than it holds is refused ResourceExhausted on
// its headers, and is taken again once one ends.
func TestCallDoorBudgetOfImports(t *testing.T) {
	h := halltest.Start(t, halltest.WithOptions(server.Options{BodyBudget: 1})) // the least: two imports
	conn := h.Conn(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	first, cancelFirst := context.WithCancel(ctx)
	held := []grpc.ClientStream{
		headersOnly(first, t, conn, "/hall.v1.Arbiter/ImportRound", h.Chief),
		headersOnly(ctx, t, conn, "/hall.v1.Arbiter/ImportRound", h.Chief),
	}
	// One connection: the server reads the headers in order, so the third
	// is judged after the two above took their room.
	third := headersOnly(ctx, t, conn, "/hall.v1.Arbiter/ImportRound", h.Chief)
	if got := answer(third); got != codes.ResourceExhausted {
		t.Fatalf("a third import while two are read under a budget of two: %v; want ResourceExhausted", got)
	}
	// A small call is not held by the budget.
	arb, actx := h.Arbiter(t)
	if _, err := arb.ListTournaments(actx, &pb.ListTournamentsRequest{}); err != nil {
		t.Errorf("ListTournaments while the budget is spent: %v", err)
	}
	cancelFirst()
	halltest.Eventually(t, 10*time.Second, func() error {
		s := headersOnly(ctx, t, conn, "/hall.v1.Arbiter/ImportRound", h.Chief)
		if err := s.SendMsg([]byte{}); err != nil {
			return err
		}
		if err := s.CloseSend(); err != nil {
			return err
		}
		if got := answer(s); got == codes.ResourceExhausted {
			return fmt.Errorf("an import after one ended: %v", got)
		}
		return nil
	})
	_ = held
}

// The web pages' bridge reads a body only for a caller who may call the
// method, and at most what the method takes: 1 MiB, an import's files
// aside. A body declared larger is refused 413 on its headers, before a
// byte of it is read; one that turns out larger is cut at the limit.
func TestBridgeLimitsEachMethodsBody(t *testing.T) {
	h := halltest.Start(t)
	w := newWeb(t, h)
	bearer := map[string]string{"Authorization": "Bearer " + h.Chief}
	st, body := w.call("GetBoard", fmt.Sprintf(`{"board_id":%q}`, strings.Repeat("b", 2<<20)), bearer)
	if st != http.StatusRequestEntityTooLarge || !strings.Contains(body, "at most 1,048,576 bytes") {
		t.Errorf("a GetBoard body of 2 MiB: %d %.300s; want 413 naming the limit of 1,048,576 bytes", st, body)
	}

	// A body declared 12 MiB of which the caller sends 64 KiB and waits:
	// answered on the headers, for a made-up token and for a method that
	// takes 1 MiB alike.
	for _, c := range []struct {
		method, token string
		want          int
	}{
		{"ImportRound", "hc_made-up", http.StatusUnauthorized},
		{"GetBoard", h.Chief, http.StatusRequestEntityTooLarge},
	} {
		pr, pw := io.Pipe()
		go func() { _, _ = pw.Write(make([]byte, 64<<10)) }() // then nothing, until the answer
		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
		context.AfterFunc(ctx, func() { pw.CloseWithError(ctx.Err()) }) // the client's writer stops waiting
		req, _ := http.NewRequestWithContext(ctx, "POST", w.base+"/api/arbiter/"+c.method, pr)
		req.ContentLength = 12 << 20
		req.Header.Set("Authorization", "Bearer "+c.token)
		req.Header.Set("Content-Type", "application/json")
		resp, err := w.client.Do(req)
		if err != nil {
			t.Errorf("%s, a body declared 12 MiB, 64 KiB sent: %v; want %d before the rest is sent", c.method, err, c.want)
		} else {
			if resp.StatusCode != c.want {
				t.Errorf("%s, a body declared 12 MiB: %d; want %d", c.method, resp.StatusCode, c.want)
			}
			resp.Body.Close()
		}
		cancel()
		pw.Close()
	}
}

// A method the hall does not serve is UNIMPLEMENTED, as gRPC says of it,
// with or without a token (and never read): not a refusal of the token.
func TestCallDoorUnknownMethodIsUnimplemented(t *testing.T) {
	h := halltest.Start(t)
	conn := h.Conn(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for _, token := range []string{h.Chief, "hc_made-up"} {
		if got := answer(headersOnly(ctx, t, conn, "/hall.v1.Arbiter/NoSuchMethod", token)); got != codes.Unimplemented {
			t.Errorf("an unknown method with token %.8s...: %v; want Unimplemented", token, got)
		}
	}
}
