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
//	hallctl audit  -round R -actor Anna -kind result -since 09:00   # hall-wide, no board
//	hallctl token issue arbiter "Anna" [-sections A,B]
//	hallctl watch [-round ROUND]
//	hallctl broadcast ROUND -public -relay URL -relay-token @lichess.token
//	hallctl standings "Open" [-after 5] [-csv]   # standings, tie-breaks, crosstable
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
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"github.com/chesshall/hallclock/internal/cmdline"
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

const usage = `hallctl [-addr host:port] [-token T] [-tls | -tls-ca CA.pem [-tls-server-name N]] [-utc] COMMAND ...

Times are the hall's, in its time zone (hallserver -tz), each with its zone
("14:30:05 +04"); -utc (or HALL_UTC=1) prints them in UTC.

Every command names things alike: TOURNAMENT by its name (any case) or id;
ROUND as 5 (the only tournament with a round 5), "Open:5", or its id (or its
first characters); BOARD as 12 (the only round with a board 12), 5.12 (board
12 of round 5), "Open:5.12", "Open:5.A3" (section A), or its id (or its first
characters). A name that fits more than one is refused, naming each.

Tournaments and rounds
  tournaments                         events with their rounds
  rounds [TOURNAMENT]                 rounds: status, boards finished/playing/waiting, byes, score
  import-round TOURNAMENT FILE [PAIRINGS] [-round N] [-replace] [-first-table N] [-venue V] [-section S] [-tc TC]
               [-allow-absent] [-encoding E]
                                      set a round up from the pairing program: a TRF-16 with
                                      JaVaFo/bbpPairings output, a TRF with the round's columns,
                                      or a CSV (at most 10 MiB); clocks from the hall plan; one
                                      transaction. -encoding: the code page of a file that is not
                                      UTF-8 (windows-1250, cp852...; default windows-1252)
  export-round ROUND [-format trf|csv|pgn] [-o FILE|DIR|-] [-encoding E] [-lichess]
                                      results for the pairing program (TRF: the imported file with the
                                      round, in its encoding), as CSV, or the games as PGN (-lichess:
                                      lichess's Round tags and results), to standard output (-o -),
                                      a file, or a directory (the suggested name)
  standings TOURNAMENT [-after ROUND] [-section S] [-teams] [-csv]
                                      standings and crosstable after a round (default: the latest; during
                                      a round provisional, games playing counted as not yet played), with
                                      the tournament's tie-breaks; -csv: rank,start,name,points, then each
                                      tie-break by its acronym; an arbiter reads their sections only;
                                      -teams: a team event's teams (-csv: rank,team,MP,GP, tie-breaks)
  plan [-venue V]                     the hall plan: which clock sits at which table
  plan set TABLE DEVICE ... | plan clear TABLE ... | plan learn ROUND   [-reset]

Broadcast (PGN feeds, relays, the display page)
  broadcasts [TOURNAMENT]             rounds that are public or pushed to a relay, with the relays' status
  broadcast ROUND                     how the round is broadcast: its PGN and display URLs, its relay
  broadcast ROUND -public|-private    its feeds need no token (with the broadcast delay), or a token
  broadcast ROUND -relay URL [-relay-token T|@FILE]
                                      push its PGN to a relay when it changes, e.g. lichess:
                                      https://lichess.org/api/broadcast/round/<id>/push; -relay "" stops

Boards
  boards [-round R] [-section S]      list boards with their clocks
  board BOARD                         one board, with pending commands
  audit BOARD [-who W] [-what A] [-refused] [-since 10m] [-last N] [-width N]
                                      who did what, when, why (in the terminal's width)
  audit [-round R] [-tournament T] [-actor X] [-kind result,add_time] [-since 09:00] [-until T]
                                      the hall-wide audit, without a board: e.g. who changed which
                                      result today (an arbiter sees their sections' boards)
  devices                             clock devices, online or not
  watch [-round R] [-board B]         live updates until interrupted

Actions on a board's clock (they travel through the clock device)
  start BOARD [-absent white|black]   start one board's clock
  start-round ROUND                   start every clock of a round at once
  pause BOARD | resume BOARD | adjourn BOARD
  sealed-illegal BOARD                the sealed move, made at the resumption, is illegal: its sealer loses (I.8)
  sealed-ends BOARD RESULT            the sealed move ended the game: the sealer's win or 1/2-1/2 (I.10)
  envelope-lost BOARD [-absent white|black|both]   resume without the lost envelope: the sealer moves (I.12)
  add BOARD SIDE DURATION             e.g. add 5.12 black 1m, add 5.12 white -2m (takes away)
  set BOARD WHITE BLACK [-moves W,B]  install times, e.g. set b-12 1h25m 1h31m (clock paused)
      [-to-move SIDE [-fen FEN]]      after a retrace (D.2.9): SIDE has the move, no penalty
  illegal BOARD SIDE                  a completed illegal move by SIDE (7.5)
  draw-claim-rejected BOARD SIDE      an incorrect draw claim by SIDE (9.5.3)
  flag-claim BOARD SIDE               SIDE claims the opponent's flag
  arbiter-flag BOARD SIDE             the arbiter calls SIDE's fallen flag (rapid/blitz without adequate
                                      supervision: 2023 A.5.5; refused in 2009 and 2005, where he refrains)
  arrive BOARD SIDE                   an absent player arrives
  quickplay BOARD SIDE draw|postpone|reject|increment|refer   (refer: no arbiter was present, III.6)
  illegal-found BOARD SIDE MOVE WHITE BLACK   SIDE's move MOVE found illegal later (7.5.1), times to set (clock paused)
  flags-unordered BOARD               the clock shows both flags down, order unknown
  declare-lost BOARD SIDE [RESULT]    the arbiter declares SIDE lost (12.9); RESULT: the score he decides
  position BOARD FEN
  result BOARD RESULT [TERMINATION] [-unplayed]
                                      1-0, 0-1, 1/2-1/2, +-, -+, 0-0, 1/2-0 (=-), 0-1/2 (-=), double-forfeit
                                      (or -- --: a lone -- ends the flags, as in any command);
                                      -unplayed: the game lasted less than one move (not rated)
  virtual BOARD                       move a board with a dead clock to a virtual clock
  press BOARD [SIDE] [-san M] [-fen F]   on a virtual clock: SIDE (default: the side to move) completes a move
  assign BOARD DEVICE [-replace]      a (replacement) clock device keeps BOARD; -replace takes
                                      a device from a board whose game is not over
  swap BOARD_A BOARD_B                swap two boards' devices

Signing in another device
  signin-link [-for TOKEN] [-web URL] [-no-qr]
                                      a one-time link and its QR code that signs one browser in: your phone,
                                      a deputy's tablet (TOKEN: label or id; default: yourself); the chief
                                      for anyone, an arbiter for deputies within their own sections
  clock-link BOARD|TABLE [-venue V] [-web URL] [-no-qr]
                                      a one-time link and its QR code that makes a tablet or phone the
                                      clock of BOARD, or of TABLE of the hall plan (chief; -venue: whose)

Setting up (chief arbiter)
  timecontrol TC [-ruleset R]               how the server reads a time control; creates nothing
  tournament NAME [-tc TC] [-ruleset R] [-scoring 3-1-0] [-draw-odds SIDE]   create an event (names are unique)
             [-tiebreaks BH-C1,BH,SB] [-section-tiebreaks SECTION=LIST ...]
                                            the ordered tie-break list (FIDE Tie-Break Regulations
                                            acronyms: PTS DE WIN WON BPG BWG PS GE BH FB AOB SB KS ARO
                                            TPR PTP APRO APPO; modifiers -C1 -C2 -M1 -M2); none: FIDE's defaults
  tiebreaks TOURNAMENT [LIST] [-section S] [-reason R]   change the tie-break list later (a section's:
                                            -section; no LIST: FIDE's defaults, or for a section the
                                            tournament's); audited
  round TOURNAMENT NUMBER [-tc TC] [-draw-odds SIDE]   create a round
  add-board ROUND NUMBER WHITE BLACK [-device D] [-section S] [-tc TC] [-draw-odds SIDE] [-armageddon]
                                            -draw-odds black: a draw counts as Black's win (the board's
                                            result stays the draw); -armageddon: White 5m, Black 4m,
                                            +2s from move 61, draw odds for Black
  token issue ROLE LABEL [-device D] [-sections A,B]   roles: device, arbiter, chief, broadcast
  token revoke TOKEN_ID
  token list
  backup FILE                               a consistent copy of the hall, taken while it plays

Time controls: PGN seconds ("180+2", "40/5400+30:1800+30") or times with units
("3m+2s", "90m+30s", "40/90m+30s:30m+30s", "G/15"); a bare "3+2" is refused.
Time odds, one per side: "white 5m | black 4m", "white 60/5m:0+2s | black 60/4m:0+2s".
Creating answers with the control as read, in words.

Actions take -reason "..." (kept in the audit log) and -wait 3s.`

