package storage

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chesshall/hallclock/rules"
)

// auditHall is two tournaments: Open round 1 with boards a1 (section A)
// and b1 (section B), Blitz round 1 with board c1; a morning of entries.
func auditHall(t *testing.T) (*Store, time.Time) {
	t.Helper()
	s := MustOpen(t)
	cfg := mustConfig(t, "90m+30s")
	day := time.Date(2026, 12, 7, 0, 0, 0, 0, time.UTC)
	at := func(hm string) time.Time {
		d, err := time.ParseDuration(strings.Replace(hm, ":", "h", 1) + "m")
		if err != nil {
			t.Fatal(err)
		}
		return day.Add(d)
	}
	mustWrite(t, s, func(tx *Tx) error {
		for _, x := range []struct{ t, name, r string }{{"t1", "Open", "r1"}, {"t2", "Blitz", "r2"}} {
			if err := tx.CreateTournament(&TournamentRecord{ID: x.t, Name: x.name, Config: cfg, TimeControl: "90m+30s"}); err != nil {
				return err
			}
			if err := tx.CreateRound(&RoundRecord{ID: x.r, TournamentID: x.t, Number: 1}); err != nil {
				return err
			}
		}
		for i, b := range []struct{ id, round, section string }{{"a1", "r1", "A"}, {"b1", "r1", "B"}, {"c1", "r2", ""}} {
			if err := tx.CreateBoard(&BoardRecord{ID: b.id, RoundID: b.round, Section: b.section, Number: i + 1, Config: cfg, TimeControl: "90m+30s"}); err != nil {
				return err
			}
		}
		ev := func(board string, seq uint64, e rules.Event, dev, actor, wall string) error {
			r := &EventRecord{BoardID: board, BoardSeq: seq, Event: e, Actor: actor, Wall: at(wall)}
			if dev != "" {
				r.DeviceID, r.DeviceSeq = dev, 1
			}
			return tx.AppendEvent(r)
		}
		au := func(board, actor, what, outcome, wall string) error {
			return tx.AddAudit(&AuditRecord{BoardID: board, Actor: actor, What: what, Outcome: outcome, Wall: at(wall)})
		}
		for _, err := range []error{
			ev("a1", 1, rules.Event{Kind: rules.KindStart}, "", "arbiter:Anna", "08:55"),
			ev("a1", 2, press(rules.White, 1000), "CLK-1", "device:CLK-1", "09:01"),
			ev("b1", 1, rules.Event{Kind: rules.KindStart}, "", "arbiter:Bo", "09:02"),
			au("b1", "arbiter:Bo", "result 1-0", OutcomeRefused("the game goes on"), "09:10"),
			ev("b1", 2, rules.Event{Kind: rules.KindResult, Result: "1-0"}, "", "arbiter:Bo", "09:11"),
			ev("c1", 1, rules.Event{Kind: rules.KindStart}, "", "chief:chief arbiter", "09:20"),
			ev("c1", 2, rules.Event{Kind: rules.KindPress, Side: rules.White, T: 500}, "", "arbiter:Anna", "09:21"),
			au("c1", "chief:chief arbiter", "add_time black +60000ms", OutcomePending, "09:30"),
			ev("c1", 3, rules.Event{Kind: rules.KindResult, Result: "1/2-1/2"}, "", "arbiter:Anna", "10:05"),
			au("", "chief:chief arbiter", "revoke_token tok-1", OutcomeApplied, "10:06"),
		} {
			if err != nil {
				return err
			}
		}
		return nil
	})
	return s, at("00:00")
}

// what lists the entries found as "board kind actor hh:mm".
func what(items []AuditItem) string {
	var out []string
	for _, i := range items {
		board, actor := "", ""
		if i.Event != nil {
			board, actor = i.Event.BoardID, i.Event.Actor
		} else {
			board, actor = i.Audit.BoardID, i.Audit.Actor
		}
		if board == "" {
			board = "-"
		}
		out = append(out, board+" "+i.Kind+" "+actor+" "+i.Wall().UTC().Format("15:04"))
	}
	return strings.Join(out, "; ")
}

