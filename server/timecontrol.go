package server

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
func (a *arbiterService) DescribeTimeControl(_ context.Context, req *pb.DescribeTimeControlRequest) (*pb.TimeControlInfo, error) {
	r, err := rules.ParseRuleset(req.GetRuleset())
	if err != nil {
		return nil, err
	}
	tc, err := rules.ParseTimeControl(req.GetTimeControl())
	if err != nil {
		return nil, err
	}
	info, err := wire.TimeControlInfo(r, tc)
	if err != nil {
		return nil, err
	}
	return info, nil
}

// configInfo says the time control of a stored configuration, nil when it
// has none (a tournament without a default time control).
func configInfo(c rules.Config) *pb.TimeControlInfo {
	if len(c.TimeControl.Periods) == 0 {
		return nil
	}
	info, err := wire.TimeControlInfo(c.Ruleset, c.TimeControl)
	if err != nil {
		return nil
	}
	return info
}

// wireConfigOf writes a stored configuration for the wire. The time
// control is the canonical text of the stored control, not the text as it
// was entered: an older parser may have read that text otherwise (a bare
// "90+30" was 90 minutes), and a round or board built on it reads the text
// again.
func wireConfigOf(c rules.Config) *pb.ClockConfig {
	tc := ""
	if len(c.TimeControl.Periods) > 0 {
		tc = c.TimeControl.String()
	}
	return &pb.ClockConfig{Ruleset: string(c.Ruleset), TimeControl: tc, Regulations: wire.WireRegulations(c.Regulations)}
}
