//go:build unix

package storage

import "syscall"

// stRdonly is ST_RDONLY of statfs(2)'s f_flags (Linux).
const stRdonly = 1

// diskSpace says how much room dir's file system has for the store.
func diskSpace(dir string) space {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return space{} // cannot tell: the commits will
	}
	bs := uint64(st.Bsize)
	return space{known: true, free: uint64(st.Bavail) * bs, size: uint64(st.Blocks) * bs, readOnly: int64(st.Flags)&stRdonly != 0}
}
