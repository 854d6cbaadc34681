// Package announce writes what a talking clock says to a visually
// disabled player: the number of completed moves and the time used by
// both players (FIDE 2018 Appendix D.2.6.1: a clock made for the visually
// disabled announces the time and the number of moves; D.2.10.4: the
// assistant tells the completed moves and the time used, only when the
// player asks). The hall server builds the words it sends a clock, and a
// clock builds them itself when its player presses its button, so both
// say the same. It is pure: no I/O, no clock.
//
// # Usage
//
//	st = st.Project(now)
//	lang := announce.Choose(st.Config.Blind.Players[rules.White].Language, deviceVoices)
//	a := announce.Say(lang, announce.FromState(st))
//	// a.Text: "White: 23 moves, 1 hour 2 minutes 5 seconds used. Black: 22 moves, 58 minutes 40 seconds used."
//
// # Words
//
// White first, then Black, each with the moves completed and the time
// used in hours, minutes and seconds (units that are zero left out, "0
// seconds" for none), in English, German, Spanish, French, Korean,
// Russian or Armenian, with each language's plural forms (CLDR's rules:
// Armenian's "one" is 0 and 1, and its nouns stay singular after a
// number; the terms are those of the Armenian text of the Laws). Numbers are written as
// digits, which speech synthesizers read in the language of the text.
// The time used is rounded up to the second: a player is never told he
// used less than he did.
package announce

import (
	"strconv"
	"strings"

	"github.com/chesshall/hallclock/rules"
)

// Facts are what an announcement tells, by rules.Side.
type Facts struct {
	Moves  [2]int   // completed moves
	UsedMs [2]int64 // time used, ms
}

// FromState reads the facts of a board's state; project it to the
// instant of the announcement first.
func FromState(st rules.State) Facts {
	var f Facts
	for s := range st.P {
		f.Moves[s], f.UsedMs[s] = st.P[s].Moves, st.P[s].UsedMs
	}
	return f
}

// Announcement is what a talking clock says.
type Announcement struct {
	Language string // the language of Text: one of Languages
	Text     string
}

// English is the language of an announcement when the player's is not
// spoken.
const English = "en"

// Languages lists the languages announce speaks, English first.
var Languages = []string{"en", "de", "es", "fr", "ko", "ru", "hy"}

// Base returns the language of a BCP 47 tag that announce speaks ("de-AT"
// speaks "de"), and false when it speaks none.
func Base(tag string) (string, bool) {
	primary, _, _ := strings.Cut(tag, "-")
	primary = strings.ToLower(primary)
	_, ok := words[primary]
	return primary, ok
}

// Choose returns the language to announce in: the player's (a BCP 47
// tag, "" for none) when announce speaks it and so does the clock's voice
// (voices, the languages of the clock's Hello; empty means English only),
// English otherwise.
func Choose(player string, voices []string) string {
	lang, ok := Base(player)
	if !ok {
		return English
	}
	for _, v := range voices {
		if b, _ := Base(v); b == lang {
			return lang
		}
	}
	return English
}

// Say writes the announcement of f in lang (a language Choose returned;
// any other is English).
func Say(lang string, f Facts) Announcement {
	w, ok := words[lang]
	if !ok {
		lang, w = English, words[English]
	}
	parts := make([]string, 2)
	for s := range parts {
		parts[s] = w.sentence(w.side[s], w.count(f.Moves[s], w.move), w.duration(f.UsedMs[s]))
	}
	return Announcement{Language: lang, Text: strings.Join(parts, " ")}
}

// forms is a noun's forms, indexed by the language's plural rule.
type forms []string

// language is how one language says an announcement.
type language struct {
	side                 [2]string // White, Black
	move                 forms
	hour, minute, second forms
	rule                 func(n int) int // the index of n's form in forms
	tight                bool            // no space between a number and its noun
	// sentence joins a side, its moves and its time used.
	sentence func(side, moves, used string) string
}

// count writes n with its noun.
func (l language) count(n int, f forms) string {
	if l.tight {
		return strconv.Itoa(n) + f[l.rule(n)]
	}
	return strconv.Itoa(n) + " " + f[l.rule(n)]
}

