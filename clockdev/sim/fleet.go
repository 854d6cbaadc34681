package sim

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"log/slog"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/backoff"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"github.com/chesshall/hallclock/internal/mono"
	hallv1 "github.com/chesshall/hallclock/proto/hall/v1"
)

// maxWaitMs is the longest BoardAction wait the server accepts.
const maxWaitMs = 60_000

// Fleet is a hall's worth of simulated clocks and players. Build it with
// New and play with Run (once).
type Fleet struct {
	cfg    Config
	clock  mono.Clock // the devices' scaled clock
	log    *slog.Logger
	devLog *slog.Logger
	tours  []*tournament
	stats  counters
	store  *store
	notes  clockNotes // the clocks' board times, kept across restarts (away.go)
	waitMs int64      // how long BoardAction waits for a device, server time

	arbConn *grpc.ClientConn
	arb     hallv1.ArbiterClient
	tmpDir  string // outboxes of a fleet without StateDir that reboots its devices

	mu     sync.Mutex
	boards map[string]*boardInfo // board id → its round and number
	errs   []error
	began  time.Time
	ran    bool
}

// tournament is one tournament of the fleet and its clocks.
type tournament struct {
	index  int // from 1, in the order of Config.Rounds
	name   string
	id     string
	specs  []*checked
	tables []*table // table i sits at table firstTable+i of the hall plan
	saved  *savedTournament
	// existing are the boards of the hall's round it plays (Config.Round),
	// nil for a tournament of the fleet's own (existing.go).
	existing []*hallv1.Board
	// firstTable is the hall-plan table of its board 1: the tournaments
	// of a fleet sit one after the other in its venue.
	firstTable int
}

// roundRun is a round being played.
type roundRun struct {
	f      *Fleet
	tour   *tournament
	spec   *checked
	number int
	id     string
	boards []string // by board number - 1

	mu     sync.Mutex
	done   map[string]bool
	signal chan struct{}
}

// boardInfo says which round and which board number a board id is.
type boardInfo struct {
	round  *roundRun
	number int
	spec   *checked
	// assistant is the visually disabled player's assistant, nil if the
	// board has none.
	assistant *assistant
}

// New checks cfg and returns a Fleet ready to Run. It does not connect.
func New(cfg Config) (*Fleet, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	cfg.setDefaults()
	f := &Fleet{cfg: cfg, boards: map[string]*boardInfo{}}
	f.clock = mono.Scaled(cfg.Clock, cfg.Speed)
	f.log = cfg.Logger
	f.devLog = slog.New(debugOnly{cfg.Logger.Handler()})
	// Three seconds of real time, within the server's limit of a minute.
	f.waitMs = min(int64(3000*cfg.Speed), maxWaitMs)
	byName := map[string]*tournament{}
	for i, r := range cfg.Rounds {
		c, err := r.check()
		if err != nil {
			return nil, fmt.Errorf("%w (round %d of Config.Rounds)", err, i+1)
		}
		t := byName[c.Tournament]
		if t == nil {
			t = &tournament{index: len(f.tours) + 1, name: c.Tournament}
			byName[c.Tournament] = t
			f.tours = append(f.tours, t)
		}
		t.specs = append(t.specs, &c)
	}
	return f, nil
}

