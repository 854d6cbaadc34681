package pgn

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/chesshall/hallclock/rules"
)

// lineWidth is the longest movetext line of the export format.
const lineWidth = 79

// Write writes the games in PGN export format, one after the other,
// separated by a blank line. An error says which game's log the rules
// refuse (a log the hall stored never is).
func Write(w io.Writer, games []Game, opts Options) error {
	var buf bytes.Buffer
	for i := range games {
		if i > 0 {
			buf.WriteString("\n")
		}
		if err := writeGame(&buf, &games[i], opts); err != nil {
			return err
		}
	}
	_, err := w.Write(buf.Bytes())
	return err
}

func writeGame(buf *bytes.Buffer, g *Game, opts Options) error {
	m, end, err := fold(g, opts)
	if err != nil {
		return err
	}
	tag, marker, note := pgnResult(end.Result, opts.LichessResults)
	if note != "" {
		m.comment("%s", note)
	}
	tags := [][2]string{
		{"Event", or(g.Event, "?")},
		{"Site", or(g.Site, "?")},
		{"Date", date(g)},
		{"Round", round(g, opts)},
		{"White", or(g.White.Name, "?")},
		{"Black", or(g.Black.Name, "?")},
		{"Result", tag},
	}
	add := func(name, value string) {
		if value != "" {
			tags = append(tags, [2]string{name, value})
		}
	}
	if g.Board > 0 {
		add("Board", strconv.Itoa(g.Board))
	}
	for _, p := range []struct {
		side string
		p    Player
	}{{"White", g.White}, {"Black", g.Black}} {
		if p.p.Elo > 0 {
			add(p.side+"Elo", strconv.Itoa(p.p.Elo))
		}
	}
	add("WhiteTitle", g.White.Title)
	add("BlackTitle", g.Black.Title)
	add("WhiteFideId", g.White.FideID)
	add("BlackFideId", g.Black.FideID)
	if tc := g.Config.TimeControl; tc.PerSide() {
		// Time odds: the standard's TimeControl has one control for both
		// players, so it says "?" (unknown to it), and each side's control
		// is in a tag of its own, in the standard's form.
		add("TimeControl", "?")
		add("WhiteTimeControl", tc.For(rules.White).String())
		add("BlackTimeControl", tc.For(rules.Black).String())
	} else if len(tc.Periods) > 0 {
		add("TimeControl", tc.String())
	}
	add("Termination", termination(end))
	if m.fen != "" {
		add("SetUp", "1")
		add("FEN", m.fen)
	}
	for _, t := range tags {
		fmt.Fprintf(buf, "[%s \"%s\"]\n", t[0], escape(t[1]))
	}
	buf.WriteString("\n")
	wrap(buf, append(m.tokens(), marker))
	return nil
}

// fold applies the log with the rules and collects the movetext.
func fold(g *Game, opts Options) (*movetext, rules.State, error) {
	s, err := rules.NewState(g.Config)
	if err != nil {
		return nil, s, fmt.Errorf("pgn: board %d: %w", g.Board, err)
	}
	m := newMovetext()
	sans := false
	for _, en := range g.Log {
		if en.Event.Kind == rules.KindPress && en.Event.SAN != "" {
			sans = true
			break
		}
	}
	for i, en := range g.Log {
		e := en.Event
		before := s.Project(e.T)
		next, err := rules.Apply(s, e)
		if err != nil {
			return nil, s, fmt.Errorf("pgn: board %d: event %d of the log (%s) is refused by the rules: %w", g.Board, i+1, e, err)
		}
		clocks := !opts.NoClocks
		switch e.Kind {
		case rules.KindPress:
			if e.SAN != "" {
				m.move(e.Side, e.SAN, next.P[e.Side].MainMs, before.P[e.Side].MoveUsedMs, clocks)
			}
			if e.SAN == "" && !sans && clocks {
				// No e-board: the move is unknown, its clock is not.
				m.press(e.Side, next.P[e.Side].Moves, next.P[e.Side].MainMs, before.P[e.Side].MoveUsedMs)
			}
			if e.FEN != "" && e.SAN == "" && sans {
				m.position(e.FEN, next.P[e.Side].MainMs, clocks)
			}
		case rules.KindPosition:
			mover := rules.Black
			if m.white {
				mover = rules.White
			}
			m.position(e.FEN, next.P[mover].MainMs, clocks)
		}
		if opts.NoReasons {
			en.Reason = ""
		}
		ruling(m, en, before, next)
		for _, side := range []rules.Side{rules.White, rules.Black} {
			if next.P[side].FlagAt != rules.NoFlag && s.P[side].FlagAt == rules.NoFlag && e.Kind != rules.KindFlag {
				m.comment("%s's flag has fallen", titleSide(side))
			}
		}
		if next.Over() && !s.Over() && e.Kind != rules.KindResult && !(before.Sealed && e.Kind == rules.KindIllegalMove) {
			if note := ending(next); note != "" {
				m.comment("%s", note)
			}
		}
		s = next
	}
	return m, s, nil
}

