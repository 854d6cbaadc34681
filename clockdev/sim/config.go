package sim

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"

	"github.com/chesshall/hallclock/clockdev"
	"github.com/chesshall/hallclock/internal/mono"
	"github.com/chesshall/hallclock/internal/wire"
	hallv1 "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
)

// Config configures a Fleet. Target (or Dial), ChiefToken and at least one
// RoundSpec are required.
type Config struct {
	// Target is the hall server's gRPC address, e.g. "localhost:7070".
	Target string
	// Dial, if set, opens the network connections instead of a TCP dial
	// (e.g. a bufconn listener's DialContext); every device still gets a
	// connection of its own.
	Dial func(ctx context.Context, addr string) (net.Conn, error)
	// Credentials secure every connection (devices and arbiter); nil:
	// insecure (a hall on a private network or loopback).
	Credentials credentials.TransportCredentials
	// DialOptions are added to every connection.
	DialOptions []grpc.DialOption

	// ChiefToken is a chief arbiter's bearer token: the fleet creates the
	// tournaments, rounds, boards and device tokens, starts the rounds and
	// plays the arbiter (illegal-move rulings, quickplay decisions,
	// adjournments, virtual clocks for dead devices).
	ChiefToken string

	// Rounds are the rounds to play. Rounds with the same Tournament form
	// one tournament, played one after the other on the same clocks;
	// different tournaments play at the same time.
	Rounds []RoundSpec
	// Round, instead of Rounds, names a round already in the hall (an
	// imported one: "Open:3", or its id): the fleet plays its boards —
	// one clock each, assigned to the board, under the board's own
	// configuration — starts those not started, and stops when every game
	// has ended. It creates no tournament and sets no plan of its own (the
	// plan follows each clock assigned, as for a replacement clock).
	Round string
	// Loop keeps the hall alive: after a tournament's last round, the next
	// round (same settings as the last) is created and played, forever.
	Loop bool

	// Speed makes the devices' clocks run Speed times faster than real
	// time (mono.Scaled); the server must use the same factor. Default 1.
	Speed float64
	// Seed makes a run repeatable in its decisions: think times, moves,
	// endings, chaos. 0 is a seed like any other.
	Seed int64
	// Chaos switches on faults; see Chaos.
	Chaos Chaos

	// StateDir, if set, keeps what the fleet created (ids, device tokens)
	// in StateDir/fleet.json and each device's outbox in
	// StateDir/outbox/<device>.jsonl, so that a fleet started again on the
	// same StateDir against the same hall continues: devices reconnect with
	// their outboxes and unfinished boards are played on. The directory
	// holds device secrets: it is created with mode 0700.
	StateDir string
	// OutboxDir, if set, is where the devices keep file outboxes
	// (clockdev.OpenFileOutbox, fsynced on every event and
	// acknowledgement): <OutboxDir>/<device>.jsonl. Default:
	// StateDir/outbox with a StateDir; without one, devices keep their
	// outbox in memory, except when Chaos.Reboot is on: then in a
	// temporary directory removed at the end of Run.
	OutboxDir string
	// DevicePrefix names the devices: "<prefix>-<tournament>-<board>",
	// e.g. "sim-1-007". Default "sim". Two fleets on one hall need
	// different prefixes.
	DevicePrefix string

	// Progress, if set, receives a progress line every ProgressEvery
	// (default 2 s, real time) and the summary at the end.
	Progress      io.Writer
	ProgressEvery time.Duration
	// Logger receives the fleet's warnings; default: discard. Devices log
	// to it at debug level only.
	Logger *slog.Logger

	// HallStats, if set, reads the server's counters for the progress line
	// and the summary (the demo passes the in-process server's Stats).
	HallStats func() HallStats
	// OnAck, if set, is called for every event a device's server
	// acknowledged (see clockdev.Config.OnAck; it runs under the device's
	// lock and must be quick). Tests collect what was acknowledged.
	OnAck func(deviceID string, a clockdev.Acked)
	// Clock is the real clock the devices' scaled clocks are built on;
	// default mono.Real().
	Clock mono.Clock

	// TalkingClocks makes every clock a talking clock
	// (clockdev.Config.Speak, FIDE 2018 D.2.6.1), whose voice speaks every
	// language of formats/announce. It says nothing unasked; what it would
	// say, when a visually disabled player asks (RoundSpec.BlindPlay) or
	// the hall does, is logged (Logger, info "clock says") and counted
	// (Summary.Announcements).
	TalkingClocks bool
}

