// Command bench measures the hall server under load on this machine and
// prints one table: each figure of the hall, its baseline measured in the
// same run, their ratio, the hall's target for it and whether it holds.
// Absolute figures vary 2-3x between runs on a shared machine (see
// ../shared/notes/machine-limits.md); the ratios are what to compare.
//
//	go run ./tools/bench                 # full scale: 10,000 clocks (several minutes)
//	go run ./tools/bench -quick          # CI: reduced scale, under a minute
//	go run ./tools/bench -parts ingest,memory -clocks 2000 -rate 1000
//	go run ./tools/bench -profile /tmp/prof   # also CPU, block and mutex profiles of hallserver
//
// The parts (-parts, all by default):
//
//   - ingest: -clocks clocks, each one gRPC connection and ClockLink
//     stream, offering -rate presses per second in all (and heartbeats
//     as often as the server's Welcome asks, as devices do). Acknowledged presses per second and
//     acknowledgement latency (from the press's scheduled time) of the real
//     hallserver against the echo server (no rules, no disk), the same
//     clocks and connections, one after the other; and the durable echo
//     (durable.go: each press appended to a file and acknowledged after
//     fdatasync, in group commits), what durability alone costs. Every
//     server asks for heartbeats at the same interval (-heartbeat, by
//     default the hall's own for the fleet), and each window reports the
//     server's longest stop-the-world pause and collection assists
//     (internal/rtstats, read from its debug listener). Then the same
//     window on every server with a collection forced halfway through
//     it: what a collection costs the presses, whether or not one of
//     the runtime's own fell in the first window.
//   - saturation: the offered rate raised step by step (-sat-rates) until
//     throughput stops rising or p99 passes 100 ms, hall and echo.
//   - watchers: -watchers WatchHall (gRPC) watchers, then as many SSE
//     watchers (/api/watch), on the live hall at -watch-rate (default
//     -rate; a lower rate shows them where the hall has headroom, and
//     the rows then name it): p99 from a press's
//     acknowledgement to the watcher's update showing it, and ingest with
//     them against ingest without them (the window before); then, with
//     the same watchers, the offered rate where the saturation sweep
//     stopped (-watch-sat-rate), and the age of the oldest state a
//     sampled watcher holds (age.go): ingest first must not leave a
//     watcher without updates. All but
//     -watch-sample of them only read, in a process of their own
//     (-serve-crowd, crowd.go), so as not to starve the clocks. The SSE
//     watchers ask for gzip as browsers do (-sse-gzip); those that only
//     read count updates by their sync flushes, undecompressed. Then one gRPC
//     and one SSE watcher, with small receive buffers as a phone's, that
//     stop reading for -stall: ingest p99 against without, and whether the
//     slow watcher resumes with a fresh snapshot rather than a backlog.
//   - memory: resident memory per idle clock stream, hall and echo (RSS
//     with the clocks connected and idle, less before they connected).
//   - restart: a hall of -restart-boards boards holding -restart-events
//     events, written straight into SQLite (no network); the time from
//     starting hallserver to serving, against the same boards with no
//     events.
//   - rules: rules.Apply of a press (testing.Benchmark; also
//     go test -bench ApplyPress ./rules).
//   - transports (only when named): -ws-clocks clocks over WebSocket
//     beside the rest over gRPC on one hall: each transport's
//     acknowledgement latency in one window, and the hall's CPU per press
//     of each pressing alone (transports.go).
//
// The hall is the real cmd/hallserver (built, or -hallserver), and the echo
// server is this program run again (-serve-echo): each is a process of its
// own, measured from /proc and its profiler (hallserver -debug-addr). On
// two or more CPUs the server under test runs alone on -server-cpus and the
// bench (its clocks, its watchers) on -load-cpus (pin.go): by default the
// upper and lower half, on 2 cores one each. The
// clocks are not clockdev.Devices but raw streams driven by a few pacer
// goroutines (clocks.go), so that the generator stays light.
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	"github.com/chesshall/hallclock/server/devlink"
)