// ruling writes what an event other than a move says, as a comment.
func ruling(m *movetext, en Entry, before, next rules.State) {
	e := en.Event
	side, other := titleSide(e.Side), titleSide(e.Side.Other())
	gained := func(s rules.Side) int64 { return next.P[s].MainMs - before.P[s].MainMs }
	var c string
	switch e.Kind {
	case rules.KindStart:
		switch {
		case e.AbsentWhite && e.AbsentBlack:
			c = "Neither player at the board at the start"
		case e.AbsentWhite:
			c = "White not at the board at the start"
		case e.AbsentBlack:
			c = "Black not at the board at the start"
		}
	case rules.KindArrive:
		c = side + " arrives"
	case rules.KindPause:
		c = "Clock paused"
	case rules.KindResume:
		c = "Clock restarted"
		if before.Status == rules.Adjourned {
			c = "Play resumes"
		}
	case rules.KindAdjourn:
		c = "Adjourned: " + titleSide(before.ToMove) + " seals a move"
	case rules.KindFlagClaim:
		c = side + " claims " + other + "'s flag"
	case rules.KindFlag:
		c = side + "'s flag has fallen"
	case rules.KindIllegalMove:
		c = "Illegal move by " + side + " (7.5)"
		if before.Sealed && before.Sealer == e.Side {
			c = side + "'s sealed move is illegal (Guidelines I.8)"
		}
		if d := gained(e.Side.Other()); d != 0 {
			c += ": " + other + " " + signed(d)
		}
	case rules.KindArbiterFlag:
		c = "The arbiter calls " + side + "'s flag"
	case rules.KindSealedMoveEnds:
		c = "The sealed move ended the game: " + string(e.Result)
	case rules.KindEnvelopeLost:
		c = "Play resumes without the envelope, lost: " + titleSide(before.ToMove) + " makes the move he sealed"
	case rules.KindDrawClaimRejected:
		c = "Incorrect draw claim by " + side + " (9.5.3)"
		if d := gained(e.Side.Other()); d != 0 {
			c += ": " + other + " " + signed(d)
		}
	case rules.KindQuickplayIncrement:
		c = side + " is given five seconds a move for the rest of the game (III.4)"
	case rules.KindQuickplayClaim:
		c = side + " claims a draw with less than two minutes (III.5): " + map[rules.Decision]string{
			rules.DecisionDraw: "drawn", rules.DecisionPostpone: "decision postponed", rules.DecisionReject: "rejected"}[e.Decision]
		if d := gained(e.Side.Other()); d != 0 {
			c += ", " + other + " " + signed(d)
		}
	case rules.KindAddTime:
		c = "Arbiter: " + side + " " + signed(e.Ms)
	case rules.KindSetClock:
		c = fmt.Sprintf("Arbiter sets the clocks: White %s, Black %s", clockTime(next.P[rules.White].MainMs), clockTime(next.P[rules.Black].MainMs))
	case rules.KindResult:
		switch {
		case before.Over():
			c = "Result corrected by the arbiter: " + string(e.Result)
		case e.ByArbiter || e.Termination == rules.TermArbiter:
			c = "Result by the arbiter: " + string(e.Result)
		case e.Termination == rules.TermAgreement:
			c = "Draw agreed"
		}
	}
	if c == "" {
		return
	}
	if en.Reason != "" {
		c += " — " + en.Reason
	}
	m.comment("%s", c)
}

