package main

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"
)

// live is what was measured of one server (hall or echo) with its clocks
// connected.
type live struct {
	kind           string
	clocks         int
	rss0, rss1     int64 // before the clocks connected, and with them idle
	g0, g1         int   // goroutines, the same
	ingest         *window
	collected      *window       // the same, a collection forced halfway through
	cpu, gen       time.Duration // server's and generator's CPU over the ingest window
	sat            []satStep
	satAt          float64 // the saturation throughput
	watch          *watchResult
	streamErrs     int64
	streamCuts     int64         // clock streams the server ended (of clocks)
	beatLate       time.Duration // the latest the bench sent a heartbeat
	beatEvery      time.Duration // the heartbeat interval the server's Welcome asked for
	cpus, loadCPUs string        // the CPUs the server and the bench were allowed (from the kernel)
	lastStreamErr  error
	profiles       []string
	connectTook    time.Duration
	setupTook      time.Duration
	acksPerCommit  float64
	commitsPerSec  float64
	watchersFailed string
}

type satStep struct {
	offered, acked float64
	p50, p99       time.Duration
}

type watchResult struct {
	kinds []watchKind
	// slow watchers: ingest without and with them stalled
	slowBase, slowWith *window
	slow               []slowOutcome
}

type watchKind struct {
	kind       string
	base, with *window // ingest without and with the watchers
	lat        *hist   // acknowledgement → update, sampled watchers
	age        *hist   // the age of the sampled watchers' views (age.go)
	ageMax     time.Duration
	// at saturation (satRate offered), with the same watchers
	satRate       float64
	sat           *window
	satLat        *hist
	satAge        *hist
	satAgeMax     time.Duration
	satUpdates    int64
	lost          int64
	updates       int64
	bytes         int64
	errs          int64
	lastErr       error
	window        time.Duration
	connectedTook time.Duration
}

type slowOutcome struct {
	kind    string
	report  slowReport
	noStall bool // no update came while it was not reading
	err     error
}

const drain = 10 * time.Second

