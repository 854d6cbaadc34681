package storage

import (
	"context"
	"fmt"
	"runtime"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/chesshall/hallclock/rules"
)

// cpuTime is the CPU the process has used, user and system: what a write
// costs apart from waiting for the disk.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkWrite appends one event per Write from many goroutines (16 per
// GOMAXPROCS, like devices on their own connections), with group commit
// ("grouped", the default MaxBatch) and with every Write committed on its
// own ("one-per-commit", MaxBatch 1). It reports the average group size
// and the CPU time per write (go test -cpu 8 groups more).
//
//	go test -run '^$' -bench Write ./storage
func BenchmarkWrite(b *testing.B) {
	for _, c := range []struct {
		name     string
		maxBatch int
	}{{"grouped", 0}, {"one-per-commit", 1}} {
		b.Run(c.name, func(b *testing.B) {
			s := MustOpen(b, Options{MaxBatch: c.maxBatch})
			mustBoards(b, s, 0)
			ctx := context.Background()
			var boards atomic.Int64
			commits0, writes0 := s.Stats()
			b.SetParallelism(16)
			cpu0 := cpuTime()
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				k := boards.Add(1)
				id := fmt.Sprintf("bench%d", k)
				if err := s.Write(ctx, func(tx *Tx) error {
					return tx.CreateBoard(&BoardRecord{ID: id, RoundID: "r1", Number: 10_000 + int(k), Config: benchConfig})
				}); err != nil {
					b.Error(err)
					return
				}
				var n uint64
				for pb.Next() {
					n++
					r := EventRecord{BoardID: id, BoardSeq: n, Event: rules.Event{Kind: rules.KindPress, Side: rules.Side(n % 2), T: int64(n) * 1000},
						DeviceID: "clk-" + id, DeviceSeq: n}
					if err := s.Write(ctx, func(tx *Tx) error { return tx.AppendEvent(&r) }); err != nil {
						b.Error(err)
						return
					}
				}
			})
			b.StopTimer()
			b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/float64(b.N), "cpu-µs/write")
			commits, writes := s.Stats()
			if commits > commits0 {
				b.ReportMetric(float64(writes-writes0)/float64(commits-commits0), "writes/commit")
			}
		})
	}
}

var benchConfig = func() rules.Config {
	tc, err := rules.ParseTimeControl("90m+30s")
	if err != nil {
		panic(err)
	}
	return rules.Config{Ruleset: rules.FIDE2023, TimeControl: tc}
}()

// BenchmarkWriteManyBoards appends presses to 10,000 boards from 64
// goroutines, as a full hall does: each write touches another board's
// end of the indexes, unlike BenchmarkWrite's few boards. It reports the
// CPU time per write and the average group size.
//
//	go test -run '^$' -bench WriteManyBoards ./storage
func BenchmarkWriteManyBoards(b *testing.B) {
	const boards, writers = 10_000, 64
	s := MustOpen(b, Options{})
	ids := mustBoards(b, s, boards)
	ctx := context.Background()
	var next atomic.Int64
	commits0, writes0 := s.Stats()
	b.SetParallelism(writers / max(1, runtime.GOMAXPROCS(0)))
	cpu0 := cpuTime()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		k := int(next.Add(1) - 1)
		var mine []string
		for i := k; i < boards; i += writers {
			mine = append(mine, ids[i])
		}
		if len(mine) == 0 {
			return
		}
		// One clock per board, as in a hall: its sequence numbers are
		// the board's.
		seqs := make([]uint64, len(mine))
		for i := 0; pb.Next(); i = (i + 1) % len(mine) {
			seqs[i]++
			r := EventRecord{BoardID: mine[i], BoardSeq: seqs[i], Event: rules.Event{Kind: rules.KindPress, Side: rules.Side(seqs[i] % 2), T: int64(seqs[i]) * 1000},
				DeviceID: "clk-" + mine[i], DeviceSeq: seqs[i]}
			if err := s.Write(ctx, func(tx *Tx) error { return tx.AppendEvent(&r) }); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.StopTimer()
	b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/float64(b.N), "cpu-µs/write")
	if commits, writes := s.Stats(); commits > commits0 {
		b.ReportMetric(float64(writes-writes0)/float64(commits-commits0), "writes/commit")
	}
}

// BenchmarkMarkPublished is the publisher's published mark (every 200 ms)
// on a day's outbox: 500,000 rows younger than the day kept, all but the
// newest published. Its cost must not grow with the rows kept.
//
//	go test -run '^$' -bench MarkPublished ./storage
func BenchmarkMarkPublished(b *testing.B) {
	const rows = 500_000
	s := MustOpen(b, Options{})
	ctx := context.Background()
	now := time.Now().UnixMilli()
	var first, last uint64
	if err := s.Write(ctx, func(tx *Tx) error {
		if _, err := tx.exec(`WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < ?)
			INSERT INTO outbox (kind, ref, created_ms) SELECT 'board', 'b' || x, ? FROM c`, rows, now); err != nil {
			return err
		}
		return tx.queryRow(`SELECT MIN(id), MAX(id) FROM outbox`).Scan(&first, &last)
	}); err != nil {
		b.Fatal(err)
	}
	id := last - uint64(b.N) - 1
	cpu0 := cpuTime()
	b.ResetTimer()
	for range b.N {
		id++
		if err := s.MarkPublished(ctx, id, 24*time.Hour); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	// The time per mark is mostly its commit's fsync; the CPU is the scan.
	b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/float64(b.N), "cpu-µs/mark")
	if st, err := s.OutboxState(ctx); err != nil || st.Published != id || st.Backlog() != last-id {
		b.Fatalf("after marking %d: %+v, %v", id, st, err)
	}
}
