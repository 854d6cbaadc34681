package hall

import (
	"google.golang.org/protobuf/proto"

	"github.com/chesshall/hallclock/internal/wire"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
	"github.com/chesshall/hallclock/server/hallerr"
	"github.com/chesshall/hallclock/storage"
)

// A board's configuration is its round's, which is its tournament's, each
// level overriding what it names. Every place a time control is entered
// answers with what the server read (ConfigInfo): canonical, with units,
// in words and its game type.

// MergeConfig fills what over leaves empty from base: the ruleset, the
// time control, the regulations and the play under the rules for visually
// disabled players (each of the last two taken whole: a blind_play set to
// nobody visually disabled is a board that is not under them). Regulations
// that name nothing but draw odds add them to base's (an Armageddon board
// in a round keeps the round's scoring and supervision).
func MergeConfig(base, over *pb.ClockConfig) *pb.ClockConfig {
	out := &pb.ClockConfig{Ruleset: base.GetRuleset(), TimeControl: base.GetTimeControl(), Regulations: base.GetRegulations(),
		BlindPlay: base.GetBlindPlay()}
	if over.GetRuleset() != "" {
		out.Ruleset = over.GetRuleset()
	}
	if over.GetTimeControl() != "" {
		out.TimeControl = over.GetTimeControl()
	}
	if r := over.GetRegulations(); r != nil {
		out.Regulations = r
		if onlyDrawOdds(r) {
			out.Regulations = &pb.Regulations{}
			if b := base.GetRegulations(); b != nil {
				out.Regulations = proto.Clone(b).(*pb.Regulations)
			}
			out.Regulations.DrawOdds = r.GetDrawOdds()
		}
	}
	if over.GetBlindPlay() != nil {
		out.BlindPlay = over.GetBlindPlay()
	}
	return out
}

// onlyDrawOdds reports whether r names draw odds and nothing else.
func onlyDrawOdds(r *pb.Regulations) bool {
	if r.GetDrawOdds() == "" {
		return false
	}
	rest := proto.Clone(r).(*pb.Regulations)
	rest.DrawOdds = ""
	return proto.Equal(rest, &pb.Regulations{})
}

// CheckConfig parses a request's configuration, its field "config"; one
// without a time control (a tournament's default) is refused only if
// needTC.
func CheckConfig(c *pb.ClockConfig, needTC bool) (rules.Config, error) {
	return CheckConfigOf("config", c, needTC)
}

// CheckConfigOf is CheckConfig of the request's field named field: a bad
// value is refused naming it ("default_config.time_control: ...").
func CheckConfigOf(field string, c *pb.ClockConfig, needTC bool) (rules.Config, error) {
	if c.GetTimeControl() == "" {
		if needTC {
			return rules.Config{}, hallerr.BadRequest("%s.time_control: none given: give one for the board, its round or its tournament (e.g. \"90m+30s\" or \"40/5400+30:1800+30\")", field)
		}
		r, err := rules.ParseRuleset(c.GetRuleset())
		if err != nil {
			return rules.Config{}, wire.InField(field, err)
		}
		cfg := rules.Config{Ruleset: r, Regulations: wire.Regulations(c.GetRegulations()), Blind: wire.BlindPlay(c.GetBlindPlay())}
		if _, err := rules.ParseDrawOdds(string(cfg.Regulations.DrawOdds)); err != nil {
			return rules.Config{}, wire.InField(field, err)
		}
		if err := cfg.Blind.Check(r); err != nil {
			return rules.Config{}, err
		}
		return cfg, nil
	}
	cfg, err := wire.Config(c)
	if err != nil {
		return cfg, wire.InField(field, err)
	}
	if _, err := rules.NewState(cfg); err != nil {
		return cfg, wire.InField(field, err)
	}
	return cfg, nil
}

// ConfigInfo says the time control of a stored configuration, nil when it
// has none (a tournament without a default time control).
func ConfigInfo(c rules.Config) *pb.TimeControlInfo {
	if len(c.TimeControl.Periods) == 0 {
		return nil
	}
	info, err := wire.TimeControlInfo(c.Ruleset, c.TimeControl)
	if err != nil {
		return nil
	}
	return info
}

// RoundConfig is a round's effective configuration.
func (h *Hall) RoundConfig(r storage.RoundRecord) *pb.ClockConfig {
	t, _ := h.TournamentByID(r.TournamentID)
	return RoundConfigWith(r, t)
}

// RoundConfigWith is a round's effective configuration in tournament t
// (the round may not be registered yet).
func RoundConfigWith(r storage.RoundRecord, t storage.TournamentRecord) *pb.ClockConfig {
	base := wire.WireConfig(t.Config)
	if r.Config == nil {
		return base
	}
	out := MergeConfig(base, wire.WireConfig(*r.Config))
	// A round's own configuration was merged over its tournament's when
	// it was made: its play under the appendix is the round's, none
	// included (which the wire cannot tell from "not said").
	out.BlindPlay = wire.WireBlindPlay(r.Config.Blind)
	return out
}
