package hall

import (
	"encoding/json"
	"fmt"

	"google.golang.org/protobuf/encoding/protojson"

	"github.com/chesshall/hallclock/internal/wire"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
)

// ActionJSON is an action as the audit log and the commands table keep
// it: protojson (nil for none).
func ActionJSON(a *pb.ClockAction) json.RawMessage {
	if a == nil {
		return nil
	}
	b, err := protojson.Marshal(a)
	if err != nil {
		return nil
	}
	return b
}

// ActionText names an action briefly for the audit log: "press white",
// "add_time black +60000ms".
func ActionText(a *pb.ClockAction) string {
	e, err := wire.Event(a, false)
	if err != nil {
		return "invalid action"
	}
	s := e.Kind.String()
	if wire.NeedsSide(e.Kind) {
		s += " " + e.Side.String()
	}
	switch e.Kind {
	case rules.KindAddTime:
		s += fmt.Sprintf(" %+dms", e.Ms)
	case rules.KindSetClock:
		s += fmt.Sprintf(" white=%dms black=%dms", e.WhiteMs, e.BlackMs)
		if e.ToMove != nil {
			s += " " + e.ToMove.String() + " to move"
		}
	case rules.KindResult:
		s += " " + string(e.Result)
		if e.Unplayed {
			s += " unplayed (less than one move)"
		}
	case rules.KindQuickplayClaim:
		s += " " + e.Decision.String()
	case rules.KindIllegalMoveFound:
		s += fmt.Sprintf(" move %d white=%dms black=%dms", e.Move, e.WhiteMs, e.BlackMs)
	case rules.KindDeclareLost, rules.KindSealedMoveEnds:
		if e.Result != "" {
			s += " " + string(e.Result)
		}
	case rules.KindAdjourn:
		if e.SessionEndMs > 0 {
			s += fmt.Sprintf(" session ends at %dms", e.SessionEndMs)
		}
	}
	return s
}
