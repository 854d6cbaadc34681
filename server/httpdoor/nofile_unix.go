//go:build unix

package httpdoor

import "syscall"

// DescriptorLimit returns how many files the process may hold open (its
// RLIMIT_NOFILE, which Go raises to the hard limit at start; at most
// 2^20), or 0 if it cannot say.
func DescriptorLimit() int {
	var l syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &l); err != nil {
		return 0
	}
	return int(min(l.Cur, 1<<20))
}
