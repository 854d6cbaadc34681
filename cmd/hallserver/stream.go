package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/chesshall/hallclock/internal/natsrun"
	"github.com/chesshall/hallclock/server"
	"github.com/chesshall/hallclock/storage"
	"github.com/chesshall/hallclock/storage/publish"
)

// hallStream is the hall's publisher to NATS JetStream, with the embedded
// NATS server it runs on unless -nats names an external cluster.
type hallStream struct {
	node   *natsrun.Node // nil with an external cluster
	nc     *nats.Conn
	pub    *publish.Publisher
	where  string // for the banner and the status
	cancel context.CancelFunc
	done   sync.WaitGroup
}

// startStream names the hall (-hall-id), tells followers its settings,
// and starts publishing its outbox: to the embedded NATS server (its
// JetStream data in <data-dir>/nats) or to -nats. It returns nil with
// -nats off. The hall never waits for it: a NATS cluster that is down is
// connected to in the background, and the outbox waits meanwhile.
func (m *Main) startStream(ctx context.Context, st *storage.Store, log *slog.Logger) (*hallStream, error) {
	if m.HallID != "" {
		if err := st.SetHallID(ctx, m.HallID); err != nil {
			return nil, fmt.Errorf("-hall-id: %w", err)
		}
	}
	id, err := st.HallID(ctx)
	if err != nil {
		return nil, err
	}
	if err := st.SetHallInfo(ctx, storage.HallInfo{DelayMs: m.BroadcastDelay.Milliseconds(), AllPublic: m.Demo}); err != nil {
		return nil, err
	}
	if m.NATS == "off" {
		return nil, nil
	}
	hs := &hallStream{}
	opts := []nats.Option{nats.Name("hallserver " + id), nats.MaxReconnects(-1), nats.ReconnectWait(500 * time.Millisecond),
		nats.RetryOnFailedConnect(true)}
	url := m.NATS
	if url == "" {
		listen := m.NATSListen
		if listen == "" {
			listen = "127.0.0.1:0"
		}
		host, port, err := net.SplitHostPort(listen)
		if err != nil {
			return nil, fmt.Errorf("-nats-listen %q: want host:port, e.g. 127.0.0.1:4222 (port 0: any free one)", m.NATSListen)
		}
		p, err := strconv.Atoi(port)
		if err != nil || p < 0 {
			return nil, fmt.Errorf("-nats-listen %q: bad port", m.NATSListen)
		}
		dir := filepath.Join(m.DataDir, "nats")
		if hs.node, err = natsrun.Start(natsrun.Options{Name: "hall-" + id, Dir: dir, Host: host, Port: p}); err != nil {
			if errors.Is(err, natsrun.ErrListen) {
				return nil, fmt.Errorf("embedded NATS: %s is in use by another program (%w); give -nats-listen another address, or %s:0 for any free port", listen, err, host)
			}
			return nil, fmt.Errorf("embedded NATS (its data in %s): %w", dir, err)
		}
		url = hs.node.URL()
		hs.where = "embedded " + url
		opts = append(opts, nats.InProcessServer(hs.node.Server()))
	} else {
		hs.where = url
	}
	if hs.nc, err = nats.Connect(url, opts...); err != nil {
		hs.stop()
		return nil, fmt.Errorf("NATS %s: %w", url, err)
	}
	if hs.pub, err = publish.New(publish.Options{Store: st, Conn: hs.nc, Hall: id, Replicas: m.NATSReplicas, Logger: log}); err != nil {
		hs.stop()
		return nil, err
	}
	pctx, cancel := context.WithCancel(context.Background())
	hs.cancel = cancel
	hs.done.Add(1)
	go func() {
		defer hs.done.Done()
		_ = hs.pub.Run(pctx)
	}()
	return hs, nil
}

// status is the server's view of the publisher.
func (hs *hallStream) status(ctx context.Context) (server.StreamStatus, error) {
	s, err := hs.pub.Status(ctx)
	out := server.StreamStatus{Hall: s.Hall, Stream: s.Stream, NATS: hs.where, Connected: s.Connected, Backlog: s.Backlog,
		OldestAgeMs: s.Age(time.Now()).Milliseconds(), Published: s.Published, Acked: s.Acked, LastError: s.LastError, Ahead: s.Ahead}
	if !s.LastErrorAt.IsZero() {
		out.LastErrorUnixMs = s.LastErrorAt.UnixMilli()
	}
	return out, err
}

// banner is the stream's line in the start-up banner.
func (hs *hallStream) banner() string {
	return fmt.Sprintf("  NATS   %s, stream %s (subjects hall.%s.>)\n", hs.where, hs.pub.Stream(), hs.pubHall())
}

func (hs *hallStream) pubHall() string {
	s, _ := hs.pub.Status(context.Background())
	return s.Hall
}

// stop stops publishing (what is not yet published waits in the outbox)
// and the embedded server.
func (hs *hallStream) stop() {
	if hs == nil {
		return
	}
	if hs.cancel != nil {
		hs.cancel()
		hs.done.Wait()
	}
	if hs.nc != nil {
		hs.nc.Close()
	}
	if hs.node != nil {
		hs.node.Shutdown()
	}
}
