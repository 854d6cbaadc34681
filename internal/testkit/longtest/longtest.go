// Package longtest keeps the default test suite quick. End-to-end tests
// that take seconds each — a browser driving the pages, a simulated fleet
// playing rounds, a NATS cluster losing its leader, a real hallserver
// killed — run only when HALL_LONG=1 is set; .ci/run sets it in a second
// pass after the README's `go test -race ./...`.
//
//	func TestFleetPlaysARound(t *testing.T) {
//		longtest.Skip(t)
//		...
//	}
//
// A test that checks a property over many random inputs can run fewer of
// them by default and all of them in the long pass with Scale.
package longtest

import (
	"os"
	"testing"
)

// Env is the variable that turns the long tests on.
const Env = "HALL_LONG"

// On reports whether the long tests run (HALL_LONG set and not "0").
func On() bool {
	v := os.Getenv(Env)
	return v != "" && v != "0"
}

// Skip skips t unless the long tests run, saying how to run it.
func Skip(t testing.TB) {
	t.Helper()
	if !On() {
		t.Skip("end-to-end test: runs with " + Env + "=1 (.ci/run sets it)")
	}
}

// Scale returns long when the long tests run and short otherwise: the
// number of random cases, rounds or cycles a test tries.
func Scale(short, long int) int {
	if On() {
		return long
	}
	return short
}
