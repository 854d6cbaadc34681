// Command gatewaybench measures how many watchers one hall serves at a
// fixed p99 press-to-viewer latency, on its own and through 1, 2 and 4
// broadcast gateways following its stream in NATS JetStream, in one run:
//
//	go run ./tools/gatewaybench -boards 40 -rate 2 -watchers 50,100,200,400 -target 250ms
//
// A fleet of clock devices (clockdev, one connection each) presses on the
// hall at -rate presses per second per board; the hall (the real server,
// SQLite on tmpfs when there is one) publishes every commit to an
// embedded NATS server, which the gateways follow. Watchers are gRPC
// WatchRound streams of the whole round, spread over the hall (first
// configuration) or over the gateways (the others). A watcher's latency
// is the time from a press (just before the device sends it) to the
// watcher's receipt of the board's state with that press. For each
// configuration the watcher counts are tried in order until the p99
// passes -target; "served" is the largest count within it. It also
// reports the devices' acknowledgement p99 in each step (the hall's own
// load), the process's CPU per delivered update, and the machine's load
// average.
//
// Everything runs in this one process on this machine: gateways here
// share the hall's cores, so what they add is not CPU but taking the
// fan-out off the hall's ingest path; on other machines their capacity
// adds up. Report ratios against the hall alone, measured in the same
// run, and the machine load beside them.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/nats-io/nats.go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"

	"github.com/chesshall/hallclock/clockdev"
	"github.com/chesshall/hallclock/internal/natsrun"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
	"github.com/chesshall/hallclock/server"
	"github.com/chesshall/hallclock/server/gateway"
	"github.com/chesshall/hallclock/storage"
	"github.com/chesshall/hallclock/storage/publish"
)

func main() {
	boards := flag.Int("boards", 40, "boards, each with a clock device on its own connection")
	rate := flag.Float64("rate", 2, "presses per second per board")
	watchers := flag.String("watchers", "50,100,200,400", "watcher counts to try, in order")
	gateways := flag.String("gateways", "1,2,4", "gateway counts to compare with the hall alone")
	step := flag.Duration("step", 3*time.Second, "how long each watcher count is measured")
	target := flag.Duration("target", 250*time.Millisecond, "the p99 press-to-viewer latency a watcher count must keep")
	flag.Parse()
	ws, err1 := ints(*watchers)
	gs, err2 := ints(*gateways)
	if err1 != nil || err2 != nil {
		fmt.Fprintln(os.Stderr, "gatewaybench: -watchers and -gateways take comma-separated counts")
		os.Exit(2)
	}
	if err := run(*boards, *rate, ws, gs, *step, *target, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "gatewaybench:", err)
		os.Exit(1)
	}
}

func ints(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("%q", f)
		}
		out = append(out, n)
	}
	return out, nil
}

// bench is the hall, its devices and the gateways of one run.
type bench struct {
	round   string
	token   string   // a broadcast token: the watchers' credential on the hall and the gateways
	hall    string   // the hall's gRPC address
	gws     []string // the gateways' gRPC addresses
	pressed sync.Map // "board/seq" → time.Time, just before the press
	acks    latencies
}

// latencies collects samples while on.
type latencies struct {
	on atomic.Bool
	mu sync.Mutex
	d  []time.Duration
}

func (l *latencies) add(d time.Duration) {
	if !l.on.Load() {
		return
	}
	l.mu.Lock()
	l.d = append(l.d, d)
	l.mu.Unlock()
}

// take returns the samples (sorted) and starts afresh.
func (l *latencies) take() []time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	d := l.d
	l.d = nil
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	return d
}

func pct(d []time.Duration, p int) time.Duration {
	if len(d) == 0 {
		return 0
	}
	return d[min(len(d)-1, len(d)*p/100)]
}

