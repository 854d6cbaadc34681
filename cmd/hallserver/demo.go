package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"slices"
	"time"

	"google.golang.org/grpc/credentials"

	"github.com/chesshall/hallclock/clockdev/sim"
	"github.com/chesshall/hallclock/internal/clienttls"
	"github.com/chesshall/hallclock/server"
	"github.com/chesshall/hallclock/server/auth"
)

// demoTokens are the tokens the demo keeps in <data-dir>/demo/tokens.json,
// so a newcomer sees the same ones at every start. The fleet plays the
// arbiter with a chief token of its own, labelled as the fleet's, so that
// nothing a person does is audited as the fleet's and nothing the fleet
// does as a person's.
type demoTokens struct {
	Chief     string `json:"chief"`     // the chief arbiter's: for people
	Arbiter   string `json:"arbiter"`   // for hallctl and the dashboard
	Broadcast string `json:"broadcast"` // for feeds: read-only
	Fleet     string `json:"fleet"`     // the simulated fleet's own
}

// demoFleetLabel is the label of the fleet's token: what it does is
// audited as "chief:demo fleet".
const demoFleetLabel = "demo fleet"

// demo starts the simulated fleet against the server just started, and
// prints where to look and which tokens to use. chief is the hall's
// chief-arbiter token if this start created it ("" otherwise). It returns
// when ctx ends.
func (m *Main) demo(ctx context.Context, srv *server.Server, log *slog.Logger, grpcAddr, httpAddr net.Addr, chief string) error {
	dir := filepath.Join(m.DataDir, "demo")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	toks, err := m.demoTokens(ctx, srv, filepath.Join(dir, "tokens.json"), chief)
	if err != nil {
		return fmt.Errorf("demo tokens: %w", err)
	}
	web := m.webBase(httpAddr)
	code, err := srv.Sessions().IssueCode(ctx, toks.Arbiter)
	if err != nil {
		return fmt.Errorf("demo sign-in code: %w", err)
	}
	fmt.Fprintf(m.Stdout, `
demo hall: a simulated fleet plays rounds of classical, rapid and blitz chess,
  each round paired by a simple Swiss stand-in (not FIDE Dutch) and imported as a TRF.
  dashboard       %s/signin?code=%s
                  (a one-time sign-in link, valid %s: open it and press its button; later, sign in at %s/signin
                  with the arbiter token, or make a link for another device: hallctl signin-link)
  live feed (SSE) curl -N -H "Authorization: Bearer $BROADCAST" %s/api/watch
  gRPC feeds      Watch service at %s with the broadcast token
  arbiter CLI     HALL_ADDR=%s HALL_TOKEN=$ARBITER go run ./cmd/hallctl boards
tokens (keep them out of links; also in %s): paste this line into your shell
  export ARBITER=%s BROADCAST=%s CHIEF=%s
  (CHIEF is the chief arbiter's: tokens, setting up)
The fleet plays the arbiter with a token of its own ("fleet" in that file):
what it does is audited as "%s", what you do as you.
Stop with Ctrl-C; starting again continues this hall from %s: the clocks
keep the time that passed meanwhile, as real clocks run on while their
hall is away.

`, web, code, auth.CodeTTL, web, web, hostPort(grpcAddr), hostPort(grpcAddr), filepath.Join(dir, "tokens.json"),
		toks.Arbiter, toks.Broadcast, toks.Chief, demoFleetLabel, m.DataDir)
	if l, err := m.demoTabletLink(ctx, grpcAddr, phoneBase(web), toks.Fleet); err != nil {
		log.Warn("demo: no clock link for a phone", "err", err)
	} else {
		fmt.Fprintf(m.Stdout, "play on a phone  %s\n"+
			"                 (a one-time clock link, valid %s: open it on a phone or tablet on this machine's network and press its button; the device\n"+
			"                 becomes the clock of %s, where %q plays a %s game; another link: hallctl clock-link %d)\n\n",
			l.GetUrl(), auth.CodeTTL, l.GetWhat(), demoTabletTournament, demoTabletTC, demoTabletTable)
	}
	fmt.Fprintf(m.Stdout, "demo rounds are public: their display pages (for the hall's screens) at %s/display/round/<round id>,\n"+
		"their PGN with clocks at %s/api/pgn/round/<round id>; the ids: hallctl broadcasts\n\n", web, web)

	st := func() sim.HallStats {
		s := srv.Stats()
		return sim.HallStats{Connects: s.Connects, Applied: s.EventsApplied, Rejected: s.Rejected,
			Duplicates: s.Duplicates, Gaps: s.Gaps, Commands: s.Commands}
	}
	creds, err := m.demoCredentials()
	if err != nil {
		return err
	}
	fleet, err := sim.New(sim.Config{
		Credentials:   creds,
		Target:        hostPort(grpcAddr),
		ChiefToken:    toks.Fleet,
		Rounds:        sim.DemoRounds(m.DemoBoards),
		Loop:          true,
		Seed:          time.Now().UnixNano(),
		StateDir:      filepath.Join(dir, "fleet"),
		DevicePrefix:  "demo",
		Progress:      m.Stdout,
		ProgressEvery: 10 * time.Second,
		Logger:        log,
		HallStats:     st,
		TalkingClocks: true, // the blitz's board 1 is played under the Laws' Appendix D
	})
	if err != nil {
		return err
	}
	_, err = fleet.Run(ctx)
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// demoTokens reads the demo's tokens, issuing any that is missing or was
// revoked. chief, if set, is the hall's chief-arbiter token just created.
func (m *Main) demoTokens(ctx context.Context, srv *server.Server, path, chief string) (demoTokens, error) {
	var t demoTokens
	if b, err := os.ReadFile(path); err == nil {
		if err := json.Unmarshal(b, &t); err != nil {
			return t, fmt.Errorf("%s: %w", path, err)
		}
	}
	if t.Fleet == "" && t.Chief != "" {
		// An older demo kept the fleet's token as "chief" and printed it as
		// the chief arbiter's: it stays the fleet's.
		t.Fleet, t.Chief = t.Chief, ""
	}
	if chief != "" {
		t.Chief = chief
	}
	issue := func(secret *string, role auth.Role, label string) error {
		if *secret != "" {
			if _, ok := srv.Tokens().Lookup(*secret); ok {
				return nil
			}
		}
		_, s, err := srv.Tokens().Issue(ctx, role, label, "", nil, "server")
		*secret = s
		return err
	}
	if err := issue(&t.Chief, auth.RoleChief, "chief arbiter"); err != nil {
		return t, err
	}
	if err := issue(&t.Fleet, auth.RoleChief, demoFleetLabel); err != nil {
		return t, err
	}
	if err := issue(&t.Arbiter, auth.RoleArbiter, "demo arbiter"); err != nil {
		return t, err
	}
	if err := issue(&t.Broadcast, auth.RoleBroadcast, "demo broadcast"); err != nil {
		return t, err
	}
	b, _ := json.MarshalIndent(t, "", "  ")
	return t, os.WriteFile(path, b, 0o600)
}

// demoCredentials lets the demo fleet dial its own server: over TLS when
// the server has a certificate, trusting that certificate and expecting
// its first name (the fleet dials localhost).
func (m *Main) demoCredentials() (credentials.TransportCredentials, error) {
	if m.TLSCert == "" {
		return nil, nil
	}
	cert, err := tls.LoadX509KeyPair(m.TLSCert, m.TLSKey)
	if err != nil {
		return nil, err
	}
	leaf, err := x509.ParseCertificate(cert.Certificate[0])
	if err != nil {
		return nil, err
	}
	name := ""
	if len(leaf.DNSNames) > 0 && !slices.Contains(leaf.DNSNames, "localhost") {
		name = leaf.DNSNames[0]
	}
	return clienttls.Credentials(m.TLSCert, name)
}
