package main

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"google.golang.org/protobuf/proto"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// broadcast shows or sets how a round is broadcast.
//
//	broadcast ROUND                                  how it is broadcast, and its relay's status
//	broadcast ROUND -public | -private               its feeds need no token, or a token
//	broadcast ROUND -relay URL [-relay-token T|@FILE] push its PGN there (-relay "" stops)
func (c *cli) broadcast(args []string) error {
	var public, private bool
	var relay, token string
	relaySet, tokenSet := false, false
	pos, err := parse(args, func(fs *flag.FlagSet) {
		fs.BoolVar(&public, "public", false, "the round's feeds need no token (shown with the broadcast delay)")
		fs.BoolVar(&private, "private", false, "the round's feeds need a broadcast or arbiter token")
		fs.Func("relay", "push the round's PGN to this URL (\"\": push nowhere)", func(v string) error { relay, relaySet = v, true; return nil })
		fs.Func("relay-token", "the relay's bearer token, or @FILE to read it from a file", func(v string) error { token, tokenSet = v, true; return nil })
	})
	if err != nil {
		return err
	}
	if len(pos) != 1 || (public && private) {
		return fmt.Errorf("%w: want broadcast ROUND [-public|-private] [-relay URL] [-relay-token T|@FILE]", errUsage)
	}
	r, err := c.round(pos[0])
	if err != nil {
		return err
	}
	if !public && !private && !relaySet && !tokenSet {
		list, err := c.arb.ListBroadcasts(c.ctx, &pb.ListBroadcastsRequest{Tournament: r.GetTournamentId()})
		if err != nil {
			return err
		}
		for _, b := range list.GetBroadcasts() {
			if b.GetRoundId() == r.GetRoundId() {
				c.printBroadcast(b)
			}
		}
		return nil
	}
	req := &pb.SetBroadcastRequest{RoundId: r.GetRoundId()}
	if public || private {
		req.Public = proto.Bool(public)
	}
	if relaySet {
		req.RelayUrl = proto.String(relay)
	}
	if tokenSet {
		if file, ok := strings.CutPrefix(token, "@"); ok {
			b, err := os.ReadFile(file)
			if err != nil {
				return err
			}
			token = strings.TrimSpace(string(b))
		}
		req.RelayToken = proto.String(token)
	}
	b, err := c.arb.SetBroadcast(c.ctx, req)
	if err != nil {
		return err
	}
	c.printBroadcast(b)
	return nil
}

// broadcasts lists the rounds that are public or pushed to a relay (or
// every round of a tournament) with their relays' status.
func (c *cli) broadcasts(args []string) error {
	pos, err := parse(args, func(*flag.FlagSet) {})
	if err != nil || len(pos) > 1 {
		return fmt.Errorf("%w: want broadcasts [TOURNAMENT]", errUsage)
	}
	req := &pb.ListBroadcastsRequest{}
	if len(pos) == 1 {
		req.Tournament = pos[0]
	}
	list, err := c.arb.ListBroadcasts(c.ctx, req)
	if err != nil {
		return err
	}
	if len(list.GetBroadcasts()) == 0 {
		fmt.Fprintln(c.out, "no round is public or pushed to a relay (hallctl broadcast ROUND -public, -relay URL)")
	}
	for _, b := range list.GetBroadcasts() {
		c.printBroadcast(b)
	}
	return nil
}

func (c *cli) printBroadcast(b *pb.RoundBroadcast) {
	access := "needs a broadcast token"
	if b.GetPublic() {
		access = "public"
	}
	delay := "live"
	if b.GetDelayMs() > 0 {
		delay = "delayed " + (time.Duration(b.GetDelayMs()) * time.Millisecond).String()
	}
	fmt.Fprintf(c.out, "%s round %d: %s, %s\n", b.GetTournamentName(), b.GetNumber(), access, delay)
	fmt.Fprintf(c.out, "  PGN      %s\n  display  %s\n", b.GetPgnPath(), b.GetDisplayPath())
	rl := b.GetRelay()
	if rl == nil {
		fmt.Fprintln(c.out, "  relay    none")
		return
	}
	tok := "no token"
	if rl.GetTokenSet() {
		tok = "token set"
	}
	fmt.Fprintf(c.out, "  relay    %s (%s)\n", rl.GetUrl(), tok)
	state := strings.ReplaceAll(rl.GetState(), "_", " ")
	fmt.Fprintf(c.out, "           %s; %d pushes accepted, %d failed", state, rl.GetPushes(), rl.GetFailures())
	if ms := rl.GetLastSuccessUnixMs(); ms > 0 {
		fmt.Fprintf(c.out, "; last accepted %s (%d games, %d bytes)", at(ms, "15:04:05", c.zone("")), rl.GetPushedGames(), rl.GetPushedBytes())
	}
	fmt.Fprintln(c.out)
	if e := rl.GetLastError(); e != "" {
		fmt.Fprintf(c.out, "           last error (%d in a row): %s", rl.GetConsecutiveFailures(), e)
		if ms := rl.GetNextAttemptUnixMs(); ms > 0 {
			fmt.Fprintf(c.out, "; next try %s", at(ms, "15:04:05", c.zone("")))
		}
		fmt.Fprintln(c.out)
	}
	for _, e := range rl.GetGameErrors() {
		fmt.Fprintf(c.out, "           the relay refused a game: %s\n", e)
	}
}
