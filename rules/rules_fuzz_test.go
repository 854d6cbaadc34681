package rules_test

import (
	"encoding/binary"
	"errors"
	"math"
	"reflect"
	"testing"

	"github.com/chesshall/hallclock/rules"
)

// fuzzReader hands out the fuzzer's bytes as small decisions; once they
// run out every read is zero.
type fuzzReader struct{ b []byte }

func (r *fuzzReader) more() bool { return len(r.b) > 0 }

func (r *fuzzReader) u8() byte {
	if len(r.b) == 0 {
		return 0
	}
	v := r.b[0]
	r.b = r.b[1:]
	return v
}

func (r *fuzzReader) i64() int64 {
	var buf [8]byte
	n := copy(buf[:], r.b)
	r.b = r.b[n:]
	return int64(binary.LittleEndian.Uint64(buf[:]))
}

// ms reads a duration: mostly small and realistic, sometimes anything.
func (r *fuzzReader) ms() int64 {
	switch v := r.u8(); v % 8 {
	case 0:
		return 0
	case 1:
		return r.i64() // anything, extremes included
	case 2:
		return -int64(r.u8()) * 1000
	case 3:
		return int64(r.u8()) * 60_000
	default:
		return int64(r.u8())*1000 + int64(v)
	}
}

var fuzzRulesets = []rules.Ruleset{"", rules.FIDE2023, rules.FIDE2018, rules.FIDE2009, rules.FIDE2005, "fide-1999"}

var fuzzFENs = []string{
	"4k3/8/8/8/8/8/8/3QK3 w - - 0 1",
	"7k/8/8/8/8/5n2/P7/K7 w - - 0 1",
	"8/8/8/4k3/8/8/8/4K3 w - - 0 1",
	"",
	"not a position",
	"8/8/8/8/8/8/8/8 w - - 0 1",
}

var fuzzResults = append([]rules.Result{rules.NoResult, "½-½", "½-0", "", "2-0", "1-1/2"}, rules.Results...)

var fuzzTerminations = []rules.Termination{rules.TermNone, rules.TermNormal, rules.TermTime, rules.TermIllegalMove, rules.TermDefault, rules.TermQuickplayClaim, rules.TermArbiter, rules.TermAgreement, "resigned"}

// decodeConfig reads a configuration, valid or not.
func (r *fuzzReader) config() rules.Config {
	cfg := rules.Config{Ruleset: fuzzRulesets[int(r.u8())%len(fuzzRulesets)]}
	shape := r.u8()
	n := 1 + int(shape%3)
	cfg.TimeControl.Hourglass = shape&0x80 != 0
	for i := range n {
		p := rules.Period{BaseMs: r.ms() / 1000 * 1000, Bonus: rules.BonusKind(r.u8() % 5)}
		if p.BaseMs == 0 && i == 0 {
			p.BaseMs = 60_000
		}
		if i < n-1 {
			p.Moves = int(r.u8() % 6)
		}
		if p.Bonus != rules.NoBonus {
			p.BonusMs = int64(r.u8()%11) * 1000
		}
		cfg.TimeControl.Periods = append(cfg.TimeControl.Periods, p)
	}
	flags := r.u8()
	reg := &cfg.Regulations
	if flags&1 != 0 {
		reg.Supervision = rules.Insufficient
	}
	reg.QuickplayFinish = flags&2 != 0
	if flags&4 != 0 {
		reg.PeriodChange = rules.AtFlag
	}
	reg.IncrementAtStart = flags&8 != 0
	if flags&16 != 0 {
		reg.DefaultTimeMs = rules.Ms(r.ms())
	}
	if flags&32 != 0 {
		reg.IllegalMovePenaltyMs = rules.Ms(r.ms())
		reg.DrawClaimPenaltyMs = rules.Ms(r.ms())
	}
	if flags&64 != 0 {
		reg.Scoring = rules.Scoring{Win: 3, Draw: 1}
	}
	return cfg
}

