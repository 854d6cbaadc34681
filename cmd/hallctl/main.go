// Command hallctl is the arbiters' command line for the hall server.
//
//	export HALL_TOKEN=hc_...          # an arbiter's or the chief arbiter's token
//	hallctl boards                    # every board with its live state
//	hallctl pause  BOARD [-reason "..."]
//	hallctl add    BOARD black 60s    # 12.9: give Black a minute
//	hallctl set    BOARD 1h25m 1h31m  # 6.10.2: install times (clock paused)
//	hallctl illegal BOARD white       # 7.5.5
//	hallctl result BOARD 1-0 [termination]
//	hallctl audit  BOARD
//	hallctl token issue arbiter "Anna" [-sections A,B]
//	hallctl watch [-round ROUND]
//
// Run "hallctl help" for every command. The server address comes from
// -addr or HALL_ADDR (default localhost:7070); the token from -token or
// HALL_TOKEN.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

func main() {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Getenv); err != nil {
		if s, ok := status.FromError(err); ok {
			fmt.Fprintf(os.Stderr, "hallctl: %s: %s\n", s.Code(), s.Message())
		} else {
			fmt.Fprintln(os.Stderr, "hallctl:", err)
		}
		if errors.Is(err, errUsage) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

var errUsage = errors.New("usage")

const usage = `hallctl [-addr host:port] [-token T] [-tls | -tls-ca CA.pem [-tls-server-name N]] COMMAND ...

Boards
  boards [-round R] [-section S]      list boards with their clocks
  board BOARD                         one board, with pending commands
  audit BOARD                         who did what, when, why
  devices                             clock devices, online or not
  watch [-round R] [-board B]         live updates until interrupted

Actions on a board's clock (they travel through the clock device)
  start BOARD [-absent white|black]   start one board's clock
  start-round ROUND                   start every clock of a round at once
  pause BOARD | resume BOARD | adjourn BOARD
  add BOARD SIDE DURATION             e.g. add b-12 black 1m (negative takes away)
  set BOARD WHITE BLACK [-moves W,B]  install times, e.g. set b-12 1h25m 1h31m (clock paused)
  illegal BOARD SIDE                  a completed illegal move by SIDE (7.5)
  draw-claim-rejected BOARD SIDE      an incorrect draw claim by SIDE (9.5.3)
  flag-claim BOARD SIDE               SIDE claims the opponent's flag
  arrive BOARD SIDE                   an absent player arrives
  quickplay BOARD SIDE draw|postpone|reject|increment|refer   (refer: no arbiter was present, III.6)
  illegal-found BOARD SIDE MOVE WHITE BLACK   SIDE's move MOVE found illegal later (7.5.1), times to set (clock paused)
  flags-unordered BOARD               the clock shows both flags down, order unknown
  declare-lost BOARD SIDE [RESULT]    the arbiter declares SIDE lost (12.9); RESULT: the score he decides
  position BOARD FEN
  result BOARD RESULT [TERMINATION]   1-0, 0-1, 1/2-1/2, +-, -+, --, 0-0, 1/2-0, 0-1/2
  virtual BOARD                       move a board with a dead clock to a virtual clock
  assign BOARD DEVICE [-replace]      a (replacement) clock device keeps BOARD; -replace takes
                                      a device from a board whose game is not over
  swap BOARD_A BOARD_B                swap two boards' devices

Setting up (chief arbiter)
  timecontrol TC [-ruleset R]               how the server reads a time control; creates nothing
  tournament NAME [-tc TC] [-ruleset R]     create an event
  round TOURNAMENT NUMBER [-tc TC]          create a round
  add-board ROUND NUMBER WHITE BLACK [-device D] [-section S] [-tc TC]
  token issue ROLE LABEL [-device D] [-sections A,B]   roles: device, arbiter, chief, broadcast
  token revoke TOKEN_ID
  token list
  backup FILE                               a consistent copy of the hall, taken while it plays

Time controls: PGN seconds ("180+2", "40/5400+30:1800+30") or times with units
("3m+2s", "90m+30s", "40/90m+30s:30m+30s", "G/15"); a bare "3+2" is refused.
Creating answers with the control as read, in words.

Actions take -reason "..." (kept in the audit log) and -wait 3s.`

type cli struct {
	ctx  context.Context
	arb  pb.ArbiterClient
	conn *grpc.ClientConn
	out  io.Writer
}

func run(ctx context.Context, args []string, out io.Writer, getenv func(string) string) error {
	fs := flag.NewFlagSet("hallctl", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	addr := fs.String("addr", or(getenv("HALL_ADDR"), "localhost:7070"), "server gRPC address")
	token := fs.String("token", getenv("HALL_TOKEN"), "bearer token")
	tlsf := addTLSFlags(fs, getenv)
	if err := fs.Parse(args); err != nil || fs.NArg() == 0 || fs.Arg(0) == "help" {
		fmt.Fprintln(out, usage)
		if err != nil || fs.NArg() == 0 {
			return errUsage
		}
		return nil
	}
	if *token == "" {
		return fmt.Errorf("no token: set HALL_TOKEN or pass -token (the chief-arbiter token is printed at the server's first start)")
	}
	creds, err := tlsf.credentials()
	if err != nil {
		return err
	}
	conn, err := grpc.NewClient(*addr, grpc.WithTransportCredentials(creds))
	if err != nil {
		return err
	}
	defer conn.Close()
	c := &cli{ctx: metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+*token), arb: pb.NewArbiterClient(conn), conn: conn, out: out}
	return c.dispatch(fs.Arg(0), fs.Args()[1:])
}

func or(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// parse splits positional arguments from flags, which may come anywhere.
func parse(args []string, setup func(fs *flag.FlagSet)) ([]string, error) {
	fs := flag.NewFlagSet("", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	setup(fs)
	var pos []string
	for len(args) > 0 {
		if err := fs.Parse(args); err != nil {
			return nil, fmt.Errorf("%w: %v", errUsage, err)
		}
		args = fs.Args()
		if len(args) > 0 {
			pos = append(pos, args[0])
			args = args[1:]
		}
	}
	return pos, nil
}

func need(pos []string, n int, what string) error {
	if len(pos) != n {
		return fmt.Errorf("%w: want %s", errUsage, what)
	}
	return nil
}

func side(s string) (pb.Side, error) {
	switch strings.ToLower(s) {
	case "white", "w":
		return pb.Side_SIDE_WHITE, nil
	case "black", "b":
		return pb.Side_SIDE_BLACK, nil
	}
	return 0, fmt.Errorf("%w: side %q: want white or black", errUsage, s)
}

func (c *cli) dispatch(cmd string, args []string) error {
	var reason string
	var wait time.Duration
	actFlags := func(fs *flag.FlagSet) {
		fs.StringVar(&reason, "reason", "", "why (kept in the audit log)")
		fs.DurationVar(&wait, "wait", 3*time.Second, "how long to wait for the clock to apply it")
	}
	action := func(board string, a *pb.ClockAction) error {
		r, err := c.arb.BoardAction(c.ctx, &pb.BoardActionRequest{BoardId: board, Action: a, Reason: reason, WaitMs: wait.Milliseconds()})
		if err != nil {
			return err
		}
		fmt.Fprintf(c.out, "%s: %s", board, strings.TrimPrefix(r.GetStatus().String(), "COMMAND_STATUS_"))
		if r.GetMessage() != "" {
			fmt.Fprintf(c.out, " — %s", r.GetMessage())
		}
		fmt.Fprintln(c.out)
		printState(c.out, r.GetState())
		if r.GetStatus() == pb.CommandStatus_COMMAND_STATUS_REFUSED {
			return errors.New("refused")
		}
		return nil
	}
	simple := map[string]pb.ActionKind{"pause": pb.ActionKind_ACTION_KIND_PAUSE, "resume": pb.ActionKind_ACTION_KIND_RESUME, "adjourn": pb.ActionKind_ACTION_KIND_ADJOURN,
		"flags-unordered": pb.ActionKind_ACTION_KIND_FLAGS_UNORDERED}
	sided := map[string]pb.ActionKind{"illegal": pb.ActionKind_ACTION_KIND_ILLEGAL_MOVE, "draw-claim-rejected": pb.ActionKind_ACTION_KIND_DRAW_CLAIM_REJECTED,
		"flag-claim": pb.ActionKind_ACTION_KIND_FLAG_CLAIM, "arrive": pb.ActionKind_ACTION_KIND_ARRIVE}
	if k, ok := simple[cmd]; ok {
		pos, err := parse(args, actFlags)
		if err != nil {
			return err
		}
		if err := need(pos, 1, cmd+" BOARD"); err != nil {
			return err
		}
		return action(pos[0], &pb.ClockAction{Kind: k})
	}
	if k, ok := sided[cmd]; ok {
		pos, err := parse(args, actFlags)
		if err != nil {
			return err
		}
		if err := need(pos, 2, cmd+" BOARD SIDE"); err != nil {
			return err
		}
		s, err := side(pos[1])
		if err != nil {
			return err
		}
		return action(pos[0], &pb.ClockAction{Kind: k, Side: s})
	}
	switch cmd {
	case "boards":
		var round, section string
		if _, err := parse(args, func(fs *flag.FlagSet) {
			fs.StringVar(&round, "round", "", "")
			fs.StringVar(&section, "section", "", "")
		}); err != nil {
			return err
		}
		r, err := c.arb.ListBoards(c.ctx, &pb.ListBoardsRequest{RoundId: round, Section: section})
		if err != nil {
			return err
		}
		tw := tabwriter.NewWriter(c.out, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "BOARD\tNO\tSECTION\tWHITE\tBLACK\tCLOCK\tSTATUS\tWHITE TIME\tBLACK TIME\tMOVES\tRESULT")
		for _, b := range r.GetBoards() {
			st := b.GetState()
			clock := b.GetDeviceId()
			if st.GetSource() == pb.ClockSource_CLOCK_SOURCE_VIRTUAL {
				clock = "virtual"
			} else if !st.GetDeviceOnline() {
				clock += " (offline)"
			}
			fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t%s\n", b.GetBoardId(), b.GetNumber(), b.GetSection(),
				b.GetWhite().GetName(), b.GetBlack().GetName(), clock, statusName(st), clockTime(st.GetWhite().GetRemainingMs()),
				clockTime(st.GetBlack().GetRemainingMs()), st.GetWhite().GetMoves(), st.GetResult())
		}
		return tw.Flush()
	case "board":
		if err := need(args, 1, "board BOARD"); err != nil {
			return err
		}
		b, err := c.arb.GetBoard(c.ctx, &pb.GetBoardRequest{BoardId: args[0]})
		if err != nil {
			return err
		}
		fmt.Fprintf(c.out, "%s  board %d %s  %s – %s  clock %s  %s %s\n", b.GetBoardId(), b.GetNumber(), b.GetSection(),
			b.GetWhite().GetName(), b.GetBlack().GetName(), or(b.GetDeviceId(), "-"), b.GetConfig().GetRuleset(), b.GetConfig().GetTimeControl())
		printTimeControl(c.out, b.GetTimeControlInfo())
		printState(c.out, b.GetState())
		for _, p := range b.GetPending() {
			where := "sent"
			if !p.GetDeviceOnline() {
				where = "waiting for the device"
			}
			fmt.Fprintf(c.out, "  pending %s: %s (%s, by %s)\n", p.GetCommandId(), p.GetAction().GetKind(), where, p.GetIssuedBy())
		}
		return nil
	case "audit":
		if err := need(args, 1, "audit BOARD"); err != nil {
			return err
		}
		r, err := c.arb.AuditLog(c.ctx, &pb.AuditLogRequest{BoardId: args[0]})
		if err != nil {
			return err
		}
		tw := tabwriter.NewWriter(c.out, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "TIME\tWHO\tWHAT\tOUTCOME\tREASON")
		for _, e := range r.GetEntries() {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", time.UnixMilli(e.GetUnixMs()).Format("15:04:05.000"), e.GetActor(), e.GetWhat(), e.GetOutcome(), e.GetReason())
		}
		return tw.Flush()
	case "devices":
		r, err := c.arb.ListDevices(c.ctx, &pb.ListDevicesRequest{})
		if err != nil {
			return err
		}
		tw := tabwriter.NewWriter(c.out, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "DEVICE\tONLINE\tBOARD\tBATTERY\tDRIFT PPM\tLAST SEEN\tFIRMWARE")
		for _, d := range r.GetDevices() {
			fmt.Fprintf(tw, "%s\t%v\t%s\t%d%%\t%.1f\t%s\t%s\n", d.GetDeviceId(), d.GetOnline(), d.GetBoardId(), d.GetBatteryPct(),
				d.GetDriftPpm(), time.UnixMilli(d.GetLastSeenUnixMs()).Format("15:04:05"), d.GetFirmware())
		}
		return tw.Flush()
	case "watch":
		return c.watch(args)
	case "start":
		var absent string
		pos, err := parse(args, func(fs *flag.FlagSet) { actFlags(fs); fs.StringVar(&absent, "absent", "", "white, black or both") })
		if err != nil {
			return err
		}
		if err := need(pos, 1, "start BOARD"); err != nil {
			return err
		}
		a := &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_START}
		a.AbsentWhite = strings.Contains(absent, "white") || absent == "both"
		a.AbsentBlack = strings.Contains(absent, "black") || absent == "both"
		return action(pos[0], a)
	case "start-round":
		if err := need(args, 1, "start-round ROUND"); err != nil {
			return err
		}
		r, err := c.arb.StartRound(c.ctx, &pb.StartRoundRequest{RoundId: args[0]})
		if err != nil {
			return err
		}
		for _, b := range r.GetBoards() {
			fmt.Fprintf(c.out, "%s: %s %s\n", b.GetBoardId(), strings.TrimPrefix(b.GetStatus().String(), "COMMAND_STATUS_"), b.GetMessage())
		}
		return nil
	case "add":
		pos, err := parse(args, actFlags)
		if err != nil {
			return err
		}
		if err := need(pos, 3, "add BOARD SIDE DURATION (e.g. add b-1 black 1m)"); err != nil {
			return err
		}
		s, err := side(pos[1])
		if err != nil {
			return err
		}
		d, err := time.ParseDuration(pos[2])
		if err != nil {
			return fmt.Errorf("%w: duration %q: e.g. 1m, 30s, -2m", errUsage, pos[2])
		}
		return action(pos[0], &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_ADD_TIME, Side: s, Ms: d.Milliseconds()})
	case "set":
		var moves string
		pos, err := parse(args, func(fs *flag.FlagSet) { actFlags(fs); fs.StringVar(&moves, "moves", "", "W,B move counters") })
		if err != nil {
			return err
		}
		if err := need(pos, 3, "set BOARD WHITE_TIME BLACK_TIME"); err != nil {
			return err
		}
		w, err1 := time.ParseDuration(pos[1])
		b, err2 := time.ParseDuration(pos[2])
		if err1 != nil || err2 != nil {
			return fmt.Errorf("%w: times like 1h25m or 90s", errUsage)
		}
		a := &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_SET_CLOCK, WhiteMs: w.Milliseconds(), BlackMs: b.Milliseconds()}
		if moves != "" {
			var wm, bm int32
			if _, err := fmt.Sscanf(moves, "%d,%d", &wm, &bm); err != nil {
				return fmt.Errorf("%w: -moves W,B e.g. 39,39", errUsage)
			}
			a.WhiteMoves, a.BlackMoves = &wm, &bm
		}
		return action(pos[0], a)
	case "quickplay":
		pos, err := parse(args, actFlags)
		if err != nil {
			return err
		}
		if err := need(pos, 3, "quickplay BOARD SIDE draw|postpone|reject|increment"); err != nil {
			return err
		}
		s, err := side(pos[1])
		if err != nil {
			return err
		}
		a := &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_QUICKPLAY_CLAIM, Side: s}
		switch pos[2] {
		case "draw":
			a.Decision = pb.QuickplayDecision_QUICKPLAY_DECISION_DRAW
		case "postpone":
			a.Decision = pb.QuickplayDecision_QUICKPLAY_DECISION_POSTPONE
		case "reject":
			a.Decision = pb.QuickplayDecision_QUICKPLAY_DECISION_REJECT
		case "refer":
			a.Decision = pb.QuickplayDecision_QUICKPLAY_DECISION_REFER
		case "increment":
			a = &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_QUICKPLAY_INCREMENT, Side: s}
		default:
			return fmt.Errorf("%w: decision %q: draw, postpone, reject, refer or increment", errUsage, pos[2])
		}
		return action(pos[0], a)
	case "declare-lost":
		pos, err := parse(args, actFlags)
		if err != nil {
			return err
		}
		if len(pos) < 2 || len(pos) > 3 {
			return fmt.Errorf("%w: declare-lost BOARD SIDE [RESULT]", errUsage)
		}
		s, err := side(pos[1])
		if err != nil {
			return err
		}
		a := &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_DECLARE_LOST, Side: s}
		if len(pos) == 3 {
			a.Result = pos[2]
		}
		return action(pos[0], a)
	case "illegal-found":
		pos, err := parse(args, actFlags)
		if err != nil {
			return err
		}
		if err := need(pos, 5, "illegal-found BOARD SIDE MOVE WHITE BLACK"); err != nil {
			return err
		}
		s, err := side(pos[1])
		if err != nil {
			return err
		}
		var move int32
		if _, err := fmt.Sscanf(pos[2], "%d", &move); err != nil {
			return fmt.Errorf("%w: move %q: the offender's move number", errUsage, pos[2])
		}
		w, err := time.ParseDuration(pos[3])
		if err != nil {
			return fmt.Errorf("%w: white time %q: %v", errUsage, pos[3], err)
		}
		b, err := time.ParseDuration(pos[4])
		if err != nil {
			return fmt.Errorf("%w: black time %q: %v", errUsage, pos[4], err)
		}
		return action(pos[0], &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_ILLEGAL_MOVE_FOUND, Side: s, Move: move,
			WhiteMs: w.Milliseconds(), BlackMs: b.Milliseconds()})
	case "timecontrol":
		return c.describeTimeControl(args)
	case "position":
		pos, err := parse(args, actFlags)
		if err != nil {
			return err
		}
		if len(pos) < 2 {
			return fmt.Errorf("%w: position BOARD FEN", errUsage)
		}
		return action(pos[0], &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_POSITION, Fen: strings.Join(pos[1:], " ")})
	case "result":
		pos, err := parse(args, actFlags)
		if err != nil {
			return err
		}
		if len(pos) < 2 || len(pos) > 3 {
			return fmt.Errorf("%w: result BOARD RESULT [TERMINATION]", errUsage)
		}
		a := &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_RESULT, Result: pos[1]}
		if len(pos) == 3 {
			a.Termination = pos[2]
		}
		return action(pos[0], a)
	case "virtual":
		pos, err := parse(args, actFlags)
		if err != nil {
			return err
		}
		if err := need(pos, 1, "virtual BOARD"); err != nil {
			return err
		}
		b, err := c.arb.UseVirtualClock(c.ctx, &pb.UseVirtualClockRequest{BoardId: pos[0], Reason: reason})
		if err != nil {
			return err
		}
		printState(c.out, b.GetState())
		return nil
	case "backup":
		return c.backup(args)
	case "assign":
		var replace bool
		pos, err := parse(args, func(fs *flag.FlagSet) {
			actFlags(fs)
			fs.BoolVar(&replace, "replace", false, "take the device from a board whose game is not over")
		})
		if err != nil {
			return err
		}
		if err := need(pos, 2, "assign BOARD DEVICE"); err != nil {
			return err
		}
		b, err := c.arb.AssignDevice(c.ctx, &pb.AssignDeviceRequest{BoardId: pos[0], DeviceId: pos[1], Reason: reason, Replace: replace})
		if err != nil {
			return err
		}
		printState(c.out, b.GetState())
		return nil
	case "swap":
		pos, err := parse(args, actFlags)
		if err != nil {
			return err
		}
		if err := need(pos, 2, "swap BOARD_A BOARD_B"); err != nil {
			return err
		}
		_, err = c.arb.SwapDevices(c.ctx, &pb.SwapDevicesRequest{BoardA: pos[0], BoardB: pos[1], Reason: reason})
		return err
	case "tournament":
		var tc, ruleset string
		pos, err := parse(args, func(fs *flag.FlagSet) { fs.StringVar(&tc, "tc", "", ""); fs.StringVar(&ruleset, "ruleset", "", "") })
		if err != nil {
			return err
		}
		if err := need(pos, 1, "tournament NAME"); err != nil {
			return err
		}
		t, err := c.arb.CreateTournament(c.ctx, &pb.CreateTournamentRequest{Name: pos[0], DefaultConfig: &pb.ClockConfig{Ruleset: ruleset, TimeControl: tc}})
		if err != nil {
			return err
		}
		fmt.Fprintln(c.out, t.GetTournamentId())
		printTimeControl(c.out, t.GetTimeControlInfo())
		return nil
	case "round":
		var tc string
		pos, err := parse(args, func(fs *flag.FlagSet) { fs.StringVar(&tc, "tc", "", "") })
		if err != nil {
			return err
		}
		if err := need(pos, 2, "round TOURNAMENT NUMBER"); err != nil {
			return err
		}
		var n int32
		if _, err := fmt.Sscanf(pos[1], "%d", &n); err != nil {
			return fmt.Errorf("%w: round number %q", errUsage, pos[1])
		}
		req := &pb.CreateRoundRequest{TournamentId: pos[0], Number: n}
		if tc != "" {
			req.Config = &pb.ClockConfig{TimeControl: tc}
		}
		r, err := c.arb.CreateRound(c.ctx, req)
		if err != nil {
			return err
		}
		fmt.Fprintln(c.out, r.GetRoundId())
		printTimeControl(c.out, r.GetTimeControlInfo())
		return nil
	case "add-board":
		var dev, section, tc string
		pos, err := parse(args, func(fs *flag.FlagSet) {
			fs.StringVar(&dev, "device", "", "")
			fs.StringVar(&section, "section", "", "")
			fs.StringVar(&tc, "tc", "", "")
		})
		if err != nil {
			return err
		}
		if err := need(pos, 4, "add-board ROUND NUMBER WHITE BLACK"); err != nil {
			return err
		}
		var n int32
		if _, err := fmt.Sscanf(pos[1], "%d", &n); err != nil {
			return fmt.Errorf("%w: board number %q", errUsage, pos[1])
		}
		req := &pb.AddBoardRequest{RoundId: pos[0], Number: n, Section: section, DeviceId: dev,
			White: &pb.Player{Name: pos[2]}, Black: &pb.Player{Name: pos[3]}}
		if tc != "" {
			req.Config = &pb.ClockConfig{TimeControl: tc}
		}
		b, err := c.arb.AddBoard(c.ctx, req)
		if err != nil {
			return err
		}
		fmt.Fprintln(c.out, b.GetBoardId())
		printTimeControl(c.out, b.GetTimeControlInfo())
		return nil
	case "token":
		return c.token(args)
	}
	return fmt.Errorf("%w: unknown command %q (hallctl help)", errUsage, cmd)
}

