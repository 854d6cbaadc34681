// Command bench measures acknowledged presses per second and the
// acknowledgement latency of the hall server under a fleet of clock devices
// on this machine, and reports them as ratios against baselines measured in
// the same run (absolute numbers vary 2-3x between runs on a shared disk;
// see ../shared/notes/machine-limits.md):
//
//   - echo: a ClockLink server that acknowledges at once, without rules or
//     disk — the ceiling of the network path with the same devices.
//
//   - hall: the real server: rules, SQLite with synchronous=FULL, group commit.
//
//   - hall, one commit per event: the same with group commit turned off
//     (storage.Options.MaxBatch = 1) — what group commit buys.
//
//     go run ./tools/bench -devices 200 -rate 5 -duration 5s
//
// Every device is a clockdev.Device on its own connection, pressing at
// -rate presses per second (both players together).
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
	"sync"
	"sync/atomic"
	"text/tabwriter"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"

	"github.com/chesshall/hallclock/clockdev"
	"github.com/chesshall/hallclock/internal/wire"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
	"github.com/chesshall/hallclock/server"
	"github.com/chesshall/hallclock/storage"
)

func main() {
	devices := flag.Int("devices", 200, "clock devices, each on its own connection and board")
	rate := flag.Float64("rate", 5, "presses per second per device")
	duration := flag.Duration("duration", 5*time.Second, "how long each phase presses")
	phases := flag.String("phases", "echo,hall,single", "phases to run: echo, hall, single (hall with one commit per event)")
	flag.Parse()
	if err := run(*devices, *rate, *duration, *phases, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

// result is one phase's measurement.
type result struct {
	name      string
	acked     int
	perSecond float64
	p50, p99  time.Duration
}

func run(devices int, rate float64, d time.Duration, phases string, out io.Writer) error {
	var results []result
	for _, ph := range splitComma(phases) {
		var r result
		var err error
		switch ph {
		case "echo":
			r, err = phase("echo (no rules, no disk)", devices, rate, d, startEcho)
		case "hall":
			r, err = phase("hall (group commit)", devices, rate, d, func(dir string) (*hall, error) { return startHall(dir, 0) })
		case "single":
			r, err = phase("hall (one commit per event)", devices, rate, d, func(dir string) (*hall, error) { return startHall(dir, 1) })
		default:
			return fmt.Errorf("unknown phase %q (echo, hall, single)", ph)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", ph, err)
		}
		results = append(results, r)
	}
	fmt.Fprintf(out, "%d devices × %.1f presses/s for %s each (offered %.0f presses/s)\n\n", devices, rate, d, float64(devices)*rate)
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "phase\tacked\tacked/s\tack p50\tack p99\t")
	for _, r := range results {
		fmt.Fprintf(tw, "%s\t%d\t%.0f\t%s\t%s\t\n", r.name, r.acked, r.perSecond, r.p50.Round(10*time.Microsecond), r.p99.Round(10*time.Microsecond))
	}
	tw.Flush()
	echo, hasEcho := find(results, "echo")
	hall, hasHall := find(results, "hall (group")
	single, hasSingle := find(results, "hall (one")
	fmt.Fprintln(out)
	if hasEcho && hasHall {
		fmt.Fprintf(out, "hall / echo throughput: %.2f   (1.00 = durable ingest costs nothing over the network path)\n", hall.perSecond/echo.perSecond)
		fmt.Fprintf(out, "hall / echo p99 latency: %.1fx\n", float64(hall.p99)/float64(max(echo.p99, 1)))
	}
	if hasHall && hasSingle {
		fmt.Fprintf(out, "group commit / one commit per event throughput: %.2f\n", hall.perSecond/single.perSecond)
	}
	return nil
}

func find(rs []result, prefix string) (result, bool) {
	for _, r := range rs {
		if len(r.name) >= len(prefix) && r.name[:len(prefix)] == prefix {
			return r, true
		}
	}
	return result{}, false
}

func splitComma(s string) []string {
	var out []string
	cur := ""
	for _, c := range s {
		if c == ',' {
			if cur != "" {
				out = append(out, cur)
			}
			cur = ""
			continue
		}
		cur += string(c)
	}
	if cur != "" {
		out = append(out, cur)
	}
	return out
}

// hall is a server under test.
type hall struct {
	addr  string
	stop  func()
	setup func(ctx context.Context) (devs, tokens []string, err error) // boards with devices, and their tokens
	start func(ctx context.Context) error                              // start every clock (devices connected)
}

// starter starts a server on a database in dir.
type starter func(dir string) (*hall, error)

var benchDevices int

func phase(name string, devices int, rate float64, d time.Duration, start starter) (result, error) {
	dir, err := os.MkdirTemp("", "hallbench")
	if err != nil {
		return result{}, err
	}
	defer os.RemoveAll(dir)
	benchDevices = devices
	h, err := start(dir)
	if err != nil {
		return result{}, err
	}
	defer h.stop()
	addr := h.addr
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	devs, tokens, err := h.setup(ctx)
	if err != nil {
		return result{}, err
	}
	var mu sync.Mutex
	var lat []time.Duration
	var measuring atomic.Bool
	var fleet []*clockdev.Device
	var wg sync.WaitGroup
	for i, id := range devs {
		conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()),
			grpc.WithInitialWindowSize(1<<20), grpc.WithInitialConnWindowSize(1<<20))
		if err != nil {
			return result{}, err
		}
		defer conn.Close()
		dev, err := clockdev.New(clockdev.Config{DeviceID: id, Token: tokens[i], Conn: conn, Firmware: "bench",
			Logger: slog.New(slog.DiscardHandler),
			OnAck: func(a clockdev.Acked) {
				if measuring.Load() && a.Latency >= 0 && a.Event.GetAction().GetKind() == pb.ActionKind_ACTION_KIND_PRESS {
					mu.Lock()
					lat = append(lat, a.Latency)
					mu.Unlock()
				}
			}})
		if err != nil {
			return result{}, err
		}
		fleet = append(fleet, dev)
		wg.Add(1)
		go func() { defer wg.Done(); dev.Run(ctx) }()
	}
	defer func() {
		cancel()
		wg.Wait()
		for _, dev := range fleet {
			dev.Close()
		}
	}()
	for _, dev := range fleet {
		for !dev.Status().Connected {
			time.Sleep(10 * time.Millisecond)
		}
	}
	if err := h.start(ctx); err != nil {
		return result{}, err
	}
	// Wait until every device has a running clock.
	deadline := time.Now().Add(60 * time.Second)
	for _, dev := range fleet {
		for dev.State().Status != rules.Running {
			if time.Now().After(deadline) {
				return result{}, fmt.Errorf("devices not started after 60 s (%+v)", dev.Status())
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	// Press: each device on its own ticker, staggered.
	interval := time.Duration(float64(time.Second) / rate)
	pctx, pcancel := context.WithTimeout(ctx, d)
	defer pcancel()
	measuring.Store(true)
	t0 := time.Now()
	var pw sync.WaitGroup
	for i, dev := range fleet {
		pw.Add(1)
		go func() {
			defer pw.Done()
			time.Sleep(time.Duration(i) * interval / time.Duration(len(fleet)))
			tk := time.NewTicker(interval)
			defer tk.Stop()
			for {
				select {
				case <-pctx.Done():
					return
				case <-tk.C:
					_ = dev.Press(dev.State().ToMove, "", "")
				}
			}
		}()
	}
	pw.Wait()
	// Let the last acknowledgements arrive.
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		pending := 0
		for _, dev := range fleet {
			pending += dev.Status().Outbox
		}
		if pending == 0 {
			break
		}
	}
	elapsed := time.Since(t0)
	measuring.Store(false)
	mu.Lock()
	defer mu.Unlock()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	r := result{name: name, acked: len(lat), perSecond: float64(len(lat)) / elapsed.Seconds()}
	if len(lat) > 0 {
		r.p50, r.p99 = lat[len(lat)/2], lat[len(lat)*99/100]
	}
	return r, nil
}

func listen() (net.Listener, error) { return net.Listen("tcp", "127.0.0.1:0") }

func serverOpts() []grpc.ServerOption {
	return []grpc.ServerOption{grpc.InitialWindowSize(1 << 20), grpc.InitialConnWindowSize(1 << 20)}
}

// startHall runs the real server on a database in dir.
func startHall(dir string, maxBatch int) (*hall, error) {
	ctx := context.Background()
	st, err := storage.Open(ctx, filepath.Join(dir, "hall.db"), storage.Options{MaxBatch: maxBatch})
	if err != nil {
		return nil, err
	}
	srv, err := server.New(ctx, st, server.Options{Logger: slog.New(slog.DiscardHandler), DisplayTolerance: -1})
	if err != nil {
		st.Close()
		return nil, err
	}
	chief, err := srv.EnsureChiefToken(ctx)
	if err != nil {
		return nil, err
	}
	l, err := listen()
	if err != nil {
		return nil, err
	}
	go srv.ServeGRPC(l)
	conn, err := grpc.NewClient(l.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return nil, err
	}
	arb := pb.NewArbiterClient(conn)
	auth := func(ctx context.Context) context.Context {
		return metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+chief)
	}
	var roundID string
	return &hall{
		addr: l.Addr().String(),
		stop: func() { conn.Close(); srv.Shutdown(2 * time.Second); st.Close() },
		setup: func(ctx context.Context) ([]string, []string, error) {
			c := auth(ctx)
			tr, err := arb.CreateTournament(c, &pb.CreateTournamentRequest{Name: "bench", DefaultConfig: &pb.ClockConfig{TimeControl: "5400+30"}})
			if err != nil {
				return nil, nil, err
			}
			r, err := arb.CreateRound(c, &pb.CreateRoundRequest{TournamentId: tr.GetTournamentId(), Number: 1})
			if err != nil {
				return nil, nil, err
			}
			roundID = r.GetRoundId()
			var devs, toks []string
			for i := 1; i <= benchDevices; i++ {
				id := fmt.Sprintf("BENCH-%05d", i)
				if _, err := arb.AddBoard(c, &pb.AddBoardRequest{RoundId: roundID, Number: int32(i), DeviceId: id,
					White: &pb.Player{Name: "w"}, Black: &pb.Player{Name: "b"}}); err != nil {
					return nil, nil, err
				}
				tk, err := arb.IssueToken(c, &pb.IssueTokenRequest{Role: pb.Role_ROLE_DEVICE, Label: id, DeviceId: id})
				if err != nil {
					return nil, nil, err
				}
				devs, toks = append(devs, id), append(toks, tk.GetToken())
			}
			return devs, toks, nil
		},
		start: func(ctx context.Context) error {
			_, err := arb.StartRound(auth(ctx), &pb.StartRoundRequest{RoundId: roundID})
			return err
		},
	}, nil
}

