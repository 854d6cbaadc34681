package clockdev

import (
	"errors"
	"fmt"
	"hash/fnv"
	"log/slog"
	"math/rand/v2"
	"time"

	"github.com/chesshall/hallclock/internal/mono"
	hallv1 "github.com/chesshall/hallclock/proto/hall/v1"
)

// Config configures a Device. DeviceID, Token and one of Transport, Conn
// or Target are required; everything else has a default.
type Config struct {
	// DeviceID names the device to the server; it must match the Token.
	DeviceID string
	// Token is the device's bearer secret, sent as "authorization: Bearer
	// <token>" on every stream. Use transport security where others can
	// listen: the token travels in the clear otherwise.
	Token string
	// Firmware is reported in Hello, e.g. "sim-1.0".
	Firmware string

	// Transport carries the device's ClockLink streams: set it for a
	// transport other than gRPC (package clockdev/wsdial: a WebSocket, as
	// a browser's clock speaks it). When nil, the streams are gRPC's, on
	// Conn or Target.
	Transport Transport

	// Conn is a gRPC connection to the hall server, owned by the caller
	// (Close does not close it). *grpc.ClientConn satisfies it
	// (grpc.ClientConnInterface; js/wasm builds have no gRPC: use
	// Transport there).
	Conn grpcConn
	// Target is dialled with grpc.NewClient(Target, DialOptions...) when
	// Conn and Transport are nil; DialOptions (grpc.DialOption) must
	// choose the transport credentials. The Device closes this
	// connection in Close.
	Target      string
	DialOptions []grpcDialOption

	// Clock is the device's monotonic oscillator and schedules its flag,
	// heartbeat and backoff timers; default mono.Real().
	Clock mono.Clock
	// Outbox keeps the unacknowledged events and the board; default
	// NewMemoryOutbox(). Use OpenFileOutbox for a device that must survive
	// a reboot. The Device closes it in Close.
	Outbox Outbox
	// Resume, if set, says at which board time a board recovered from the
	// Outbox continues, given the last instant the device recorded on it:
	// a clock whose controller restarted while its oscillator kept time
	// (the demonstration's fleet, stopped and started again with its hall,
	// keeps the wall time that passed). An answer before last is ignored
	// (a board's time line never goes back). Default: last — the time the
	// device was off does not count on its clock.
	Resume func(boardID string, last int64) int64
	// DriftPPM simulates an imperfect oscillator: board time advances
	// (1 + DriftPPM/1e6) times the Clock's elapsed time. It is also
	// reported in heartbeats as the device's drift. 0 for a perfect clock.
	DriftPPM float64

	// Rand draws the reconnection jitter; default a generator seeded from
	// the device id and the time. Only Run uses it.
	Rand *rand.Rand
	// Logger receives the link's ups and downs; default slog.Default().
	Logger *slog.Logger
	// BatteryPct reports the battery level (0-100) for heartbeats; default
	// a constant 100 (mains powered).
	BatteryPct func() int

	// MinBackoff and MaxBackoff bound the wait between reconnection
	// attempts: it starts at MinBackoff and doubles up to MaxBackoff, each
	// wait drawn uniformly from [b/2, b]. Defaults 100ms and 3s.
	MinBackoff, MaxBackoff time.Duration

	// NoticeBuffer is the capacity of the Events channel; default 256. A
	// fleet of thousands of devices in one process, which reads its
	// notices promptly, may choose a smaller one.
	NoticeBuffer int

	// OnAck, if set, is called for every event the server acknowledges,
	// applied or refused, in sequence order. It runs with the Device's
	// mutex held, on the link's receive loop: it must be quick and must
	// not call back into the Device. The fleet simulator measures
	// acknowledgement latency with it; tests collect what was acknowledged.
	OnAck func(Acked)

	// Speak, if set, makes the device a talking clock (FIDE 2018
	// D.2.6.1): its Hello says so, and it says the completed moves and the
	// time used by both players when its player presses the announce
	// button (RequestAnnouncement) or the hall sends an Announce, never
	// otherwise. Speak is handed each Speech to say; it runs with the
	// Device's mutex held (on the caller of RequestAnnouncement, or the
	// link's receive loop): it must queue the words and return, and must
	// not call back into the Device.
	Speak func(Speech)
	// Voices are the languages Speak can say, BCP 47 tags ("en", "de");
	// default English only. The hall writes its announcements in one of
	// them; the button speaks the player's language when it is among them.
	Voices []string
}

