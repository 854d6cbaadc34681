// Command clocksim runs a fleet of simulated chess clocks and players
// against a hall server (package clockdev/sim): it creates a tournament,
// its rounds and boards with a chief arbiter's token, connects one clock
// per board, starts each round's clocks at once and plays every game to
// its end, printing a progress line and a summary.
//
//	clocksim -chief-token $TOKEN -boards 40 -tc 3m+2s
//	clocksim -boards 200 -tc 60+1 -speed 20 -chaos all -seed 7      # a server started with the same speed
//	clocksim -demo-rounds -loop -state-dir sim-state                 # a living hall; stop and start it again
//	clocksim -round "Open:3"                                         # play the boards of a round the hall has
//
// Every flag can also be set by an environment variable, named in the
// flag's help (the chief token by HALL_CHIEF_TOKEN). The exit status is 1
// if the fleet could not run, 2 for bad flags, 0 when every game ended or
// the run was interrupted.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"github.com/chesshall/hallclock/clockdev/sim"
	"github.com/chesshall/hallclock/internal/clienttls"
	"github.com/chesshall/hallclock/internal/cmdline"
	hallv1 "github.com/chesshall/hallclock/proto/hall/v1"
)

func main() {
	m := &Main{Stdout: os.Stdout, Stderr: os.Stderr}
	cmdline.Main("clocksim", func() error { return m.ParseFlags(os.Args[1:], os.Getenv) }, m.Run)
}

// Main is the program: flags, wiring, nothing else.
type Main struct {
	Config   sim.Config
	LogLevel string
	Stdout   io.Writer
	Stderr   io.Writer
}