// Run creates the tournaments, rounds, boards and device tokens (or picks
// them up from StateDir), connects every clock, starts each round's
// clocks at once and plays every game to its end; with Loop it goes on
// with new rounds until ctx is done. It returns what happened, and an
// error if the hall could not be set up or a device could not run; when
// ctx ends the run it returns ctx's error with the summary so far.
func (f *Fleet) Run(ctx context.Context) (Summary, error) {
	f.mu.Lock()
	if f.ran {
		f.mu.Unlock()
		return Summary{}, errors.New("sim: a Fleet runs once")
	}
	f.ran = true
	f.began = time.Now()
	f.mu.Unlock()
	defer f.cleanup()

	if err := f.setup(ctx); err != nil {
		return f.Summary(), err
	}
	stopNotes := f.keepClockNotes(ctx)
	tctx, stopTables := context.WithCancel(ctx)
	var tables sync.WaitGroup
	for _, t := range f.tours {
		for _, tb := range t.tables {
			tables.Add(1)
			go func() {
				defer tables.Done()
				tb.run(tctx)
			}()
		}
	}
	stopProgress := f.progress()

	cctx, stopRounds := context.WithCancel(ctx)
	var rounds sync.WaitGroup
	for _, t := range f.tours {
		rounds.Add(1)
		go func() {
			defer rounds.Done()
			if err := f.runTournament(cctx, t); err != nil && cctx.Err() == nil {
				f.fail(fmt.Errorf("tournament %q: %w", t.name, err))
				stopRounds()
			}
		}()
	}
	rounds.Wait()
	stopRounds()
	stopTables()
	tables.Wait()
	stopProgress()
	stopNotes()
	if err := f.saveClockNotes(); err != nil { // each table noted its clock as it stopped
		f.fail(err)
	}

	sum := f.Summary()
	if f.cfg.Progress != nil {
		sum.WriteTo(f.cfg.Progress)
	}
	if err := f.err(); err != nil {
		return sum, err
	}
	return sum, ctx.Err()
}

func (f *Fleet) cleanup() {
	if f.arbConn != nil {
		f.arbConn.Close()
	}
	if f.tmpDir != "" {
		os.RemoveAll(f.tmpDir)
	}
}

// fail records an error that ends the run in failure.
func (f *Fleet) fail(err error) {
	f.log.Error("fleet", "err", err)
	f.mu.Lock()
	f.errs = append(f.errs, err)
	f.mu.Unlock()
}

func (f *Fleet) err() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return errors.Join(f.errs...)
}

// --- setting up ---

// setup connects the arbiter, creates (or finds) the tournaments and the
// device tokens, and builds the tables.
func (f *Fleet) setup(ctx context.Context) error {
	st, err := openStore(f.cfg.StateDir)
	if err != nil {
		return err
	}
	f.store = st
	f.loadClockNotes()
	outboxes := func(id string) string { return st.outboxPath(id) }
	dir := f.cfg.OutboxDir
	if dir == "" && f.cfg.StateDir == "" && f.cfg.Chaos.Reboot > 0 {
		// A device that reboots recovers from its own storage.
		if dir, err = os.MkdirTemp("", "clocksim-outbox-"); err != nil {
			return fmt.Errorf("sim: outbox directory: %w", err)
		}
		f.tmpDir = dir
	}
	if dir != "" {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return fmt.Errorf("sim: outbox directory: %w", err)
		}
		outboxes = func(id string) string { return filepath.Join(dir, id+".jsonl") }
	}
	conn, err := grpc.NewClient(f.cfg.Target, f.dialOptions(f.baseDial)...)
	if err != nil {
		return fmt.Errorf("sim: connect to %s: %w", f.cfg.Target, err)
	}
	f.arbConn, f.arb = conn, hallv1.NewArbiterClient(conn)
	if f.cfg.Round != "" {
		if err := f.findRound(ctx); err != nil {
			return err
		}
	}

	var need []string
	for _, t := range f.tours {
		saved := t.saved // a round of the hall's
		if saved == nil {
			st.read(func(s *savedFleet) { saved = s.tournament(t.name) })
		}
		if saved == nil {
			tr, err := call(ctx, f, func(ctx context.Context) (*hallv1.Tournament, error) {
				return f.arb.CreateTournament(ctx, &hallv1.CreateTournamentRequest{Name: t.name, DefaultConfig: t.specs[0].wire, Venue: f.venue()})
			})
			if err != nil {
				return fmt.Errorf("sim: create tournament %q: %w", t.name, err)
			}
			saved = &savedTournament{Name: t.name, ID: tr.GetTournamentId()}
			if err := st.update(func(s *savedFleet) { s.Tournaments = append(s.Tournaments, saved) }); err != nil {
				return err
			}
		}
		t.saved, t.id = saved, saved.ID
		n := 0
		for _, s := range t.specs {
			n = max(n, s.Boards)
		}
		for i := 1; i <= n; i++ {
			tb := f.newTable(t, i, outboxes)
			id := tb.id
			st.read(func(s *savedFleet) {
				if dv := s.Devices[id]; dv != nil {
					tb.token = dv.Token
				}
			})
			if tb.token == "" {
				need = append(need, id)
			}
			t.tables = append(t.tables, tb)
		}
	}
	tokens, err := f.issueTokens(ctx, need)
	if err != nil {
		return err
	}
	if f.cfg.Round == "" {
		if err := f.setPlan(ctx); err != nil {
			return err
		}
	}
	if len(tokens) > 0 {
		if err := st.update(func(s *savedFleet) {
			for id, tok := range tokens {
				s.Devices[id] = &savedDeviceInfo{Token: tok}
			}
		}); err != nil {
			return err
		}
	}
	for _, t := range f.tours {
		for _, tb := range t.tables {
			if tok, ok := tokens[tb.id]; ok {
				tb.token = tok
			}
		}
		if t.existing != nil {
			if err := f.assignExisting(ctx, t); err != nil {
				return err
			}
		}
	}
	return nil
}

