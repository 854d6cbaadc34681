package arbiter

import (
	"errors"
	"fmt"
	"strings"

	"github.com/chesshall/hallclock/formats/standings"
	"github.com/chesshall/hallclock/server/hallerr"
)

// checkTieBreaks reads a tournament's tie-break lists as standings.Parse
// does, and returns them as it writes them ("bh/c1, bh" is "BH-C1,BH"):
// a list that does not read is refused with what was wrong and what the
// regulations allow. "" is FIDE's recommended defaults.
func checkTieBreaks(list string, sections map[string]string) (string, map[string]string, error) {
	norm := func(field, s string) (string, error) {
		if strings.TrimSpace(s) == "" {
			return "", nil
		}
		tbs, err := standings.Parse(s)
		if err != nil {
			why := err.Error()
			if pe := (*standings.ParseError)(nil); errors.As(err, &pe) {
				why = fmt.Sprintf("entry %d %q: %s", pe.Item, pe.Entry, pe.Msg)
			}
			hint := "the FIDE Tie-Break Regulations' acronyms: " + strings.Join(standings.Names(), ", ") + "; "
			if strings.Contains(why, "APRO") {
				hint = "" // the reason lists them already
			}
			return "", hallerr.BadRequest("%s %q: %s (%smodifiers -C1, -C2, -M1, -M2; an empty list: FIDE's recommended defaults)",
				field, s, why, hint)
		}
		return standings.Format(tbs), nil
	}
	out, err := norm("tie_breaks", list)
	if err != nil {
		return "", nil, err
	}
	var secs map[string]string
	for name, l := range sections {
		v, err := norm("section_tie_breaks["+name+"]", l)
		if err != nil {
			return "", nil, err
		}
		if v != "" {
			if secs == nil {
				secs = map[string]string{}
			}
			secs[name] = v
		}
	}
	return out, secs, nil
}
