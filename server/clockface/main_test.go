package clockface_test

import (
	"os"
	"testing"

	"github.com/chesshall/hallclock/internal/testkit/browsertest"
)

// TestMain closes the browser the tests share (browsertest.Tab).
func TestMain(m *testing.M) {
	code := m.Run()
	browsertest.Close()
	os.Exit(code)
}
