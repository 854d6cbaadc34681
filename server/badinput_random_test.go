package server_test

import (
	"context"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
	"github.com/chesshall/hallclock/internal/testkit/longtest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// randomize fills some of m's fields with values chosen to break things:
// empty, long and control-character strings, the hall's own ids, extreme
// numbers, NaN and infinities, unknown enum values.
// Each field is touched with probability p.
func randomize(r *rand.Rand, m protoreflect.Message, depth int, ids []string, p float64) {
	fields := m.Descriptor().Fields()
	for i := 0; i < fields.Len(); i++ {
		fd := fields.Get(i)
		if r.Float64() >= p && !(fd.Kind() == protoreflect.MessageKind && m.Has(fd)) {
			continue
		}
		if fd.IsMap() {
			continue
		}
		if fd.IsList() {
			l := m.Mutable(fd).List()
			for n := r.IntN(3); n > 0; n-- {
				if fd.Kind() == protoreflect.MessageKind {
					if depth > 3 {
						break
					}
					e := l.NewElement()
					randomize(r, e.Message(), depth+1, ids, p)
					l.Append(e)
				} else {
					l.Append(randValue(r, fd, ids))
				}
			}
			continue
		}
		if fd.Kind() == protoreflect.MessageKind {
			if depth > 3 {
				continue
			}
			randomize(r, m.Mutable(fd).Message(), depth+1, ids, p)
			continue
		}
		if fd.ContainingOneof() != nil && r.IntN(2) == 0 {
			continue
		}
		m.Set(fd, randValue(r, fd, ids))
	}
}

func randValue(r *rand.Rand, fd protoreflect.FieldDescriptor, ids []string) protoreflect.Value {
	ints := []int64{0, 1, -1, 2, 5, 40, 1000, 60000, math.MaxInt32, math.MinInt32, math.MaxInt64, math.MinInt64, 1 << 40}
	switch fd.Kind() {
	case protoreflect.StringKind:
		opts := append([]string{"", "x", strings.Repeat("a", 70), strings.Repeat("é", 201), "\x00", "180+2", "3m+2s", "1-0", "0-0", "fide-2023", "8/8/8/8/8/8/8/8 w - - 0 1", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "e4", "A", "Open"}, ids...)
		return protoreflect.ValueOfString(opts[r.IntN(len(opts))])
	case protoreflect.BytesKind:
		opts := [][]byte{nil, []byte("garbage"), []byte("012 Open\n001    1 m    x                                 1000 FRA     1234567 1990/01/01  0.0    1\n"), []byte("Board,White,Black\n1,A,B\n")}
		return protoreflect.ValueOfBytes(opts[r.IntN(len(opts))])
	case protoreflect.BoolKind:
		return protoreflect.ValueOfBool(r.IntN(2) == 0)
	case protoreflect.EnumKind:
		return protoreflect.ValueOfEnum(protoreflect.EnumNumber(r.IntN(12) - 1))
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		return protoreflect.ValueOfInt32(int32(ints[r.IntN(len(ints))]))
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		return protoreflect.ValueOfInt64(ints[r.IntN(len(ints))])
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		return protoreflect.ValueOfUint32(uint32(ints[r.IntN(len(ints))]))
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		return protoreflect.ValueOfUint64(uint64(ints[r.IntN(len(ints))]))
	case protoreflect.DoubleKind:
		fs := []float64{0, 1, 0.5, -3, math.NaN(), math.Inf(1), 1e300}
		return protoreflect.ValueOfFloat64(fs[r.IntN(len(fs))])
	case protoreflect.FloatKind:
		return protoreflect.ValueOfFloat32(float32(r.Float64()))
	}
	panic(fd.Kind().String())
}

// Bad input as an attacker tries it: thousands of Arbiter calls with
// random fields (lengths, control characters, the hall's ids where others
// belong, extreme numbers, NaN, unknown enums) are answered with the
// caller's fault or a refusal, never INTERNAL or UNKNOWN (the server's).
// Invalid UTF-8 is left out: the Go client refuses to send it.
func TestRandomArbiterCallsAreNeverInternal(t *testing.T) {
	t.Parallel()
	h := halltest.Start(t)
	bs := h.Round(t, "180+2", 2)
	arb, ctx := h.Arbiter(t)
	ids := []string{bs[0].GetBoardId(), bs[1].GetBoardId(), bs[0].GetRoundId(), bs[0].GetDeviceId(), bs[1].GetDeviceId()}
	rounds, _ := arb.ListRounds(ctx, &pb.ListRoundsRequest{})
	for _, r := range rounds.GetRounds() {
		ids = append(ids, r.GetTournamentId(), r.GetTournamentName())
	}
	tc := func() *pb.ClockConfig {
		p := int64(120_000)
		return &pb.ClockConfig{Ruleset: "fide-2023", TimeControl: "40/90m+30s:30m+30s", Regulations: &pb.Regulations{
			QuickplayFinish: true, IllegalMovePenaltyMs: &p, Scoring: &pb.Scoring{Win: 3, Draw: 1}}}
	}
	player := func(n string) *pb.Player { return &pb.Player{Name: n, Rating: 2100, FideId: "1234"} }
	board, round := bs[0].GetBoardId(), bs[0].GetRoundId()
	valid := map[string][]proto.Message{
		"CreateTournament": {&pb.CreateTournamentRequest{Name: "Spring", DefaultConfig: tc()}},
		"CreateRound":      {&pb.CreateRoundRequest{TournamentId: rounds.GetRounds()[0].GetTournamentId(), Number: 2, Config: tc()}},
		"AddBoard":         {&pb.AddBoardRequest{RoundId: round, Number: 7, Section: "A", White: player("W"), Black: player("B"), Config: tc()}},
		"BoardAction": {
			&pb.BoardActionRequest{BoardId: board, WaitMs: -1, Action: &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_ADD_TIME, Side: pb.Side_SIDE_WHITE, Ms: 60_000}},
			&pb.BoardActionRequest{BoardId: board, WaitMs: -1, Action: &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_SET_CLOCK, WhiteMs: 1000, BlackMs: 2000}},
			&pb.BoardActionRequest{BoardId: board, WaitMs: -1, Action: &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_RESULT, Result: "1-0"}},
			&pb.BoardActionRequest{BoardId: board, WaitMs: -1, Action: &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_POSITION, Fen: "8/8/8/4k3/8/8/8/4K3 w - - 0 1"}},
		},
		"ImportRound": {&pb.ImportRoundRequest{Tournament: rounds.GetRounds()[0].GetTournamentName(), Number: 3,
			Content: []byte("Board,White,Black\n1,Ann,Bob\n2,Cid,Dan\n")}},
		"SetPlan":    {&pb.SetPlanRequest{Tables: []*pb.PlanTable{{Table: 1, DeviceId: "CLK-9"}}}},
		"AuditLog":   {&pb.AuditLogRequest{BoardId: board, Limit: 10}},
		"ListBoards": {&pb.ListBoardsRequest{RoundId: round}},
	}
	v := reflect.ValueOf(arb)
	r := rand.New(rand.NewPCG(7, 8))
	seen := map[string]int{}
	calls := longtest.Scale(600, 3000)
	if testing.Short() {
		calls = 300
	}
	for i := range calls {
		mi := r.IntN(v.NumMethod())
		meth := v.Type().Method(mi)
		if meth.Type.NumIn() != 4 || meth.Name == "IssueToken" && i%5 != 0 {
			continue
		}
		req := reflect.New(meth.Type.In(2).Elem()).Interface().(proto.Message)
		if seed := valid[meth.Name]; seed != nil && r.IntN(2) == 0 {
			// A good request with a field or two gone wrong.
			req = proto.Clone(seed[r.IntN(len(seed))])
			randomize(r, req.ProtoReflect(), 0, ids, 0.15)
		} else {
			randomize(r, req.ProtoReflect(), 0, ids, 0.66)
		}
		c, cancel := context.WithTimeout(ctx, 3*time.Second)
		out := v.Method(mi).Call([]reflect.Value{reflect.ValueOf(c), reflect.ValueOf(req)})
		cancel()
		if e, _ := out[1].Interface().(error); e != nil {
			if status.Code(e) == codes.Internal || status.Code(e) == codes.Unknown {
				k := meth.Name + ": " + status.Convert(e).Message()
				if seen[k] == 0 {
					t.Errorf("%s(%v) = %v", meth.Name, req, e)
				}
				seen[k]++
			}
		}
	}
}
