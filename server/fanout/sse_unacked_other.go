//go:build !linux

package fanout

import "net"

// unacked cannot tell elsewhere than on Linux: SendSSE then relies on the
// send buffer alone.
func unacked(*net.TCPConn) (int, bool) { return 0, false }
