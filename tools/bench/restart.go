package main

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"

	"github.com/chesshall/hallclock/internal/ident"
	pb "github.com/chesshall/hallclock/proto/hall/v1"
	"github.com/chesshall/hallclock/rules"
	"github.com/chesshall/hallclock/storage"
)

// The restart part: a hall with a long history is written straight into
// SQLite — the schema by storage.Open, boards, tokens and snapshots through
// storage's own transactions, the events by bulk inserts in the store's
// format — then hallserver is started on it and timed until it serves.
// The baseline is the same boards without events. After the start the
// hall is checked: boards at their last event with the generator's
// clocks, and a device connecting gets its board's whole history.

// restartHall describes a generated hall.
type restartHall struct {
	Boards, Events int
	Chief, Device  string  // secrets: a chief-arbiter token, board 1's device token
	Final          []int64 // board 1's clocks after its last event (white, black ms)
	ToMove         int     // index in Final of the side whose clock runs
	Seq            uint64  // events of board 1
}

func runRestart(c config, tmp string) ([]row, error) {
	dir := c.restartDir
	if dir == "" {
		dir = tmp
	}
	fmt.Printf("\n== restart: %s boards, %s events\n", count(c.restartBoards), count(c.restartEvents))
	full, err := ensureHall(filepath.Join(dir, fmt.Sprintf("restart-%d-%d", c.restartBoards, c.restartEvents)), c.restartBoards, c.restartEvents)
	if err != nil {
		return nil, err
	}
	empty, err := ensureHall(filepath.Join(dir, fmt.Sprintf("restart-%d-0", c.restartBoards)), c.restartBoards, 0)
	if err != nil {
		return nil, err
	}
	fullTook, fullRSS, err := timeStart(c, full.dir, full.hall)
	if err != nil {
		return nil, err
	}
	emptyTook, emptyRSS, err := timeStart(c, empty.dir, empty.hall)
	if err != nil {
		return nil, err
	}
	fmt.Printf("   to serving: %s with the events (RSS %.0f MB), %s without (RSS %.0f MB)\n",
		fullTook.Round(time.Millisecond), float64(fullRSS)/(1<<20), emptyTook.Round(time.Millisecond), float64(emptyRSS)/(1<<20))
	return []row{
		{figure: fmt.Sprintf("restart with %s events on %s boards: time to serving", count(c.restartEvents), count(c.restartBoards)),
			hall: fmt.Sprintf("%.2f s", fullTook.Seconds()), base: fmt.Sprintf("%.2f s without events", emptyTook.Seconds()),
			ratio: ratio(fullTook.Seconds(), emptyTook.Seconds()), target: "≤ 10 s", holds: yesNo(fullTook <= 10*time.Second)},
		{figure: "restart: resident memory once serving", hall: fmt.Sprintf("%.0f MB", float64(fullRSS)/(1<<20)),
			base: fmt.Sprintf("%.0f MB without events", float64(emptyRSS)/(1<<20)), ratio: ratio(float64(fullRSS), float64(emptyRSS))},
	}, nil
}

type generated struct {
	dir  string
	hall restartHall
}

// ensureHall generates the hall in dir, or reuses the one there.
func ensureHall(dir string, boards, events int) (generated, error) {
	g := generated{dir: dir}
	meta := filepath.Join(dir, "bench-hall.json")
	if b, err := os.ReadFile(meta); err == nil && json.Unmarshal(b, &g.hall) == nil && g.hall.Boards == boards && g.hall.Events == events {
		fmt.Printf("   reusing %s\n", dir)
		return g, nil
	}
	if err := os.RemoveAll(dir); err != nil {
		return g, err
	}
	t := time.Now()
	h, err := generate(filepath.Join(dir, "hall.db"), boards, events)
	if err != nil {
		return g, err
	}
	g.hall = h
	fmt.Printf("   generated %s boards, %s events in %s\n", count(boards), count(events), time.Since(t).Round(time.Millisecond))
	b, _ := json.Marshal(h)
	return g, os.WriteFile(meta, b, 0o644)
}

func secret() string {
	b := make([]byte, 24)
	_, _ = rand.Read(b)
	return "hc_" + base64.RawURLEncoding.EncodeToString(b)
}