// duration writes ms, rounded up to the second, in hours, minutes and
// seconds, leaving out units that are zero ("0 seconds" for none).
func (l language) duration(ms int64) string {
	secs := (max(ms, 0) + 999) / 1000
	h, m, s := secs/3600, secs/60%60, secs%60
	var out []string
	for _, u := range []struct {
		n int64
		f forms
	}{{h, l.hour}, {m, l.minute}, {s, l.second}} {
		if u.n > 0 {
			out = append(out, l.count(int(u.n), u.f))
		}
	}
	if len(out) == 0 {
		return l.count(0, l.second)
	}
	return strings.Join(out, " ")
}

// English-like plurals: 1 is singular, everything else plural.
func oneOther(n int) int {
	if n == 1 {
		return 0
	}
	return 1
}

// French and Armenian (CLDR: one is i = 0,1): 0 and 1 are singular.
func zeroOneOther(n int) int {
	if n <= 1 {
		return 0
	}
	return 1
}

// Russian: 1, 21, 31 ... (not 11); 2-4, 22-24 ... (not 12-14); the rest.
func russian(n int) int {
	switch d, dd := n%10, n%100; {
	case d == 1 && dd != 11:
		return 0
	case d >= 2 && d <= 4 && (dd < 12 || dd > 14):
		return 1
	}
	return 2
}

// Korean: nouns do not change.
func invariant(int) int { return 0 }

var words = map[string]language{
	"en": {
		side: [2]string{"White", "Black"}, move: forms{"move", "moves"},
		hour: forms{"hour", "hours"}, minute: forms{"minute", "minutes"}, second: forms{"second", "seconds"},
		rule:     oneOther,
		sentence: func(side, moves, used string) string { return side + ": " + moves + ", " + used + " used." },
	},
	"de": {
		side: [2]string{"Weiß", "Schwarz"}, move: forms{"Zug", "Züge"},
		hour: forms{"Stunde", "Stunden"}, minute: forms{"Minute", "Minuten"}, second: forms{"Sekunde", "Sekunden"},
		rule:     oneOther,
		sentence: func(side, moves, used string) string { return side + ": " + moves + ", " + used + " verbraucht." },
	},
	"es": {
		side: [2]string{"Blancas", "Negras"}, move: forms{"jugada", "jugadas"},
		hour: forms{"hora", "horas"}, minute: forms{"minuto", "minutos"}, second: forms{"segundo", "segundos"},
		rule:     oneOther,
		sentence: func(side, moves, used string) string { return side + ": " + moves + ", tiempo empleado " + used + "." },
	},
	"fr": {
		side: [2]string{"Blancs", "Noirs"}, move: forms{"coup", "coups"},
		hour: forms{"heure", "heures"}, minute: forms{"minute", "minutes"}, second: forms{"seconde", "secondes"},
		rule:     zeroOneOther,
		sentence: func(side, moves, used string) string { return side + " : " + moves + ", temps utilisé " + used + "." },
	},
	"ko": {
		side: [2]string{"백", "흑"}, move: forms{"수"},
		hour: forms{"시간"}, minute: forms{"분"}, second: forms{"초"},
		rule: invariant, tight: true,
		sentence: func(side, moves, used string) string { return side + " " + moves + ", 사용 시간 " + used + "." },
	},
	"ru": {
		side: [2]string{"Белые", "Чёрные"}, move: forms{"ход", "хода", "ходов"},
		hour: forms{"час", "часа", "часов"}, minute: forms{"минута", "минуты", "минут"}, second: forms{"секунда", "секунды", "секунд"},
		rule: russian,
		sentence: func(side, moves, used string) string {
			return side + ": " + moves + ", затрачено " + used + "."
		},
	},
	// Armenian: the Laws' քայլ (move), ժամ, րոպե, վայրկյան; a noun after
	// a number keeps its singular form in both of CLDR's classes, and a
	// sentence ends with the verjaket (։).
	"hy": {
		side: [2]string{"Սպիտակներ", "Սևեր"}, move: forms{"քայլ", "քայլ"},
		hour: forms{"ժամ", "ժամ"}, minute: forms{"րոպե", "րոպե"}, second: forms{"վայրկյան", "վայրկյան"},
		rule: zeroOneOther,
		sentence: func(side, moves, used string) string {
			return side + "՝ " + moves + ", օգտագործված ժամանակը՝ " + used + "։"
		},
	},
}