// newTable makes the table of board i of tournament t, with its device's
// network, chaos and drift drawn from the seed.
func (f *Fleet) newTable(t *tournament, i int, outboxes func(id string) string) *table {
	id := fmt.Sprintf("%s-%d-%03d", f.cfg.DevicePrefix, t.index, i)
	h := fnv.New64a()
	h.Write([]byte(id))
	tb := &table{f: f, number: i, id: id, outboxPath: outboxes(id), wake: make(chan struct{}, 1),
		chaos: rand.New(rand.NewPCG(uint64(f.cfg.Seed), h.Sum64()))}
	tb.net = newNetwork(f.baseDial, &f.cfg.Chaos, &f.stats, rand.New(rand.NewPCG(uint64(f.cfg.Seed)+1, h.Sum64())))
	if d := f.cfg.Chaos.DriftPPM; d != 0 {
		tb.drift = (2*tb.chaos.Float64() - 1) * d
	}
	return tb
}

// issueTokens issues a device token for each of ids, a few at a time.
func (f *Fleet) issueTokens(ctx context.Context, ids []string) (map[string]string, error) {
	out := map[string]string{}
	var mu sync.Mutex
	err := parallel(ctx, len(ids), func(ctx context.Context, i int) error {
		id := ids[i]
		resp, err := call(ctx, f, func(ctx context.Context) (*hallv1.IssueTokenResponse, error) {
			return f.arb.IssueToken(ctx, &hallv1.IssueTokenRequest{Role: hallv1.Role_ROLE_DEVICE, Label: "simulated clock " + id, DeviceId: id})
		})
		if err != nil {
			return fmt.Errorf("sim: issue a token for device %s: %w", id, err)
		}
		mu.Lock()
		out[id] = resp.GetToken()
		mu.Unlock()
		return nil
	})
	return out, err
}

// parallel runs fn(0..n-1), sixteen at a time, and returns the first error.
func parallel(ctx context.Context, n int, fn func(ctx context.Context, i int) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		wg    sync.WaitGroup
		once  sync.Once
		first error
	)
	sem := make(chan struct{}, 16)
	for i := 0; i < n; i++ {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			if err := fn(ctx, i); err != nil {
				once.Do(func() { first = err; cancel() })
			}
		}()
	}
	wg.Wait()
	if first != nil {
		return first
	}
	return ctx.Err()
}

// --- rounds ---

// runTournament plays the tournament's rounds in order (and, with Loop,
// one more after the other for ever).
func (f *Fleet) runTournament(ctx context.Context, t *tournament) error {
	if t.existing != nil {
		return f.playExisting(ctx, t)
	}
	for number := 1; ctx.Err() == nil; number++ {
		var spec *checked
		switch {
		case number <= len(t.specs):
			spec = t.specs[number-1]
		case f.cfg.Loop:
			spec = t.specs[len(t.specs)-1]
		default:
			return nil
		}
		var saved *savedRound
		f.store.read(func(*savedFleet) { saved = t.saved.round(number) })
		if saved != nil && saved.Finished {
			continue
		}
		rr, err := f.prepareRound(ctx, t, spec, number, saved)
		if err != nil {
			return err
		}
		if err := f.playRound(ctx, rr); err != nil {
			return err
		}
	}
	return ctx.Err()
}

