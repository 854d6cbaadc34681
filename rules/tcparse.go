package rules

import (
	"fmt"
	"strconv"
	"strings"
)

// Limits of a time control. They keep every sum and product of the engine
// far from overflow and reject typing mistakes; no real event comes near them.
const (
	tcMaxTotalBaseMs = 1_000_000 * 1000 // sum of the base times of all periods: 1e6 s (11.5 days)
	tcMaxBonusMs     = 3600 * 1000      // increment or delay of one period: one hour
	tcMaxMoves       = 1000             // move count of one period
	tcMaxPeriods     = 32               // number of periods
	tcMaxDigits      = 9                // digits of one number as typed
	tcMinBareMs      = 60 * 1000        // a time without unit shorter than this is refused: it may be minutes
)

// tcAllowed is the hint of every time-control InputError.
const tcAllowed = `PGN seconds such as "180+2", "5400d5", "300b3", "40/5400+30:1800+30", "*60"; ` +
	`or times with units such as "3m+2s", "90m+30s", "40/90m+30s:30m+30s", "1h30+30s", "G/15", "G/60;d5", "40/2h, SD/30"; ` +
	`or one per side: "white 5m | black 4m", "white 60/5m:0+2s | black 60/4m:0+2s"`

func tcError(value, problem string) *InputError {
	return &InputError{What: "time control", Value: value, Problem: problem, Allowed: tcAllowed}
}

