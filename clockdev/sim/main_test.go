package sim_test

import (
	"flag"
	"os"
	"testing"

	"go.uber.org/goleak"
)

// TestMain runs the fleet tests four at a time unless -test.parallel says
// otherwise: each waits on its scaled clock far more than it computes, so
// running them two at a time (the default on two cores) leaves the cores
// idle. And no goroutine of a fleet may outlive the tests.
func TestMain(m *testing.M) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		flag.Set("test.parallel", "4")
	}
	goleak.VerifyTestMain(m)
	os.Exit(0) // not reached: VerifyTestMain exits
}