// prepareRound imports round number (or finds it) and marks its boards
// for their tables; each board's clock comes from the hall plan.
func (f *Fleet) prepareRound(ctx context.Context, t *tournament, spec *checked, number int, saved *savedRound) (*roundRun, error) {
	rr := &roundRun{f: f, tour: t, spec: spec, number: number, done: map[string]bool{}, signal: make(chan struct{}, 1)}
	if saved == nil {
		id, err := f.importRound(ctx, t, spec, number)
		if err != nil {
			return nil, err
		}
		saved = &savedRound{ID: id, Number: number}
		if err := f.store.update(func(*savedFleet) { t.saved.Rounds = append(t.saved.Rounds, saved) }); err != nil {
			return nil, err
		}
	}
	rr.id = saved.ID
	have, err := f.listBoards(ctx, rr.id)
	if err != nil {
		return nil, err
	}
	if len(have) == 0 || len(have) > len(t.tables) {
		return nil, fmt.Errorf("sim: round %d of %q has %d boards for %d clocks", number, t.name, len(have), len(t.tables))
	}
	rr.boards = make([]string, len(have))
	for _, b := range have {
		n := int(b.GetNumber())
		if n < 1 || n > len(have) {
			return nil, fmt.Errorf("sim: round %d of %q: board number %d of %d", number, t.name, n, len(have))
		}
		rr.boards[n-1] = b.GetBoardId()
		tb := t.tables[n-1]
		a, err := f.blindBoard(ctx, spec, b, n)
		if err != nil {
			return nil, err
		}
		f.mu.Lock()
		f.boards[b.GetBoardId()] = &boardInfo{round: rr, number: n, spec: spec, assistant: a}
		f.mu.Unlock()
		if b.GetState().GetSource() == hallv1.ClockSource_CLOCK_SOURCE_VIRTUAL && b.GetState().GetStatus() != hallv1.BoardStatus_BOARD_STATUS_FINISHED {
			tb.playVirtual(b.GetBoardId()) // its clock died before the restart
		}
		tb.poke()
	}
	if err := f.store.update(func(*savedFleet) { saved.Boards = rr.boards }); err != nil {
		return nil, err
	}
	return rr, nil
}

// playRound starts every clock of the round at once (those not started
// yet) and waits until every game has ended.
func (f *Fleet) playRound(ctx context.Context, rr *roundRun) error {
	n := len(rr.boards)
	// Every clock connected and assigned before the start, if it comes.
	deadline := time.Now().Add(15 * time.Second)
	for !rr.ready() && time.Now().Before(deadline) {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
	bs, err := f.listBoards(ctx, rr.id)
	if err != nil {
		return err
	}
	var waiting []string
	for _, b := range bs {
		switch b.GetState().GetStatus() {
		case hallv1.BoardStatus_BOARD_STATUS_WAITING:
			waiting = append(waiting, b.GetBoardId())
		}
	}
	f.stats.playing.Add(int64(n))
	if len(waiting) > 0 {
		resp, err := call(ctx, f, func(ctx context.Context) (*hallv1.StartRoundResponse, error) {
			return f.arb.StartRound(ctx, &hallv1.StartRoundRequest{RoundId: rr.id, BoardIds: waiting})
		})
		if err != nil {
			return fmt.Errorf("sim: start round %d of %q: %w", rr.number, rr.tour.name, err)
		}
		for _, b := range resp.GetBoards() {
			if b.GetStatus() == hallv1.CommandStatus_COMMAND_STATUS_REFUSED {
				f.log.Warn("board not started", "board", b.GetBoardId(), "message", b.GetMessage())
			}
		}
	}
	if err := f.store.update(func(s *savedFleet) {
		if r := rr.tour.saved.round(rr.number); r != nil {
			r.Started = true
		}
	}); err != nil {
		return err
	}

	lastCheck := time.Now()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-rr.signal:
		case <-time.After(time.Second):
		}
		if rr.doneCount() < n && time.Since(lastCheck) < 10*time.Second {
			continue
		}
		lastCheck = time.Now()
		bs, err := f.listBoards(ctx, rr.id)
		if err != nil {
			f.log.Warn("ListBoards failed", "round", rr.id, "err", err)
			continue
		}
		open := 0
		for _, b := range bs {
			if b.GetState().GetStatus() != hallv1.BoardStatus_BOARD_STATUS_FINISHED {
				open++
				rr.reopen(b.GetBoardId())
			}
		}
		if open > 0 {
			continue
		}
		f.roundOver(rr, bs)
		return f.store.update(func(s *savedFleet) {
			if r := rr.tour.saved.round(rr.number); r != nil {
				r.Finished = true
			}
		})
	}
}