// runServer starts the echo server or the hall, connects the clocks and
// runs the live parts on it.
func runServer(c config, tmp, kind string) (*live, error) {
	ctx := context.Background()
	res := &live{kind: kind, clocks: c.clocks}
	var (
		s   *server
		err error
		arb *arbiter
	)
	fmt.Printf("\n== %s: %d clocks\n", kind, c.clocks)
	if kind != "hall" {
		s, err = startEcho(kind, tmp, c.heartbeat, c.serverCPUs)
	} else {
		var logf *os.File
		if logf, err = os.Create(filepath.Join(tmp, "hallserver.log")); err != nil {
			return nil, err
		}
		defer logf.Close()
		var extra []string
		if c.heartbeatSet {
			extra = []string{"-heartbeat-budget", hallBudget(c.clocks, c.heartbeat)}
		}
		s, _, err = startHall(c.hallserver, filepath.Join(tmp, "hall-live"), c.serverCPUs, logf, extra...)
	}
	if err != nil {
		return nil, err
	}
	defer s.stop()
	res.cpus, res.loadCPUs = allowedCPUs(s.cmd.Process.Pid), allowedCPUs(os.Getpid())
	fmt.Printf("   %s on CPUs %s, the bench on %s\n", kind, res.cpus, res.loadCPUs)
	var devs, tokens []string
	t := time.Now()
	if kind == "hall" {
		if arb, err = dialArbiter(s); err != nil {
			return nil, err
		}
		defer arb.conn.Close()
		if devs, tokens, err = arb.setupRound(ctx, c.clocks); err != nil {
			return nil, err
		}
	} else {
		devs, tokens = echoDevices(c.clocks)
	}
	res.setupTook = time.Since(t)
	time.Sleep(2 * time.Second)
	res.rss0, res.g0 = s.rss(), s.goroutines()
	t = time.Now()
	f, err := connect(s.grpc, devs, tokens)
	if err != nil {
		return nil, err
	}
	defer f.close()
	if kind == "hall" {
		f.backlog = func() float64 { return s.metric("hall_outbox_backlog") }
	}
	f.rt = s.runtime
	res.connectTook = time.Since(t)
	fmt.Printf("   set up in %s, %d clocks connected in %s\n", res.setupTook.Round(time.Millisecond), c.clocks, res.connectTook.Round(time.Millisecond))
	time.Sleep(3 * time.Second) // idle: heartbeats only
	res.rss1, res.g1 = s.rss(), s.goroutines()
	fmt.Printf("   idle: RSS %.0f MB → %.0f MB, goroutines %d → %d\n", float64(res.rss0)/(1<<20), float64(res.rss1)/(1<<20), res.g0, res.g1)
	if kind == "hall" {
		// A hall's clocks connect well before its round starts, and the
		// hall collects once nothing has come for 5 s (cmd/hallserver
		// gc_idle.go), so that its next cycle is paced on the connected
		// fleet's heap. The bench's round starts as late as that.
		time.Sleep(hallIdleBeforeRound)
		if err := arb.startRound(ctx); err != nil {
			return nil, fmt.Errorf("starting the round: %w", err)
		}
		if err := f.running(2 * time.Minute); err != nil {
			return nil, err
		}
	}
	if c.parts["ingest"] || c.parts["watchers"] || c.parts["saturation"] {
		// Caught up and collected first (as measure would), so that the
		// CPU figures span only the warm-up, window and drain.
		f.settle(settleLimit)
		f.collect()
		cpu0, gen0 := s.cpu(), procCPU(os.Getpid())
		c0, w0 := s.metric("hall_store_commits_total"), s.metric("hall_store_writes_total")
		res.ingest = f.measure(c.rate, c.warmup, c.duration, drain, false)
		// The CPU figures span warm-up, window and drain at the same rate.
		res.cpu, res.gen = s.cpu()-cpu0, procCPU(os.Getpid())-gen0
		if commits := s.metric("hall_store_commits_total") - c0; commits > 0 {
			res.commitsPerSec = commits / (c.warmup + c.duration).Seconds()
			res.acksPerCommit = (s.metric("hall_store_writes_total") - w0) / commits
			fmt.Printf("   store: %.0f commits/s, %.1f writes per commit\n", res.commitsPerSec, res.acksPerCommit)
		}
		w := res.ingest
		fmt.Printf("   ingest at %.0f/s: acked %.0f/s, p50 %s, p99 %s (the bench sent them p99 %s late; its goroutines waited p99 %s, at most %s, to run); server CPU %.0f%%, generator CPU %.0f%%\n",
			c.rate, float64(w.acked.Load())/c.duration.Seconds(), ms(w.lat.quantile(0.5)), ms(w.lat.quantile(0.99)), ms(w.sendLate.quantile(0.99)),
			ms(w.schedP99), ms(w.schedMax),
			100*res.cpu.Seconds()/(c.warmup+c.duration).Seconds(), 100*res.gen.Seconds()/(c.warmup+c.duration).Seconds())
		if w.rtOK {
			fmt.Printf("   %s's runtime in the window: longest stop-the-world pause %s; %d collections, %s of assists (%s a collection); a goroutine waited for a processor at most %s; %.1f KB allocated per press\n",
				kind, ms(w.rt.LongestPause), w.rt.Cycles, ms(w.rt.Assist), ms(w.rt.AssistPerCycle()), ms(w.rt.LongestWait), allocPerPress(w)/1024)
		}
		if n, err := f.errors(); n > 0 {
			fmt.Printf("   %d clock stream errors, the last: %v\n", n, err)
		}
		if c.parts["ingest"] {
			// The same window with a collection in it, on every server
			// alike: a window of 20 s holds one of the runtime's own or
			// not (about one a minute at 1,000/s), so the row above says
			// little of what a collection costs the presses; this one
			// does, and says it of the echo servers too.
			var gcErr error
			res.collected = f.measureWith(c.rate, c.warmup, c.duration, drain, false, func() { gcErr = s.collectNow(ctx) })
			w := res.collected
			fmt.Printf("   a collection forced halfway through a window at %.0f/s: acked %.0f/s, p50 %s, p99 %s%s\n",
				c.rate, float64(w.acked.Load())/c.duration.Seconds(), ms(w.lat.quantile(0.5)), ms(w.lat.quantile(0.99)), rtNote(w))
			if gcErr != nil {
				fmt.Printf("   (the collection could not be asked for: %v)\n", gcErr)
				res.collected = nil
			}
		}
	}
	if c.profile != "" && kind == "hall" {
		if res.profiles, err = profileUnder(ctx, s, f, c); err != nil {
			return nil, err
		}
	}
	// Saturation before the watchers: its steps measure the hall, not
	// what 1,000 watchers left behind (clocks cut, backlogs).
	if c.parts["saturation"] {
		res.sat, res.satAt = saturate(f, c)
	}
	if c.parts["watchers"] && kind == "hall" {
		if res.watch, err = watchPart(s, f, arb, c, watchSatRate(c, res.sat)); err != nil {
			res.watchersFailed = err.Error()
			fmt.Printf("   watchers: %v\n", err)
		}
	}
	res.streamErrs, res.lastStreamErr = f.errors()
	res.streamCuts = f.cuts.Load()
	res.beatLate = time.Duration(f.beatLate.Load())
	res.beatEvery = time.Duration(f.hbEvery.Load())
	return res, nil
}

