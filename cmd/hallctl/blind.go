package main

import (
	"flag"
	"fmt"
	"net"
	"strings"

	"github.com/chesshall/hallclock/internal/wire"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
)

// blindCommands are the commands of play with visually disabled players
// (FIDE 2018 and 2023 Appendix D, 2009 Appendix E): a board set to be
// played under the appendix, an announcement for a player, the sign-in
// link of a player's assistant.
var blindCommands = map[string]func(c *cli, args []string) error{
	"blind":          (*cli).blind,
	"announce":       (*cli).announce,
	"assistant-link": (*cli).assistantLink,
}

const blindUsage = `Play with visually disabled players (the Laws' Appendix D)
  blind BOARD [SPEC] [-reason R]      how the board is played under the appendix; SPEC sets it:
                                      W or B the visually disabled player, +A with an assistant,
                                      :de the language his clock speaks ("W+A:de"); B=A a sighted
                                      player's assistant; players joined by commas; - for none
  announce BOARD SIDE                 tell SIDE the moves and the time used (his talking clock says it)
  assistant-link BOARD SIDE [-label L] [-web URL]
                                      a one-time sign-in link to the assistant's page, for his phone:
                                      that board and player only`

// blind shows or sets a board's play under the appendix.
func (c *cli) blind(args []string) error {
	var reason string
	pos, err := parse(args, func(fs *flag.FlagSet) { fs.StringVar(&reason, "reason", "", "why (kept in the audit log)") })
	if err != nil {
		return err
	}
	if len(pos) != 1 && len(pos) != 2 {
		return fmt.Errorf("%w: want blind BOARD [SPEC] (e.g. W+A:de, or - for none)", errUsage)
	}
	id, err := c.boardID(pos[0])
	if err != nil {
		return err
	}
	var b *pb.Board
	if len(pos) == 1 {
		b, err = c.arb.GetBoard(c.ctx, &pb.GetBoardRequest{BoardId: id})
	} else {
		spec, perr := rules.ParseBlindPlay(pos[1])
		if perr != nil {
			return fmt.Errorf("%w: %v", errUsage, perr)
		}
		b, err = c.arb.SetBlindPlay(c.ctx, &pb.SetBlindPlayRequest{BoardId: id, BlindPlay: wire.WireBlindPlay(spec), Reason: reason})
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(c.out, "%s round %d, board %s%d: %s – %s\n  %s\n", b.GetTournamentName(), b.GetRoundNumber(), b.GetSection(), b.GetNumber(),
		playerName(b.GetWhite()), playerName(b.GetBlack()), blindWords(b))
	return nil
}

// blindWords says a board's play under the appendix for people, with its
// short notation: "W+A:de: White is visually disabled, with an assistant;
// his clock speaks de".
func blindWords(b *pb.Board) string {
	bp := wire.BlindPlay(b.GetConfig().GetBlindPlay())
	if bp == (rules.BlindPlay{}) {
		return "not played under the rules for visually disabled players"
	}
	var parts []string
	for s, p := range bp.Players {
		side := rules.Side(s)
		name := strings.ToUpper(side.String()[:1]) + side.String()[1:]
		switch {
		case p.VisuallyDisabled:
			w := name + " is visually disabled"
			if p.Assistant {
				w += ", with an assistant"
			}
			if p.Language != "" {
				w += "; his clock speaks " + p.Language
			}
			parts = append(parts, w)
		case p.Assistant:
			parts = append(parts, name+" (sighted) has an assistant")
		}
	}
	return bp.String() + ": " + strings.Join(parts, "; ")
}

// boardSide reads the arguments BOARD SIDE of a command (what: its
// usage), with its flags: the board as given and its id, and the side.
func (c *cli) boardSide(args []string, what string, flags func(fs *flag.FlagSet)) (ref, id string, s pb.Side, err error) {
	pos, err := parse(args, flags)
	if err != nil {
		return "", "", 0, err
	}
	if err := need(pos, 2, what); err != nil {
		return "", "", 0, err
	}
	if id, err = c.boardID(pos[0]); err != nil {
		return "", "", 0, err
	}
	s, err = side(pos[1])
	return pos[0], id, s, err
}

// announce has the hall tell a visually disabled player the moves and
// the time used, and prints the words.
func (c *cli) announce(args []string) error {
	var reason string
	_, id, s, err := c.boardSide(args, "announce BOARD SIDE", func(fs *flag.FlagSet) { fs.StringVar(&reason, "reason", "", "why (kept in the audit log)") })
	if err != nil {
		return err
	}
	r, err := c.arb.Announce(c.ctx, &pb.AnnounceRequest{BoardId: id, Side: s, Reason: reason})
	if err != nil {
		return err
	}
	who := "not said: " + r.GetNote()
	if r.GetSent() {
		who = "said by the clock " + r.GetDeviceId()
	}
	fmt.Fprintf(c.out, "%s (%s, %s)\n", r.GetAnnounce().GetText(), r.GetAnnounce().GetLanguage(), who)
	return nil
}

// assistantLink makes the one-time sign-in link of a player's assistant.
func (c *cli) assistantLink(args []string) error {
	var label, web string
	ref, id, s, err := c.boardSide(args, "assistant-link BOARD SIDE", func(fs *flag.FlagSet) {
		fs.StringVar(&label, "label", "", "who the assistant is (default: the board and side)")
		fs.StringVar(&web, "web", c.getenv("HALL_WEB"), "the hall's web address, e.g. http://hall:7080 (default HALL_WEB, else the gRPC host on port 7080)")
	})
	if err != nil {
		return err
	}
	r, err := c.arb.IssueAssistantLink(c.ctx, &pb.IssueAssistantLinkRequest{BoardId: id, Side: s, Label: label})
	if err != nil {
		return err
	}
	if web == "" {
		host, _, err := net.SplitHostPort(c.addr)
		if err != nil || host == "" {
			host = "localhost"
		}
		web = "http://" + net.JoinHostPort(host, "7080")
	}
	until := at(r.GetExpiresUnixMs(), "15:04", c.zone(""))
	fmt.Fprintf(c.out, "assistant %q of %s on board %s\n  sign-in link (opens the assistant's page on his phone; works once, until %s):\n  %s%s\n  his token: %s (hallctl token revoke %s ends it)\n",
		r.GetLabel(), strings.TrimPrefix(strings.ToLower(r.GetSide().String()), "side_"), ref, until,
		strings.TrimSuffix(web, "/"), r.GetSigninPath(), r.GetTokenId(), r.GetTokenId())
	return nil
}
