package main

import (
	"errors"
	"flag"
	"fmt"
	"strings"
	"time"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

// Clock actions that take a board only, or a board and a side.
var (
	simpleActions = map[string]pb.ActionKind{
		"pause": pb.ActionKind_ACTION_KIND_PAUSE, "resume": pb.ActionKind_ACTION_KIND_RESUME, "adjourn": pb.ActionKind_ACTION_KIND_ADJOURN,
		"flags-unordered": pb.ActionKind_ACTION_KIND_FLAGS_UNORDERED,
	}
	sidedActions = map[string]pb.ActionKind{
		"illegal": pb.ActionKind_ACTION_KIND_ILLEGAL_MOVE, "draw-claim-rejected": pb.ActionKind_ACTION_KIND_DRAW_CLAIM_REJECTED,
		"flag-claim": pb.ActionKind_ACTION_KIND_FLAG_CLAIM, "arrive": pb.ActionKind_ACTION_KIND_ARRIVE,
		"arbiter-flag": pb.ActionKind_ACTION_KIND_ARBITER_FLAG,
	}
)

// act sends a clock action to a board and prints what came of it.
func (c *cli) act(ref string, a *pb.ClockAction, f actionFlags) error {
	board, err := c.boardID(ref)
	if err != nil {
		return err
	}
	r, err := c.arb.BoardAction(c.ctx, &pb.BoardActionRequest{BoardId: board, Action: a, Reason: f.reason, WaitMs: f.wait.Milliseconds()})
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

// actionArgs parses a clock action's arguments: n positional ones and the
// action flags, plus any the command adds.
func actionArgs(args []string, n int, what string, more ...func(fs *flag.FlagSet)) ([]string, actionFlags, error) {
	var f actionFlags
	pos, err := parse(args, func(fs *flag.FlagSet) {
		f.set(fs)
		for _, m := range more {
			m(fs)
		}
	})
	if err != nil {
		return nil, f, err
	}
	if n >= 0 {
		if err := need(pos, n, what); err != nil {
			return nil, f, err
		}
	}
	return pos, f, nil
}

func (c *cli) simpleAction(cmd string, k pb.ActionKind, args []string) error {
	pos, f, err := actionArgs(args, 1, cmd+" BOARD")
	if err != nil {
		return err
	}
	return c.act(pos[0], &pb.ClockAction{Kind: k}, f)
}

func (c *cli) sidedAction(cmd string, k pb.ActionKind, args []string) error {
	pos, f, err := actionArgs(args, 2, cmd+" BOARD SIDE")
	if err != nil {
		return err
	}
	s, err := side(pos[1])
	if err != nil {
		return err
	}
	return c.act(pos[0], &pb.ClockAction{Kind: k, Side: s}, f)
}

func (c *cli) start(args []string) error {
	var absent string
	pos, f, err := actionArgs(args, 1, "start BOARD", func(fs *flag.FlagSet) { fs.StringVar(&absent, "absent", "", "white, black or both") })
	if err != nil {
		return err
	}
	a := &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_START}
	a.AbsentWhite = strings.Contains(absent, "white") || absent == "both"
	a.AbsentBlack = strings.Contains(absent, "black") || absent == "both"
	return c.act(pos[0], a, f)
}

func (c *cli) startRound(args []string) error {
	if err := need(args, 1, "start-round ROUND"); err != nil {
		return err
	}
	round, err := c.round(args[0])
	if err != nil {
		return err
	}
	r, err := c.arb.StartRound(c.ctx, &pb.StartRoundRequest{RoundId: round.GetRoundId()})
	if err != nil {
		return err
	}
	for _, b := range r.GetBoards() {
		fmt.Fprintf(c.out, "%s: %s %s\n", b.GetBoardId(), strings.TrimPrefix(b.GetStatus().String(), "COMMAND_STATUS_"), b.GetMessage())
	}
	return nil
}

func (c *cli) addTime(args []string) error {
	pos, f, err := actionArgs(args, 3, "add BOARD SIDE DURATION (e.g. add b-1 black 1m)")
	if err != nil {
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
	return c.act(pos[0], &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_ADD_TIME, Side: s, Ms: d.Milliseconds()}, f)
}

func (c *cli) setClock(args []string) error {
	var moves, toMove, fen string
	pos, f, err := actionArgs(args, 3, "set BOARD WHITE_TIME BLACK_TIME", func(fs *flag.FlagSet) {
		fs.StringVar(&moves, "moves", "", "W,B move counters")
		fs.StringVar(&toMove, "to-move", "", "white|black: who has the move when the clock restarts, after a retrace (2018 D.2.9, 2009 E2.8); no penalty")
		fs.StringVar(&fen, "fen", "", "with -to-move: the position retraced to (FEN)")
	})
	if err != nil {
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
	if toMove != "" {
		if a.ToMove, err = side(toMove); err != nil {
			return err
		}
		a.Fen = fen
	} else if fen != "" {
		return fmt.Errorf("%w: -fen goes with -to-move, the position retraced to", errUsage)
	}
	return c.act(pos[0], a, f)
}

func (c *cli) quickplay(args []string) error {
	pos, f, err := actionArgs(args, 3, "quickplay BOARD SIDE draw|postpone|reject|refer|increment")
	if err != nil {
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
	return c.act(pos[0], a, f)
}

// declareLost: the arbiter declares SIDE lost (12.9), optionally with the
// score he decides.
func (c *cli) declareLost(args []string) error {
	pos, f, err := actionArgs(args, -1, "")
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
		a.Result = resultArg(pos[2])
	}
	return c.act(pos[0], a, f)
}

// illegalFound: SIDE's move MOVE is found illegal later (7.5.1); the clock
// gets the times the arbiter decides.
func (c *cli) illegalFound(args []string) error {
	pos, f, err := actionArgs(args, 5, "illegal-found BOARD SIDE MOVE WHITE BLACK")
	if err != nil {
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
	return c.act(pos[0], &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_ILLEGAL_MOVE_FOUND, Side: s, Move: move,
		WhiteMs: w.Milliseconds(), BlackMs: b.Milliseconds()}, f)
}

func (c *cli) position(args []string) error {
	pos, f, err := actionArgs(args, -1, "")
	if err != nil {
		return err
	}
	if len(pos) < 2 {
		return fmt.Errorf("%w: position BOARD FEN", errUsage)
	}
	return c.act(pos[0], &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_POSITION, Fen: strings.Join(pos[1:], " ")}, f)
}

func (c *cli) result(args []string) error {
	var unplayed bool
	pos, f, err := actionArgs(args, -1, "", func(fs *flag.FlagSet) {
		fs.BoolVar(&unplayed, "unplayed", false, "the game lasted less than one move: not rated (TRF W, D, L)")
	})
	if err != nil {
		return err
	}
	if len(pos) < 2 || len(pos) > 3 {
		return fmt.Errorf("%w: result BOARD RESULT [TERMINATION] [-unplayed]", errUsage)
	}
	a := &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_RESULT, Result: resultArg(pos[1]), Unplayed: unplayed}
	if len(pos) == 3 {
		a.Termination = pos[2]
	}
	return c.act(pos[0], a, f)
}

