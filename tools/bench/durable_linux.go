package main

import (
	"os"

	"golang.org/x/sys/unix"
)

// fdatasync makes what was written to f durable (its data and the size
// that reads it back), as SQLite's WAL commit at synchronous=FULL.
func fdatasync(f *os.File) error { return unix.Fdatasync(int(f.Fd())) }
