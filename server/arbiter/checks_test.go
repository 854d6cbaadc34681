package arbiter

import (
	"errors"
	"strings"
	"testing"

	"github.com/chesshall/hallclock/server/hallerr"
)

// The service's own checks of what an arbiter sends, beside their code;
// the services themselves are tested through a real hall from server/.

// A tie-break list is stored as the regulations write it, and one that
// does not read is refused naming the field, the entry and what is allowed.
func TestCheckTieBreaks(t *testing.T) {
	got, secs, err := checkTieBreaks(" bh/c1 , bh ", map[string]string{"Open": "sb", "Juniors": " "})
	if err != nil {
		t.Fatal(err)
	}
	if got != "BH-C1,BH" {
		t.Errorf("the list %q is stored as %q, want BH-C1,BH", " bh/c1 , bh ", got)
	}
	if len(secs) != 1 || secs["Open"] != "SB" {
		t.Errorf("the sections' lists = %v, want only Open's, as SB (an empty one is the defaults)", secs)
	}
	if got, secs, err := checkTieBreaks("", nil); err != nil || got != "" || secs != nil {
		t.Errorf("an empty list = %q, %v, %v; want the defaults (empty) without error", got, secs, err)
	}

	for _, c := range []struct {
		list     string
		sections map[string]string
		want     []string
	}{
		{"BH, XYZ", nil, []string{"tie_breaks", `"XYZ"`, "entry 2", "want one of PTS", "modifiers -C1"}},
		{"BH", map[string]string{"Open": "nonsense"}, []string{"section_tie_breaks[Open]", "nonsense"}},
		// A tournament of players cannot rank by match points.
		{"MPTS", nil, []string{"tie_breaks", "team events", "rank players"}},
	} {
		_, _, err := checkTieBreaks(c.list, c.sections)
		if !errors.Is(err, hallerr.ErrBadRequest) {
			t.Errorf("%q %v: %v, want a bad request", c.list, c.sections, err)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%q %v: %q does not say %q", c.list, c.sections, err, w)
			}
		}
	}
	// A team event may.
	if got, err := checkList("tie_breaks", "mpts, gpts", true); err != nil || got != "MPTS,GPTS" {
		t.Errorf("a team event's MPTS, GPTS = %q, %v", got, err)
	}
}

// Where people open the web pages is a plain http or https address; the
// links the hall prints are built on it without a doubled slash.
func TestBaseURL(t *testing.T) {
	for raw, want := range map[string]string{
		"":                           "",
		"https://hall.local:7080/":   "https://hall.local:7080",
		"http://10.0.0.5:7080":       "http://10.0.0.5:7080",
		"https://chess.example/hall": "https://chess.example/hall",
	} {
		if got, err := baseURL(raw); err != nil || got != want {
			t.Errorf("baseURL(%q) = %q, %v; want %q", raw, got, err, want)
		}
	}
	for _, raw := range []string{"hall.local:7080", "ftp://hall.local", "https://", "https://hall.local/?x=1", "https://hall.local/#top", "://"} {
		if _, err := baseURL(raw); !errors.Is(err, hallerr.ErrBadRequest) || !strings.Contains(err.Error(), "https://hall.local:7080") {
			t.Errorf("baseURL(%q) = %v, want a bad request showing an example", raw, err)
		}
	}
	url, svg, err := linkURL("https://hall.local:7080", "/signin/abc")
	if err != nil || url != "https://hall.local:7080/signin/abc" || !strings.HasPrefix(strings.TrimSpace(svg), "<svg") {
		t.Errorf("linkURL = %q, %.20q, %v; want the link and its QR code", url, svg, err)
	}
	if url, svg, err := linkURL("", "/signin/abc"); url != "" || svg != "" || err != nil {
		t.Errorf("linkURL without a base = %q, %q, %v; want none", url, svg, err)
	}
}

// An export's file name is made of the tournament's name.
func TestSlug(t *testing.T) {
	for name, want := range map[string]string{
		"Nordic Autumn Open 2025": "nordic-autumn-open-2025",
		"  Blitz -- Night!  ":     "blitz-night",
		"Чемпионат Еревана":       "чемпионат-еревана",
		"서울 오픈":                   "서울-오픈",
		"???":                     "round",
		"":                        "round",
	} {
		if got := slug(name); got != want {
			t.Errorf("slug(%q) = %q, want %q", name, got, want)
		}
	}
}
