package main

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
)

// Pinning. On a 2-core machine the hall and its load generator fight for
// the same cores unless they are kept apart: the server under test (the
// hall, then the echo server, each alone) runs on -server-cpus and the
// bench's clocks and watchers on -load-cpus, so that a server's latency is
// its own and its CPU is measured where nothing else runs.

// cpuSet is a list of CPU numbers; empty means not pinned.
type cpuSet []int

// parseCPUs reads a list as taskset writes one: "1", "0-3", "0,2-3";
// "" or "none" is no pinning.
func parseCPUs(s string) (cpuSet, error) {
	s = strings.TrimSpace(s)
	if s == "" || s == "none" {
		return nil, nil
	}
	var out cpuSet
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(strings.TrimSpace(part), "-")
		a, err := strconv.Atoi(lo)
		if err != nil || a < 0 {
			return nil, fmt.Errorf("%q is not a CPU list (as 1, 0-3 or 0,2)", s)
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil || b < a {
				return nil, fmt.Errorf("%q is not a CPU list (as 1, 0-3 or 0,2)", s)
			}
		}
		for c := a; c <= b; c++ {
			out = append(out, c)
		}
	}
	return out, nil
}

func (s cpuSet) String() string {
	if len(s) == 0 {
		return "any CPU"
	}
	parts := make([]string, len(s))
	for i, c := range s {
		parts[i] = strconv.Itoa(c)
	}
	if len(s) == 1 {
		return "CPU " + parts[0]
	}
	return "CPUs " + strings.Join(parts, ",")
}

// defaultPinning splits the machine's CPUs: the load on the lower half,
// the servers on the upper (on 2 cores: the load on CPU 0, the server on
// CPU 1). One CPU: no pinning.
func defaultPinning() (server, load string) {
	n := runtime.NumCPU()
	if n < 2 {
		return "none", "none"
	}
	return fmt.Sprintf("%d-%d", n/2, n-1), fmt.Sprintf("0-%d", n/2-1)
}

// allowedCPUs is a process's CPU list as the kernel has it ("?" if unknown).
func allowedCPUs(pid int) string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return "?"
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "Cpus_allowed_list:"); ok {
			return strings.TrimSpace(v)
		}
	}
	return "?"
}
