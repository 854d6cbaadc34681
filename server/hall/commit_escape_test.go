package hall

import (
	"os/exec"
	"regexp"
	"testing"
)

// Board.commit hands the storage writer a function; if that function
// names the change c, the compiler moves all of c — the board's whole
// state after the event — to the heap at every press. It happened once
// unnoticed (the scoresheet note's audit parameters named c.event.Kind):
// 29 of the 410 MB the hall allocated in a bench window at 1,500 presses
// a second. The compiler's escape analysis says so; this test asks it.
func TestCommitKeepsTheChangeOffTheHeap(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles the package again with -gcflags=-m")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	out, err := exec.Command(goTool, "build", "-gcflags=-m", "-o", "/dev/null", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build -gcflags=-m: %v\n%s", err, out)
	}
	if !regexp.MustCompile(`commit\.go:\d+:\d+: leaking param: b`).Match(out) {
		t.Fatalf("the compiler's escape analysis printed nothing about commit.go's (*Board).commit; has it moved?\n%.2000s", out)
	}
	if m := regexp.MustCompile(`commit\.go:\d+:\d+: moved to heap: c\b`).Find(out); m != nil {
		t.Errorf("%s: Board.commit's change goes to the heap at every press; take what the writer's function needs out of c first", m)
	}
}