func (c *cli) token(args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("%w: token issue|revoke|list", errUsage)
	}
	switch args[0] {
	case "list":
		r, err := c.arb.ListTokens(c.ctx, &pb.ListTokensRequest{})
		if err != nil {
			return err
		}
		tw := tabwriter.NewWriter(c.out, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tROLE\tLABEL\tDEVICE\tSECTIONS\tREVOKED")
		for _, t := range r.GetTokens() {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%v\n", t.GetTokenId(), strings.TrimPrefix(t.GetRole().String(), "ROLE_"), t.GetLabel(),
				t.GetDeviceId(), strings.Join(t.GetSections(), ","), t.GetRevoked())
		}
		return tw.Flush()
	case "revoke":
		if err := need(args[1:], 1, "token revoke TOKEN_ID"); err != nil {
			return err
		}
		_, err := c.arb.RevokeToken(c.ctx, &pb.RevokeTokenRequest{TokenId: args[1]})
		return err
	case "issue":
		var dev, sections string
		pos, err := parse(args[1:], func(fs *flag.FlagSet) {
			fs.StringVar(&dev, "device", "", "")
			fs.StringVar(&sections, "sections", "", "")
		})
		if err != nil {
			return err
		}
		if err := need(pos, 2, "token issue ROLE LABEL"); err != nil {
			return err
		}
		roles := map[string]pb.Role{"device": pb.Role_ROLE_DEVICE, "arbiter": pb.Role_ROLE_ARBITER, "chief": pb.Role_ROLE_CHIEF_ARBITER, "broadcast": pb.Role_ROLE_BROADCAST}
		role, ok := roles[pos[0]]
		if !ok {
			return fmt.Errorf("%w: role %q: device, arbiter, chief or broadcast", errUsage, pos[0])
		}
		req := &pb.IssueTokenRequest{Role: role, Label: pos[1], DeviceId: dev}
		if sections != "" {
			req.Sections = strings.Split(sections, ",")
		}
		r, err := c.arb.IssueToken(c.ctx, req)
		if err != nil {
			return err
		}
		fmt.Fprintf(c.out, "%s %s\n", r.GetTokenId(), r.GetToken())
		return nil
	}
	return fmt.Errorf("%w: token issue|revoke|list", errUsage)
}