// event reads the next event for a board at instant at: any kind, side
// and time, garbage included.
func (r *fuzzReader) event(at int64) rules.Event {
	k := r.u8()
	e := rules.Event{Kind: rules.Kind(k % 21)}
	if k >= 0xf0 {
		e.Kind = rules.Kind(int8(k)) // an unknown kind
	}
	switch s := r.u8(); {
	case s < 0xf0:
		e.Side = rules.Side(s % 2)
	default:
		e.Side = rules.Side(int8(s)) // neither white nor black
	}
	switch m := r.u8(); m % 8 {
	case 0:
		e.T = at
	case 1:
		e.T = r.i64() // any instant, backwards or extreme
	case 2:
		e.T = at - int64(m)
	default:
		e.T = at + r.ms()
	}
	e.AbsentWhite, e.AbsentBlack = k&0x10 != 0, k&0x20 != 0
	e.Ms = r.ms()
	e.WhiteMs, e.BlackMs = r.ms(), r.ms()
	if mv := r.u8(); mv&1 != 0 {
		w, b := int(int8(mv))/2, int(int8(r.u8()))
		e.WhiteMoves, e.BlackMoves = &w, &b
	}
	opts := r.u8()
	e.ScheduleOverride = opts&1 != 0
	e.NoExtraTime = opts&2 != 0
	e.ByArbiter = opts&4 != 0
	e.Decision = rules.Decision(int8(r.u8()) % 6)
	e.Move = int(int8(r.u8()))
	if r.u8()&1 != 0 {
		e.SessionEndMs = e.T + r.ms()
	}
	e.FEN = fuzzFENs[int(r.u8())%len(fuzzFENs)]
	e.Result = fuzzResults[int(r.u8())%len(fuzzResults)]
	e.Termination = fuzzTerminations[int(r.u8())%len(fuzzTerminations)]
	return e
}

// FuzzEventSequence decodes a board configuration and a sequence of events
// of any kind, side and time from the input and applies them all: Apply
// never panics, never changes its input, answers a refused event with a
// typed error and the state unchanged, and every accepted event keeps the
// invariants of the property tests (no negative time or move count, times
// grow only for a reason of the Laws, a finished game stays finished).
func FuzzEventSequence(f *testing.F) {
	for _, seed := range [][]byte{
		{},
		{1, 0, 0},
		{1, 0, 0, 1, 0, 0}, // fide-2023, start
		{4, 0x80, 4, 60, 0, 0, 1, 0, 0, 3, 0, 8, 8, 8, 0, 0, 0, 0, 0, 0, 0},
		{3, 2, 4, 10, 1, 5, 2, 7, 4, 20, 2, 3, 0x1f, 1, 0, 0, 1, 0, 4, 0, 0, 0, 1, 1, 1, 1, 1},
		// extremes: instants and durations at the ends of int64
		{1, 0, 4, 60, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0x80, 2, 1, 1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f},
		{2, 1, 1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f, 0, 0x30, 1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
		{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r := &fuzzReader{b: data}
		s, err := rules.NewState(r.config())
		if err != nil {
			if !errors.Is(err, rules.ErrInvalid) {
				t.Fatalf("NewState = %v, want an *InputError", err)
			}
			return
		}
		for i := 0; r.more() && i < 200; i++ {
			e := r.event(s.At)
			orig := cloneState(s)
			n, err := rules.Apply(s, e)
			if !reflect.DeepEqual(s, orig) {
				t.Fatalf("Apply(%v) changed its input", e)
			}
			if err != nil {
				if !errors.Is(err, rules.ErrRefused) && !errors.Is(err, rules.ErrInvalid) {
					t.Fatalf("Apply(%v) = %v, want a *Refusal or *InputError", e, err)
				}
				if !reflect.DeepEqual(n, s) {
					t.Fatalf("Apply(%v) = %v with a changed state, want it unchanged", e, err)
				}
				continue
			}
			for _, b := range checkStep(step{s, e, n}) {
				t.Errorf("%v: %s", s.Config.TimeControl, b)
			}
			if d, ok := n.NextDeadline(); ok && d < n.At {
				t.Errorf("after %v: NextDeadline() = %d, before the state's instant %d", e, d, n.At)
			}
			s = n
		}
		s.Project(math.MaxInt64)
	})
}
