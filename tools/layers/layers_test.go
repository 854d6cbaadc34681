package layers

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/chesshall/hallclock"

// allowed says which of the project's packages each package may import
// (outside tests), by the longest prefix that names it. A package may
// always import its own sub-packages' internal ones where Go allows it.
var allowed = []struct {
	pkg string // a package, or a folder of packages ("rules/...")
	may []string
}{
	{"rules/...", []string{"rules/internal/...", "internal/chesslib"}},
	{"rules/conformance", []string{"rules"}},
	{"proto/...", nil},
	// formats are pure codecs beside rules: the contract's conversions and the
	// embedded NATS may use them.
	{"internal/...", []string{"internal/acceptgzip", "internal/chesslib", "internal/ident", "internal/mono", "internal/wire", "internal/natsrun", "proto/...", "rules", "formats/..."}},
	{"internal/testkit/...", []string{"..."}}, // the harnesses start whatever a test needs
	{"formats/...", []string{"rules", "formats/internal/...", "internal/chesslib"}},
	// standings: tie-breaks as the FIDE regulations define them, pure, fed
	// by the hall's results or a TRF read by formats/trf.
	{"formats/standings", []string{"rules", "formats/trf", "formats/internal/..."}},
	{"storage", []string{"rules", "internal/ident"}},
	{"storage/publish", []string{"storage", "formats/hallstream", "internal/ident", "rules"}},
	{"clockdev/...", []string{"clockdev", "rules", "proto/...", "formats/...", "internal/mono", "internal/wire", "internal/chesslib"}},
	// the browser clock, JSON in and out: the device library and its WebSocket, no gRPC (cmd/clockwasm builds it to WebAssembly).
	{"clockdev/jsapi", []string{"clockdev", "clockdev/wsdial", "rules", "rules/conformance", "proto/..."}},
	{"server/hallerr", []string{"rules", "formats/words", "formats/standings", "proto/...", "server/broadcast"}},
	{"server/broadcast", []string{"rules", "formats/...", "internal/mono", "internal/acceptgzip"}},
	{"server/dashboard", []string{"internal/webassets", "internal/clockwasm"}},
	{"server/assist", []string{"internal/webassets"}},
	{"server/clockface", []string{"internal/webassets", "internal/clockwasm"}},
	{"server/httpdoor", nil},
	{"server/fanout", []string{"proto/...", "internal/mono", "internal/acceptgzip", "server/hallerr"}},
	{"server/auth", []string{"storage", "proto/...", "internal/ident", "internal/i18n", "server/hallerr"}},
	{"server/hall", []string{"storage", "rules", "formats/...", "proto/...", "internal/mono", "internal/wire", "internal/wirewords", "internal/hallref",
		"server/auth", "server/broadcast", "server/hallerr"}},
	{"server/devlink", []string{"proto/...", "internal/mono", "server/hall", "server/auth", "server/fanout", "server/hallerr"}},
	{"server/link", []string{"proto/...", "internal/mono", "internal/schedlat", "server/devlink", "server/auth"}},
	{"server/wslink", []string{"proto/...", "server/devlink", "server/auth", "server/hallerr"}},
	// a tablet's enrolment as a clock: its one-time links and its page.
	{"server/enrol", []string{"storage", "internal/ident", "internal/i18n", "server/hall", "server/auth", "server/hallerr"}},
	{"server/arbiter", []string{"storage", "rules", "formats/...", "proto/...", "internal/mono", "internal/wire", "internal/wirewords", "internal/qr",
		"server/hall", "server/auth", "server/fanout", "server/broadcast", "server/hallerr", "server/enrol"}},
	{"server/gateway", []string{"rules", "formats/...", "proto/...", "internal/mono", "internal/wire", "internal/ident",
		"server/fanout", "server/broadcast", "server/hallerr", "server/httpdoor", "internal/i18n"}},
	{"server", []string{"storage", "rules", "formats/...", "proto/...", "internal/mono", "internal/wire", "internal/wirewords",
		"server/hall", "server/devlink", "server/link", "server/wslink", "server/arbiter", "server/auth", "server/fanout", "server/broadcast", "server/dashboard", "server/assist", "server/clockface", "server/hallerr",
		"server/httpdoor", "server/enrol", "internal/i18n"}},
	{"cmd/...", []string{"..."}},
	{"tools/...", []string{"..."}},
}

type pkg struct {
	ImportPath string
	Dir        string
	GoFiles    []string
	Imports    []string
	Deps       []string
}

func list(t *testing.T, args ...string) []pkg {
	t.Helper()
	out, err := exec.Command("go", append([]string{"list", "-json"}, args...)...).Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var ps []pkg
	for dec := json.NewDecoder(bytes.NewReader(out)); ; {
		var p pkg
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
		// go test caches a result by the files the test itself opened: go
		// list's reads are not among them, so a change of imports would
		// pass from the cache. Stat the sources so that it cannot.
		for _, f := range p.GoFiles {
			if _, err := os.Stat(filepath.Join(p.Dir, f)); err != nil {
				t.Fatal(err)
			}
		}
	}
	return ps
}

// matches reports whether the project's package rel is pattern, or under
// it for a pattern ending in "/..." ("..." alone: anything).
func matches(pattern, rel string) bool {
	if pattern == "..." {
		return true
	}
	if dir, ok := strings.CutSuffix(pattern, "/..."); ok {
		return rel == dir || strings.HasPrefix(rel, dir+"/")
	}
	return rel == pattern
}

// rule returns the table's entry for rel: the most specific pattern.
func rule(rel string) ([]string, bool) {
	best, bestLen, found := []string(nil), -1, false
	for _, a := range allowed {
		if matches(a.pkg, rel) && len(a.pkg) > bestLen {
			best, bestLen, found = a.may, len(a.pkg), true
		}
	}
	return best, found
}

// Every package's imports of the project point down, as the table says;
// none under server/ imports the server, and no production code imports a
// test harness.
func TestImportsPointDown(t *testing.T) {
	for _, p := range list(t, module+"/...") {
		rel, ok := strings.CutPrefix(p.ImportPath, module+"/")
		if !ok {
			continue
		}
		may, known := rule(rel)
		if !known {
			t.Errorf("%s: no rule in the table; add the folder with what it may import", rel)
			continue
		}
		for _, imp := range p.Imports {
			irel, ok := strings.CutPrefix(imp, module+"/")
			if !ok {
				continue
			}
			if strings.HasPrefix(irel, "internal/testkit") && !strings.HasPrefix(rel, "internal/testkit") {
				t.Errorf("%s imports the test harness %s outside its tests", rel, irel)
			}
			if strings.HasPrefix(rel, "server/") && irel == "server" {
				t.Errorf("%s imports its parent, the server", rel)
			}
			if strings.HasPrefix(irel, rel+"/internal/") || slices.ContainsFunc(may, func(m string) bool { return matches(m, irel) }) {
				continue
			}
			t.Errorf("%s imports %s: not below it (it may import %v)", rel, irel, may)
		}
	}
}

// The gateway is a stateless follower: its command links neither SQLite
// (cgo) nor the hall's own packages.
func TestGatewayLinksNeitherSQLiteNorTheHall(t *testing.T) {
	forbidden := []string{"github.com/mattn/go-sqlite3", module + "/storage", module + "/server",
		module + "/server/hall", module + "/server/link", module + "/server/arbiter", module + "/server/auth"}
	for _, p := range list(t, "-deps", module+"/cmd/hallgateway") {
		if slices.Contains(forbidden, p.ImportPath) {
			t.Errorf("cmd/hallgateway links %s", p.ImportPath)
		}
	}
}
