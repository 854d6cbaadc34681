package roundcsv

import (
	"bytes"
	"strings"
	"testing"

	"github.com/chesshall/hallclock/rules"
)

// TestCountsColumn: a drawn Armageddon keeps its board result and says what
// counts in a Counts column, which reads back; a round without draw odds
// has no such column.
func TestCountsColumn(t *testing.T) {
	in := &Round{Number: 1, Games: []Game{
		{Board: 1, White: Player{Name: "A", Number: 1}, Black: Player{Name: "B", Number: 2}, Result: rules.Draw, Counts: rules.BlackWins,
			Termination: "agreement", WhitePoints: 0, BlackPoints: 1},
		{Board: 2, White: Player{Name: "C", Number: 3}, Black: Player{Name: "D", Number: 4}, Result: rules.WhiteWins, WhitePoints: 1},
	}}
	var buf bytes.Buffer
	if err := Write(&buf, in); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(buf.String(), "\n")
	if !strings.HasSuffix(lines[0], ",Counts") || !strings.Contains(lines[1], "1/2-1/2,agreement,0,1,0-1") || !strings.HasSuffix(lines[2], ",") {
		t.Fatalf("file:\n%s", buf.String())
	}
	out, err := Read(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if g := out.Games[0]; g.Result != rules.Draw || g.Counts != rules.BlackWins || g.BlackPoints != 1 {
		t.Errorf("read back %+v", g)
	}
	if g := out.Games[1]; g.Counts != "" {
		t.Errorf("board 2 counts %q, want none", g.Counts)
	}
	in.Games[0].Counts = ""
	buf.Reset()
	if err := Write(&buf, in); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "Counts") {
		t.Errorf("a round without draw odds has a Counts column:\n%s", buf.String())
	}
}