func (c *cli) watch(args []string) error {
	var round, board string
	if _, err := parse(args, func(fs *flag.FlagSet) { fs.StringVar(&round, "round", "", ""); fs.StringVar(&board, "board", "", "") }); err != nil {
		return err
	}
	w := pb.NewWatchClient(c.conn)
	var stream interface {
		Recv() (*pb.WatchUpdate, error)
	}
	var err error
	switch {
	case board != "":
		stream, err = w.WatchBoard(c.ctx, &pb.WatchBoardRequest{BoardId: board})
	case round != "":
		stream, err = w.WatchRound(c.ctx, &pb.WatchRoundRequest{RoundId: round})
	default:
		stream, err = w.WatchHall(c.ctx, &pb.WatchHallRequest{})
	}
	if err != nil {
		return err
	}
	for {
		u, err := stream.Recv()
		if err != nil {
			return err
		}
		for _, b := range u.GetBoards() {
			fmt.Fprintf(c.out, "#%d %s ", u.GetSeq(), b.GetBoardId())
			printState(c.out, b)
		}
	}
}

func statusName(st *pb.BoardState) string {
	return strings.ToLower(strings.TrimPrefix(st.GetStatus().String(), "BOARD_STATUS_"))
}

func printState(w io.Writer, st *pb.BoardState) {
	if st == nil {
		return
	}
	run := ""
	if st.GetRunning() != pb.Side_SIDE_UNSPECIFIED {
		run = " running " + strings.ToLower(strings.TrimPrefix(st.GetRunning().String(), "SIDE_"))
	}
	fmt.Fprintf(w, "  %s%s  white %s (%d moves)  black %s (%d moves)  %s %s\n", statusName(st), run,
		clockTime(st.GetWhite().GetRemainingMs()), st.GetWhite().GetMoves(), clockTime(st.GetBlack().GetRemainingMs()),
		st.GetBlack().GetMoves(), st.GetResult(), st.GetTermination())
	if st.GetStatus() == pb.BoardStatus_BOARD_STATUS_REFERRED {
		fmt.Fprintf(w, "  claim by %s referred to the arbiter: record his decision with result\n",
			strings.ToLower(strings.TrimPrefix(st.GetClaimReferredBy().String(), "SIDE_")))
	}
	for side, p := range map[string]*pb.PlayerClock{"white": st.GetWhite(), "black": st.GetBlack()} {
		if p.GetTimeTrouble() && st.GetStatus() != pb.BoardStatus_BOARD_STATUS_FINISHED {
			fmt.Fprintf(w, "  %s in time trouble (8.4)\n", side)
		}
	}
	for _, a := range st.GetAlerts() {
		fmt.Fprintf(w, "  ALERT: %s\n", a)
	}
}

// clockTime shows milliseconds as a clock does: h:mm:ss, or m:ss.t under ten minutes.
func clockTime(ms int64) string {
	d := time.Duration(ms) * time.Millisecond
	h, m, s := int(d.Hours()), int(d.Minutes())%60, int(d.Seconds())%60
	if h > 0 {
		return fmt.Sprintf("%d:%02d:%02d", h, m, s)
	}
	if m >= 10 {
		return fmt.Sprintf("%d:%02d", m, s)
	}
	return fmt.Sprintf("%d:%02d.%d", m, s, (ms%1000)/100)
}
