package halltest

import (
	"net"
	"testing"
)

// FreeAddr is a loopback address with a port free a moment ago, for a
// process the test starts and starts again on the same port (a hall
// killed and restarted): a port the test's own listener cannot hand over.
func FreeAddr(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}
