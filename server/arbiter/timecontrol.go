package arbiter

import (
	"context"

	"github.com/chesshall/hallclock/internal/wire"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
)

// Every place a time control is entered answers with what the server read
// (rules.ParseTimeControl never guesses a unit): canonical, with units, in
// words and its game type, so an arbiter sees what was set.

// DescribeTimeControl reads a time control without creating anything.
func (a *Service) DescribeTimeControl(_ context.Context, req *pb.DescribeTimeControlRequest) (*pb.TimeControlInfo, error) {
	r, err := rules.ParseRuleset(req.GetRuleset())
	if err != nil {
		return nil, wire.InField("", err)
	}
	tc, err := rules.ParseTimeControl(req.GetTimeControl())
	if err != nil {
		return nil, wire.InField("", err)
	}
	info, err := wire.TimeControlInfo(r, tc)
	if err != nil {
		return nil, err
	}
	return info, nil
}
