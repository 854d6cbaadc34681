package fanout

import (
	"net"
	"syscall"
	"unsafe"
)

// unacked returns how many bytes written to c its peer has not yet
// acknowledged (SIOCOUTQ: sent and unacknowledged, or not sent yet).
func unacked(c *net.TCPConn) (int, bool) {
	rc, err := c.SyscallConn()
	if err != nil {
		return 0, false
	}
	var n int32
	var errno syscall.Errno
	if err := rc.Control(func(fd uintptr) {
		_, _, errno = syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TIOCOUTQ, uintptr(unsafe.Pointer(&n)))
	}); err != nil || errno != 0 {
		return 0, false
	}
	return int(n), true
}
