package main

import (
	"fmt"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"syscall"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/keepalive"

	"github.com/chesshall/hallclock/internal/rtstats"
	"github.com/chesshall/hallclock/internal/wire"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
)

// The echo server is the baseline: a ClockLink server that welcomes a
// device, assigns it a running board and acknowledges every event at once
// — no rules, no disk, no fan-out. It has the hall's gRPC settings
// (keepalive, static 1 MiB windows) and asks the clocks for heartbeats as
// often as the hall does (-echo-heartbeat, given by the bench), so the
// difference between the two is what the hall does with an event, not
// how it talks. It runs in a process of its own (bench -serve-echo), like
// the hall. With -echo-durable it is the durable echo (durable.go): each
// event acknowledged once on disk.
type echoServer struct {
	pb.UnimplementedClockLinkServer
	heartbeat time.Duration
	log       *durableLog // nil: acknowledge at once
}

// echoOptions are the child's flags (-serve-echo).
type echoOptions struct {
	heartbeat   time.Duration
	durable     string // the file presses are appended to; "" for none
	commitEvery time.Duration
}

const echoTimeControl = "5400+30"

// echoGCPercent is hallserver's default -gc-percent; echoMinProcs the
// fewest processors it runs on.
const (
	echoGCPercent = 400
	echoMinProcs  = 2
)

func (e echoServer) Connect(stream pb.ClockLink_ConnectServer) error {
	m, err := stream.Recv()
	if err != nil {
		return err
	}
	dev := m.GetHello().GetDeviceId()
	cfg := rules.Config{Ruleset: rules.FIDE2023}
	cfg.TimeControl, _ = rules.ParseTimeControl(echoTimeControl)
	if err := stream.Send(&pb.ServerMessage{Msg: &pb.ServerMessage_Welcome{Welcome: &pb.Welcome{AckedSeq: 0, HeartbeatIntervalMs: e.heartbeat.Milliseconds()}}}); err != nil {
		return err
	}
	start := wire.Action(rules.Event{Kind: rules.KindStart, T: 0})
	if err := stream.Send(&pb.ServerMessage{Msg: &pb.ServerMessage_Assignment{Assignment: &pb.Assignment{
		BoardId: "echo-" + dev, Config: wire.WireConfig(cfg), History: []*pb.ClockAction{start},
		State: &pb.BoardState{BoardId: "echo-" + dev, Status: pb.BoardStatus_BOARD_STATUS_RUNNING}}}}); err != nil {
		return err
	}
	done := make(chan error, 1)
	for {
		m, err := stream.Recv()
		if err != nil {
			return nil
		}
		if ev := m.GetEvent(); ev != nil {
			if e.log != nil {
				if err := e.log.append(dev, ev.GetSeq(), ev.GetAction().GetTMs(), done); err != nil {
					return err
				}
			}
			if err := stream.Send(&pb.ServerMessage{Msg: &pb.ServerMessage_Ack{Ack: &pb.Ack{UpToSeq: ev.GetSeq()}}}); err != nil {
				return err
			}
		}
	}
}

// serveEcho is the child process: it prints its addresses and serves until
// SIGTERM.
func serveEcho(o echoOptions) error {
	// The collector as the hall's by default (hallserver -gc-percent):
	// at Go's default, the echo server's own collections stalled its
	// acknowledgements for 100 ms and more on one core.
	debug.SetGCPercent(echoGCPercent)
	// And at least two processors, as the hall asks for
	// (cmd/hallserver/procs.go), so that the runtime is the same.
	if os.Getenv("GOMAXPROCS") == "" && runtime.GOMAXPROCS(0) < echoMinProcs {
		runtime.GOMAXPROCS(echoMinProcs)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	dl, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	g := grpc.NewServer(
		// As the hall's (server/server.go newGRPC).
		grpc.KeepaliveParams(keepalive.ServerParameters{Time: 10 * time.Second, Timeout: 20 * time.Second}),
		grpc.KeepaliveEnforcementPolicy(keepalive.EnforcementPolicy{MinTime: time.Second, PermitWithoutStream: true}),
		grpc.InitialWindowSize(1<<20), grpc.InitialConnWindowSize(1<<20))
	srv := echoServer{heartbeat: o.heartbeat}
	name := "echo server"
	if o.durable != "" {
		if srv.log, err = openDurable(o.durable, o.commitEvery); err != nil {
			return err
		}
		name = "durable echo server (" + o.durable + ")"
	}
	pb.RegisterClockLinkServer(g, srv)
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.Handle("/debug/runtime", rtstats.Handler())
	go http.Serve(dl, mux)
	fmt.Printf("%s\n  gRPC   %s\n  debug  http://%s/debug/pprof/\n", name, l.Addr(), dl.Addr())
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, os.Interrupt)
	go func() { <-sig; g.Stop() }()
	return g.Serve(l)
}