// roundOver records the round's results.
func (f *Fleet) roundOver(rr *roundRun, bs []*hallv1.Board) {
	f.stats.mu.Lock()
	if f.stats.results == nil {
		f.stats.results = map[string]int{}
	}
	for _, b := range bs {
		st := b.GetState()
		f.stats.results[st.GetResult()+" "+st.GetTermination()]++
		if st.GetTermination() == "time" {
			f.stats.flags++
		}
	}
	f.stats.rounds++
	f.stats.mu.Unlock()
	f.stats.games.Add(int64(len(bs)))
	for _, id := range rr.boards {
		rr.finished(id) // tables that did not report it (yet)
	}
	f.mu.Lock()
	var assistants []*assistant
	for _, id := range rr.boards {
		if b := f.boards[id]; b != nil && b.assistant != nil {
			assistants = append(assistants, b.assistant)
		}
		delete(f.boards, id)
	}
	f.mu.Unlock()
	for _, a := range assistants {
		f.dismiss(context.Background(), a)
	}
	f.log.Info("round over", "tournament", rr.tour.name, "round", rr.number, "boards", len(bs))
}

// ready reports whether every board's clock is connected and assigned.
func (rr *roundRun) ready() bool {
	for i, id := range rr.boards {
		if rr.isDone(id) {
			continue // a finished board of the hall's round: no clock of ours
		}
		d := rr.tour.tables[i].devp.Load()
		if d == nil {
			return false
		}
		s := d.Status()
		if !s.Connected || s.BoardID != id {
			return false
		}
	}
	return true
}

// finished records that board's game has ended (its table reports it once
// the result is committed).
func (rr *roundRun) finished(board string) {
	rr.mu.Lock()
	if !rr.done[board] {
		rr.done[board] = true
		rr.f.stats.playing.Add(-1)
		rr.f.stats.finished.Add(1)
	}
	rr.mu.Unlock()
	select {
	case rr.signal <- struct{}{}:
	default:
	}
}

// reopen takes back a board reported finished that the hall says is not.
func (rr *roundRun) reopen(board string) {
	rr.mu.Lock()
	if rr.done[board] {
		delete(rr.done, board)
		rr.f.stats.playing.Add(1)
		rr.f.stats.finished.Add(-1)
	}
	rr.mu.Unlock()
}

func (rr *roundRun) isDone(board string) bool {
	rr.mu.Lock()
	defer rr.mu.Unlock()
	return rr.done[board]
}

func (rr *roundRun) doneCount() int {
	rr.mu.Lock()
	defer rr.mu.Unlock()
	return len(rr.done)
}

// boardInfo returns what the fleet knows of board, or nil.
func (f *Fleet) boardInfo(board string) *boardInfo {
	if board == "" {
		return nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.boards[board]
}

// --- talking to the hall ---

// actx returns ctx with the chief arbiter's credentials.
func (f *Fleet) actx(ctx context.Context) context.Context {
	return metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+f.cfg.ChiefToken)
}

// call makes an arbiter call with the chief's credentials, retrying while
// the hall is unreachable (a restart): a few times, within a minute.
func call[T any](ctx context.Context, f *Fleet, fn func(context.Context) (T, error)) (T, error) {
	return callAs(ctx, f, f.cfg.ChiefToken, fn)
}