// echoServer acknowledges every event at once: no rules, no disk.
type echoServer struct {
	pb.UnimplementedClockLinkServer
}

func (echoServer) Connect(stream pb.ClockLink_ConnectServer) error {
	m, err := stream.Recv()
	if err != nil {
		return err
	}
	dev := m.GetHello().GetDeviceId()
	cfg := rules.Config{Ruleset: rules.FIDE2023}
	cfg.TimeControl, _ = rules.ParseTimeControl("5400+30")
	if err := stream.Send(&pb.ServerMessage{Msg: &pb.ServerMessage_Welcome{Welcome: &pb.Welcome{AckedSeq: 0, HeartbeatIntervalMs: 1000}}}); err != nil {
		return err
	}
	start := wire.Action(rules.Event{Kind: rules.KindStart, T: 0})
	if err := stream.Send(&pb.ServerMessage{Msg: &pb.ServerMessage_Assignment{Assignment: &pb.Assignment{
		BoardId: "echo-" + dev, Config: wire.WireConfig(cfg), History: []*pb.ClockAction{start},
		State: &pb.BoardState{BoardId: "echo-" + dev, Status: pb.BoardStatus_BOARD_STATUS_RUNNING}}}}); err != nil {
		return err
	}
	for {
		m, err := stream.Recv()
		if err != nil {
			return nil
		}
		if ev := m.GetEvent(); ev != nil {
			if err := stream.Send(&pb.ServerMessage{Msg: &pb.ServerMessage_Ack{Ack: &pb.Ack{UpToSeq: ev.GetSeq()}}}); err != nil {
				return err
			}
		}
	}
}

func startEcho(string) (*hall, error) {
	l, err := listen()
	if err != nil {
		return nil, err
	}
	g := grpc.NewServer(serverOpts()...)
	pb.RegisterClockLinkServer(g, echoServer{})
	go g.Serve(l)
	setup := func(context.Context) ([]string, []string, error) {
		var devs, toks []string
		for i := 1; i <= benchDevices; i++ {
			devs, toks = append(devs, fmt.Sprintf("ECHO-%05d", i)), append(toks, "none")
		}
		return devs, toks, nil
	}
	return &hall{addr: l.Addr().String(), stop: g.Stop, setup: setup, start: func(context.Context) error { return nil }}, nil
}