// ParseTimeControl reads a time control. It never guesses a unit: a number
// without one is seconds, and a text where that reading may not be what
// was meant is refused with both readings, so a clock can never run sixty
// times too long or too short.
//
// PGN TimeControl tag form (rules.md §1), every number in seconds: "300",
// "180+2", "40/5400+30:1800+30", "40/7200:20/3600:900+30", "*60"
// (hourglass), "5400d5" (simple delay), "300b3" (Bronstein delay). Periods
// are separated by ':'; each is [moves/]base[bonus], where bonus is "+N"
// (Fischer increment), "dN" (simple delay) or "bN" (Bronstein delay) and
// may be given on any period.
//
// Times with units, as arbiters write them: a time is "90m" or "90min",
// "1h", "1h30" (an hour and 30 minutes), "5400s" or "5400sec"; an
// increment or delay is seconds, "+30" or "+30s". So "3m+2s", "90m+30s",
// "40/90m+30s:30m+30s", "1h30+30s", "*3m". "G/" (game) and "SD/" (sudden
// death) introduce a period without a move count whose time is minutes by
// convention: "G/15", "G/60;d5", "G/90+30", "SD/30"; a unit overrides it
// ("G/3600s"). Between a time and its bonus there may be blanks or ';'.
// Periods may also be separated by ',' ("40/120m, 20/60m, SD/30;d5").
//
// What is refused rather than guessed:
//
//   - a number without unit that would make a period shorter than a minute
//     ("3+2", "45", "40/5400:30"), with both readings in the message:
//     "3 s + 2 s per move? write 3m+2s for 3 minutes, or 3s+2s for seconds";
//   - a time without unit in a control that gives units elsewhere
//     ("40/90m:1800", "90+30s") or separates its periods with ','
//     ("40/120, 30"): write a unit on every time (0 needs none).
//
// Time odds: the two players' controls, each written as above after the
// side's name, separated by '|': "white 5m | black 4m", "white
// 60/5m:0+2s | black 60/4m:0+2s" (Armageddon: 5 and 4 minutes, +2 s a move
// from move 61). Two equal parts read as one control; an hourglass cannot
// differ per side.
//
// Letters are case-insensitive and blanks around separators are ignored.
// Decimal numbers are refused: write whole seconds ("90s", not "1.5m").
// A bonus of 0 ("300+0", "300d0") is the same as none. The first period
// needs a positive time; a later one may add none ("40/5400+30:0+30").
// Limits: at most 32 periods, 1000 moves a period, 1e6 s of time in all
// and 3600 s of increment or delay a period. Every error is an
// *InputError saying which part is wrong and why; ParseTimeControl never
// panics, and a control it returns passes Validate and is given back by
// ParseTimeControl(tc.String()) and ParseTimeControl(tc.WithUnits()).
func ParseTimeControl(s string) (TimeControl, error) {
	in := strings.TrimSpace(s)
	switch in {
	case "":
		return TimeControl{}, tcError(s, "empty: no time control given")
	case "-":
		return TimeControl{}, tcError(s, `no time control ("-" is PGN for a game without one)`)
	case "?":
		return TimeControl{}, tcError(s, `no time control ("?" is PGN for an unknown one)`)
	}
	for _, r := range in {
		if r >= 0x80 || (r < ' ' && r != '\t') {
			return TimeControl{}, tcError(in, fmt.Sprintf("unexpected character %q", r))
		}
	}
	if strings.Contains(in, "|") {
		return tcParseSides(in)
	}
	hasColon, hasComma := strings.Contains(in, ":"), strings.Contains(in, ",")
	sep := ""
	switch {
	case hasColon && hasComma:
		return TimeControl{}, tcError(in, `mixes ':' and ',' between periods; use one of them`)
	case hasColon:
		sep = ":"
	case hasComma:
		sep = ","
	}
	texts := []string{in}
	if sep != "" {
		texts = strings.Split(in, sep)
	}
	if len(texts) > tcMaxPeriods {
		return TimeControl{}, tcError(in, fmt.Sprintf("more than %d periods", tcMaxPeriods))
	}
	raws := make([]tcRawPeriod, 0, len(texts))
	labels := make([]string, 0, len(texts))
	units := hasComma // a list with ',' is written with units
	for _, t := range texts {
		t = strings.TrimSpace(t)
		if t == "" {
			return TimeControl{}, tcError(in, fmt.Sprintf("empty period (nothing around %q)", sep))
		}
		rp, err := tcScanPeriod(t)
		if err != nil {
			return TimeControl{}, err
		}
		if rp.hourglass && len(texts) > 1 {
			return TimeControl{}, tcError(in, "an hourglass has exactly one period")
		}
		raws = append(raws, rp)
		labels = append(labels, t)
		units = units || rp.unit || rp.gameSD || rp.bonusUnit
	}
	tc := TimeControl{Periods: make([]Period, len(raws)), Hourglass: raws[0].hourglass}
	var doubtful []int // periods whose time without unit may not be seconds
	for i, rp := range raws {
		p, err := rp.resolve()
		if err != nil {
			return TimeControl{}, err
		}
		tc.Periods[i] = p
		if rp.bare() && rp.base != 0 && (units || rp.base*1000 < tcMinBareMs) {
			doubtful = append(doubtful, i)
		}
	}
	if len(doubtful) > 0 {
		return TimeControl{}, tcAmbiguity(in, tc, raws, doubtful, units)
	}
	if err := tc.validate(func() string { return in }, labels); err != nil {
		return TimeControl{}, err
	}
	return tc, nil
}

// tcAmbiguity is the error for times without unit that may not be
// seconds: it shows both readings, each written with units.
func tcAmbiguity(in string, seconds TimeControl, raws []tcRawPeriod, doubtful []int, units bool) error {
	minutes := TimeControl{Periods: append([]Period(nil), seconds.Periods...), Hourglass: seconds.Hourglass}
	for _, i := range doubtful {
		minutes.Periods[i].BaseMs = raws[i].base * 60_000
	}
	var b strings.Builder
	first := raws[doubtful[0]]
	if units {
		fmt.Fprintf(&b, "%q: the time %d has no unit", first.text, first.base)
		if len(doubtful) > 1 {
			fmt.Fprintf(&b, " (nor have %d more periods)", len(doubtful)-1)
		}
		if strings.Contains(in, ",") {
			b.WriteString("; with ',' between periods every time needs its unit:")
		} else {
			b.WriteString("; a control with units needs one on every time:")
		}
	} else {
		if len(raws) > 1 {
			fmt.Fprintf(&b, "period %q: ", first.text)
		}
		b.WriteString(tcPeriodPhrase(seconds.Periods[doubtful[0]], seconds.Hourglass) + "?")
	}
	mOK, sOK := minutes.Validate() == nil, seconds.Validate() == nil
	what := "minutes"
	if !units && len(doubtful) == 1 {
		what = fmt.Sprintf("%d minutes", first.base)
		if first.base == 1 {
			what = "1 minute"
		}
	}
	switch {
	case mOK && sOK:
		fmt.Fprintf(&b, " write %s for %s, or %s for seconds", minutes.WithUnits(), what, seconds.inSeconds())
	case mOK:
		fmt.Fprintf(&b, " write %s for %s", minutes.WithUnits(), what)
	case sOK:
		fmt.Fprintf(&b, " write %s for seconds", seconds.inSeconds())
	default:
		b.WriteString(" give every time its unit (m or s)")
	}
	return tcError(in, b.String())
}