// hallBudget is the hall's -heartbeat-budget that has a fleet of clocks
// beat every interval (devlink.HeartbeatEvery): 0, every second.
func hallBudget(clocks int, every time.Duration) string {
	if every <= time.Second {
		return "0"
	}
	return strconv.Itoa(max(1, int(math.Ceil(float64(clocks)*float64(time.Second)/float64(every)))))
}

// profileUnder takes CPU, block and mutex profiles of the hall over one
// window at the ingest rate, a heap profile at its end and then an
// execution trace of traceFor.
const traceFor = 5 * time.Second

func profileUnder(ctx context.Context, s *server, f *fleet, c config) ([]string, error) {
	if err := os.MkdirAll(c.profile, 0o755); err != nil {
		return nil, err
	}
	f.setRate(c.rate)
	time.Sleep(c.warmup)
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		files []string
		first error
	)
	// The heap as the window starts too: what the window allocated is
	// go tool pprof -sample_index=alloc_space -base hall-heap-start... hall-heap...
	if name, err := s.profile(ctx, c.profile, "heap", "start", 0); err != nil {
		first = err
	} else {
		files = append(files, name)
	}
	for _, kind := range []string{"profile", "block", "mutex"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			name, err := s.profile(ctx, c.profile, kind, "", c.duration)
			mu.Lock()
			defer mu.Unlock()
			if err != nil && first == nil {
				first = err
			}
			if name != "" {
				files = append(files, name)
			}
		}()
	}
	wg.Wait()
	// The heap as the window ends: what each GC cycle has to mark.
	if name, err := s.profile(ctx, c.profile, "heap", "", 0); err != nil {
		first = cmp.Or(first, err)
	} else {
		files = append(files, name)
	}
	// An execution trace of a few seconds, after the profiles (its cost
	// would weigh on theirs): where the presses' p99 stalls are —
	// collector phases, a goroutine waiting for a processor, a lock
	// (go tool trace).
	if name, err := s.profile(ctx, c.profile, "trace", "", traceFor); err != nil {
		first = cmp.Or(first, err)
	} else {
		files = append(files, name)
	}
	fmt.Printf("   profiles under %.0f presses/s: %v\n", c.rate, files)
	return files, first
}

// rtNote says what the server's runtime did in a window, for the lines
// printed as the bench goes: a collection is the usual reason a window's
// p99 jumps.
func rtNote(w *window) string {
	if !w.rtOK {
		return ""
	}
	return fmt.Sprintf("; server: %d collections, longest pause %s, %s of assists, a goroutine waited at most %s", w.rt.Cycles, ms(w.rt.LongestPause), ms(w.rt.Assist), ms(w.rt.LongestWait))
}

// hallIdleBeforeRound is how long the bench leaves the hall idle after
// its clocks connected (and the 3 s of the idle memory reading) before it
// starts the round: past the hall's idle collection (5 s and a look).
const hallIdleBeforeRound = 4 * time.Second

