package hallerr_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/encoding"
	"google.golang.org/grpc/mem"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/server/hallerr"
)

// decodeAndCheck decodes b as a GetBoardRequest through the check's codec
// and returns the message and what the unary door says of it.
func decodeAndCheck(t *testing.T, d *hallerr.DecodeCheck, b []byte) (*pb.GetBoardRequest, error) {
	t.Helper()
	var req pb.GetBoardRequest
	if err := d.Codec().Unmarshal(mem.BufferSlice{mem.SliceBuffer(b)}, &req); err != nil {
		t.Fatalf("the codec failed (grpc-go would answer INTERNAL): %v", err)
	}
	_, err := d.UnaryServerInterceptor()(context.Background(), &req, &grpc.UnaryServerInfo{}, func(context.Context, any) (any, error) { return "handled", nil })
	return &req, err
}

func TestDecodeCheck(t *testing.T) {
	d := hallerr.NewDecodeCheck(encoding.GetCodecV2("proto"))

	// Junk: refused as the caller's fault, naming the type; the handler
	// never runs, and the message holds nothing of the junk.
	req, err := decodeAndCheck(t, d, []byte{0x0a, 0x05, 'b'})
	if !errors.Is(err, hallerr.ErrBadRequest) || !strings.Contains(err.Error(), "hall.v1.GetBoardRequest") {
		t.Errorf("junk: %v; want a bad request naming hall.v1.GetBoardRequest", err)
	}
	if req.GetBoardId() != "" {
		t.Errorf("junk left board_id %q in the message", req.GetBoardId())
	}

	// A good message passes.
	good, _ := proto.Marshal(&pb.GetBoardRequest{BoardId: "b-1"})
	if req, err := decodeAndCheck(t, d, good); err != nil || req.GetBoardId() != "b-1" {
		t.Errorf("a good message: %v, %v; want it handled as sent", req, err)
	}

	// A client cannot forge the mark: the field with another key is an
	// unknown field like any other.
	forged := protowire.AppendTag(append([]byte(nil), good...), protowire.MaxValidNumber, protowire.BytesType)
	forged = protowire.AppendBytes(forged, []byte("0123456789abcdefforged"))
	if req, err := decodeAndCheck(t, d, forged); err != nil || req.GetBoardId() != "b-1" {
		t.Errorf("a message with a forged mark: %v, %v; want it handled as sent", req, err)
	}

	// Each check has its own key: another's mark is not this one's.
	other := hallerr.NewDecodeCheck(encoding.GetCodecV2("proto"))
	var marked pb.GetBoardRequest
	if err := other.Codec().Unmarshal(mem.BufferSlice{mem.SliceBuffer([]byte{0xff})}, &marked); err != nil {
		t.Fatal(err)
	}
	b, _ := proto.Marshal(&marked)
	if _, err := decodeAndCheck(t, d, b); err != nil {
		t.Errorf("another process's mark: %v; want it an unknown field", err)
	}
}

// A message over its type's limit is refused for its size, naming the
// limit, and never decoded: the handler does not run and the message
// holds nothing of it. Another type keeps its own limit.
func TestDecodeCheckRefusesLargeMessagesBeforeDecoding(t *testing.T) {
	d := hallerr.NewDecodeCheck(encoding.GetCodecV2("proto")).WithLimit(func(msg any) int {
		if _, ok := msg.(*pb.ImportRoundRequest); ok {
			return 1 << 20
		}
		return 100
	}, "; only ImportRound takes more")
	big, _ := proto.Marshal(&pb.GetBoardRequest{BoardId: strings.Repeat("b", 200)})
	req, err := decodeAndCheck(t, d, big)
	if !errors.Is(err, hallerr.ErrTooLarge) || !strings.Contains(err.Error(), "at most 100 bytes") || !strings.Contains(err.Error(), "only ImportRound") {
		t.Errorf("a GetBoardRequest of %d bytes: %v; want ErrTooLarge naming the limit of 100 bytes", len(big), err)
	}
	if req.GetBoardId() != "" {
		t.Errorf("the refused message was decoded: board_id %q", req.GetBoardId())
	}
	if code := status.Code((hallerr.Codes{}).Status(err)); code != codes.ResourceExhausted {
		t.Errorf("a message too large is %v; want ResourceExhausted", code)
	}
	if st, _, _ := (hallerr.Codes{}).HTTP(err); st != http.StatusRequestEntityTooLarge {
		t.Errorf("a message too large is HTTP %d; want 413", st)
	}
	var imp pb.ImportRoundRequest
	if err := d.Codec().Unmarshal(mem.BufferSlice{mem.SliceBuffer(big)}, &imp); err != nil {
		t.Fatal(err)
	}
	if _, err := d.UnaryServerInterceptor()(context.Background(), &imp, &grpc.UnaryServerInfo{}, func(context.Context, any) (any, error) { return nil, nil }); errors.Is(err, hallerr.ErrTooLarge) {
		t.Errorf("an ImportRoundRequest of %d bytes under its own limit: %v", len(big), err)
	}
}
