package faults

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/chesshall/hallclock/internal/testkit/halltest"
)

// serverBin is the hallserver binary the suite runs, built once.
var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

// need skips the test unless the fault suite was asked for.
func need(t *testing.T) {
	t.Helper()
	if os.Getenv("HALL_FAULTS") != "1" {
		t.Skip("the fault suite runs with HALL_FAULTS=1 (.ci/run sets it)")
	}
}

func hallserver(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		if p := os.Getenv("HALL_SERVER_BIN"); p != "" {
			binPath = p
			return
		}
		dir, err := os.MkdirTemp("", "faults-bin-")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "hallserver")
		out, err := exec.Command("go", "build", "-o", binPath, "github.com/chesshall/hallclock/cmd/hallserver").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build hallserver: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

// proc is a hallserver process.
type proc struct {
	cmd    *exec.Cmd
	out    *halltest.SyncBuffer // stdout and stderr
	chief  string               // printed on first start
	exited chan struct{}
	err    error
}

var chiefRE = regexp.MustCompile(`chief-arbiter token.*?(hc_[A-Za-z0-9_-]+)`)

// hall is where a hallserver runs: its data directory and addresses,
// kept across restarts.
type hall struct {
	t          *testing.T
	bin, dir   string
	grpc, http string
	speed      float64
}

func newHall(t *testing.T, dir string, speed float64) *hall {
	return &hall{t: t, bin: hallserver(t), dir: dir, grpc: halltest.FreeAddr(t), http: halltest.FreeAddr(t), speed: speed}
}

// launch starts a process and returns at once.
func (h *hall) launch() *proc {
	h.t.Helper()
	cmd := exec.Command(h.bin, "-data-dir", h.dir, "-grpc-addr", h.grpc, "-http-addr", h.http,
		"-speed", fmt.Sprint(h.speed), "-log-level", "warn", "-shutdown-grace", "2s")
	p := &proc{cmd: cmd, out: &halltest.SyncBuffer{}, exited: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = p.out, p.out
	if err := cmd.Start(); err != nil {
		h.t.Fatal(err)
	}
	go func() { p.err = cmd.Wait(); close(p.exited) }()
	h.t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-p.exited
	})
	return p
}

// start starts the server and waits until it serves.
func (h *hall) start() *proc {
	h.t.Helper()
	p := h.launch()
	deadline := time.Now().Add(30 * time.Second)
	for {
		select {
		case <-p.exited:
			h.t.Fatalf("hallserver exited before serving: %v\n%s", p.err, p.out)
		default:
		}
		// The banner (with the chief token on a first start) is written
		// in one piece before serving; its copy from the pipe may lag.
		if resp, err := http.Get("http://" + h.http + "/healthz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 && strings.Contains(p.out.String(), "hall server:") {
				break
			}
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("hallserver not serving after 30 s\n%s", p.out)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if m := chiefRE.FindStringSubmatch(p.out.String()); m != nil {
		p.chief = m[1]
	}
	return p
}

// kill ends the process with SIGKILL: no shutdown, no flush.
func (p *proc) kill() {
	_ = p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.exited
}

// stop asks the process to shut down cleanly.
func (p *proc) stop(t *testing.T) {
	t.Helper()
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.exited:
	case <-time.After(20 * time.Second):
		t.Fatalf("hallserver still running 20 s after SIGTERM\n%s", p.out)
	}
}

// wait waits for the process to exit by itself and returns its output.
func (p *proc) wait(t *testing.T, limit time.Duration) (string, error) {
	t.Helper()
	select {
	case <-p.exited:
		return p.out.String(), p.err
	case <-time.After(limit):
		t.Fatalf("hallserver still running after %v, want it to exit\n%s", limit, p.out)
	}
	return "", nil
}

// ready reports the hall's /readyz.
func (h *hall) ready() (int, string) {
	resp, err := http.Get("http://" + h.http + "/readyz")
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Scan()
	return resp.StatusCode, strings.TrimSpace(sc.Text())
}

// figures prints a line of the suite's figures (always, not only with -v).
func figures(format string, args ...any) {
	fmt.Printf("fault suite: "+format+"\n", args...)
}

func ctxFor(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}