// ParseFlags reads flags, with environment variables as defaults.
func (m *Main) ParseFlags(args []string, getenv func(string) string) error {
	fs := flag.NewFlagSet("clocksim", flag.ContinueOnError)
	fs.SetOutput(m.Stderr)
	env := cmdline.Env(getenv)
	var (
		target, chief, tc, ruleset, tournament, supervision, chaos, stateDir, prefix, tlsCA, tlsName, seed string
		blind, blindLang, round                                                                            string
		boards, rounds, adjourn                                                                            int
		speed                                                                                              float64
		eboard, quickplay, loop, demo, talking                                                             bool
		progress                                                                                           time.Duration
	)
	fs.StringVar(&target, "target", env.String("HALL_TARGET", "localhost:7070"), "the hall server's gRPC address (HALL_TARGET)")
	fs.StringVar(&chief, "chief-token", env.String("HALL_CHIEF_TOKEN", ""), "a chief arbiter's token: creates the rounds, boards and device tokens (HALL_CHIEF_TOKEN)")
	fs.IntVar(&boards, "boards", env.Int("SIM_BOARDS", 10), "boards (clocks) per round, 1 to 10000 (SIM_BOARDS)")
	fs.IntVar(&rounds, "rounds", env.Int("SIM_ROUNDS", 1), "rounds to play, one after the other (SIM_ROUNDS)")
	fs.StringVar(&tc, "tc", env.String("SIM_TC", "3m+2s"), `time control: "90m+30s", "40/5400+30:1800+30", "G/15", "60+1" ... (SIM_TC)`)
	fs.StringVar(&ruleset, "ruleset", env.String("SIM_RULESET", "fide-2023"), "fide-2023, fide-2018, fide-2009 or fide-2005 (SIM_RULESET)")
	fs.StringVar(&tournament, "tournament", env.String("SIM_TOURNAMENT", sim.DefaultTournament), "the tournament's name (SIM_TOURNAMENT)")
	fs.StringVar(&supervision, "supervision", env.String("SIM_SUPERVISION", "adequate"), "adequate or insufficient (rapid and blitz) (SIM_SUPERVISION)")
	fs.BoolVar(&quickplay, "quickplay", env.Bool("SIM_QUICKPLAY"), "the regulations announce a quickplay finish (Guidelines III) (SIM_QUICKPLAY)")
	fs.IntVar(&adjourn, "adjourn", env.Int("SIM_ADJOURN", 0), "adjourn games still going at this move (0: never) (SIM_ADJOURN)")
	fs.BoolVar(&eboard, "eboard", env.Bool("SIM_EBOARD"), "electronic boards: legal moves with every press (SIM_EBOARD)")
	fs.BoolVar(&talking, "talking", env.Bool("SIM_TALKING"), "talking clocks: they say the moves and the time used when a visually disabled player asks, and log it (SIM_TALKING)")
	fs.StringVar(&blind, "blind", env.String("SIM_BLIND", ""), "play under the rules for visually disabled players: white, black or both are visually disabled, with an assistant, and ask their clocks now and then; empty: nobody (SIM_BLIND)")
	fs.StringVar(&blindLang, "blind-lang", env.String("SIM_BLIND_LANG", ""), "the language the clocks speak to them, e.g. de or ru; empty: English (SIM_BLIND_LANG)")
	fs.BoolVar(&demo, "demo-rounds", env.Bool("SIM_DEMO_ROUNDS"), "play the demonstration hall instead: a classical, a rapid and a blitz tournament of -boards boards each (SIM_DEMO_ROUNDS)")
	fs.StringVar(&round, "round", env.String("SIM_ROUND", ""), `play the boards of a round the hall already has (imported, or set up by hand): "Open:3" or its id; one clock per board, the boards' own time control; -boards, -tc and the other round settings do not apply (SIM_ROUND)`)
	fs.BoolVar(&loop, "loop", env.Bool("SIM_LOOP"), "keep the hall alive: after the last round, play the next, until interrupted (SIM_LOOP)")
	fs.Float64Var(&speed, "speed", env.Float("SIM_SPEED", 1), "clocks run this many times faster than real time; the server must run at the same speed (SIM_SPEED)")
	fs.StringVar(&seed, "seed", env.String("SIM_SEED", ""), "seed of every decision; empty: from the time, printed so the run can be repeated (SIM_SEED)")
	fs.StringVar(&chaos, "chaos", env.String("SIM_CHAOS", "none"), "faults: a list of cut,latency,dup,reorder,reboot,drift,die, or all, or none (SIM_CHAOS)")
	fs.StringVar(&stateDir, "state-dir", env.String("SIM_STATE_DIR", ""), "keep the fleet's ids, device tokens and outboxes here, to continue after a restart (SIM_STATE_DIR)")
	fs.StringVar(&prefix, "device-prefix", env.String("SIM_DEVICE_PREFIX", sim.DefaultDevicePrefix), "device ids are <prefix>-<tournament>-<board> (SIM_DEVICE_PREFIX)")
	fs.DurationVar(&progress, "progress", env.Duration("SIM_PROGRESS", sim.DefaultProgressEvery), "print a progress line this often; 0: never (SIM_PROGRESS)")
	fs.StringVar(&tlsCA, "tls-ca", env.String("HALL_TLS_CA", ""), "connect over TLS, trusting this CA certificate (PEM) (HALL_TLS_CA)")
	fs.StringVar(&tlsName, "tls-server-name", env.String("HALL_TLS_SERVER_NAME", ""), "the name the server's certificate must show (default: from -target) (HALL_TLS_SERVER_NAME)")
	fs.StringVar(&m.LogLevel, "log-level", env.String("SIM_LOG_LEVEL", "warn"), "debug, info, warn or error (SIM_LOG_LEVEL)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q (flags only; see -h)", fs.Args())
	}
	switch {
	case chief == "":
		return errors.New("-chief-token (or HALL_CHIEF_TOKEN) is required: the fleet creates the rounds as the chief arbiter")
	case boards < 1 || boards > 10_000:
		return fmt.Errorf("-boards %d: want 1 to 10000", boards)
	case rounds < 1:
		return fmt.Errorf("-rounds %d: want at least 1", rounds)
	case speed <= 0:
		return fmt.Errorf("-speed %g: want a positive factor", speed)
	case progress < 0:
		return fmt.Errorf("-progress %v: want a duration, or 0 for none", progress)
	}
	c := sim.Config{Target: target, ChiefToken: chief, Speed: speed, Loop: loop, StateDir: stateDir, DevicePrefix: prefix, TalkingClocks: talking}
	var err error
	if c.Chaos, err = sim.ParseChaos(chaos); err != nil {
		return fmt.Errorf("-chaos: %w", err)
	}
	if seed == "" {
		c.Seed = time.Now().UnixNano() % 1_000_000
	} else if c.Seed, err = strconv.ParseInt(seed, 10, 64); err != nil {
		return fmt.Errorf("-seed %q: want an integer", seed)
	}
	switch {
	case round != "" && (demo || loop):
		return fmt.Errorf("-round %q plays one round of the hall; -demo-rounds and -loop make rounds of the fleet's own", round)
	case round != "":
		c.Round = round
	case demo:
		c.Rounds = sim.DemoRounds(boards)
	default:
		regs := &hallv1.Regulations{QuickplayFinish: quickplay}
		switch supervision {
		case "adequate":
		case "insufficient":
			regs.Supervision = hallv1.Supervision_SUPERVISION_INSUFFICIENT
		default:
			return fmt.Errorf("-supervision %q: want adequate or insufficient", supervision)
		}
		bp, err := blindPlay(blind, blindLang)
		if err != nil {
			return err
		}
		for range rounds {
			c.Rounds = append(c.Rounds, sim.RoundSpec{Tournament: tournament, Ruleset: ruleset, TimeControl: tc,
				Regulations: regs, Boards: boards, EBoard: eboard, AdjournAfter: adjourn, BlindPlay: bp})
		}
	}
	if tlsCA != "" {
		if c.Credentials, err = clienttls.Credentials(tlsCA, tlsName); err != nil {
			return err
		}
	}
	if progress > 0 {
		c.Progress, c.ProgressEvery = m.Stdout, progress
	}
	m.Config = c
	return nil
}

