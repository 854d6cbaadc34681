package server

import (
	"github.com/chesshall/hallclock/internal/wire"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
	"github.com/chesshall/hallclock/server/hallerr"
)

// arbiterService implements the Arbiter service.
type arbiterService struct {
	pb.UnsafeArbiterServer
	s *Server
}

// mergeConfig fills what over leaves empty from base: the ruleset, the time
// control, and the regulations (taken whole).
func mergeConfig(base, over *pb.ClockConfig) *pb.ClockConfig {
	out := &pb.ClockConfig{Ruleset: base.GetRuleset(), TimeControl: base.GetTimeControl(), Regulations: base.GetRegulations()}
	if over.GetRuleset() != "" {
		out.Ruleset = over.GetRuleset()
	}
	if over.GetTimeControl() != "" {
		out.TimeControl = over.GetTimeControl()
	}
	if over.GetRegulations() != nil {
		out.Regulations = over.GetRegulations()
	}
	return out
}

// checkConfig parses a configuration that may lack a time control (a
// tournament's default).
func checkConfig(c *pb.ClockConfig, needTC bool) (rules.Config, error) {
	if c.GetTimeControl() == "" {
		if needTC {
			return rules.Config{}, hallerr.BadRequest("no time control: give one for the board, its round or its tournament (e.g. \"90m+30s\" or \"40/5400+30:1800+30\")")
		}
		r, err := rules.ParseRuleset(c.GetRuleset())
		if err != nil {
			return rules.Config{}, err
		}
		return rules.Config{Ruleset: r, Regulations: wire.Regulations(c.GetRegulations())}, nil
	}
	cfg, err := wire.Config(c)
	if err != nil {
		return cfg, err
	}
	if _, err := rules.NewState(cfg); err != nil {
		return cfg, err
	}
	return cfg, nil
}