type config struct {
	quick                        bool
	parts                        map[string]bool
	clocks                       int
	rate                         float64
	duration, warmup             time.Duration
	satRates                     []float64
	satDuration                  time.Duration
	watchers, sample             int
	watchRate                    float64 // the watchers part's offered rate (0: rate)
	watchSatRate                 float64 // the watchers' views aged at this offered rate (0: where saturation stopped)
	stall                        time.Duration
	restartBoards, restartEvents int
	restartDir                   string
	hallserver                   string
	profile                      string
	markdown                     bool
	// serverCPUs: where the server under test runs (the hall, the echo
	// server, each alone); loadCPUs: the bench's clocks and watchers.
	serverCPUs, loadCPUs cpuSet
	wsClocks             int // the transports part: of clocks, those over WebSocket (transports.go)
	// heartbeat is the interval every server asks its clocks to beat at
	// (heartbeatSet: given by -heartbeat, else the hall's own for the
	// fleet); durable: also measure the durable echo (durable.go).
	heartbeat    time.Duration
	heartbeatSet bool
	durable      bool
}

func main() {
	var (
		c         config
		parts     string
		satRates  string
		serverCPU string
		loadCPU   string
		echoMode  bool
		crowdMode bool
		echoOpts  echoOptions
	)
	flag.BoolVar(&echoMode, "serve-echo", false, "run as the echo server (the baseline; started by bench itself)")
	flag.DurationVar(&echoOpts.heartbeat, "echo-heartbeat", time.Second, "echo server: the heartbeat interval its Welcome asks for (set by bench itself)")
	flag.StringVar(&echoOpts.durable, "echo-durable", "", "echo server: append each event to this file and acknowledge it once synced (the durable echo; set by bench itself)")
	flag.DurationVar(&echoOpts.commitEvery, "echo-commit-every", echoCommitEvery, "durable echo: at most one commit (write and fdatasync) this often, as the hall's storage writer")
	flag.BoolVar(&crowdMode, "serve-crowd", false, "run as a crowd of watchers (orders on standard input; started by bench itself)")
	flag.BoolVar(&c.quick, "quick", false, "reduced scale for CI: under a minute, asserts nothing about time")
	flag.StringVar(&parts, "parts", "ingest,saturation,watchers,memory,restart,rules", "parts to run")
	flag.IntVar(&c.clocks, "clocks", 10000, "clock devices, each its own connection, stream and board")
	flag.Float64Var(&c.rate, "rate", 1000, "offered presses per second, all clocks together")
	flag.DurationVar(&c.duration, "duration", 20*time.Second, "length of each measured window")
	flag.DurationVar(&c.warmup, "warmup", 3*time.Second, "pressing before each window, not measured")
	flag.StringVar(&satRates, "sat-rates", "1000,1500,2000,2500,3000,4000,5000,6000,7500,10000,12500,15000,20000", "saturation: offered rates, in order")
	flag.DurationVar(&c.satDuration, "sat-duration", 8*time.Second, "saturation: length of each step")
	flag.IntVar(&c.watchers, "watchers", 1000, "watchers of each kind (gRPC, then SSE)")
	flag.Float64Var(&c.watchRate, "watch-rate", 0, "watchers: offered presses per second while the watchers are measured (default: -rate)")
	flag.Float64Var(&c.watchSatRate, "watch-sat-rate", 0, "watchers: offered presses per second past saturation, where their views are aged (default: the step where the saturation sweep stopped; negative: none)")
	flag.BoolVar(&sseGzip, "sse-gzip", true, "watchers: the SSE watchers take gzip (Accept-Encoding), as browsers do; the crowd's count its updates on the wire without decompressing")
	flag.IntVar(&c.sample, "watch-sample", 10, "watchers of each kind that decode every update to time it")
	flag.DurationVar(&c.stall, "stall", 10*time.Second, "how long the slow watchers stop reading")
	flag.IntVar(&c.restartBoards, "restart-boards", 10000, "restart: boards")
	flag.IntVar(&c.restartEvents, "restart-events", 10_000_000, "restart: events in all")
	flag.StringVar(&c.restartDir, "restart-dir", "", "restart: keep the generated halls here and reuse them on the next run (default: a temporary directory)")
	flag.IntVar(&c.wsClocks, "ws-clocks", 2000, "transports: of -clocks, the clocks speaking ClockLink over WebSocket (tablets), beside the rest over gRPC")
	flag.StringVar(&c.hallserver, "hallserver", "", "hallserver binary (default: go build ./cmd/hallserver)")
	flag.StringVar(&c.profile, "profile", "", "write CPU, block and mutex profiles and an execution trace of hallserver under the ingest load to this directory")
	flag.DurationVar(&c.heartbeat, "heartbeat", 0, "the heartbeat interval every server asks its clocks for, 1s to 5s (default: the hall's own for -clocks clocks, e.g. 4s for 10,000; the echo servers are asked the same)")
	flag.BoolVar(&c.durable, "durable-echo", true, "also measure the durable echo: the echo server appending each press to a file, acknowledged after fdatasync in group commits")
	flag.BoolVar(&c.markdown, "markdown", false, "also print the table as Markdown")
	defServer, defLoad := defaultPinning()
	flag.StringVar(&serverCPU, "server-cpus", defServer, "CPUs of the server under test, as taskset lists them (1, 2-3); none: not pinned")
	flag.StringVar(&loadCPU, "load-cpus", defLoad, "CPUs of the bench's clocks and watchers; none: not pinned")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), `usage: bench [flags]

Measures the hall server (a real hallserver process) against an echo server
in the same run and prints one table of figures, baselines, ratios and
the hall's targets. Absolute figures vary on a shared machine: compare the
ratios. The parts are described by go doc ./tools/bench.

`)
		flag.PrintDefaults()
	}
	flag.Parse()
	if crowdMode {
		if err := serveCrowd(); err != nil {
			fmt.Fprintln(os.Stderr, "crowd:", err)
			os.Exit(1)
		}
		return
	}
	if echoMode {
		if err := serveEcho(echoOpts); err != nil {
			fmt.Fprintln(os.Stderr, "echo:", err)
			os.Exit(1)
		}
		return
	}
	if c.quick {
		set := map[string]bool{}
		flag.Visit(func(f *flag.Flag) { set[f.Name] = true })
		quick := map[string]func(){
			"clocks": func() { c.clocks = 200 }, "rate": func() { c.rate = 400 },
			"duration": func() { c.duration = 3 * time.Second }, "warmup": func() { c.warmup = time.Second },
			"sat-rates": func() { satRates = "400,1600" }, "sat-duration": func() { c.satDuration = 2 * time.Second },
			"watchers": func() { c.watchers = 20 }, "watch-sample": func() { c.sample = 4 },
			"stall":          func() { c.stall = 2 * time.Second },
			"restart-boards": func() { c.restartBoards = 200 }, "restart-events": func() { c.restartEvents = 100_000 },
		}
		for name, f := range quick {
			if !set[name] {
				f()
			}
		}
	}
	if c.heartbeatSet = c.heartbeat != 0; !c.heartbeatSet {
		c.heartbeat = devlink.HeartbeatEvery(c.clocks, devlink.DefaultHeartbeatBudget, time.Second)
	} else if c.heartbeat < time.Second || c.heartbeat > 5*time.Second {
		fmt.Fprintf(os.Stderr, "bench: -heartbeat %s: the hall asks for 1s to 5s\n", c.heartbeat)
		os.Exit(2)
	}
	c.parts = map[string]bool{}
	for _, p := range strings.Split(parts, ",") {
		switch p = strings.TrimSpace(p); p {
		case "ingest", "saturation", "watchers", "memory", "restart", "rules", "transports":
			c.parts[p] = true
		case "":
		default:
			fmt.Fprintf(os.Stderr, "bench: unknown part %q (ingest, saturation, watchers, memory, restart, rules; transports only when named)\n", p)
			os.Exit(2)
		}
	}
	for _, s := range strings.Split(satRates, ",") {
		var r float64
		if _, err := fmt.Sscan(strings.TrimSpace(s), &r); err != nil || r <= 0 {
			fmt.Fprintf(os.Stderr, "bench: -sat-rates: %q is not a rate\n", s)
			os.Exit(2)
		}
		c.satRates = append(c.satRates, r)
	}
	var err error
	if c.serverCPUs, err = parseCPUs(serverCPU); err != nil {
		fmt.Fprintf(os.Stderr, "bench: -server-cpus: %v\n", err)
		os.Exit(2)
	}
	if c.loadCPUs, err = parseCPUs(loadCPU); err != nil {
		fmt.Fprintf(os.Stderr, "bench: -load-cpus: %v\n", err)
		os.Exit(2)
	}
	if err := run(c); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

