package clockdev

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package's tests if any goroutine outlives them: a
// device's link, send loop and timers must end with Run's context and
// Close.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
