package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/chesshall/hallclock/clockdev/wsdial"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// The transports part: tablets (ClockLink over WebSocket, /clocklink on
// the hall's HTTP port) beside hardware clocks (gRPC) on one hall, in one
// run. Of -clocks clocks, -ws-clocks speak WebSocket, the rest gRPC, each
// its own connection, stream and board. Three windows at -rate presses/s:
//
//   - both: every clock presses in turn (the rate shared by head count):
//     acknowledgement latency of each transport, side by side;
//   - gRPC only, then WebSocket only (the other transport's clocks
//     connected and beating, not pressing): the hall's CPU over each
//     window per press acknowledged, the cost of a press by its transport.
//
// The hall's session (package hall) is the same behind either door, so
// the difference is the transport's: framing, its goroutines, its buffers.

// wsOf is the ClockLink WebSocket of a hall whose HTTP port is at base
// ("http://host:port").
func wsOf(base string) *wsdial.Transport {
	return &wsdial.Transport{URL: "ws" + strings.TrimPrefix(base, "http") + "/clocklink"}
}

// openWS opens the clock's stream over its fleet's WebSocket and says
// Hello, as open does over gRPC.
func (c *clock) openWS() error {
	st, err := c.f.ws.Open(c.f.ctx, c.token)
	if err != nil {
		return fmt.Errorf("clock %s: %w", c.dev, err)
	}
	c.stream = st
	if err := st.Send(&pb.DeviceMessage{Msg: &pb.DeviceMessage_Hello{Hello: &pb.Hello{DeviceId: c.dev, Firmware: "bench", NextSeq: 1}}}); err != nil {
		return fmt.Errorf("clock %s: hello: %w", c.dev, err)
	}
	c.f.wg.Add(1)
	go c.recv()
	return nil
}

// transportResult is what the transports part measured.
type transportResult struct {
	grpcClocks, wsClocks int
	both                 [2]*window // gRPC, WebSocket: both pressing
	alone                [2]*window // each pressing alone
	cpu                  [2]time.Duration
	cuts                 [2]int64
	cpus, loadCPUs       string
}

