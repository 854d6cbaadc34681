package layers

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// mapRow is one row of the README's folder map: a folder and what its
// "may import" cell names.
type mapRow struct {
	folder string // "rules", "server/hall" (no trailing slash)
	open   bool   // the cell says everything, anything or what they need
	sub    bool   // the cell allows the folder's own sub-packages
	may    []string
	as     []string // folders whose allowance the cell includes ("what `clockdev` may")
}

var backticked = regexp.MustCompile("`([^`]+)`")

// readmeMap reads the folder map of the README at path: the table whose
// header is "| folder | what lives there | may import |".
func readmeMap(t *testing.T, path string) []mapRow {
	t.Helper()
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var rows []mapRow
	in := false
	for line := range strings.SplitSeq(string(text), "\n") {
		if strings.HasPrefix(line, "| folder | what lives there | may import |") {
			in = true
			continue
		}
		if !in || strings.HasPrefix(line, "|---") {
			continue
		}
		if !strings.HasPrefix(line, "|") {
			break
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if len(cells) != 3 {
			t.Fatalf("the README's folder map: %q has %d cells, want 3", line, len(cells))
		}
		f := backticked.FindStringSubmatch(cells[0])
		if f == nil {
			t.Fatalf("the README's folder map: %q names no folder", line)
		}
		r := mapRow{folder: strings.TrimSuffix(f[1], "/")}
		cell, _, _ := strings.Cut(cells[2], "never") // what follows "never" is forbidden, not allowed
		r.open = strings.Contains(cell, "everything") || strings.Contains(cell, "anything") || strings.Contains(cell, "what they need")
		r.sub = strings.Contains(cell, "its subpackages")
		for _, m := range backticked.FindAllStringSubmatchIndex(cell, -1) {
			name, after, before := cell[m[2]:m[3]], cell[m[1]:], cell[:m[0]]
			if strings.HasPrefix(after, " and what it may") || strings.HasSuffix(before, "what ") && strings.HasPrefix(after, " may") {
				r.as = append(r.as, name)
			}
			r.may = append(r.may, strings.TrimSuffix(name, "/"))
		}
		rows = append(rows, r)
	}
	if len(rows) == 0 {
		t.Fatalf("%s has no folder map", path)
	}
	return rows
}

// rowFor returns the most specific row whose folder is rel or holds it.
func rowFor(rows []mapRow, rel string) (mapRow, bool) {
	best, found := mapRow{}, false
	for _, r := range rows {
		if matches(r.folder+"/...", rel) && len(r.folder) >= len(best.folder) {
			best, found = r, true
		}
	}
	return best, found
}

// allows reports whether row r lets its folder's package rel import irel:
// a folder it names (or one under it), its own sub-packages where the row
// says so, what a folder it defers to may, or (Go's own rule, which the
// map leaves unsaid) an internal package of a folder that holds rel.
func allows(rows []mapRow, r mapRow, rel, irel string, depth int) bool {
	root, _, private := strings.Cut(irel, "/internal/")
	switch {
	case r.open, private && matches(root+"/...", rel), r.sub && strings.HasPrefix(irel, r.folder+"/"):
		return true
	case slices.ContainsFunc(r.may, func(m string) bool { return matches(m+"/...", irel) }):
		return true
	}
	for _, f := range r.as {
		if o, ok := rowFor(rows, f); ok && depth < 3 && allows(rows, o, rel, irel, depth+1) {
			return true
		}
	}
	return false
}

// The README's folder map is what a newcomer reads of the layers: every
// arrow that exists between the project's packages is in it, so that the
// table cannot say less than the code does (STYLE: "a README table that
// the layers test does not hold"). The table in layers_test.go says what
// may be; this one what a reader is told.
func TestReadmeFolderMapHoldsTheArrows(t *testing.T) {
	rows := readmeMap(t, "../../README.md")
	for _, p := range list(t, module+"/...") {
		rel, ok := strings.CutPrefix(p.ImportPath, module+"/")
		if !ok {
			continue
		}
		r, ok := rowFor(rows, rel)
		if !ok {
			t.Errorf("%s: no row of the README's folder map holds it", rel)
			continue
		}
		for _, imp := range p.Imports {
			irel, ok := strings.CutPrefix(imp, module+"/")
			if ok && !allows(rows, r, rel, irel, 0) {
				t.Errorf("%s imports %s: the README's row for %s/ does not say it may", rel, irel, r.folder)
			}
		}
	}
}

// The reader of the map is tested on a table of its own: a cell's
// "never" part forbids, "what `x` may" defers, "its subpackages" opens
// the folder below.
func TestReadmeMapReader(t *testing.T) {
	path := t.TempDir() + "/README.md"
	table := "| folder | what lives there | may import |\n|---|---|---|\n" +
		"| `a/` | a | `b`, `c/d`; never `e` |\n" +
		"| `a/x` | a's x | what `a` may, `f` |\n" +
		"| `g/` | g | its subpackages |\n" +
		"| `h/` | h | everything |\n\nafter\n"
	if err := os.WriteFile(path, []byte(table), 0o644); err != nil {
		t.Fatal(err)
	}
	rows := readmeMap(t, path)
	for _, c := range []struct {
		rel, irel string
		want      bool
	}{
		{"a", "b", true}, {"a/y", "b/z", true}, {"a", "c/d/q", true}, {"a", "c", false}, {"a", "e", false},
		{"a/x", "b", true}, {"a/x", "f", true}, {"a", "f", false}, {"a", "a/internal/q", true}, {"a/y", "a/internal/q", true}, {"b", "a/internal/q", false},
		{"g", "g/k", true}, {"g", "b", false}, {"h/m", "anything", true},
	} {
		r, ok := rowFor(rows, c.rel)
		if got := ok && allows(rows, r, c.rel, c.irel, 0); got != c.want {
			t.Errorf("%s → %s: allowed %v, want %v (row %+v)", c.rel, c.irel, got, c.want, r)
		}
	}
}
