package jsapi_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chesshall/hallclock/clockdev/jsapi"
	"github.com/chesshall/hallclock/rules/conformance"
)

func start(t *testing.T, setup string) *jsapi.Clock {
	t.Helper()
	c, err := jsapi.NewClock(setup)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Do(`{"t": 0, "do": "start"}`); err != nil {
		t.Fatal(err)
	}
	return c
}

// A press of the side not having the move does nothing and is not
// recorded (6.2.1), as on a clockdev.Device.
func TestPressOfTheOtherSideDoesNothing(t *testing.T) {
	c := start(t, `{"time_control": "180+2", "ruleset": "fide-2023"}`)
	v, err := c.Press("black", 1000)
	if err != nil || v.Running != "white" || v.History != 1 || len(v.Recorded) != 0 {
		t.Fatalf("Black's press with White to move: %+v, %v; want White still running, nothing recorded", v, err)
	}
	v, err = c.Press("white", 1500)
	if err != nil || v.Running != "black" || v.WhiteMs != 180_500 || v.History != 2 {
		t.Fatalf("White's press: %+v, %v; want Black running, White 180.5 s", v, err)
	}
}

// A flag that fell before an action is recorded at its exact deadline,
// before the action (which the finished game then refuses).
func TestFlagRecordedAtItsDeadline(t *testing.T) {
	c := start(t, `{"time_control": "60", "ruleset": "fide-2023"}`)
	v, err := c.Press("white", 90_000)
	if err == nil || !strings.Contains(jsapi.Answer(v, err), `"refused":true`) {
		t.Errorf("press after the flag: %v, want a refusal", err)
	}
	if len(v.Recorded) != 1 || v.Recorded[0] != (jsapi.Recorded{T: 60_000, Do: "flag", Side: "white"}) {
		t.Errorf("recorded %+v, want White's flag at 60000", v.Recorded)
	}
	if v.Flag != "white" || v.Result != "0-1" {
		t.Errorf("after the flag: %+v", v)
	}
}

// The board's time line never goes back; a setup with a typo is refused
// naming what is allowed.
func TestRefusesTimeGoingBackAndUnknownSetup(t *testing.T) {
	c := start(t, `{"time_control": "180+2", "ruleset": "fide-2023"}`)
	if _, err := c.Press("white", 5000); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Press("black", 4000); err == nil || !strings.Contains(err.Error(), "never goes back") {
		t.Errorf("press at 4000 after 5000: %v, want the time line refusal", err)
	}
	if _, err := jsapi.NewClock(`{"time_contrl": "180+2", "ruleset": "fide-2023"}`); err == nil || !strings.Contains(err.Error(), "want time_control") {
		t.Errorf("setup with a typo: %v, want a refusal naming the keys", err)
	}
}

// RunVectors gives the native runner's outcomes for the project's vectors.
func TestRunVectorsAsTheRunner(t *testing.T) {
	dir := filepath.Join("..", "..", "rules", "testdata")
	files := map[string]string{}
	ms, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	for _, m := range ms {
		b, err := os.ReadFile(m)
		if err != nil {
			t.Fatal(err)
		}
		files[m] = string(b)
	}
	vs, errs := conformance.LoadDir(dir)
	out := jsapi.RunVectors(files)
	if len(errs) > 0 || len(out) != len(vs) || len(out) < 100 {
		t.Fatalf("%d outcomes, the runner %d vectors (%v)", len(out), len(vs), errs)
	}
	for i, o := range out {
		if o.File != vs[i].File || o.Name != vs[i].Name || !o.Pass {
			t.Errorf("outcome %d: %+v, want %s: %s passing", i, o, vs[i].File, vs[i].Name)
		}
	}
	bad := jsapi.RunVectors(map[string]string{"x.json": `{"name": "x", "bogus": 1}`})
	if len(bad) != 1 || bad[0].Pass || !strings.Contains(bad[0].Failure, "bogus") {
		t.Errorf("a vector with an unknown key: %+v, want a failure naming it", bad)
	}
}