// tcRawPeriod is one period as typed, before it is read.
type tcRawPeriod struct {
	text      string
	hourglass bool
	hasMoves  bool
	moves     int64
	gameSD    bool  // "G/" or "SD/" prefix
	base      int64 // number as typed, when !unit
	unit      bool  // base had an explicit unit; then baseMs is set
	baseMs    int64
	marker    bool // a bonus marker (+, d, b) was given
	bonus     BonusKind
	bonusSec  int64
	bonusUnit bool // the bonus was written with its unit, "+30s"
}

// bare reports whether the period's time has no unit and no "G/" or "SD/".
func (rp tcRawPeriod) bare() bool { return !rp.unit && !rp.gameSD }

type tcScanner struct {
	s    string // lower-case period text
	text string // period text as typed, for messages
	i    int
}

func (sc *tcScanner) ws() {
	for sc.i < len(sc.s) && (sc.s[sc.i] == ' ' || sc.s[sc.i] == '\t') {
		sc.i++
	}
}

func (sc *tcScanner) peek() byte {
	if sc.i < len(sc.s) {
		return sc.s[sc.i]
	}
	return 0
}

func (sc *tcScanner) eat(word string) bool {
	if strings.HasPrefix(sc.s[sc.i:], word) {
		sc.i += len(word)
		return true
	}
	return false
}

func (sc *tcScanner) unexpected() error {
	rest := sc.text[sc.i:]
	if len(rest) > 8 {
		rest = rest[:8] + "..."
	}
	return tcError(sc.text, fmt.Sprintf("unexpected %q", rest))
}

// number reads a whole non-negative number; what names it in messages.
func (sc *tcScanner) number(what string) (int64, error) {
	switch c := sc.peek(); {
	case c == 0:
		return 0, tcError(sc.text, "missing "+what)
	case c == '-':
		return 0, tcError(sc.text, what+" is negative")
	case c == '.':
		return 0, tcError(sc.text, "decimal numbers are not accepted; use whole seconds")
	case c < '0' || c > '9':
		if what == "time" && (c == '+' || c == 'd' || c == 'b' || c == ';') {
			return 0, tcError(sc.text, "increment or delay without a time")
		}
		return 0, sc.unexpected()
	}
	start := sc.i
	for sc.i < len(sc.s) && sc.s[sc.i] >= '0' && sc.s[sc.i] <= '9' {
		sc.i++
	}
	if sc.i < len(sc.s) && (sc.s[sc.i] == '.') {
		return 0, tcError(sc.text, "decimal numbers are not accepted; use whole seconds")
	}
	digits := strings.TrimLeft(sc.s[start:sc.i], "0")
	if len(digits) > tcMaxDigits {
		return 0, tcError(sc.text, what+" is too large")
	}
	if digits == "" {
		return 0, nil
	}
	n, err := strconv.ParseInt(digits, 10, 64)
	if err != nil { // cannot happen: at most tcMaxDigits digits
		return 0, tcError(sc.text, what+" is too large")
	}
	return n, nil
}