// saturate raises the offered rate step by step until throughput stops
// rising or p99 passes 100 ms; the saturation throughput is the best
// acknowledged rate before that.
func saturate(f *fleet, c config) ([]satStep, float64) {
	var (
		steps []satStep
		best  float64
	)
	for _, r := range c.satRates {
		w := f.measure(r, c.warmup/2, c.satDuration, drain, false)
		st := satStep{offered: r, acked: float64(w.acked.Load()) / c.satDuration.Seconds(), p50: w.lat.quantile(0.5), p99: w.lat.quantile(0.99)}
		steps = append(steps, st)
		fmt.Printf("   saturation: offered %.0f/s → acked %.0f/s, p50 %s, p99 %s%s\n", r, st.acked, ms(st.p50), ms(st.p99), rtNote(w))
		if st.p99 > 100*time.Millisecond {
			break
		}
		if st.acked < best*1.05 {
			best = max(best, st.acked)
			break
		}
		best = st.acked
	}
	f.setRate(0)
	time.Sleep(drain / 2) // let a saturated server catch up before the next part
	return steps, best
}

// watchSatRate is the offered rate at which the watchers' views are aged
// at saturation: -watch-sat-rate, else the step where the hall's
// saturation sweep stopped (past what it acknowledges in time), else
// 2.5× the watchers' rate.
func watchSatRate(c config, sat []satStep) float64 {
	switch {
	case c.watchSatRate != 0:
		return max(c.watchSatRate, 0)
	case len(sat) > 0:
		return sat[len(sat)-1].offered
	}
	return 2.5 * c.watchRateOr()
}