func run(boards int, rate float64, watchers, gateways []int, step, target time.Duration, out io.Writer) error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	dir, err := os.MkdirTemp(tmpfs(), "gatewaybench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	quiet := slog.New(slog.DiscardHandler)

	// The hall, publishing to an embedded NATS server.
	st, err := storage.Open(ctx, filepath.Join(dir, "hall.db"), storage.Options{})
	if err != nil {
		return err
	}
	defer st.Close()
	if err := st.SetHallID(ctx, "bench"); err != nil {
		return err
	}
	if err := st.SetHallInfo(ctx, storage.HallInfo{AllPublic: true}); err != nil {
		return err
	}
	srv, err := server.New(ctx, st, server.Options{Logger: quiet, DisplayTolerance: -1, PublicRounds: true,
		WatchInterval: time.Millisecond, MaxStreamsPerToken: 1 << 20})
	if err != nil {
		return err
	}
	defer srv.Shutdown(2 * time.Second)
	hl, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	go srv.ServeGRPC(hl)
	ns, err := natsrun.Start(natsrun.Options{Dir: filepath.Join(dir, "nats")})
	if err != nil {
		return err
	}
	defer ns.Shutdown()
	pubConn, err := nats.Connect(ns.URL(), nats.InProcessServer(ns.Server()))
	if err != nil {
		return err
	}
	defer pubConn.Close()
	pub, err := publish.New(publish.Options{Store: st, Conn: pubConn, Hall: "bench", Logger: quiet})
	if err != nil {
		return err
	}
	go pub.Run(ctx)

	b := &bench{hall: hl.Addr().String()}
	// The gateways, each on its own NATS connection and gRPC port.
	maxG := 0
	for _, g := range gateways {
		maxG = max(maxG, g)
	}
	for range maxG {
		nc, err := nats.Connect(ns.URL())
		if err != nil {
			return err
		}
		defer nc.Close()
		g, err := gateway.New(gateway.Options{Conn: nc, Halls: []string{"bench"}, WatchInterval: time.Millisecond, Logger: quiet})
		if err != nil {
			return err
		}
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return err
		}
		go g.Run(ctx)
		go g.ServeGRPC(l)
		defer g.Shutdown(time.Second)
		b.gws = append(b.gws, l.Addr().String())
	}

	stopDevices, err := b.devices(ctx, srv, boards, rate)
	if err != nil {
		return err
	}
	defer stopDevices()
	load0 := loadavg()
	fmt.Fprintf(out, "gatewaybench: %d boards pressing %.1f/s each (%.0f presses/s), watchers of the whole round, target p99 %v, %d s per step; load average %s\n",
		boards, rate, float64(boards)*rate, target, int(step.Seconds()), load0)

	type config struct {
		name    string
		targets []string
	}
	configs := []config{{"hall alone", []string{b.hall}}}
	for _, g := range gateways {
		configs = append(configs, config{fmt.Sprintf("%d gateway(s)", g), b.gws[:g]})
	}
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "configuration\twatchers\tupdates/s\tp50\tp99\thall ack p99\tCPU µs/update\t")
	served := map[string]int{}
	for _, c := range configs {
		for _, w := range watchers {
			s, err := b.measure(ctx, c.targets, w, step)
			if err != nil {
				return err
			}
			fmt.Fprintf(tw, "%s\t%d\t%.0f\t%v\t%v\t%v\t%.1f\t\n", c.name, w, s.perSecond, s.p50.Round(time.Millisecond), s.p99.Round(time.Millisecond),
				s.ackP99.Round(time.Millisecond), s.cpuPerUpdate)
			if s.p99 > target || s.perSecond == 0 {
				break
			}
			served[c.name] = w
		}
	}
	tw.Flush()
	base := served["hall alone"]
	fmt.Fprintf(out, "watchers served within p99 %v (of the counts tried):\n", target)
	for _, c := range configs {
		ratio := "-"
		if base > 0 {
			ratio = fmt.Sprintf("%.2fx", float64(served[c.name])/float64(base))
		}
		fmt.Fprintf(out, "  %-14s %5d  (%s the hall alone)\n", c.name, served[c.name], ratio)
	}
	fmt.Fprintf(out, "load average at the end: %s (the machine is shared: compare ratios within this run)\n", loadavg())
	return nil
}