// maxReceive is the largest answer hallctl takes: an export of a round of
// thousands of boards with every move and clock time.
const maxReceive = 256 << 20

// cli is one hallctl invocation: a connection to the hall and where to print.
type cli struct {
	ctx    context.Context
	arb    pb.ArbiterClient
	conn   *grpc.ClientConn
	out    io.Writer
	width  int                 // columns a line may take (outputWidth); 0: no limit
	web    string              // where the hall's web pages are (webBase)
	addr   string              // the hall's gRPC address
	getenv func(string) string // the environment
	// utc prints times in UTC (-utc); otherwise in the hall's zone
	// (hallZone, once asked).
	utc      bool
	hallZone *time.Location
}

func run(ctx context.Context, args []string, out io.Writer, getenv func(string) string) error {
	fs := flag.NewFlagSet("hallctl", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	addr := fs.String("addr", cmdline.Env(getenv).String("HALL_ADDR", "localhost:7070"), "server gRPC address")
	token := fs.String("token", getenv("HALL_TOKEN"), "bearer token")
	tlsf := addTLSFlags(fs, getenv)
	utc := fs.Bool("utc", getenv("HALL_UTC") != "", "print times in UTC rather than the hall's time zone (HALL_UTC)")
	if err := fs.Parse(args); err != nil || fs.NArg() == 0 || fs.Arg(0) == "help" {
		fmt.Fprintln(out, usage+"\n\n"+blindUsage)
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
	conn, err := grpc.NewClient(*addr, grpc.WithTransportCredentials(creds),
		// An import's files may be as large as the hall takes; an export
		// (a round's PGN with every move) larger still.
		grpc.WithDefaultCallOptions(grpc.MaxCallSendMsgSize(pb.MaxImportBytes+1<<20), grpc.MaxCallRecvMsgSize(maxReceive)))
	if err != nil {
		return err
	}
	defer conn.Close()
	c := &cli{ctx: metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+*token), arb: pb.NewArbiterClient(conn), conn: conn, out: out,
		width: outputWidth(out, getenv), web: webBase(getenv("HALL_WEB"), *addr, *tlsf.on || *tlsf.ca != ""), addr: *addr, getenv: getenv, utc: *utc}
	return c.dispatch(fs.Arg(0), fs.Args()[1:])
}

// commands are hallctl's commands by name; clock actions are in actions.go.
var commands = map[string]func(c *cli, args []string) error{
	"boards":        (*cli).boards,
	"board":         (*cli).board,
	"audit":         (*cli).audit,
	"devices":       (*cli).devices,
	"watch":         (*cli).watch,
	"start":         (*cli).start,
	"start-round":   (*cli).startRound,
	"add":           (*cli).addTime,
	"set":           (*cli).setClock,
	"quickplay":     (*cli).quickplay,
	"declare-lost":  (*cli).declareLost,
	"illegal-found": (*cli).illegalFound,
	"timecontrol":   (*cli).describeTimeControl,
	"position":      (*cli).position,
	"result":        (*cli).result,
	"virtual":       (*cli).virtual,
	"press":         (*cli).press,
	"assign":        (*cli).assign,
	"swap":          (*cli).swap,
	"tournament":    (*cli).tournament,
	"round":         (*cli).createRound,
	"add-board":     (*cli).addBoard,
	"token":         (*cli).token,
	"tournaments":   (*cli).tournaments,
	"rounds":        (*cli).rounds,
	"import-round":  (*cli).importRound,
	"export-round":  (*cli).exportRound,
	"plan":          (*cli).plan,
	"backup":        (*cli).backup,
	"broadcast":     (*cli).broadcast,
	"broadcasts":    (*cli).broadcasts,
	"signin-link":   (*cli).signInLink,
	"clock-link":    (*cli).clockLink,
	"standings":     (*cli).standings,
	"tiebreaks":     (*cli).tieBreaks,
}

func (c *cli) dispatch(cmd string, args []string) error {
	if k, ok := simpleActions[cmd]; ok {
		return c.simpleAction(cmd, k, args)
	}
	if k, ok := sidedActions[cmd]; ok {
		return c.sidedAction(cmd, k, args)
	}
	if f, ok := sealedMoveCommands[cmd]; ok {
		return f(c, args)
	}
	if f, ok := blindCommands[cmd]; ok {
		return f(c, args)
	}
	if f, ok := commands[cmd]; ok {
		return f(c, args)
	}
	return fmt.Errorf("%w: unknown command %q (hallctl help)", errUsage, cmd)
}

func or(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
