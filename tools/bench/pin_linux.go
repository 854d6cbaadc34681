package main

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"

	"golang.org/x/sys/unix"
)

func (s cpuSet) mask() *unix.CPUSet {
	var m unix.CPUSet
	for _, c := range s {
		m.Set(c)
	}
	return &m
}

// pinSelf keeps every thread of this process on cpus (new threads inherit
// the mask of the thread that makes them) and sets GOMAXPROCS to match.
func pinSelf(cpus cpuSet) error {
	if len(cpus) == 0 {
		return nil
	}
	m := cpus.mask()
	// Twice: a thread started while the first pass ran may have inherited
	// the old mask.
	for range 2 {
		tasks, err := os.ReadDir("/proc/self/task")
		if err != nil {
			return err
		}
		for _, t := range tasks {
			tid, err := strconv.Atoi(t.Name())
			if err != nil {
				continue
			}
			if err := unix.SchedSetaffinity(tid, m); err != nil && err != unix.ESRCH {
				return fmt.Errorf("pinning the bench to %s: %w", cpus, err)
			}
		}
	}
	runtime.GOMAXPROCS(len(cpus))
	return nil
}

// startPinned starts cmd with its CPUs limited to cpus: it is forked from
// a thread pinned there for the moment, and a child inherits its parent
// thread's mask (the Go runtime of a Go child then sizes GOMAXPROCS to it).
func startPinned(cmd *exec.Cmd, cpus cpuSet) error {
	if len(cpus) == 0 {
		return cmd.Start()
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var old unix.CPUSet
	if err := unix.SchedGetaffinity(0, &old); err != nil {
		return err
	}
	if err := unix.SchedSetaffinity(0, cpus.mask()); err != nil {
		return fmt.Errorf("pinning %s to %s: %w", cmd.Path, cpus, err)
	}
	err := cmd.Start()
	if rerr := unix.SchedSetaffinity(0, &old); rerr != nil && err == nil {
		err = rerr
	}
	return err
}