func (c *cli) virtual(args []string) error {
	pos, f, err := actionArgs(args, 1, "virtual BOARD")
	if err != nil {
		return err
	}
	id, err := c.boardID(pos[0])
	if err != nil {
		return err
	}
	b, err := c.arb.UseVirtualClock(c.ctx, &pb.UseVirtualClockRequest{BoardId: id, Reason: f.reason})
	if err != nil {
		return err
	}
	printState(c.out, b.GetState())
	return nil
}

func (c *cli) assign(args []string) error {
	var replace bool
	pos, f, err := actionArgs(args, 2, "assign BOARD DEVICE", func(fs *flag.FlagSet) {
		fs.BoolVar(&replace, "replace", false, "take the device from a board whose game is not over")
	})
	if err != nil {
		return err
	}
	id, err := c.boardID(pos[0])
	if err != nil {
		return err
	}
	b, err := c.arb.AssignDevice(c.ctx, &pb.AssignDeviceRequest{BoardId: id, DeviceId: pos[1], Reason: f.reason, Replace: replace})
	if err != nil {
		return err
	}
	printState(c.out, b.GetState())
	return nil
}

func (c *cli) swap(args []string) error {
	pos, f, err := actionArgs(args, 2, "swap BOARD_A BOARD_B")
	if err != nil {
		return err
	}
	a, err := c.boardID(pos[0])
	if err != nil {
		return err
	}
	b, err := c.boardID(pos[1])
	if err != nil {
		return err
	}
	r, err := c.arb.SwapDevices(c.ctx, &pb.SwapDevicesRequest{BoardA: a, BoardB: b, Reason: f.reason})
	if err != nil {
		return err
	}
	fmt.Fprintf(c.out, "board %d now has %s, board %d has %s\n", r.GetA().GetNumber(), r.GetA().GetDeviceId(), r.GetB().GetNumber(), r.GetB().GetDeviceId())
	return nil
}

// resultArg reads a result as an arbiter types it: the hall's own ("1-0",
// "+-", "--", "1/2-0"...), the double forfeit by name ("double-forfeit",
// since a lone "--" ends the flags), and the half points as a pairing
// program's codes write them ("=-" White scores a half and Black nothing,
// "-=" the other way round, "==" a draw).
func resultArg(s string) string {
	if strings.EqualFold(s, "double-forfeit") {
		return "--"
	}
	switch s {
	case "=-":
		return "1/2-0"
	case "-=":
		return "0-1/2"
	case "==":
		return "1/2-1/2"
	}
	return s
}