// pinning says where the servers and the load ran.
func (c config) pinning() string {
	if len(c.serverCPUs) == 0 && len(c.loadCPUs) == 0 {
		return "not pinned: servers and load share every CPU"
	}
	return fmt.Sprintf("servers (the hall, then echo, each alone) on %s, the bench's load on %s", c.serverCPUs, c.loadCPUs)
}

// loadavg is the machine's load average line.
func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

func run(c config) error {
	t0 := time.Now()
	if err := pinSelf(c.loadCPUs); err != nil {
		return err
	}
	debug.SetGCPercent(benchGCPercent)
	watchAt := ""
	if r := c.watchRateOr(); r != c.rate && c.parts["watchers"] {
		watchAt = fmt.Sprintf(" (%.0f/s with the watchers)", r)
	}
	fmt.Printf("bench: %d clocks × %.0f presses/s offered%s; %s windows; %d CPUs; load average %s\n",
		c.clocks, c.rate, watchAt, c.duration, runtime.NumCPU(), loadavg())
	fmt.Printf("bench: %s\n", c.pinning())
	fmt.Printf("bench: every server asks its clocks for a heartbeat every %s%s\n", c.heartbeat, map[bool]string{false: " (the hall's own interval for this fleet)", true: " (-heartbeat)"}[c.heartbeatSet])
	tmp, err := os.MkdirTemp("", "hallbench")
	if err != nil {
		return err
	}
	if os.Getenv("HALL_BENCH_KEEP") == "" {
		defer os.RemoveAll(tmp)
	} else {
		fmt.Printf("bench: keeping %s (HALL_BENCH_KEEP): the servers' logs and data\n", tmp)
	}
	needServer := c.parts["ingest"] || c.parts["saturation"] || c.parts["watchers"] || c.parts["memory"] || c.parts["restart"] || c.parts["transports"]
	if needServer && c.hallserver == "" {
		if c.hallserver, err = buildHallserver(tmp); err != nil {
			return err
		}
	}
	var rows []row
	if c.parts["ingest"] || c.parts["saturation"] || c.parts["watchers"] || c.parts["memory"] {
		echo, err := runServer(c, tmp, "echo")
		if err != nil {
			return fmt.Errorf("echo: %w", err)
		}
		var durable *live
		if c.durable {
			if durable, err = runServer(c, tmp, "durable"); err != nil {
				return fmt.Errorf("durable echo: %w", err)
			}
		}
		hall, err := runServer(c, tmp, "hall")
		if err != nil {
			return fmt.Errorf("hall: %w", err)
		}
		rows = append(rows, liveRows(c, hall, echo, durable)...)
	}
	if c.parts["transports"] {
		r, err := runTransports(c, tmp)
		if err != nil {
			return fmt.Errorf("transports: %w", err)
		}
		rows = append(rows, transportRows(c, r)...)
	}
	if c.parts["restart"] {
		r, err := runRestart(c, tmp)
		if err != nil {
			return fmt.Errorf("restart: %w", err)
		}
		rows = append(rows, r...)
	}
	if c.parts["rules"] {
		rows = append(rows, rulesRows()...)
	}
	fmt.Printf("\nall parts took %s; load average now %s (the machine is shared: compare ratios, not absolute figures)\n\n",
		time.Since(t0).Round(time.Second), loadavg())
	printTable(os.Stdout, rows)
	if c.markdown {
		fmt.Println()
		printMarkdown(os.Stdout, rows)
	}
	return nil
}
