package layers

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// A browser's clock is the device library compiled to WebAssembly with
// the WebSocket transport: it must link no gRPC (20 MB of WebAssembly
// where the library with protobuf is 7). The gRPC stubs and the gRPC
// transport are left out of js builds (tools/protogen/gen.sh,
// clockdev/grpc.go). In the browser the WebSocket transport drives the
// page's own WebSocket (clockdev/wsdial/browser.go): the artifact links
// neither github.com/coder/websocket nor net/http, whose js build alone
// took the device library past its 3 MB budget.
func TestBrowserClockLinksNoGRPC(t *testing.T) {
	for _, pkg := range []string{"cmd/clockwasm", "clockdev", "clockdev/wsdial"} {
		cmd := exec.Command("go", "list", "-deps", module+"/"+pkg)
		cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("GOOS=js GOARCH=wasm go list -deps %s: %v", pkg, err)
		}
		deps := strings.Fields(string(out))
		for _, d := range deps {
			if strings.HasPrefix(d, "google.golang.org/grpc") || d == "net/http" || d == "github.com/coder/websocket" {
				t.Errorf("GOOS=js GOARCH=wasm: %s links %s", pkg, d)
			}
		}
		if pkg == "cmd/clockwasm" && !contains(deps, module+"/clockdev") {
			t.Errorf("GOOS=js GOARCH=wasm: %s does not link the device library: %v", pkg, deps)
		}
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