// tcScanPeriod reads one period: ["*"] [moves "/" | "G/" | "SD/"] base [unit]
// [[";"] ("+"|"d"|"b") bonus ["s"]].
func tcScanPeriod(text string) (tcRawPeriod, error) {
	sc := &tcScanner{s: strings.ToLower(text), text: text}
	rp := tcRawPeriod{text: text}
	sc.ws()
	if sc.eat("*") {
		rp.hourglass = true
		sc.ws()
	}
	switch {
	case sc.eat("sd"), sc.eat("g"):
		sc.ws()
		if !sc.eat("/") {
			return rp, tcError(text, `"G" and "SD" must be followed by "/" and the minutes, as in "G/60" or "SD/30"`)
		}
		rp.gameSD = true
		sc.ws()
		if sc.peek() == 0 {
			return rp, tcError(text, `"G/" or "SD/" without a time`)
		}
	case sc.peek() == '/':
		return rp, tcError(text, "'/' without a move count before it")
	}
	n, err := sc.number("time")
	if err != nil {
		return rp, err
	}
	sc.ws()
	if !rp.gameSD && sc.eat("/") {
		rp.hasMoves, rp.moves = true, n
		sc.ws()
		if sc.peek() == 0 {
			return rp, tcError(text, "move count without a time")
		}
		if n, err = sc.number("time"); err != nil {
			return rp, err
		}
		sc.ws()
	}
	if sc.peek() == '/' {
		return rp, tcError(text, "more than one '/' in a period")
	}
	rp.base = n
	if err := sc.baseUnit(&rp); err != nil {
		return rp, err
	}
	sc.ws()
	semi := sc.eat(";")
	sc.ws()
	switch c := sc.peek(); c {
	case '+', 'd', 'b':
		sc.i++
		rp.marker = true
		what := "increment"
		switch c {
		case '+':
			rp.bonus = Increment
		case 'd':
			rp.bonus, what = SimpleDelay, "delay"
		case 'b':
			rp.bonus, what = Bronstein, "Bronstein delay"
		}
		sc.ws()
		if rp.bonusSec, err = sc.number(what); err != nil {
			return rp, err
		}
		sc.ws()
		switch {
		case sc.eat("sec"), sc.eat("s"):
			rp.bonusUnit = true
		case sc.peek() == 'm' || sc.peek() == 'h':
			return rp, tcError(text, "increments and delays are given in seconds")
		}
		sc.ws()
	default:
		if semi {
			return rp, tcError(text, `';' must be followed by an increment or delay ("+30", "d5", "b3")`)
		}
	}
	if sc.peek() != 0 {
		if c := sc.peek(); c == '+' || c == 'd' || c == 'b' {
			return rp, tcError(text, "more than one increment or delay in a period")
		}
		return rp, sc.unexpected()
	}
	return rp, nil
}

// baseUnit reads the optional unit after a base time.
func (sc *tcScanner) baseUnit(rp *tcRawPeriod) error {
	switch {
	case sc.eat("min"), sc.eat("m"):
		rp.unit, rp.baseMs = true, rp.base*60_000
	case sc.eat("sec"), sc.eat("s"):
		rp.unit, rp.baseMs = true, rp.base*1000
	case sc.eat("h"):
		rp.unit, rp.baseMs = true, rp.base*3_600_000
		save := sc.i
		sc.ws()
		if c := sc.peek(); c < '0' || c > '9' {
			sc.i = save
			return nil
		}
		m, err := sc.number("minutes")
		if err != nil {
			return err
		}
		if m >= 60 {
			return tcError(sc.text, "minutes after the hours must be below 60")
		}
		rp.baseMs += m * 60_000
		sc.ws()
		if !sc.eat("min") {
			sc.eat("m")
		}
	}
	return nil
}

// resolve reads the period: a time without unit is seconds, "G/" and
// "SD/" minutes; and checks what needs the text as typed.
func (rp tcRawPeriod) resolve() (Period, error) {
	var p Period
	if rp.hourglass {
		switch {
		case rp.hasMoves:
			return p, tcError(rp.text, "an hourglass takes no move count")
		case rp.gameSD:
			return p, tcError(rp.text, `an hourglass is written "*" and its time, as in "*60" or "*1m"`)
		case rp.marker:
			return p, tcError(rp.text, "an hourglass takes no increment or delay")
		}
	}
	if rp.hasMoves {
		if rp.moves == 0 {
			return p, tcError(rp.text, "move count must be positive")
		}
		if rp.moves > tcMaxMoves {
			return p, tcError(rp.text, fmt.Sprintf("move count above %d", tcMaxMoves))
		}
		p.Moves = int(rp.moves)
	}
	switch {
	case rp.unit:
		p.BaseMs = rp.baseMs
	case rp.gameSD:
		p.BaseMs = rp.base * 60_000
	default:
		p.BaseMs = rp.base * 1000
	}
	if p.BaseMs > tcMaxTotalBaseMs {
		return p, tcError(rp.text, fmt.Sprintf("time above %d seconds", tcMaxTotalBaseMs/1000))
	}
	if rp.marker && rp.bonusSec > 0 {
		if rp.bonusSec*1000 > tcMaxBonusMs {
			return p, tcError(rp.text, fmt.Sprintf("increment or delay above %d seconds", tcMaxBonusMs/1000))
		}
		p.Bonus, p.BonusMs = rp.bonus, rp.bonusSec*1000
	}
	return p, nil
}

