package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/chesshall/hallclock/internal/rtstats"
)

// server is a server process under test: the real hallserver, or this
// program re-run as the echo server. Each runs in a process of its own, so
// that its CPU and resident memory are its own (the load generator shares
// the cores, not the figures).
type server struct {
	name   string
	cmd    *exec.Cmd
	grpc   string // host:port
	http   string // base URL of the HTTP port ("" for echo)
	debug  string // base URL of the profiler, .../debug/pprof/
	chief  string // chief-arbiter token (hall)
	dir    string // data directory (hall)
	out    *syncBuf
	exited chan struct{}
	err    error
}

type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuf) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuf) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

var (
	grpcRE  = regexp.MustCompile(`gRPC +(\S+)`)
	httpRE  = regexp.MustCompile(`HTTP +(\S+)/healthz`)
	debugRE = regexp.MustCompile(`debug +(\S+/debug/pprof/)`)
	chiefRE = regexp.MustCompile(`chief-arbiter token.*?(hc_[A-Za-z0-9_-]+)`)
)

// buildHallserver builds cmd/hallserver into dir (the module must be the
// working directory, as with go run ./tools/bench).
func buildHallserver(dir string) (string, error) {
	bin := filepath.Join(dir, "hallserver")
	out, err := exec.Command("go", "build", "-o", bin, "github.com/chesshall/hallclock/cmd/hallserver").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("building hallserver (run from the module, or pass -hallserver): %v\n%s", err, out)
	}
	return bin, nil
}

// startHall starts hallserver on the data directory dir and waits until it
// serves; it returns how long that took.
func startHall(bin, dir string, cpus cpuSet, logTo io.Writer, extra ...string) (*server, time.Duration, error) {
	cmd := exec.Command(bin, append([]string{"-data-dir", dir, "-grpc-addr", "127.0.0.1:0", "-http-addr", "127.0.0.1:0",
		"-debug-addr", "127.0.0.1:0", "-shutdown-grace", "2s"}, extra...)...)
	s := &server{name: "hall", cmd: cmd, dir: dir, out: &syncBuf{}, exited: make(chan struct{})}
	cmd.Stdout = s.out
	cmd.Stderr = logTo
	t0 := time.Now()
	if err := startPinned(cmd, cpus); err != nil {
		return nil, 0, err
	}
	go func() { s.err = cmd.Wait(); close(s.exited) }()
	// The banner is written in one piece once the hall is loaded, just
	// before it serves; then /healthz answers.
	for {
		select {
		case <-s.exited:
			return nil, 0, fmt.Errorf("hallserver exited before serving: %v\n%s", s.err, s.out)
		default:
		}
		out := s.out.String()
		if m := httpRE.FindStringSubmatch(out); m != nil {
			if resp, err := http.Get(m[1] + "/healthz"); err == nil {
				resp.Body.Close()
				if resp.StatusCode == http.StatusOK {
					s.http = m[1]
					break
				}
			}
		}
		if time.Since(t0) > 10*time.Minute {
			s.kill()
			return nil, 0, fmt.Errorf("hallserver not serving after 10 minutes")
		}
		time.Sleep(5 * time.Millisecond)
	}
	took := time.Since(t0)
	out := s.out.String()
	s.grpc = grpcRE.FindStringSubmatch(out)[1]
	if m := debugRE.FindStringSubmatch(out); m != nil {
		s.debug = m[1]
	}
	if m := chiefRE.FindStringSubmatch(out); m != nil {
		s.chief = m[1]
	}
	return s, took, nil
}

// startEcho runs this program again as the echo server (name "echo"),
// or the durable echo ("durable") appending to a file in dir.
func startEcho(name, dir string, heartbeat time.Duration, cpus cpuSet) (*server, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	args := []string{"-serve-echo", "-echo-heartbeat", heartbeat.String()}
	if name == "durable" {
		args = append(args, "-echo-durable", filepath.Join(dir, "durable-echo.log"))
	}
	cmd := exec.Command(self, args...)
	s := &server{name: name, cmd: cmd, out: &syncBuf{}, exited: make(chan struct{})}
	pr, pw := io.Pipe()
	cmd.Stdout = pw
	cmd.Stderr = os.Stderr
	if err := startPinned(cmd, cpus); err != nil {
		return nil, err
	}
	go func() { s.err = cmd.Wait(); pw.Close(); close(s.exited) }()
	sc := bufio.NewScanner(pr)
	for sc.Scan() {
		line := sc.Text()
		s.out.Write([]byte(line + "\n"))
		if m := grpcRE.FindStringSubmatch(line); m != nil {
			s.grpc = m[1]
		}
		if m := debugRE.FindStringSubmatch(line); m != nil {
			s.debug = m[1]
		}
		if s.grpc != "" && s.debug != "" {
			break
		}
	}
	go io.Copy(io.Discard, pr)
	if s.grpc == "" {
		s.kill()
		return nil, fmt.Errorf("echo server printed no address: %s", s.out)
	}
	return s, nil
}