// RoundSpec describes a round: its clocks, its rules and how many boards.
type RoundSpec struct {
	// Tournament names the tournament (event) the round belongs to;
	// default "Simulated Open".
	Tournament string
	// Ruleset is "fide-2023" (default), "fide-2018", "fide-2009" or
	// "fide-2005".
	Ruleset string
	// TimeControl is the round's time control, e.g. "90m+30s",
	// "40/5400+30:1800+30" (PGN seconds), "3m+2s" or "G/15"; never a bare
	// "3+2" (see rules.ParseTimeControl).
	TimeControl string
	// Regulations are the event's regulations (supervision, quickplay
	// finish, penalties, scoring); nil for the ruleset's defaults.
	Regulations *hallv1.Regulations
	// Boards is the number of boards (one clock each).
	Boards int
	// EBoard makes every game of the round also play legal moves on an
	// electronic board: each press carries the move (SAN) and the position
	// (FEN), and games end on the board (checkmate, stalemate, dead
	// position) or by agreement, as well as on time.
	EBoard bool
	// AdjournAfter, if positive, is the length of the first session in
	// moves: a game still going when White has made that many moves is
	// adjourned by the arbiter and resumed after AdjournFor.
	AdjournAfter int
	// AdjournFor is how long (game time) an adjournment lasts; default 2
	// minutes.
	AdjournFor time.Duration
	// IllegalMoves is the probability, per move, that a player completes
	// an illegal move (the arbiter rules it; the player then plays a legal
	// one). Default 0.002; negative: never.
	IllegalMoves float64
	// QuickplayClaims is the probability, per move, that a player with
	// less than two minutes in a quickplay finish (announced, no
	// increment) claims; default 0.15; negative: never.
	QuickplayClaims float64
	// BlindPlay, if set, plays the round's boards under the rules for
	// visually disabled players (FIDE 2018 Appendix D): the players it
	// marks visually disabled ask their clock, now and then as their turn
	// ends, for the completed moves and the time used (D.2.10.4, only at
	// their request; Config.TalkingClocks gives the clocks a voice). It is
	// sent with the round's configuration.
	BlindPlay *hallv1.BlindPlay
	// BlindBoards, with BlindPlay, is how many boards of the round (the
	// first) are played under the appendix: each is set after the round is
	// imported (Arbiter.SetBlindPlay, as the arbiter does when the player
	// arrives). 0: every board, through the round's configuration. A
	// visually disabled player with an assistant (BlindPlayer.assistant)
	// has his presses made and his announcements asked for by the
	// assistant, through the hall with the assistant's own token (D.2.10).
	BlindBoards int
	// Announcements is the probability, per move of a visually disabled
	// player, that he asks his clock before he presses. Default 0.1;
	// negative: never.
	Announcements float64
	// TRF and Pairings, if set, are the round's pairings as a pairing
	// program wrote them (a TRF-16, with a JaVaFo/bbpPairings output if
	// its columns do not pair the round), imported instead of the fleet's
	// own pairing; the round's number is the file's. The round must not
	// have more boards than Boards.
	TRF, Pairings []byte
}

// Chaos lists the faults the fleet injects. Every mode is off at its zero
// value and draws its decisions from the fleet's Seed.
type Chaos struct {
	// Cut is the probability, per press, that the device's network
	// connection is cut; it stays down for CutFor (game time, default 5 s),
	// then the device reconnects and resends its outbox.
	Cut    float64
	CutFor time.Duration
	// Latency (plus a uniform 0..Jitter) delays every write on every
	// device's connection, in real time.
	Latency, Jitter time.Duration
	// Duplicate is the probability that an event a device sends is sent
	// twice (the server drops the second and acknowledges it again).
	Duplicate float64
	// Reorder is the probability that an event a device sends is held back
	// and sent after the next one: the server sees a sequence gap, ends the
	// stream with OUT_OF_RANGE, and the device reconnects and resends.
	Reorder float64
	// Reboot is the probability, per press, that the device loses power
	// just after the press, before it could send it: it restarts after
	// RebootFor (game time, default 3 s) from its file outbox
	// (clockdev.OpenFileOutbox) and delivers what it had not sent.
	Reboot    float64
	RebootFor time.Duration
	// DriftPPM makes each device's oscillator run fast or slow by a
	// uniform amount in ±DriftPPM parts per million
	// (clockdev.Config.DriftPPM).
	DriftPPM float64
	// Die is the probability, per game, that the clock dies at some move;
	// the arbiter notices after DieNotice (game time, default 10 s) and
	// moves the board to a server-hosted virtual clock
	// (Arbiter.UseVirtualClock); the players then press through the
	// arbiter's console (BoardAction PRESS).
	Die       float64
	DieNotice time.Duration
}