// Validate checks a time control built by hand: at least one period; every
// period but the last with a positive move count and the last without one;
// a positive base in the first period and no negative one; whole seconds
// everywhere (the PGN form cannot write fractions); a known bonus kind, and
// no bonus time without a kind (a kind with 0 ms is allowed and means no
// bonus); an hourglass with exactly one period and no bonus; and the limits:
// at most 32 periods, 1000 moves a period, 1e6 s of base in total and 3600 s
// of bonus a period. A control that passes satisfies
// ParseTimeControl(tc.String()) == tc, up to a kind with 0 ms reading back
// as NoBonus.
func (tc TimeControl) Validate() error {
	return tc.validate(tc.String, nil)
}

// validate names the whole control by whole and period i by labels[i] when
// given, else by its canonical text.
func (tc TimeControl) validate(whole func() string, labels []string) error {
	if tc.Black != nil {
		if err := tc.validateSides(); err != nil {
			return err
		}
		tc = tc.For(White)
	}
	n := len(tc.Periods)
	if n == 0 {
		return tcError(whole(), "no periods")
	}
	if n > tcMaxPeriods {
		return tcError(whole(), fmt.Sprintf("more than %d periods", tcMaxPeriods))
	}
	label := func(i int) string {
		if i < len(labels) {
			return labels[i]
		}
		return tcPeriodString(tc.Periods[i], tcSeconds(tc.Periods[i].BaseMs), "")
	}
	if tc.Hourglass {
		p := tc.Periods[0]
		switch {
		case n > 1:
			return tcError(whole(), "an hourglass has exactly one period")
		case p.Moves != 0:
			return tcError(label(0), "an hourglass takes no move count")
		case p.BonusMs != 0:
			return tcError(label(0), "an hourglass takes no increment or delay")
		}
	}
	var total int64
	for i, p := range tc.Periods {
		switch {
		case p.Moves < 0:
			return tcError(label(i), "move count must be positive")
		case p.Moves > tcMaxMoves:
			return tcError(label(i), fmt.Sprintf("move count above %d", tcMaxMoves))
		case i < n-1 && p.Moves == 0:
			return tcError(label(i), "only the last period may be without a move count")
		case i == n-1 && p.Moves != 0:
			return tcError(label(i), "the last period covers the rest of the game and takes no move count")
		case p.BaseMs < 0:
			return tcError(label(i), "time is negative")
		case i == 0 && p.BaseMs == 0:
			return tcError(label(i), "the first period has no time")
		case p.BaseMs > tcMaxTotalBaseMs:
			return tcError(label(i), fmt.Sprintf("time above %d seconds", tcMaxTotalBaseMs/1000))
		case p.BaseMs%1000 != 0:
			return tcError(label(i), "time is not a whole number of seconds")
		case p.Bonus < NoBonus || p.Bonus > Bronstein:
			return tcError(label(i), fmt.Sprintf("unknown kind of increment or delay %d", p.Bonus))
		case p.BonusMs < 0:
			return tcError(label(i), "increment or delay is negative")
		case p.Bonus == NoBonus && p.BonusMs != 0:
			return tcError(label(i), "increment or delay time without its kind")
		case p.BonusMs > tcMaxBonusMs:
			return tcError(label(i), fmt.Sprintf("increment or delay above %d seconds", tcMaxBonusMs/1000))
		case p.BonusMs%1000 != 0:
			return tcError(label(i), "increment or delay is not a whole number of seconds")
		}
		total += p.BaseMs // each at most tcMaxTotalBaseMs, at most tcMaxPeriods of them
	}
	if total > tcMaxTotalBaseMs {
		return tcError(whole(), fmt.Sprintf("total time above %d seconds", tcMaxTotalBaseMs/1000))
	}
	return nil
}