// runTransports runs the transports part on a hall of its own.
func runTransports(c config, tmp string) (*transportResult, error) {
	ctx := context.Background()
	nWS := min(c.wsClocks, c.clocks)
	res := &transportResult{grpcClocks: c.clocks - nWS, wsClocks: nWS}
	fmt.Printf("\n== transports: %d gRPC clocks beside %d WebSocket clocks, %.0f presses/s\n", res.grpcClocks, nWS, c.rate)
	logf, err := os.Create(filepath.Join(tmp, "hallserver-transports.log"))
	if err != nil {
		return nil, err
	}
	defer logf.Close()
	s, _, err := startHall(c.hallserver, filepath.Join(tmp, "hall-transports"), c.serverCPUs, logf)
	if err != nil {
		return nil, err
	}
	defer s.stop()
	res.cpus, res.loadCPUs = allowedCPUs(s.cmd.Process.Pid), allowedCPUs(os.Getpid())
	arb, err := dialArbiter(s)
	if err != nil {
		return nil, err
	}
	defer arb.conn.Close()
	devs, tokens, err := arb.setupRound(ctx, c.clocks)
	if err != nil {
		return nil, err
	}
	t := time.Now()
	var fleets [2]*fleet // gRPC, WebSocket
	if fleets[1], err = connectVia("", wsOf(s.http), devs[:nWS], tokens[:nWS]); err != nil {
		return nil, fmt.Errorf("WebSocket clocks: %w", err)
	}
	defer fleets[1].close()
	if fleets[0], err = connect(s.grpc, devs[nWS:], tokens[nWS:]); err != nil {
		return nil, fmt.Errorf("gRPC clocks: %w", err)
	}
	defer fleets[0].close()
	fmt.Printf("   %d clocks connected in %s\n", c.clocks, time.Since(t).Round(time.Millisecond))
	if err := arb.startRound(ctx); err != nil {
		return nil, fmt.Errorf("starting the round: %w", err)
	}
	for _, f := range fleets {
		f.backlog = func() float64 { return s.metric("hall_outbox_backlog") }
		if err := f.running(2 * time.Minute); err != nil {
			return nil, err
		}
	}
	// Both pressing, the rate shared by head count.
	var wg sync.WaitGroup
	for i, f := range fleets {
		share := c.rate * float64(len(f.clocks)) / float64(c.clocks)
		wg.Add(1)
		go func() {
			defer wg.Done()
			res.both[i] = f.measure(share, c.warmup, c.duration, drain, false)
		}()
	}
	wg.Wait()
	names := [2]string{"gRPC", "WebSocket"}
	for i, w := range res.both {
		fmt.Printf("   both pressing: %s acked %.0f/s, p50 %s, p99 %s\n", names[i], float64(w.acked.Load())/c.duration.Seconds(),
			ms(w.lat.quantile(0.5)), ms(w.lat.quantile(0.99)))
	}
	// Each alone at the whole rate: the hall's CPU per press of each.
	for i, f := range fleets {
		for _, g := range fleets {
			g.settle(settleLimit)
		}
		f.collect()
		cpu0 := s.cpu()
		res.alone[i] = f.measure(c.rate, c.warmup, c.duration, drain, false)
		res.cpu[i] = s.cpu() - cpu0
		w := res.alone[i]
		fmt.Printf("   %s alone: acked %.0f/s, p99 %s; hall CPU %.0f%%\n", names[i], float64(w.acked.Load())/c.duration.Seconds(),
			ms(w.lat.quantile(0.99)), 100*res.cpu[i].Seconds()/(c.warmup+c.duration).Seconds())
	}
	for i, f := range fleets {
		res.cuts[i] = f.cuts.Load()
		if n, err := f.errors(); n > 0 {
			fmt.Printf("   %s: %d clock stream errors, the last: %v\n", names[i], n, err)
		}
	}
	return res, nil
}

// transportRows are the part's rows: the WebSocket's figures against
// gRPC's as the baseline.
func transportRows(c config, r *transportResult) []row {
	scale := fmt.Sprintf("%s WebSocket clocks beside %s gRPC clocks, %s presses/s", count(r.wsClocks), count(r.grpcClocks), count(int(c.rate)))
	perPress := func(i int) time.Duration {
		n := float64(r.alone[i].acked.Load()) * (c.warmup + c.duration).Seconds() / c.duration.Seconds()
		if n == 0 {
			return 0
		}
		return time.Duration(float64(r.cpu[i]) / n)
	}
	wp, gp := r.both[1].lat.quantile(0.99), r.both[0].lat.quantile(0.99)
	wc, gc := perPress(1), perPress(0)
	cut := ""
	if r.cuts[0]+r.cuts[1] > 0 {
		cut = fmt.Sprintf(" (%d WebSocket, %d gRPC streams cut)", r.cuts[1], r.cuts[0])
	}
	return []row{
		{figure: scale + ": p99 acknowledgement, WebSocket (baseline: gRPC, in the same window)" + cut, hall: ms(wp), base: ms(gp) + " gRPC",
			ratio: ratio(float64(wp), float64(gp)), target: "≤ 25 ms", holds: yesNo(wp <= 25*time.Millisecond && gp <= 25*time.Millisecond)},
		{figure: scale + ": p50 acknowledgement, WebSocket", hall: ms(r.both[1].lat.quantile(0.5)), base: ms(r.both[0].lat.quantile(0.5)) + " gRPC",
			ratio: ratio(float64(r.both[1].lat.quantile(0.5)), float64(r.both[0].lat.quantile(0.5)))},
		{figure: scale + ": hall CPU per press, each transport pressing alone (heartbeats of all included)", hall: us(wc) + " WebSocket",
			base: us(gc) + " gRPC", ratio: ratio(float64(wc), float64(gc)), target: "≤ 1.5× gRPC", holds: yesNo(wc > 0 && float64(wc) <= 1.5*float64(gc))},
	}
}