// Modes of ParseChaos, in the order String writes them.
var chaosModes = []string{"cut", "latency", "dup", "reorder", "reboot", "drift", "die"}

// AllChaos returns every chaos mode switched on at its default rate.
func AllChaos() Chaos {
	c, _ := ParseChaos(strings.Join(chaosModes, ","))
	return c
}

// ParseChaos reads a comma-separated list of modes — cut, latency, dup,
// reorder, reboot, drift, die — or "all" or "none", each at its default
// rate: cut 1% of presses for 5 s, latency 20 ms + 0..10 ms, dup 1% and
// reorder 0.5% of sends, reboot 0.5% of presses for 3 s, drift ±200 ppm,
// die 5% of games.
func ParseChaos(s string) (Chaos, error) {
	var c Chaos
	for _, m := range strings.Split(s, ",") {
		switch strings.TrimSpace(strings.ToLower(m)) {
		case "", "none":
		case "all":
			return AllChaos(), nil
		case "cut":
			c.Cut = 0.01
		case "latency":
			c.Latency, c.Jitter = 20*time.Millisecond, 10*time.Millisecond
		case "dup", "duplicate":
			c.Duplicate = 0.01
		case "reorder":
			c.Reorder = 0.005
		case "reboot":
			c.Reboot = 0.005
		case "drift":
			c.DriftPPM = 200
		case "die":
			c.Die = 0.05
		default:
			return Chaos{}, fmt.Errorf("sim: unknown chaos mode %q: want a list of %s, or all, or none", m, strings.Join(chaosModes, ", "))
		}
	}
	return c, nil
}

// String lists the modes switched on, e.g. "cut,dup", or "none".
func (c Chaos) String() string {
	var on []string
	for i, b := range []bool{c.Cut > 0, c.Latency > 0 || c.Jitter > 0, c.Duplicate > 0, c.Reorder > 0, c.Reboot > 0, c.DriftPPM != 0, c.Die > 0} {
		if b {
			on = append(on, chaosModes[i])
		}
	}
	if len(on) == 0 {
		return "none"
	}
	return strings.Join(on, ",")
}

func (c *Chaos) setDefaults() {
	if c.CutFor <= 0 {
		c.CutFor = 5 * time.Second
	}
	if c.RebootFor <= 0 {
		c.RebootFor = 3 * time.Second
	}
	if c.DieNotice <= 0 {
		c.DieNotice = 10 * time.Second
	}
}

// DemoRounds returns a hall of mixed time controls for a demonstration:
// a classical open with adjournments, a rapid with a quickplay finish and
// electronic boards, and a blitz, boards boards each. Board 1 of the blitz
// is played under the rules for visually disabled players (FIDE 2018
// Appendix D): White is visually disabled, with his assistant at the board.
func DemoRounds(boards int) []RoundSpec {
	if boards <= 0 {
		boards = 8
	}
	return []RoundSpec{
		{Tournament: "Classical Open", TimeControl: "40/5400+30:1800+30", Boards: boards, EBoard: true, AdjournAfter: 40},
		{Tournament: "Rapid Cup", TimeControl: "G/15", Boards: boards, EBoard: true,
			Regulations: &hallv1.Regulations{QuickplayFinish: true}},
		{Tournament: "Blitz Night", TimeControl: "3m+2s", Boards: boards, BlindBoards: 1,
			BlindPlay: &hallv1.BlindPlay{White: &hallv1.BlindPlayer{VisuallyDisabled: true, Assistant: true}}},
	}
}

// Defaults of Config.
const (
	DefaultTournament    = "Simulated Open"
	DefaultDevicePrefix  = "sim"
	DefaultProgressEvery = 2 * time.Second
	defaultIllegalMoves  = 0.002
	defaultQuickplay     = 0.15
	defaultAdjournFor    = 2 * time.Minute
	defaultAnnouncements = 0.1
)