// stop ends the server: SIGTERM, then SIGKILL after a grace.
func (s *server) stop() {
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.exited:
	case <-time.After(10 * time.Second):
		s.kill()
	}
}

func (s *server) kill() {
	_ = s.cmd.Process.Kill()
	<-s.exited
}

// rss returns the resident memory of the process (bytes).
func (s *server) rss() int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmRSS:" {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			return kb << 10
		}
	}
	return 0
}

// cpu returns the CPU time the process has used (user + system).
func (s *server) cpu() time.Duration { return procCPU(s.cmd.Process.Pid) }

// procCPU reads a process's CPU time from /proc (0 if unknown).
func procCPU(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// The command name may hold spaces: fields start after the last ')'.
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	if len(f) < 13 {
		return 0
	}
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(utime+stime) * time.Second / 100 // USER_HZ
}

// goroutines returns the server's goroutine count from its profiler.
func (s *server) goroutines() int {
	if s.debug == "" {
		return 0
	}
	resp, err := http.Get(s.debug + "goroutine?debug=1")
	if err != nil {
		return 0
	}
	defer resp.Body.Close()
	line, _ := bufio.NewReader(resp.Body).ReadString('\n')
	n, _ := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(line, "goroutine profile: total ")))
	return n
}

// debugGet asks the server's profiler for path and returns the answer's
// body, or what the profiler said if it refused.
func (s *server) debugGet(ctx context.Context, path string) (io.ReadCloser, error) {
	if s.debug == "" {
		return nil, fmt.Errorf("%s has no profiler", s.name)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.debug+path, nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return nil, fmt.Errorf("%s: %s: %s: %s", s.name, path, resp.Status, b)
	}
	return resp.Body, nil
}

// collectNow has the server collect now, through its profiler (a heap
// profile asked for with gc=1 collects first), and waits for it.
func (s *server) collectNow(ctx context.Context) error {
	body, err := s.debugGet(ctx, "heap?gc=1")
	if err != nil {
		return err
	}
	defer body.Close()
	_, err = io.Copy(io.Discard, body)
	return err
}

// profile saves the server's profile of kind (profile = CPU, block, mutex)
// over d (heap: as of now, d 0) into dir, its name ending in label if not
// empty; it returns the file name.
func (s *server) profile(ctx context.Context, dir, kind, label string, d time.Duration) (string, error) {
	path := kind
	switch {
	case d > 0:
		path += fmt.Sprintf("?seconds=%d", int(d.Seconds()))
	case kind == "heap":
		// As of a collection now: a heap profile is otherwise as of
		// the last one, and two taken without one between are equal.
		path += "?gc=1"
	}
	body, err := s.debugGet(ctx, path)
	if err != nil {
		return "", err
	}
	defer body.Close()
	if label != "" {
		label = "-" + label
	}
	ext := ".pb.gz"
	if kind == "trace" {
		ext = ".trace"
	}
	name := filepath.Join(dir, fmt.Sprintf("%s-%s%s%s", s.name, kind, label, ext))
	f, err := os.Create(name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	if _, err := io.Copy(f, body); err != nil {
		return "", err
	}
	return name, nil
}

// runtime reads the server's runtime pauses so far from its debug
// listener (/debug/runtime: internal/rtstats); ok false if it has none.
func (s *server) runtime() (rtstats.Snapshot, bool) {
	var snap rtstats.Snapshot
	if s.debug == "" {
		return snap, false
	}
	resp, err := http.Get(strings.TrimSuffix(s.debug, "pprof/") + "runtime")
	if err != nil {
		return snap, false
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK || json.NewDecoder(resp.Body).Decode(&snap) != nil {
		return snap, false
	}
	return snap, true
}

// metric reads one unlabelled value from the hall's /metrics (0 if absent).
func (s *server) metric(name string) float64 {
	if s.http == "" {
		return 0
	}
	resp, err := http.Get(s.http + "/metrics")
	if err != nil {
		return 0
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		if f := strings.Fields(sc.Text()); len(f) == 2 && f[0] == name {
			v, _ := strconv.ParseFloat(f[1], 64)
			return v
		}
	}
	return 0
}