// devices connects one clock device per board, starts the round and
// presses on every board until the returned func is called.
func (b *bench) devices(ctx context.Context, srv *server.Server, boards int, rate float64) (func(), error) {
	chief, err := srv.Tokens().EnsureChief(ctx)
	if err != nil {
		return nil, err
	}
	conn, err := grpc.NewClient(b.hall, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return nil, err
	}
	arb := pb.NewArbiterClient(conn)
	c := metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+chief)
	tr, err := arb.CreateTournament(c, &pb.CreateTournamentRequest{Name: "Gateway Bench", DefaultConfig: &pb.ClockConfig{TimeControl: "5400+30"}})
	if err != nil {
		return nil, err
	}
	r, err := arb.CreateRound(c, &pb.CreateRoundRequest{TournamentId: tr.GetTournamentId(), Number: 1})
	if err != nil {
		return nil, err
	}
	b.round = r.GetRoundId()
	bt, err := arb.IssueToken(c, &pb.IssueTokenRequest{Role: pb.Role_ROLE_BROADCAST, Label: "watchers"})
	if err != nil {
		return nil, err
	}
	b.token = bt.GetToken()
	dctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	var fleet []*clockdev.Device
	stop := func() {
		cancel()
		wg.Wait()
		for _, d := range fleet {
			d.Close()
		}
		conn.Close()
	}
	for i := 1; i <= boards; i++ {
		id := fmt.Sprintf("GB-%04d", i)
		if _, err := arb.AddBoard(c, &pb.AddBoardRequest{RoundId: b.round, Number: int32(i), DeviceId: id,
			White: &pb.Player{Name: "White " + id}, Black: &pb.Player{Name: "Black " + id}}); err != nil {
			stop()
			return nil, err
		}
		tk, err := arb.IssueToken(c, &pb.IssueTokenRequest{Role: pb.Role_ROLE_DEVICE, Label: id, DeviceId: id})
		if err != nil {
			stop()
			return nil, err
		}
		dc, err := grpc.NewClient(b.hall, grpc.WithTransportCredentials(insecure.NewCredentials()))
		if err != nil {
			stop()
			return nil, err
		}
		d, err := clockdev.New(clockdev.Config{DeviceID: id, Token: tk.GetToken(), Conn: dc, Firmware: "gatewaybench",
			Logger: slog.New(slog.DiscardHandler), OnAck: func(a clockdev.Acked) {
				if a.Latency >= 0 {
					b.acks.add(a.Latency)
				}
			}})
		if err != nil {
			stop()
			return nil, err
		}
		fleet = append(fleet, d)
		wg.Add(1)
		go func() { defer wg.Done(); d.Run(dctx); dc.Close() }()
	}
	for _, d := range fleet {
		for !d.Status().Connected {
			time.Sleep(10 * time.Millisecond)
		}
	}
	if _, err := arb.StartRound(c, &pb.StartRoundRequest{RoundId: b.round}); err != nil {
		stop()
		return nil, err
	}
	deadline := time.Now().Add(60 * time.Second)
	for _, d := range fleet {
		for d.State().Status != rules.Running {
			if time.Now().After(deadline) {
				stop()
				return nil, fmt.Errorf("devices not started after 60 s")
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	interval := time.Duration(float64(time.Second) / rate)
	for i, d := range fleet {
		wg.Add(1)
		go func() {
			defer wg.Done()
			time.Sleep(time.Duration(i) * interval / time.Duration(len(fleet)))
			tk := time.NewTicker(interval)
			defer tk.Stop()
			for {
				select {
				case <-dctx.Done():
					return
				case <-tk.C:
					at := time.Now()
					if d.Press(d.State().ToMove, "", "") == nil {
						s := d.Status()
						b.pressed.Store(s.BoardID+"/"+strconv.Itoa(s.BoardSeq), at)
					}
				}
			}
		}()
	}
	return stop, nil
}

// stepResult is one watcher count's measurement.
type stepResult struct {
	perSecond    float64
	p50, p99     time.Duration
	ackP99       time.Duration
	cpuPerUpdate float64 // µs of this process's CPU per update delivered
}

// measure runs w watchers spread over targets for d and returns what they saw.
func (b *bench) measure(ctx context.Context, targets []string, w int, d time.Duration) (stepResult, error) {
	var lat latencies
	var updates atomic.Int64
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var conns []*grpc.ClientConn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	// A few connections per target, each carrying many streams.
	perTarget := map[string][]*grpc.ClientConn{}
	for _, t := range targets {
		for range 4 {
			c, err := grpc.NewClient(t, grpc.WithTransportCredentials(insecure.NewCredentials()),
				grpc.WithInitialWindowSize(1<<20), grpc.WithInitialConnWindowSize(1<<20))
			if err != nil {
				return stepResult{}, err
			}
			conns = append(conns, c)
			perTarget[t] = append(perTarget[t], c)
		}
	}
	var wg sync.WaitGroup
	wctx = metadata.AppendToOutgoingContext(wctx, "authorization", "Bearer "+b.token)
	for i := range w {
		t := targets[i%len(targets)]
		conn := perTarget[t][(i/len(targets))%len(perTarget[t])]
		wg.Add(1)
		go func() {
			defer wg.Done()
			stream, err := pb.NewWatchClient(conn).WatchRound(wctx, &pb.WatchRoundRequest{RoundId: b.round})
			if err != nil {
				return
			}
			first := true
			for {
				u, err := stream.Recv()
				if err != nil {
					return
				}
				now := time.Now()
				if first { // the snapshot: not a press arriving
					first = false
					continue
				}
				updates.Add(1)
				for _, s := range u.GetBoards() {
					if at, ok := b.pressed.Load(s.GetBoardId() + "/" + strconv.FormatUint(s.GetBoardSeq(), 10)); ok {
						lat.add(now.Sub(at.(time.Time)))
					}
				}
			}
		}()
	}
	time.Sleep(700 * time.Millisecond) // connected, snapshots sent
	b.acks.take()
	b.acks.on.Store(true)
	lat.on.Store(true)
	updates.Store(0)
	cpu0, t0 := cpuTime(), time.Now()
	time.Sleep(d)
	lat.on.Store(false)
	b.acks.on.Store(false)
	cpu, elapsed, n := cpuTime()-cpu0, time.Since(t0), updates.Load()
	cancel()
	wg.Wait()
	l, a := lat.take(), b.acks.take()
	r := stepResult{perSecond: float64(n) / elapsed.Seconds(), p50: pct(l, 50), p99: pct(l, 99), ackP99: pct(a, 99)}
	if n > 0 {
		r.cpuPerUpdate = float64(cpu.Microseconds()) / float64(n)
	}
	return r, nil
}

// cpuTime is the CPU time this process has used (user + system).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

// tmpfs is /dev/shm when there is one: the bench measures fan-out, not
// the disk.
func tmpfs() string {
	if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() {
		return "/dev/shm"
	}
	return ""
}