// callAs is call with the credentials of token.
func callAs[T any](ctx context.Context, f *Fleet, token string, fn func(context.Context) (T, error)) (T, error) {
	var zero T
	wait := 100 * time.Millisecond
	for try := 0; ; try++ {
		cctx, cancel := context.WithTimeout(metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+token),
			30*time.Second+time.Duration(f.waitMs)*time.Millisecond)
		v, err := fn(cctx)
		cancel()
		if err == nil || status.Code(err) != codes.Unavailable || try >= 8 || ctx.Err() != nil {
			return v, err
		}
		select {
		case <-ctx.Done():
			return zero, ctx.Err()
		case <-time.After(wait):
		}
		wait = min(2*wait, 5*time.Second)
	}
}

// act is an arbiter's BoardAction, waiting for the device a few seconds
// of real time.
func (f *Fleet) act(ctx context.Context, board string, a *hallv1.ClockAction, reason string) (*hallv1.BoardActionResponse, error) {
	req := &hallv1.BoardActionRequest{BoardId: board, Action: a, Reason: reason, WaitMs: f.waitMs}
	return call(ctx, f, func(ctx context.Context) (*hallv1.BoardActionResponse, error) { return f.arb.BoardAction(ctx, req) })
}

func (f *Fleet) getBoard(ctx context.Context, board string) (*hallv1.Board, error) {
	return call(ctx, f, func(ctx context.Context) (*hallv1.Board, error) {
		return f.arb.GetBoard(ctx, &hallv1.GetBoardRequest{BoardId: board})
	})
}

func (f *Fleet) listBoards(ctx context.Context, round string) ([]*hallv1.Board, error) {
	resp, err := call(ctx, f, func(ctx context.Context) (*hallv1.ListBoardsResponse, error) {
		return f.arb.ListBoards(ctx, &hallv1.ListBoardsRequest{RoundId: round})
	})
	return resp.GetBoards(), err
}

// baseDial opens a network connection to the hall.
func (f *Fleet) baseDial(ctx context.Context, addr string) (net.Conn, error) {
	if f.cfg.Dial != nil {
		return f.cfg.Dial(ctx, addr)
	}
	var d net.Dialer
	return d.DialContext(ctx, "tcp", addr)
}

func (f *Fleet) dialOptions(dial func(context.Context, string) (net.Conn, error)) []grpc.DialOption {
	creds := f.cfg.Credentials
	if creds == nil {
		creds = insecure.NewCredentials()
	}
	opts := []grpc.DialOption{
		grpc.WithTransportCredentials(creds),
		grpc.WithContextDialer(dial),
		// Reconnect quickly after a cut: the hall is near.
		grpc.WithConnectParams(grpc.ConnectParams{
			Backoff:           backoff.Config{BaseDelay: 50 * time.Millisecond, Multiplier: 1.6, Jitter: 0.2, MaxDelay: time.Second},
			MinConnectTimeout: 5 * time.Second,
		}),
		// Static windows, as the server: no BDP pings from thousands of
		// connections (notes/machine-limits.md).
		grpc.WithInitialWindowSize(1 << 20),
		grpc.WithInitialConnWindowSize(1 << 20),
	}
	return append(opts, f.cfg.DialOptions...)
}

// deviceConn opens a device's own connection, on its own network.
func (f *Fleet) deviceConn(n *network) (*grpc.ClientConn, error) {
	opts := append(f.dialOptions(n.dial), grpc.WithStreamInterceptor(n.intercept),
		// A clock's messages are small: 8 KiB buffers instead of 32 KiB
		// keep 10,000 devices in one process affordable.
		grpc.WithReadBufferSize(8<<10), grpc.WithWriteBufferSize(8<<10))
	return grpc.NewClient(f.cfg.Target, opts...)
}

// --- progress ---

// progress prints a progress line every ProgressEvery until the returned
// function is called.
func (f *Fleet) progress() func() {
	if f.cfg.Progress == nil {
		return func() {}
	}
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(f.cfg.ProgressEvery)
		defer tick.Stop()
		last, lastAt := int64(0), time.Now()
		for {
			select {
			case <-stop:
				return
			case now := <-tick.C:
				presses := f.stats.presses.Load()
				rate := float64(presses-last) / now.Sub(lastAt).Seconds()
				last, lastAt = presses, now
				fmt.Fprintln(f.cfg.Progress, f.progressLine(now, presses, rate))
			}
		}
	}()
	return func() { close(stop); <-done }
}