func TestAuditSearch(t *testing.T) {
	s, day := auditHall(t)
	h := func(hm string) time.Time {
		d, _ := time.ParseDuration(strings.Replace(hm, ":", "h", 1) + "m")
		return day.Add(d)
	}
	for _, c := range []struct {
		name string
		q    AuditQuery
		want string
		more bool
	}{
		{"the hall, without the clocks' own presses", AuditQuery{},
			"a1 start arbiter:Anna 08:55; b1 start arbiter:Bo 09:02; b1 result arbiter:Bo 09:10; b1 result arbiter:Bo 09:11; " +
				"c1 start chief:chief arbiter 09:20; c1 press arbiter:Anna 09:21; c1 add_time chief:chief arbiter 09:30; " +
				"c1 result arbiter:Anna 10:05; - revoke_token chief:chief arbiter 10:06", false},
		{"who changed which result today", AuditQuery{Kinds: []string{"result"}, Since: h("09:00")},
			"b1 result arbiter:Bo 09:10; b1 result arbiter:Bo 09:11; c1 result arbiter:Anna 10:05", false},
		{"one round", AuditQuery{RoundID: "r1", Kinds: []string{"result", "start"}},
			"a1 start arbiter:Anna 08:55; b1 start arbiter:Bo 09:02; b1 result arbiter:Bo 09:10; b1 result arbiter:Bo 09:11", false},
		{"one tournament, an actor by name", AuditQuery{TournamentID: "t2", Actor: "Anna"},
			"c1 press arbiter:Anna 09:21; c1 result arbiter:Anna 10:05", false},
		{"an actor by role", AuditQuery{Actor: "chief"},
			"c1 start chief:chief arbiter 09:20; c1 add_time chief:chief arbiter 09:30; - revoke_token chief:chief arbiter 10:06", false},
		{"an actor whole", AuditQuery{Actor: "arbiter:Bo", Until: h("09:11")},
			"b1 start arbiter:Bo 09:02; b1 result arbiter:Bo 09:10", false},
		{"an arbiter of section A: no other section, nothing of no board", AuditQuery{Sections: []string{"A"}},
			"a1 start arbiter:Anna 08:55", false},
		{"a board: its presses too", AuditQuery{BoardID: "a1"},
			"a1 start arbiter:Anna 08:55; a1 press device:CLK-1 09:01", false},
		{"the newest two, and that there is more", AuditQuery{Kinds: []string{"result"}, Limit: 2},
			"b1 result arbiter:Bo 09:11; c1 result arbiter:Anna 10:05", true},
		{"nothing", AuditQuery{Actor: "arbiter:Nobody"}, "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, more, err := s.AuditSearch(context.Background(), c.q)
			if err != nil {
				t.Fatal(err)
			}
			if what(got) != c.want || more != c.more {
				t.Errorf("AuditSearch(%+v) =\n%s (more %v)\nwant\n%s (more %v)", c.q, what(got), more, c.want, c.more)
			}
		})
	}
}

// The hall-wide audit reads the log by time through indexes, not the
// whole log: a day's presses are millions of rows.
func TestAuditSearchUsesIndexes(t *testing.T) {
	s, day := auditHall(t)
	db, err := s.reader()
	if err != nil {
		t.Fatal(err)
	}
	q := AuditQuery{Since: day.Add(9 * time.Hour), Kinds: []string{"result"}}
	for name, sql := range map[string]func(int) (string, []any){"audit": q.auditSQL, "events": q.eventSQL} {
		query, args := sql(501)
		rows, err := db.QueryContext(context.Background(), "EXPLAIN QUERY PLAN "+query, args...)
		if err != nil {
			t.Fatal(err)
		}
		var plan []string
		for rows.Next() {
			var id, parent, unused int
			var detail string
			if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
				t.Fatal(err)
			}
			plan = append(plan, detail)
		}
		rows.Close()
		p := strings.Join(plan, "; ")
		if !strings.Contains(p, "SEARCH a USING INDEX "+map[string]string{"audit": "audit_wall", "events": "events_audit"}[name]) {
			t.Errorf("the %s query's plan: %s; want a search by time through its index", name, p)
		}
	}
}
