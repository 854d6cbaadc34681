package browsertest

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// No test polls a page with chromedp's own Poll: it gives up when the
// page navigates or is still being parsed, and CI failed on both (a
// redirect's page polled mid-load, an execution context lost). Poll and
// Click here wait those out; every browser test goes through them.
func TestBrowserTestsPollThroughPoll(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	here, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		if abs, _ := filepath.Abs(filepath.Dir(path)); abs == here {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		n++
		if strings.Contains(string(src), "chromedp.Poll[") {
			t.Errorf("%s polls with chromedp.Poll: use browsertest.Poll (or Click)", path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 100 {
		t.Fatalf("read %d test files under %s, want the project's (over 100)", n, root)
	}
}