// Acked is an event the server acknowledged, for Config.OnAck.
type Acked struct {
	// Event is a copy of the acknowledged event.
	Event *hallv1.DeviceEvent
	// Rejection is set when the server's rules refused the event: it was
	// committed to the audit log only, not to the board's events.
	Rejection *hallv1.Rejection
	// Latency is the time from recording the event to its acknowledgement,
	// measured on the device's Clock; -1 when the event was recorded before
	// this Device was created (recovered from its Outbox after a restart).
	Latency time.Duration
}

// Defaults of Config.
const (
	DefaultMinBackoff = 100 * time.Millisecond
	DefaultMaxBackoff = 3 * time.Second
	// DefaultHeartbeat is the heartbeat interval used when the server's
	// Welcome names none.
	DefaultHeartbeat = 5 * time.Second
	// recentRejections is how many rejections Rejections keeps.
	recentRejections = 64
	// noticeBuffer is the default capacity of the Events channel.
	noticeBuffer = 256
)

// Errors of a Device.
var (
	// ErrNotAssigned: the device plays no board, so there is no clock to act on.
	ErrNotAssigned = errors.New("clockdev: the device is not assigned to a board")
	// ErrRunning: Run was called while another Run is active.
	ErrRunning = errors.New("clockdev: Run is already active")
	// ErrTakenOver: Run ended because another connection of this device
	// (its token: a second browser, a second clock) took over; reconnecting
	// would only take it back and make the two take turns.
	ErrTakenOver = errors.New("clockdev: another connection of this device took over")
)

func (c *Config) validate() error {
	switch {
	case c.DeviceID == "":
		return errors.New("clockdev: Config.DeviceID is required")
	case c.Token == "":
		return errors.New("clockdev: Config.Token is required")
	case c.Transport == nil && c.Conn == nil && c.Target == "":
		return errors.New("clockdev: Config.Transport, Config.Conn or Config.Target is required")
	case !(c.DriftPPM > -1e6 && c.DriftPPM < 1e6): // NaN too
		return errors.New("clockdev: Config.DriftPPM must be a number between -1e6 and 1e6")
	case c.MinBackoff < 0 || c.MaxBackoff < 0:
		return errors.New("clockdev: backoff must not be negative")
	case c.NoticeBuffer < 0:
		return errors.New("clockdev: Config.NoticeBuffer must not be negative")
	case len(c.Voices) > 0 && c.Speak == nil:
		return errors.New("clockdev: Config.Voices without Config.Speak: a clock without a voice speaks no language")
	}
	if err := (&hallv1.DeviceCapabilities{Announce: true, Languages: c.Voices}).Validate(); err != nil {
		return fmt.Errorf("clockdev: Config.Voices: %w", err)
	}
	return nil
}

func (c *Config) setDefaults() {
	if c.Clock == nil {
		c.Clock = mono.Real()
	}
	if c.Outbox == nil {
		c.Outbox = NewMemoryOutbox()
	}
	if c.Rand == nil {
		h := fnv.New64a()
		h.Write([]byte(c.DeviceID))
		c.Rand = rand.New(rand.NewPCG(h.Sum64(), uint64(time.Now().UnixNano())))
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	if c.BatteryPct == nil {
		c.BatteryPct = func() int { return 100 }
	}
	if c.NoticeBuffer == 0 {
		c.NoticeBuffer = noticeBuffer
	}
	if c.MinBackoff == 0 {
		c.MinBackoff = DefaultMinBackoff
	}
	if c.MaxBackoff == 0 {
		c.MaxBackoff = DefaultMaxBackoff
	}
	if c.Speak != nil && len(c.Voices) == 0 {
		c.Voices = []string{"en"}
	}
	c.MaxBackoff = max(c.MaxBackoff, c.MinBackoff)
}