// String returns the canonical form: the PGN TimeControl tag in seconds,
// periods joined by ':', each [moves/]base[+inc|dDelay|bDelay], an
// hourglass as "*base", a zero bonus (or a kind with 0 ms) left out. A
// control with a period shorter than a minute, whose PGN form
// ParseTimeControl refuses as perhaps meant in minutes, is written in
// seconds with units instead ("30s+2s", "40/5400s:30s"). For every valid tc,
// ParseTimeControl(tc.String()) gives tc back.
//
// String is meant for valid controls; for others it still returns text that
// ParseTimeControl refuses with a message: "-" for no periods, decimal
// seconds ("1.5") for fractions of a second.
func (tc TimeControl) String() string {
	if tc.Black != nil {
		return tc.sidesString(TimeControl.String)
	}
	if len(tc.Periods) == 0 {
		return "-"
	}
	for _, p := range tc.Periods {
		if p.BaseMs > 0 && p.BaseMs < tcMinBareMs && p.BaseMs%1000 == 0 {
			return tc.inSeconds()
		}
	}
	parts := make([]string, len(tc.Periods))
	for i, p := range tc.Periods {
		parts[i] = tcPeriodString(p, tcSeconds(p.BaseMs), "")
	}
	return tcJoin(tc, parts)
}

// WithUnits returns the form with units arbiters read at a glance: every
// time in whole minutes "m" or else seconds "s", every increment or delay
// in seconds, a delay after ';': "90m+30s", "40/90m+30s:30m+30s", "3m+2s",
// "*1m", "60m;d5s". For every valid tc, ParseTimeControl(tc.WithUnits())
// gives tc back.
func (tc TimeControl) WithUnits() string {
	if tc.Black != nil {
		return tc.sidesString(TimeControl.WithUnits)
	}
	return tc.withUnits(func(ms int64) string {
		if ms%60_000 == 0 {
			return strconv.FormatInt(ms/60_000, 10) + "m"
		}
		return tcSeconds(ms) + "s"
	})
}

// inSeconds writes every time in seconds with its unit: "40/5400s:30s".
func (tc TimeControl) inSeconds() string {
	return tc.withUnits(func(ms int64) string { return tcSeconds(ms) + "s" })
}

func (tc TimeControl) withUnits(base func(ms int64) string) string {
	if len(tc.Periods) == 0 {
		return "-"
	}
	parts := make([]string, len(tc.Periods))
	for i, p := range tc.Periods {
		b := "0"
		if p.BaseMs != 0 {
			b = base(p.BaseMs)
		}
		if p.Bonus == SimpleDelay || p.Bonus == Bronstein {
			b += ";"
		}
		parts[i] = tcPeriodString(p, b, "s")
	}
	return tcJoin(tc, parts)
}

func tcJoin(tc TimeControl, parts []string) string {
	s := strings.Join(parts, ":")
	if tc.Hourglass {
		s = "*" + s
	}
	return s
}

// tcPeriodString writes a period with its base as given and its bonus in
// seconds followed by unit.
func tcPeriodString(p Period, base, unit string) string {
	s := base + tcBonusString(p, unit)
	if p.Moves != 0 {
		s = strconv.Itoa(p.Moves) + "/" + s
	}
	return s
}

func tcBonusString(p Period, unit string) string {
	if p.BonusMs == 0 {
		return ""
	}
	switch p.Bonus {
	case Increment:
		return "+" + tcSeconds(p.BonusMs) + unit
	case SimpleDelay:
		return "d" + tcSeconds(p.BonusMs) + unit
	case Bronstein:
		return "b" + tcSeconds(p.BonusMs) + unit
	}
	return ""
}

// seconds writes ms in seconds, with decimals only when not whole.
func tcSeconds(ms int64) string {
	if ms%1000 == 0 {
		return strconv.FormatInt(ms/1000, 10)
	}
	return strconv.FormatFloat(float64(ms)/1000, 'f', -1, 64)
}
