package faults

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/chesshall/hallclock/clockdev"
	"github.com/chesshall/hallclock/clockdev/sim"
	"github.com/chesshall/hallclock/internal/mono"
	"github.com/chesshall/hallclock/internal/testkit/halltest"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/storage"
)

// A restore across a round change, under a fleet: the backup is taken in
// round 1, the hall restored after round 2 began. Every event a clock saw
// acknowledged is afterwards in the log of the board it was recorded on
// (or in the audit log as lost, with why); no result changes — round 1's
// games end as they ended, none by a flag fall of a clock run on; round 2
// is rebuilt from the clocks (the same round, the same boards), marked so,
// and plays to its end; every arbiter's command a clock carried out after
// the backup (round 2's starts, illegal-move rulings) is back with its
// command.
func TestRestoreAcrossARoundChange(t *testing.T) {
	need(t)
	dir := t.TempDir()
	h := newHall(t, dir, speed)
	p := h.start()
	chief := p.chief
	book := newAckBook()
	w := watch(t, h, chief)
	spec := sim.RoundSpec{TimeControl: "60+1", Boards: 20, IllegalMoves: 0.01}
	f, err := sim.New(sim.Config{Target: h.grpc, ChiefToken: chief, Speed: speed, Seed: 22,
		Rounds: []sim.RoundSpec{spec, spec}, OnAck: book.onAck, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	fctx, stopFleet := context.WithCancel(context.Background())
	defer stopFleet()
	played := make(chan sim.Summary, 1)
	go func() {
		sum, err := f.Run(fctx)
		if err != nil {
			t.Errorf("fleet: %v", err)
		}
		played <- sum
	}()
	arb := arbiterOf(t, h, chief)

	// The backup, in round 1.
	halltest.Eventually(t, 60*time.Second, func() error {
		if n := book.count(); n < 200 {
			return fmt.Errorf("%d events acknowledged: round 1 has hardly begun", n)
		}
		return nil
	})
	backup := filepath.Join(t.TempDir(), "backup.db")
	backupOver(t, h, chief, backup)
	atBackup := book.count()

	// Round 2 begins and plays a while.
	var round1, round2 *pb.Round
	halltest.Eventually(t, 120*time.Second, func() error {
		rs, err := arb.ListRounds(ctxFor(t, 10*time.Second), &pb.ListRoundsRequest{})
		if err != nil {
			return err
		}
		for _, r := range rs.GetRounds() {
			switch r.GetNumber() {
			case 1:
				round1 = r
			case 2:
				round2 = r
			}
		}
		if round2 == nil || round2.GetTally().GetFinished() > 0 || round2.GetTally().GetPlaying() < 10 {
			return fmt.Errorf("round 2 has not begun, or is ending (%v)", round2.GetTally())
		}
		return nil
	})
	halltest.Eventually(t, 30*time.Second, func() error {
		if n := onRound(t, arb, book, round2.GetRoundId()); n < 150 {
			return fmt.Errorf("%d events acknowledged on round 2", n)
		}
		return nil
	})
	before := results(t, arb, round1.GetRoundId(), round2.GetRoundId())
	atRestore := book.count()

	// The restore.
	p.stop(t)
	out, err := exec.Command(h.bin, "restore", "-data-dir", dir, backup).CombinedOutput()
	if err != nil {
		t.Fatalf("hallserver restore: %v\n%s", err, out)
	}
	p = h.start()
	restarted := time.Now()
	round2Boards := map[string]bool{}
	for id, r := range before {
		if r.round == 2 {
			round2Boards[id] = true
		}
	}
	onRound2 := book.on(round2Boards)

	// Round 2 plays to its end.
	var sum sim.Summary
	select {
	case sum = <-played:
	case <-time.After(90 * time.Second):
		t.Fatalf("round 2 has not ended 90 s after the restore")
	}
	after := results(t, arb, round1.GetRoundId(), round2.GetRoundId())
	played2 := book.on(round2Boards) - onRound2
	db := filepath.Join(dir, "hall.db")
	caughtUp(t, db, w)
	p.stop(t)

	// What the clocks had acknowledged: each event in its board's log, or
	// on record as lost.
	book.mu.Lock()
	for _, k := range lostOnRecord(t, db) {
		book.lost[k] = true
	}
	refused := len(book.refused)
	book.mu.Unlock()
	v := check(t, db, book, w, true)

	// No result changed; round 2 went on to its end.
	changed := 0
	for id, res := range before {
		if res.result != "*" && after[id] != res {
			changed++
			t.Errorf("board %s (round %d, board %d): %s %s before the restore, %s %s after", id, res.round, res.number, res.result, res.termination, after[id].result, after[id].termination)
		}
	}
	for id, res := range after {
		if res.round == 2 && res.result == "*" {
			t.Errorf("round 2's board %d (%s) has no result after the fleet played it to its end", res.number, id)
		}
		if _, ok := before[id]; !ok {
			t.Errorf("board %s (round %d, board %d) is new after the restore", id, res.round, res.number)
		}
	}
	if len(after) != len(before) {
		t.Errorf("%d boards after the restore, %d before", len(after), len(before))
	}
	if played2 == 0 {
		t.Error("no event acknowledged on round 2 after the restore")
	}

	// Round 2 rebuilt, and shown so; the commands carried out after the
	// backup are back.
	commands, rulings := checkCommands(t, db, backup, book)
	figures("restore across a round change: %d events acknowledged at the backup, %d at the restore, %d on round 2 after it; %v; %d results compared, %d changed; %d commands carried out after the backup back with their command (%d illegal-move rulings); %d events refused; fleet: %d games, %v; round 2 ended %v after the restart",
		atBackup, atRestore, played2, v, len(before), changed, commands, rulings, refused, sum.Games, sum.Results, time.Since(restarted).Round(time.Second))
}

// backupOver takes a backup of the running hall as an operator does, over
// HTTP with the chief's token.
func backupOver(t *testing.T, h *hall, chief, dest string) {
	t.Helper()
	req, _ := http.NewRequest("GET", "http://"+h.http+"/api/backup", nil)
	req.Header.Set("Authorization", "Bearer "+chief)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("GET /api/backup: %s %s", resp.Status, b)
	}
	f, err := os.Create(dest)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(f, resp.Body); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

func arbiterOf(t *testing.T, h *hall, chief string) pb.ArbiterClient {
	t.Helper()
	conn, err := grpc.NewClient(h.grpc, grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithUnaryInterceptor(func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
			return invoker(halltest.Ctx(ctx, chief), method, req, reply, cc, opts...)
		}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return pb.NewArbiterClient(conn)
}

// onRound counts the events acknowledged on a round's boards.
func onRound(t *testing.T, arb pb.ArbiterClient, book *ackBook, round string) int {
	t.Helper()
	var bs *pb.ListBoardsResponse
	halltest.Eventually(t, 30*time.Second, func() (err error) {
		bs, err = arb.ListBoards(ctxFor(t, 10*time.Second), &pb.ListBoardsRequest{RoundId: round})
		return err
	})
	on := map[string]bool{}
	for _, b := range bs.GetBoards() {
		on[b.GetBoardId()] = true
	}
	return book.on(on)
}

// on counts the events acknowledged on the boards.
func (b *ackBook) on(boards map[string]bool) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := 0
	for _, ev := range b.acked {
		if boards[ev.GetBoardId()] {
			n++
		}
	}
	return n
}

// result is where a board's game stands.
type result struct {
	round, number       int32
	result, termination string
}

// results reads every board of the rounds, as the arbiters see them.
func results(t *testing.T, arb pb.ArbiterClient, rounds ...string) map[string]result {
	t.Helper()
	out := map[string]result{}
	for _, r := range rounds {
		var bs *pb.ListBoardsResponse
		halltest.Eventually(t, 30*time.Second, func() (err error) {
			bs, err = arb.ListBoards(ctxFor(t, 10*time.Second), &pb.ListBoardsRequest{RoundId: r})
			return err
		})
		for _, b := range bs.GetBoards() {
			st := b.GetState()
			out[b.GetBoardId()] = result{b.GetRoundNumber(), b.GetNumber(), st.GetResult(), st.GetTermination()}
		}
	}
	return out
}

var lostRE = regexp.MustCompile(`device (\S+)'s events (\d+) to (\d+) were acknowledged before the hall was restored`)

// lostOnRecord reads from the hall's audit log the device events a
// restore lost.
func lostOnRecord(t *testing.T, db string) []devSeq {
	t.Helper()
	st, err := storage.Open(context.Background(), db, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	as, err := st.Audit(context.Background(), "", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []devSeq
	for _, a := range as {
		m := lostRE.FindStringSubmatch(a.Outcome)
		if m == nil {
			continue
		}
		from, _ := strconv.ParseUint(m[2], 10, 64)
		to, _ := strconv.ParseUint(m[3], 10, 64)
		for s := from; s <= to; s++ {
			out = append(out, devSeq{m[1], s})
		}
	}
	return out
}

// checkCommands checks that every acknowledged event carrying out an
// arbiter's command after the backup (not in it) is stored with its
// command, applied, by whom it was given: it returns how many there were,
// and how many of them were illegal-move rulings. The round the backup
// did not know is marked rebuilt.
func checkCommands(t *testing.T, db, backup string, book *ackBook) (commands, rulings int) {
	t.Helper()
	ctx := context.Background()
	bk, err := storage.Open(ctx, backup, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	inBackup := map[devSeq]bool{}
	bbs, err := bk.Boards(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{}
	for _, b := range bbs {
		known[b.RoundID] = true
		evs, err := bk.Events(ctx, b.ID, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range evs {
			inBackup[devSeq{e.DeviceID, e.DeviceSeq}] = true
		}
	}
	bk.Close()
	st, err := storage.Open(ctx, db, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rs, err := st.Rounds(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		if !known[r.ID] && r.Rebuilt.IsZero() {
			t.Errorf("round %d (%s), unknown to the backup, is not marked rebuilt", r.Number, r.ID)
		}
	}
	book.mu.Lock()
	defer book.mu.Unlock()
	for k, ev := range book.acked {
		if ev.GetCommandId() == "" || inBackup[k] {
			continue
		}
		commands++
		if ev.GetAction().GetKind() == pb.ActionKind_ACTION_KIND_ILLEGAL_MOVE {
			rulings++
		}
		c, err := st.Command(ctx, ev.GetCommandId())
		if errors.Is(err, storage.ErrNotFound) || err == nil && (c.Status != storage.CommandApplied || c.BoardID != ev.GetBoardId() || c.IssuedBy != ev.GetCommandIssuedBy()) {
			t.Errorf("device %s's event %d carried out command %s (%v on %s, by %s) after the backup; after the restore the command is %+v",
				k.dev, k.seq, ev.GetCommandId(), ev.GetAction().GetKind(), ev.GetBoardId(), ev.GetCommandIssuedBy(), c)
		} else if err != nil {
			t.Fatal(err)
		}
	}
	if commands == 0 {
		t.Error("no command was carried out after the backup (round 2 started without one?)")
	}
	return commands, rulings
}

// Two illegal-move rulings given after the backup, which the clock
// applied: the restored hall, which lost the commands, takes them back
// from the clock's record of them (the arbiter's audit log shows each
// with who gave it), and a later flag on the board is accepted — the hall
// keeps the board's time as the clock did. A real server, restored with
// hallserver restore; the clock runs 200 times faster than real time.
func TestRestoreKeepsRulingsAfterTheBackup(t *testing.T) {
	need(t)
	const fast = 200
	dir := t.TempDir()
	h := newHall(t, dir, fast)
	p := h.start()
	chief := p.chief
	arb := arbiterOf(t, h, chief)
	ctx := ctxFor(t, 2*time.Minute)
	tr, err := arb.CreateTournament(ctx, &pb.CreateTournamentRequest{Name: "Rulings Open", DefaultConfig: &pb.ClockConfig{TimeControl: "30m"}})
	if err != nil {
		t.Fatal(err)
	}
	rd, err := arb.CreateRound(ctx, &pb.CreateRoundRequest{TournamentId: tr.GetTournamentId(), Number: 1})
	if err != nil {
		t.Fatal(err)
	}
	tok, err := arb.IssueToken(ctx, &pb.IssueTokenRequest{Role: pb.Role_ROLE_DEVICE, Label: "CLK-R", DeviceId: "CLK-R"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := arb.AddBoard(ctx, &pb.AddBoardRequest{RoundId: rd.GetRoundId(), Number: 1, White: &pb.Player{Name: "Anna"}, Black: &pb.Player{Name: "Boris"}, DeviceId: "CLK-R"})
	if err != nil {
		t.Fatal(err)
	}
	d, err := clockdev.New(clockdev.Config{DeviceID: "CLK-R", Token: tok.GetToken(), Target: h.grpc,
		DialOptions: []grpc.DialOption{grpc.WithTransportCredentials(insecure.NewCredentials())},
		Clock:       mono.Scaled(mono.Real(), fast), Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	dctx, stop := context.WithCancel(context.Background())
	ran := make(chan struct{})
	go func() { defer close(ran); d.Run(dctx) }()
	defer func() { stop(); <-ran; d.Close() }()
	synced := func() {
		t.Helper()
		halltest.Eventually(t, 30*time.Second, func() error {
			if st := d.Status(); !st.Connected || st.Outbox > 0 || st.BoardID != b.GetBoardId() {
				return fmt.Errorf("clock: %+v", st)
			}
			return nil
		})
	}
	synced()
	if _, err := arb.StartRound(ctx, &pb.StartRoundRequest{RoundId: rd.GetRoundId()}); err != nil {
		t.Fatal(err)
	}
	press := func() {
		t.Helper()
		if err := d.Press(d.State().ToMove, "", ""); err != nil {
			t.Fatal(err)
		}
	}
	rule := func(offender pb.Side) string {
		t.Helper()
		synced() // the hall has the move it rules on
		r, err := arb.BoardAction(ctx, &pb.BoardActionRequest{BoardId: b.GetBoardId(), Reason: "castled through check", WaitMs: -1,
			Action: &pb.ClockAction{Kind: pb.ActionKind_ACTION_KIND_ILLEGAL_MOVE, Side: offender}})
		if err != nil || r.GetStatus() != pb.CommandStatus_COMMAND_STATUS_PENDING {
			t.Fatalf("illegal move ruling: %v, %v", r, err)
		}
		halltest.Eventually(t, 10*time.Second, func() error {
			bd, err := arb.GetBoard(ctx, &pb.GetBoardRequest{BoardId: b.GetBoardId()})
			if err == nil && len(bd.GetPending()) > 0 {
				err = fmt.Errorf("the ruling waits for the clock")
			}
			return err
		})
		return r.GetCommandId()
	}
	halltest.Eventually(t, 10*time.Second, func() error {
		if d.History() == nil {
			return errors.New("the clock has not started")
		}
		return nil
	})
	press()
	press()
	synced()
	backup := filepath.Join(t.TempDir(), "backup.db")
	backupOver(t, h, chief, backup)
	press() // White's move, found illegal
	rulings := []string{rule(pb.Side_SIDE_WHITE)}
	press()
	press() // Black's, found illegal
	rulings = append(rulings, rule(pb.Side_SIDE_BLACK))
	press()
	synced()
	live, err := arb.GetBoard(ctx, &pb.GetBoardRequest{BoardId: b.GetBoardId()})
	if err != nil {
		t.Fatal(err)
	}

	p.stop(t)
	if out, err := exec.Command(h.bin, "restore", "-data-dir", dir, backup).CombinedOutput(); err != nil {
		t.Fatalf("hallserver restore: %v\n%s", err, out)
	}
	p = h.start()
	defer p.stop(t)
	var log *pb.AuditLogResponse
	halltest.Eventually(t, 30*time.Second, func() error {
		if log, err = arb.AuditLog(ctx, &pb.AuditLogRequest{BoardId: b.GetBoardId()}); err != nil {
			return err
		}
		for _, id := range rulings {
			found := false
			for _, e := range log.GetEntries() {
				found = found || e.GetCommandId() == id && e.GetBoardSeq() > 0 && e.GetOutcome() == storage.OutcomeApplied && e.GetIssuedBy() != ""
			}
			if !found {
				return fmt.Errorf("ruling %s is not in the board's log with who gave it (clock: %+v, refused %v)", id, d.Status(), d.Rejections())
			}
		}
		return nil
	})
	// The flag: White's, the clock running on after Black's last move.
	var final *pb.Board
	halltest.Eventually(t, 60*time.Second, func() error {
		if final, err = arb.GetBoard(ctx, &pb.GetBoardRequest{BoardId: b.GetBoardId()}); err != nil {
			return err
		}
		if final.GetState().GetStatus() != pb.BoardStatus_BOARD_STATUS_FINISHED {
			return fmt.Errorf("the board is %v (clock: %+v)", final.GetState().GetStatus(), d.Status())
		}
		return nil
	})
	st := final.GetState()
	if st.GetResult() != "0-1" || st.GetTermination() != "time" || st.GetWhite().GetIllegalMoves() != 1 || st.GetBlack().GetIllegalMoves() != 1 || d.Status().Rejected != 0 {
		t.Errorf("after the restore: %s %s, illegal moves %d and %d, the clock's events refused: %v; want 0-1 on time, one illegal move each, none refused",
			st.GetResult(), st.GetTermination(), st.GetWhite().GetIllegalMoves(), st.GetBlack().GetIllegalMoves(), d.Rejections())
	}
	figures("rulings after the backup: %d events before the restore (%d rulings); after it the board has %d, both rulings back with who gave them, then %s %s; %d of the clock's events refused",
		live.GetState().GetBoardSeq(), len(rulings), st.GetBoardSeq(), st.GetResult(), st.GetTermination(), d.Status().Rejected)
}