// generate writes a hall of boards boards and events events (spread
// evenly, interleaved across boards as a hall's commits are).
func generate(path string, boards, events int) (restartHall, error) {
	ctx := context.Background()
	h := restartHall{Boards: boards, Events: events, Chief: secret(), Device: secret()}
	st, err := storage.Open(ctx, path, storage.Options{})
	if err != nil {
		return h, err
	}
	cfg := rules.Config{Ruleset: rules.FIDE2023}
	if cfg.TimeControl, err = rules.ParseTimeControl(echoTimeControl); err != nil {
		return h, err
	}
	ids := make([]string, boards)
	devs := make([]string, boards)
	err = st.Write(ctx, func(tx *storage.Tx) error {
		if err := tx.CreateTournament(&storage.TournamentRecord{ID: "t-bench", Name: "bench", Config: cfg, TimeControl: echoTimeControl}); err != nil {
			return err
		}
		if err := tx.CreateRound(&storage.RoundRecord{ID: "r-bench", TournamentID: "t-bench", Number: 1}); err != nil {
			return err
		}
		for _, tk := range []storage.TokenRecord{
			{ID: "tok-bench-chief", Hash: ident.HashSecret(h.Chief), Role: "chief", Label: "bench"},
			{ID: "tok-bench-dev1", Hash: ident.HashSecret(h.Device), Role: "device", Label: "bench", DeviceID: "DEV-00001"},
		} {
			if err := tx.PutToken(&tk); err != nil {
				return err
			}
		}
		for i := range boards {
			ids[i], devs[i] = fmt.Sprintf("b-%05d", i+1), fmt.Sprintf("DEV-%05d", i+1)
			if err := tx.CreateBoard(&storage.BoardRecord{ID: ids[i], RoundID: "r-bench", Number: i + 1, Config: cfg, TimeControl: echoTimeControl,
				White: storage.PlayerRecord{Name: fmt.Sprintf("White %d", i+1)}, Black: storage.PlayerRecord{Name: fmt.Sprintf("Black %d", i+1)},
				DeviceID: devs[i]}); err != nil {
				return err
			}
		}
		return nil
	})
	if cerr := st.Close(); err == nil {
		err = cerr
	}
	if err != nil || events == 0 {
		return h, err
	}
	// The events, in bulk: one connection, big transactions, no fsync
	// (the file is synced at the end by the checkpoint on close).
	db, err := sql.Open("sqlite3", "file:"+path+"?_journal_mode=WAL&_synchronous=OFF&_foreign_keys=0&_cache_size=-1000000")
	if err != nil {
		return h, err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	states := make([]rules.State, boards)
	snaps := make([]rules.State, boards)
	snapAt := make([]uint64, boards)
	for i := range states {
		if states[i], err = rules.NewState(cfg); err != nil {
			return h, err
		}
	}
	perBoard := events / boards
	wall := time.Now().Add(-time.Duration(perBoard) * 3 * time.Second).UnixMilli()
	tx, err := db.Begin()
	if err != nil {
		return h, err
	}
	ins, err := tx.Prepare(`INSERT INTO events (board_id, board_seq, kind, t_ms, event_json, device_id, device_seq, command_id, actor, reason, wall_ms)
		VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?, '', ?)`)
	if err != nil {
		return h, err
	}
	n := 0
	for k := 1; k <= perBoard; k++ {
		for b := range boards {
			e := rules.Event{Kind: rules.KindPress, T: int64(k) * 3000, Side: states[b].ToMove}
			if k == 1 {
				e = rules.Event{Kind: rules.KindStart, T: 0}
			}
			next, err := rules.Apply(states[b], e)
			if err != nil {
				return h, fmt.Errorf("board %d event %d: %w", b+1, k, err)
			}
			states[b] = next
			if k%storage.SnapshotEvery == 0 {
				snaps[b], snapAt[b] = next, uint64(k)
			}
			js, err := json.Marshal(e)
			if err != nil {
				return h, err
			}
			if _, err := ins.Exec(ids[b], k, e.Kind.String(), e.T, string(js), devs[b], k, "device:"+devs[b], wall); err != nil {
				return h, err
			}
			wall++
			if n++; n%200_000 == 0 {
				if err := tx.Commit(); err != nil {
					return h, err
				}
				if tx, err = db.Begin(); err != nil {
					return h, err
				}
				if ins, err = tx.Prepare(`INSERT INTO events (board_id, board_seq, kind, t_ms, event_json, device_id, device_seq, command_id, actor, reason, wall_ms)
					VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?, '', ?)`); err != nil {
					return h, err
				}
			}
		}
	}
	for b := range boards {
		if _, err := tx.Exec(`INSERT INTO device_seqs (device_id, acked_seq) VALUES (?, ?)`, devs[b], perBoard); err != nil {
			return h, err
		}
	}
	if err := tx.Commit(); err != nil {
		return h, err
	}
	if err := db.Close(); err != nil {
		return h, err
	}
	// The snapshots the hall would have written (every SnapshotEvery-th
	// event), through the store.
	if st, err = storage.Open(ctx, path, storage.Options{}); err != nil {
		return h, err
	}
	for lo := 0; lo < boards; lo += 1000 {
		err := st.Write(ctx, func(tx *storage.Tx) error {
			for b := lo; b < min(lo+1000, boards); b++ {
				if snapAt[b] > 0 {
					if err := tx.PutSnapshot(ids[b], snapAt[b], snaps[b]); err != nil {
						return err
					}
				}
			}
			return nil
		})
		if err != nil {
			st.Close()
			return h, err
		}
	}
	h.Seq = uint64(perBoard)
	h.Final = []int64{states[0].P[rules.White].MainMs, states[0].P[rules.Black].MainMs}
	h.ToMove = int(states[0].ToMove)
	return h, st.Close()
}

// timeStart starts hallserver on the generated hall, times it to serving,
// checks what it serves, and stops it.
func timeStart(c config, dir string, h restartHall) (time.Duration, int64, error) {
	logf, err := os.Create(filepath.Join(dir, "hallserver.log"))
	if err != nil {
		return 0, 0, err
	}
	defer logf.Close()
	began := time.Now()
	s, took, err := startHall(c.hallserver, dir, c.serverCPUs, logf)
	if err != nil {
		return 0, 0, err
	}
	defer s.stop()
	rss := s.rss()
	if err := checkRestarted(s, h, began); err != nil {
		return 0, 0, err
	}
	return took, rss, nil
}

// checkRestarted checks board 1 as served: its last event and clocks, and
// the history its device is given when it connects. The server projects
// a running clock from the moment it loaded the board, so the side to
// move may show up to the time since the process began less than the
// generator's figure (a start of 140 s once made a 60 s allowance fail).
func checkRestarted(s *server, h restartHall, began time.Time) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn, err := grpc.NewClient(s.grpc, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return err
	}
	defer conn.Close()
	c := metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+h.Chief)
	b, err := pb.NewArbiterClient(conn).GetBoard(c, &pb.GetBoardRequest{BoardId: "b-00001"})
	if err != nil {
		return fmt.Errorf("after the restart, GetBoard: %w", err)
	}
	// The state is projected to now: the running clock has run on since.
	st := b.GetState()
	ran := time.Since(began).Milliseconds() + 1000
	got := []int64{st.GetWhite().GetRemainingMs(), st.GetBlack().GetRemainingMs()}
	ok := st.GetBoardSeq() == h.Seq
	if h.Seq > 0 {
		ok = ok && got[1-h.ToMove] == h.Final[1-h.ToMove] && got[h.ToMove] <= h.Final[h.ToMove] && got[h.ToMove] >= h.Final[h.ToMove]-ran
	}
	if !ok {
		return fmt.Errorf("after the restart, board 1 is at event %d with %v ms; generated: event %d with %v ms, the side to move (%d) at most %d ms less",
			st.GetBoardSeq(), got, h.Seq, h.Final, h.ToMove, ran)
	}
	d := metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+h.Device)
	stream, err := pb.NewClockLinkClient(conn).Connect(d)
	if err != nil {
		return err
	}
	if err := stream.Send(&pb.DeviceMessage{Msg: &pb.DeviceMessage_Hello{Hello: &pb.Hello{DeviceId: "DEV-00001", Firmware: "bench", NextSeq: h.Seq + 1, LastAckedSeq: h.Seq}}}); err != nil {
		return err
	}
	for {
		m, err := stream.Recv()
		if err != nil {
			return fmt.Errorf("after the restart, board 1's device: %w", err)
		}
		if a := m.GetAssignment(); a != nil {
			if uint64(len(a.GetHistory())) != h.Seq {
				return fmt.Errorf("after the restart, board 1's device got %d events of history, want %d", len(a.GetHistory()), h.Seq)
			}
			return nil
		}
	}
}