// Run plays until every game has ended or ctx is cancelled.
func (m *Main) Run(ctx context.Context) error {
	log, err := cmdline.Logger(m.Stderr, m.LogLevel)
	if err != nil {
		return err
	}
	cfg := m.Config
	cfg.Logger = log
	what := fmt.Sprintf("%d rounds", len(cfg.Rounds))
	if cfg.Round != "" {
		what = fmt.Sprintf("round %q", cfg.Round)
	}
	fmt.Fprintf(m.Stdout, "clocksim: %s against %s, speed %gx, seed %d, chaos %s\n",
		what, cfg.Target, cfg.Speed, cfg.Seed, cfg.Chaos)
	f, err := sim.New(cfg)
	if err != nil {
		return err
	}
	sum, err := f.Run(ctx)
	if cfg.Progress == nil {
		sum.WriteTo(m.Stdout)
	}
	if errors.Is(err, context.Canceled) && ctx.Err() != nil {
		return nil // interrupted: the summary says how far it got
	}
	return err
}

// blindPlay reads -blind and -blind-lang: which players are visually
// disabled (each with an assistant) and the language of their clocks.
func blindPlay(side, lang string) (*hallv1.BlindPlay, error) {
	player := &hallv1.BlindPlayer{VisuallyDisabled: true, Assistant: true, Language: lang}
	switch side {
	case "":
		if lang != "" {
			return nil, fmt.Errorf("-blind-lang %q without -blind: say who is visually disabled (white, black or both)", lang)
		}
		return nil, nil
	case "white":
		return &hallv1.BlindPlay{White: player}, nil
	case "black":
		return &hallv1.BlindPlay{Black: player}, nil
	case "both":
		return &hallv1.BlindPlay{White: player, Black: player}, nil
	}
	return nil, fmt.Errorf("-blind %q: want white, black, both, or empty", side)
}
