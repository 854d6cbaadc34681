package gateway_test

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/server/gateway"
)

// A watch request that is not protobuf is the caller's fault at a gateway
// too: INVALID_ARGUMENT, not INTERNAL.
func TestGatewayRefusesJunkAsInvalidArgument(t *testing.T) {
	t.Parallel()
	g := startGateway(t, startNATS(t).URL(), gateway.Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	s, err := g.Conn.NewStream(ctx, &grpc.StreamDesc{ServerStreams: true}, "/hall.v1.Watch/WatchHall", grpc.ForceCodecV2(halltest.RawCodec{}))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.SendMsg([]byte{0x0a, 0x05, 'a'}); err != nil && !errors.Is(err, io.EOF) {
		t.Fatal(err)
	}
	_ = s.CloseSend()
	var out []byte
	for err == nil {
		err = s.RecvMsg(&out)
	}
	if status.Code(err) != codes.InvalidArgument || !strings.Contains(status.Convert(err).Message(), "hall.v1.WatchHallRequest") {
		t.Errorf("WatchHall with junk ended with %v; want INVALID_ARGUMENT naming hall.v1.WatchHallRequest", err)
	}
}
