package words

import (
	"testing"

	"github.com/chesshall/hallclock/rules"
)

// Every refusal of the rules has the name a device's Rejection carries:
// a refusal without one would reach the clock as "", which it cannot
// tell from no code at all. The last code is the assistant's (FIDE 2018
// Appendix D.2.10: not permitted).
func TestEveryRefusalHasItsName(t *testing.T) {
	seen := map[string]rules.RefusalCode{}
	for c := rules.RefusedOther; c <= rules.RefusedNotPermitted; c++ {
		name := refusalNames[c]
		if name == "" {
			t.Errorf("refusal code %d has no name", c)
			continue
		}
		if d, dup := seen[name]; dup {
			t.Errorf("refusal codes %d and %d are both named %q", d, c, name)
		}
		seen[name] = c
	}
	if got := Refused("set_clock", &rules.Refusal{Code: rules.RefusedNotPermitted}).Kind; got != "refused.not_permitted" {
		t.Errorf("Refused(not permitted).Kind = %q, want refused.not_permitted", got)
	}
}
