package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	pb "github.com/chesshall/hallclock/proto/hall/v1"
)

func statusName(st *pb.BoardState) string {
	return strings.ToLower(strings.TrimPrefix(st.GetStatus().String(), "BOARD_STATUS_"))
}

// resultShown is the board's result, and what it counts as when draw odds
// make that differ: "1/2-1/2 (counts 0-1)".
func resultShown(st *pb.BoardState) string {
	r := st.GetResult()
	if c := st.GetCountingResult(); c != "" && c != r {
		r += " (counts " + c + ")"
	}
	return r
}

func printState(w io.Writer, st *pb.BoardState) {
	if st == nil {
		return
	}
	run := ""
	if st.GetRunning() != pb.Side_SIDE_UNSPECIFIED {
		run = ", " + strings.ToLower(strings.TrimPrefix(st.GetRunning().String(), "SIDE_")) + "'s clock"
	} else if st.GetStatus() == pb.BoardStatus_BOARD_STATUS_PAUSED && st.GetToMove() != pb.Side_SIDE_UNSPECIFIED {
		// Who restarts: after a retrace (set -to-move) it may be the other side.
		run = ", " + strings.ToLower(strings.TrimPrefix(st.GetToMove().String(), "SIDE_")) + " to move"
	}
	fmt.Fprintf(w, "  %s%s  white %s (%d moves)  black %s (%d moves)  %s %s\n", statusName(st), run,
		clockTime(st.GetWhite().GetRemainingMs()), st.GetWhite().GetMoves(), clockTime(st.GetBlack().GetRemainingMs()),
		st.GetBlack().GetMoves(), resultShown(st), st.GetTermination())
	if sealer := st.GetSealer(); sealer != pb.Side_SIDE_UNSPECIFIED {
		who := strings.ToLower(strings.TrimPrefix(sealer.String(), "SIDE_"))
		if st.GetStatus() == pb.BoardStatus_BOARD_STATUS_ADJOURNED {
			fmt.Fprintf(w, "  %s's sealed move is in the envelope (envelope-lost if it is missing)\n", who)
		} else {
			fmt.Fprintf(w, "  %s's sealed move is not answered yet (sealed-illegal, sealed-ends rule on it)\n", who)
		}
	}
	if st.GetStatus() == pb.BoardStatus_BOARD_STATUS_REFERRED {
		fmt.Fprintf(w, "  claim by %s referred to the arbiter: record his decision with result\n",
			strings.ToLower(strings.TrimPrefix(st.GetClaimReferredBy().String(), "SIDE_")))
	}
	for _, p := range []struct {
		side  string
		clock *pb.PlayerClock
	}{{"white", st.GetWhite()}, {"black", st.GetBlack()}} {
		if p.clock.GetTimeTrouble() && st.GetStatus() != pb.BoardStatus_BOARD_STATUS_FINISHED {
			fmt.Fprintf(w, "  %s in time trouble (8.4)\n", p.side)
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
