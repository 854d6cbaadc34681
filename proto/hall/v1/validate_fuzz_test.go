package hallv1

import (
	"errors"
	"testing"
	"unicode/utf8"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// validators are the messages the server's door validates.
func validators() []proto.Message {
	return []proto.Message{
		&CreateTournamentRequest{}, &CreateRoundRequest{}, &AddBoardRequest{}, &AssignDeviceRequest{},
		&SwapDevicesRequest{}, &UseVirtualClockRequest{}, &StartRoundRequest{}, &BoardActionRequest{},
		&ListBoardsRequest{}, &GetBoardRequest{}, &AuditLogRequest{}, &IssueTokenRequest{}, &RevokeTokenRequest{},
		&WatchBoardRequest{}, &WatchRoundRequest{}, &WatchHallRequest{}, &DeviceMessage{},
		&ListRoundsRequest{}, &GetRoundRequest{}, &ExportRoundRequest{}, &ImportRoundRequest{}, &SetPlanRequest{},
		&GetPlanRequest{}, &SetBroadcastRequest{}, &ListBroadcastsRequest{},
	}
}

// FuzzValidate: any bytes, read as each request of the contract. Validate
// never panics; it refuses with a *FieldError naming a field; what it
// accepts has no string longer than the longest limit nor invalid UTF-8,
// and is accepted again after a round trip through the wire.
func FuzzValidate(f *testing.F) {
	for _, m := range []proto.Message{
		&BoardActionRequest{BoardId: "b-1", Action: &ClockAction{Kind: ActionKind_ACTION_KIND_ADD_TIME, Side: Side_SIDE_BLACK, Ms: 60000}},
		&CreateTournamentRequest{Name: "Open", DefaultConfig: &ClockConfig{TimeControl: "5400+30", Regulations: &Regulations{Scoring: &Scoring{Win: 3, Draw: 1}}}},
		&DeviceMessage{Msg: &DeviceMessage_Heartbeat{Heartbeat: &Heartbeat{DeviceMs: 1, DriftPpm: 12.5, BatteryPct: 80}}},
		&DeviceMessage{Msg: &DeviceMessage_Hello{Hello: &Hello{DeviceId: "CLK-1", Firmware: "1.0", Clock: &DeviceClock{BoardId: "b-1"}}}},
		&DeviceMessage{Msg: &DeviceMessage_Hello{Hello: &Hello{DeviceId: "CLK-2", Capabilities: &DeviceCapabilities{Announce: true, Languages: []string{"en", "de"}}}}},
		&AddBoardRequest{RoundId: "r-1", Number: 1, White: &Player{Name: "A"}, Black: &Player{Name: "B"},
			Config: &ClockConfig{BlindPlay: &BlindPlay{White: &BlindPlayer{VisuallyDisabled: true, Assistant: true, Language: "ru"}}}},
		&AuditLogRequest{BoardId: "b-1", AfterSeq: 1 << 63},
		&ExportRoundRequest{Tournament: "Open", Number: 5, Format: 7},
		&SetPlanRequest{Tables: []*PlanTable{{Table: 0, DeviceId: "CLK-1"}}},
	} {
		b, _ := proto.Marshal(m)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, m := range validators() {
			if proto.Unmarshal(data, m) != nil {
				continue
			}
			v := m.(interface{ Validate() error })
			err := v.Validate()
			if err != nil {
				var fe *FieldError
				if !errors.As(err, &fe) || fe.Field == "" {
					t.Fatalf("%T.Validate() = %v, want a *FieldError naming the field", m, err)
				}
				continue
			}
			if dm, ok := m.(*DeviceMessage); ok && dm.GetEvent() != nil {
				// An event's content is judged once its number is
				// accepted (refused and acknowledged, not a stream error).
				if dm.GetEvent().ValidateContent() != nil {
					continue
				}
			}
			checkStrings(t, m.ProtoReflect())
			b, err := proto.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			again := m.ProtoReflect().New().Interface()
			if err := proto.Unmarshal(b, again); err != nil {
				t.Fatal(err)
			}
			if err := again.(interface{ Validate() error }).Validate(); err != nil {
				t.Fatalf("%T accepted, then refused after a round trip: %v", m, err)
			}
		}
	})
}

// checkStrings fails on a string field of an accepted message that is not
// UTF-8 or longer than any limit.
func checkStrings(t *testing.T, m protoreflect.Message) {
	t.Helper()
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.IsList():
			l := v.List()
			for i := 0; i < l.Len(); i++ {
				checkValue(t, fd, l.Get(i))
			}
		case fd.IsMap():
		default:
			checkValue(t, fd, v)
		}
		return true
	})
}

func checkValue(t *testing.T, fd protoreflect.FieldDescriptor, v protoreflect.Value) {
	t.Helper()
	switch fd.Kind() {
	case protoreflect.StringKind:
		s := v.String()
		if !utf8.ValidString(s) || utf8.RuneCountInString(s) > MaxText {
			t.Fatalf("field %s accepted with %q", fd.FullName(), s)
		}
	case protoreflect.MessageKind:
		checkStrings(t, v.Message())
	}
}