func (f *Fleet) progressLine(now time.Time, presses int64, rate float64) string {
	counts, _ := f.stats.window.snapshot(true)
	n, q := quantiles(counts, 0.5, 0.99)
	c := &f.stats
	line := fmt.Sprintf("%7s  boards %d playing, %d finished  presses %d (%.0f/s)  acks %d p50 %s p99 %s  reconnects %d",
		now.Sub(f.began).Round(time.Second), c.playing.Load(), c.finished.Load(), presses, rate, n, fmtDur(q[0]), fmtDur(q[1]),
		max(c.connects.Load()-c.incarnations.Load(), 0))
	if f.cfg.Chaos != (Chaos{CutFor: f.cfg.Chaos.CutFor, RebootFor: f.cfg.Chaos.RebootFor, DieNotice: f.cfg.Chaos.DieNotice}) {
		line += fmt.Sprintf("  chaos: %d cuts %d dup %d reorder %d reboots %d dead", c.cuts.Load(), c.duplicated.Load(),
			c.reordered.Load(), c.reboots.Load(), c.deaths.Load())
	}
	if f.cfg.HallStats != nil {
		h := f.cfg.HallStats()
		line += fmt.Sprintf("  hall: %d dups %d gaps %d rejected", h.Duplicates, h.Gaps, h.Rejected)
	}
	return line
}

// Summary returns what the fleet has done so far (Run returns the final one).
func (f *Fleet) Summary() Summary {
	c := &f.stats
	counts, maxd := c.acks.snapshot(false)
	n, q := quantiles(counts, 0.5, 0.99)
	s := Summary{
		Speed: f.cfg.Speed, Chaos: f.cfg.Chaos.String(),
		Games: int(c.games.Load()), Presses: int(c.presses.Load()), Illegal: int(c.illegal.Load()),
		Claims: int(c.claims.Load()), Adjourns: int(c.adjourns.Load()), Announcements: int(c.announcements.Load()),
		AssistedPresses: int(c.assistedPresses.Load()), AssistedAnnouncements: int(c.assistedAnnouncements.Load()),
		Connects: int(c.connects.Load()), Reconnects: int(max(c.connects.Load()-c.incarnations.Load(), 0)),
		Rejections: int(c.rejections.Load()),
		Cuts:       int(c.cuts.Load()), Duplicated: int(c.duplicated.Load()), Reordered: int(c.reordered.Load()),
		Reboots: int(c.reboots.Load()), Recovered: int(c.recovered.Load()), RecoveredDelivered: int(c.recoveredDelivered.Load()),
		Deaths: int(c.deaths.Load()), VirtualClocks: int(c.virtual.Load()),
		Acks: int(n), AckP50: min(q[0], maxd), AckP99: min(q[1], maxd), AckMax: maxd,
		Results: map[string]int{},
	}
	f.mu.Lock()
	if !f.began.IsZero() {
		s.Elapsed = time.Since(f.began)
	}
	f.mu.Unlock()
	c.mu.Lock()
	for k, v := range c.results {
		s.Results[k] = v
	}
	s.Flags, s.Rounds = c.flags, c.rounds
	c.mu.Unlock()
	if f.cfg.HallStats != nil {
		h := f.cfg.HallStats()
		s.Hall = &h
	}
	return s
}

// debugOnly is a slog handler that passes everything at debug level: the
// devices' link warnings are the simulation working, not news.
type debugOnly struct{ h slog.Handler }

func (d debugOnly) Enabled(ctx context.Context, _ slog.Level) bool {
	return d.h.Enabled(ctx, slog.LevelDebug)
}

func (d debugOnly) Handle(ctx context.Context, r slog.Record) error {
	r.Level = slog.LevelDebug
	return d.h.Handle(ctx, r)
}

func (d debugOnly) WithAttrs(as []slog.Attr) slog.Handler { return debugOnly{d.h.WithAttrs(as)} }
func (d debugOnly) WithGroup(n string) slog.Handler       { return debugOnly{d.h.WithGroup(n)} }
