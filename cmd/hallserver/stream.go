package main

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/chesshall/hallclock/formats/hallstream"
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
	auth   string // how gateways connect (the banner)
	follow string // the command that follows the embedded server, but the key (the banner)
	key    string // the hall's signing key (hallstream.KeyString)
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
		if m.NATSAuth.Creds != "" || m.NATSAuth.NKey != "" || m.NATSAuth.TLSCA != "" {
			return nil, fmt.Errorf("-nats-creds, -nats-nkey and -nats-tls-ca are for an external cluster (-nats URL); the embedded server makes its own users")
		}
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
		users, hallSeed, gatewaySeed, err := embeddedUsers(dir, id)
		if err != nil {
			return nil, err
		}
		no := natsrun.Options{Name: "hall-" + id, Dir: dir, Host: host, Port: p, Users: users}
		if m.NATSAuth.TLSCert != "" {
			cert, err := tls.LoadX509KeyPair(m.NATSAuth.TLSCert, m.NATSAuth.TLSKey)
			if err != nil {
				return nil, fmt.Errorf("-nats-tls-cert: %w", err)
			}
			no.TLS = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
		}
		if hs.node, err = natsrun.Start(no); err != nil {
			if errors.Is(err, natsrun.ErrListen) {
				return nil, fmt.Errorf("embedded NATS: %s is in use by another program (%w); give -nats-listen another address, or %s:0 for any free port", listen, err, host)
			}
			return nil, fmt.Errorf("embedded NATS (its data in %s): %w", dir, err)
		}
		url = hs.node.URL()
		hs.where = "embedded " + url
		hs.auth = "-nats-nkey " + gatewaySeed + " (read-only); anonymous clients are refused"
		cmd := "hallgateway"
		if m.Demo {
			cmd = "go run ./cmd/hallgateway"
		}
		hs.follow = cmd + " -nats " + url + " -nats-nkey " + gatewaySeed
		if no.TLS != nil {
			hs.auth += "; TLS: give gateways -nats-tls-ca with the CA of " + m.NATSAuth.TLSCert
			hs.follow += " -nats-tls-ca CA.pem"
		}
		seed, err := nats.NkeyOptionFromSeed(hallSeed)
		if err != nil {
			hs.stop()
			return nil, err
		}
		opts = append(opts, nats.InProcessServer(hs.node.Server()), seed)
	} else {
		hs.where = url + " (" + m.NATSAuth.String() + ")"
		auth, err := m.NATSAuth.Options()
		if err != nil {
			return nil, err
		}
		opts = append(opts, auth...)
	}
	if hs.nc, err = nats.Connect(url, opts...); err != nil {
		hs.stop()
		return nil, fmt.Errorf("NATS %s: %w", url, err)
	}
	hint := fmt.Sprintf("stop the hall, run \"hallserver stream-reset -data-dir %s\" and start it again (or purge the stream: nats stream purge %s, as the hall's NATS user)", m.DataDir, hallstream.StreamName(id))
	if hs.pub, err = publish.New(publish.Options{Store: st, Conn: hs.nc, Hall: id, Replicas: m.NATSReplicas, RestartHint: hint, Logger: log}); err != nil {
		hs.stop()
		return nil, err
	}
	// The key is made now if the hall has none, to be printed; a disk
	// that cannot take it now must not keep the hall from starting (the
	// publisher makes it once it can).
	if signer, err := publish.Signer(ctx, st); err == nil {
		hs.key = hallstream.KeyString(signer.Public())
	} else {
		log.Warn("the hall's stream signing key is not made yet; its publisher makes it once it can", "err", err)
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

// banner is the stream's lines in the start-up banner.
func (hs *hallStream) banner() string {
	b := fmt.Sprintf("  NATS   %s, stream %s (subjects hall.%s.>)\n", hs.where, hs.pub.Stream(), hs.pubHall())
	if hs.auth != "" {
		b += "         gateways connect with " + hs.auth + "\n"
	}
	if hs.key == "" {
		b += "         stream signing key: not made yet (see the log)\n"
	} else {
		b += fmt.Sprintf("         stream signing key %s (gateways may pin it: -hall-key %s=%s)\n", hs.key, hs.pubHall(), hs.key)
	}
	if hs.follow != "" {
		b += "         follow it: " + hs.follow
		if hs.key != "" {
			b += fmt.Sprintf(" -hall-key %s=%s", hs.pubHall(), hs.key)
		}
		b += "\n"
	}
	return b
}

// embeddedUsers are the embedded server's users: the hall's, which may
// write its stream, and the gateways', which may only read; their nkey
// seeds are kept in dir (made on first start, mode 0600).
func embeddedUsers(dir, hall string) (users []natsrun.User, hallSeed, gatewaySeed string, err error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, "", "", fmt.Errorf("embedded NATS: %w", err)
	}
	hallSeed, gatewaySeed = filepath.Join(dir, "hall.nk"), filepath.Join(dir, "gateway.nk")
	hallKey, err := natsrun.UserSeed(hallSeed)
	if err != nil {
		return nil, "", "", err
	}
	gatewayKey, err := natsrun.UserSeed(gatewaySeed)
	if err != nil {
		return nil, "", "", err
	}
	return []natsrun.User{natsrun.HallUser(hallKey, hall), natsrun.FollowerUser(gatewayKey)}, hallSeed, gatewaySeed, nil
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