// watchPart measures watchers on the live hall; satRate > 0 also ages
// their views at that offered rate.
func watchPart(s *server, f *fleet, arb *arbiter, c config, satRate float64) (*watchResult, error) {
	ctx := context.Background()
	tokens, err := arb.watcherTokens(ctx, c.watchers/32+2)
	if err != nil {
		return nil, err
	}
	res := &watchResult{}
	rate := c.watchRateOr()
	for _, kind := range []string{"grpc", "sse"} {
		wk := watchKind{kind: kind, window: c.duration}
		wk.base = f.measure(rate, c.warmup, c.duration, drain, false)
		t := time.Now()
		set, err := startWatchers(s, f, kind, c.watchers, c.sample, tokens, false)
		if err != nil {
			return res, err
		}
		wk.connectedTook = time.Since(t)
		f.resetAcks()
		ages := set.ageFrom()
		wk.lat = &hist{}
		set.lat.Store(wk.lat)
		stopAges := make(chan struct{})
		go set.trackAges(stopAges)
		u0, b0 := set.counts()
		prof := make(chan string, 1)
		if c.profile != "" {
			go func() {
				// The CPU profile of the window with the watchers,
				// once it starts (after the fleet settled and warmed).
				asked := time.Now()
				for w := f.win.Load(); w == nil || w.from.Before(asked); w = f.win.Load() {
					time.Sleep(10 * time.Millisecond)
				}
				name, err := s.profile(context.Background(), c.profile, "profile", kind+"-watchers", c.duration)
				if err != nil {
					name = err.Error()
				}
				prof <- name
			}()
		} else {
			prof <- ""
		}
		wk.with = f.measure(rate, c.warmup, c.duration, drain, true)
		if name := <-prof; name != "" {
			fmt.Printf("   profile with the %s watchers: %s\n", kind, name)
		}
		time.Sleep(2 * time.Second) // the last updates
		set.lat.Store(nil)
		set.ages.Store(nil)
		wk.age, wk.ageMax = &ages.hist, ages.maxAge()
		u1, b1 := set.counts()
		wk.updates, wk.bytes = u1-u0, b1-b0
		wk.lost = set.lost(wk.lat)
		fmt.Printf("   %d %s watchers (connected in %s): ingest %.0f/s p99 %s (without: %.0f/s p99 %s); ack→update p50 %s p99 %s, %d lost; views aged p99 %s, at most %s; %.1f MB/s to the watchers%s\n",
			c.watchers, kind, wk.connectedTook.Round(time.Millisecond),
			float64(wk.with.acked.Load())/c.duration.Seconds(), ms(wk.with.lat.quantile(0.99)),
			float64(wk.base.acked.Load())/c.duration.Seconds(), ms(wk.base.lat.quantile(0.99)),
			ms(wk.lat.quantile(0.5)), ms(wk.lat.quantile(0.99)), wk.lost, ms(wk.age.quantile(0.99)), ms(wk.ageMax),
			float64(wk.bytes)/(c.duration+c.warmup+2*time.Second).Seconds()/(1<<20), rtNote(wk.with))
		if satRate > 0 {
			// The same watchers, the hall past saturation: ingest comes
			// first, and their views must stay fresh all the same.
			f.resetAcks()
			ages := set.ageFrom()
			wk.satRate, wk.satLat = satRate, &hist{}
			set.lat.Store(wk.satLat)
			su0, _ := set.counts()
			wk.sat = f.measure(satRate, c.warmup, c.duration, drain, true)
			time.Sleep(2 * time.Second) // the last updates
			set.lat.Store(nil)
			set.ages.Store(nil)
			su1, _ := set.counts()
			wk.satAge, wk.satAgeMax, wk.satUpdates = &ages.hist, ages.maxAge(), su1-su0
			satLost := set.lost(wk.satLat)
			fmt.Printf("   %s watchers at %.0f/s offered: ingest %.0f/s p99 %s; views aged p50 %s p99 %s, at most %s; ack→update p50 %s p99 %s, %d never seen; %d updates; the bench's goroutines (its sampled watchers among them) waited p99 %s, at most %s, to run%s\n",
				kind, satRate, float64(wk.sat.acked.Load())/c.duration.Seconds(), ms(wk.sat.lat.quantile(0.99)),
				ms(wk.satAge.quantile(0.5)), ms(wk.satAge.quantile(0.99)), ms(wk.satAgeMax),
				ms(wk.satLat.quantile(0.5)), ms(wk.satLat.quantile(0.99)), satLost, wk.satUpdates,
				ms(wk.sat.schedP99), ms(wk.sat.schedMax), rtNote(wk.sat))
		}
		close(stopAges)
		set.close() // the crowd's last report
		wk.errs, wk.lastErr = set.errors()
		res.kinds = append(res.kinds, wk)
		time.Sleep(2 * time.Second)
	}
	// One watcher of each kind stops reading.
	res.slowBase = f.measure(rate, c.warmup, c.stall, drain, false)
	var sets []*watcherSet
	for _, kind := range []string{"grpc", "sse"} {
		set, err := startWatchers(s, f, kind, 1, 0, tokens, true)
		if err != nil {
			return res, err
		}
		defer set.close()
		sets = append(sets, set)
	}
	for _, set := range sets {
		close(set.ws[0].stall)
	}
	res.slowWith = f.measure(rate, 0, c.stall, drain, false)
	f.setRate(rate)
	for _, set := range sets {
		close(set.ws[0].resume)
	}
	for _, set := range sets {
		o := slowOutcome{kind: set.kind}
		select {
		case o.report = <-set.ws[0].caught:
		case <-time.After(3*c.stall + 10*time.Second):
			_, err := set.errors()
			o.err = fmt.Errorf("no snapshot within %s of resuming, %d updates read since, stopped reading after %d (stream error: %v)",
				3*c.stall+10*time.Second, set.ws[0].afterResume.Load(), set.ws[0].stalledAt.Load(), err)
		}
		if stalled := time.Duration(set.ws[0].stalledFor.Load()); stalled < c.stall/2 {
			// No update came while it was told to stop reading: it
			// never fell behind, so its first update after resuming
			// says nothing.
			o.noStall = true
			o.err = fmt.Errorf("it did not fall behind: no update came in the first %s of the %s it was told to stop reading",
				(c.stall - stalled).Round(time.Millisecond), c.stall)
		}
		res.slow = append(res.slow, o)
		fmt.Printf("   slow %s watcher, %s without reading: ingest p99 %s (without %s%s); resumed: snapshot %v after %s, %d updates / %.0f KB before it %v%s\n",
			o.kind, c.stall, ms(res.slowWith.lat.quantile(0.99)), ms(res.slowBase.lat.quantile(0.99)), rtNote(res.slowBase), o.report.snapshot,
			o.report.after.Round(time.Millisecond), o.report.updatesAhead, float64(o.report.bytesBefore)/1024, o.err, rtNote(res.slowWith))
	}
	f.setRate(0)
	return res, nil
}
