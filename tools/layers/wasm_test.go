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
// clockdev/grpc.go). The committed artifact (cmd/clockwasm) links not
// even the protocol's messages yet: the law alone.
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
			if strings.HasPrefix(d, "google.golang.org/grpc") ||
				(pkg == "cmd/clockwasm" && d == module+"/proto/hall/v1") {
				t.Errorf("GOOS=js GOARCH=wasm: %s links %s", pkg, d)
			}
		}
		if pkg == "clockdev/wsdial" && !contains(deps, "github.com/coder/websocket") {
			t.Errorf("GOOS=js GOARCH=wasm: %s does not link the WebSocket library: %v", pkg, deps)
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