// ending says how a game the clock ended came to an end, if it needs saying.
func ending(s rules.State) string {
	switch s.Termination {
	case rules.TermTime:
		if s.Result == rules.Draw {
			return "Drawn: a flag fell, but the opponent could not checkmate"
		}
	case rules.TermDefault:
		return "Not played: a player did not arrive within the default time (6.7)"
	case rules.TermIllegalMove:
		return "Lost by an illegal move (7.5.5)"
	}
	return ""
}

func titleSide(s rules.Side) string {
	if s == rules.White {
		return "White"
	}
	return "Black"
}

// pgnResult returns the Result tag, the game termination marker, and a
// comment for results PGN cannot write. PGN has four results; a result
// it has no notation for (both lose, a double forfeit, a half point for
// one side and nothing for the other) is "*" in both places — the only
// result that claims no outcome — with the scores in the comment, unless
// lichess's forms are asked for the tag.
func pgnResult(r rules.Result, lichess bool) (tag, marker, note string) {
	switch r {
	case rules.WhiteWins, rules.BlackWins, rules.Draw:
		return string(r), string(r), ""
	case rules.BlackForfeit:
		return "1-0", "1-0", "White wins by forfeit"
	case rules.WhiteForfeit:
		return "0-1", "0-1", "Black wins by forfeit"
	}
	tag, note = "*", ""
	switch r {
	case rules.DoubleForfeit:
		tag, note = "0-0", "Double forfeit: neither player scores"
	case rules.BothLose:
		tag, note = "0-0", "Both players lose: White 0, Black 0"
	case "1/2-0":
		tag, note = "1/2-0", "White 1/2, Black 0"
	case "0-1/2":
		tag, note = "0-1/2", "White 0, Black 1/2"
	}
	if !lichess {
		tag = "*"
	}
	return tag, "*", note
}

// termination returns the Termination tag (PGN spec 9.8.1), "" while
// the game goes on.
func termination(s rules.State) string {
	if s.Result == rules.NoResult || s.Result == "" {
		return ""
	}
	switch s.Result {
	case rules.BlackForfeit, rules.WhiteForfeit, rules.DoubleForfeit:
		return "abandoned"
	}
	switch s.Termination {
	case rules.TermTime:
		return "time forfeit"
	case rules.TermIllegalMove:
		return "rules infraction"
	case rules.TermDefault:
		return "abandoned"
	case rules.TermQuickplayClaim:
		return "adjudication"
	case rules.TermArbiter:
		if w, b := s.Result.Score(rules.Scoring{}); w+b < 1 || s.Result == "1/2-0" || s.Result == "0-1/2" {
			return "rules infraction"
		}
		return "adjudication"
	}
	return "normal"
}

func date(g *Game) string {
	if g.Date.IsZero() {
		return "????.??.??"
	}
	return g.Date.Format("2006.01.02")
}

func round(g *Game, opts Options) string {
	switch {
	case g.Round <= 0:
		return "?"
	case opts.Round == RoundAndBoard && g.Place > 0:
		return fmt.Sprintf("%d.%d", g.Round, g.Place)
	case opts.Round == RoundAndBoard && g.Board > 0:
		return fmt.Sprintf("%d.%d", g.Round, g.Board)
	}
	return strconv.Itoa(g.Round)
}

func or(s, def string) string {
	if strings.TrimSpace(s) == "" {
		return def
	}
	return s
}

// escape writes a tag value: backslash and quote escaped, no line ends.
func escape(s string) string {
	s = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", " ", "\r", " ").Replace(s)
	return s
}

// wrap writes the movetext words in lines of at most lineWidth characters.
func wrap(buf *bytes.Buffer, words []string) {
	n := 0
	for _, w := range words {
		if n > 0 && n+1+len(w) > lineWidth {
			buf.WriteString("\n")
			n = 0
		}
		if n > 0 {
			buf.WriteString(" ")
			n++
		}
		buf.WriteString(w)
		n += len(w)
	}
	buf.WriteString("\n")
}
