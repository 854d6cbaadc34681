package server_test

import (
	"flag"
	"runtime"
	"strconv"
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package's tests if any goroutine outlives them:
// every stream, actor, timer and watcher the server starts must end with
// Shutdown. The tests spend most of their time waiting (fsync, timers,
// streams), so unless -parallel is given, four times as many run at once
// as there are CPUs.
func TestMain(m *testing.M) {
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given {
		_ = flag.Set("test.parallel", strconv.Itoa(4*runtime.GOMAXPROCS(0)))
	}
	goleak.VerifyTestMain(m)
}
