//go:build !linux

package main

import (
	"errors"
	"os/exec"
)

var errNoPinning = errors.New("pinning to CPUs needs Linux: pass -server-cpus none -load-cpus none")

func pinSelf(cpus cpuSet) error {
	if len(cpus) == 0 {
		return nil
	}
	return errNoPinning
}

func startPinned(cmd *exec.Cmd, cpus cpuSet) error {
	if len(cpus) == 0 {
		return cmd.Start()
	}
	return errNoPinning
}
