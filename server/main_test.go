package server_test

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package's tests if any goroutine outlives them:
// every stream, actor, timer and watcher the server starts must end with
// Shutdown.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