// checked is a RoundSpec with its parsed configuration.
type checked struct {
	RoundSpec
	cfg  rules.Config
	wire *hallv1.ClockConfig
	// The ruleset's profile, the game type and whether the Competition
	// Rules govern the games (for the players' claims).
	prof       *rules.Profile
	category   rules.Category
	supervised bool
	// blind is the play under the appendix of the boards BlindBoards
	// names (boardBlind).
	blind rules.BlindPlay
}

// boardBlind is how board number n of the round is played under the rules
// for visually disabled players (the zero value: not).
func (c *checked) boardBlind(n int) rules.BlindPlay {
	if c.BlindPlay == nil || c.BlindBoards > 0 && n > c.BlindBoards {
		return rules.BlindPlay{}
	}
	return c.blind
}

func (r RoundSpec) check() (checked, error) {
	if r.Tournament == "" {
		r.Tournament = DefaultTournament
	}
	if r.Boards <= 0 {
		return checked{}, fmt.Errorf("sim: round of %q: %d boards; want at least 1", r.Tournament, r.Boards)
	}
	if r.TimeControl == "" {
		return checked{}, fmt.Errorf("sim: round of %q has no time control", r.Tournament)
	}
	w := &hallv1.ClockConfig{Ruleset: r.Ruleset, TimeControl: r.TimeControl, Regulations: r.Regulations, BlindPlay: r.BlindPlay}
	if r.BlindBoards > 0 {
		w.BlindPlay = nil // set on each of those boards
	}
	cfg, err := wire.Config(w)
	if err != nil {
		return checked{}, fmt.Errorf("sim: round of %q: %w", r.Tournament, err)
	}
	blind := wire.BlindPlay(r.BlindPlay)
	if err := blind.Check(cfg.Ruleset); err != nil {
		return checked{}, fmt.Errorf("sim: round of %q: %w", r.Tournament, err)
	}
	st, err := rules.NewState(cfg)
	if err != nil {
		return checked{}, fmt.Errorf("sim: round of %q: %w", r.Tournament, err)
	}
	prof, err := rules.ProfileOf(cfg.Ruleset)
	if err != nil {
		return checked{}, fmt.Errorf("sim: round of %q: %w", r.Tournament, err)
	}
	if r.IllegalMoves == 0 {
		r.IllegalMoves = defaultIllegalMoves
	}
	if r.QuickplayClaims == 0 {
		r.QuickplayClaims = defaultQuickplay
	}
	if r.AdjournFor <= 0 {
		r.AdjournFor = defaultAdjournFor
	}
	if r.Announcements == 0 {
		r.Announcements = defaultAnnouncements
	}
	if cfg.Ruleset == "" {
		cfg.Ruleset = rules.DefaultRuleset
	}
	return checked{RoundSpec: r, cfg: cfg, wire: w, prof: prof, category: st.Category, supervised: st.Supervised(), blind: blind}, nil
}

func (c *Config) validate() error {
	switch {
	case c.Target == "" && c.Dial == nil:
		return errors.New("sim: Config.Target (or Dial) is required")
	case c.ChiefToken == "":
		return errors.New("sim: Config.ChiefToken is required (a chief arbiter creates the rounds)")
	case len(c.Rounds) == 0 && c.Round == "":
		return errors.New("sim: Config.Rounds is empty and Config.Round names no round: nothing to play")
	case len(c.Rounds) > 0 && c.Round != "":
		return errors.New("sim: Config.Round plays a round of the hall; Config.Rounds must then be empty")
	case c.Round != "" && c.Loop:
		return errors.New("sim: Config.Loop makes rounds of its own; Config.Round plays one of the hall's")
	case c.Speed < 0:
		return errors.New("sim: Config.Speed must not be negative")
	}
	return nil
}

func (c *Config) setDefaults() {
	if c.Speed == 0 {
		c.Speed = 1
	}
	if c.DevicePrefix == "" {
		c.DevicePrefix = DefaultDevicePrefix
	}
	if c.ProgressEvery <= 0 {
		c.ProgressEvery = DefaultProgressEvery
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	if c.Clock == nil {
		c.Clock = mono.Real()
	}
	if c.Target == "" {
		c.Target = "passthrough:///hall"
	}
	c.Chaos.setDefaults()
}
