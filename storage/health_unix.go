//go:build unix

package storage

import (
	"fmt"
	"syscall"
)

// stRdonly is ST_RDONLY of statfs(2)'s f_flags (Linux).
const stRdonly = 1

// checkSpace fails if dir's file system is full or read-only.
func checkSpace(dir string) error {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return nil // cannot tell: the commits will
	}
	if int64(st.Flags)&stRdonly != 0 {
		return fmt.Errorf("storage: the file system of %s is read-only", dir)
	}
	if st.Bavail == 0 {
		return fmt.Errorf("storage: no space left on the file system of %s", dir)
	}
	return nil
}
