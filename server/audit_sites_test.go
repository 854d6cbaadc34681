package server_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/chesshall/hallclock/formats/words"
)

// kindName is the shape of a kind of the hall's own words in the source.
var kindName = regexp.MustCompile(`^(did|alert)\.[a-z_]+$|^refused\.(restore|hello|blind)[a-z_]*$`)

// Every audit record the hall writes says itself as a kind and its
// parameters (issue 34, item 3): a scan of the hall's source (server/ and
// storage/, tests aside) finds every AddAudit call and fails on one whose
// record is not written out in place with a Kind (or an Action, which says
// it), on a Kind of "" or "text", on a kind the catalogues lack (the English-only kind), and on any use
// of words.Text, which makes English words a message with no kind — a
// record added without a kind reads in English on a Korean page.
func TestEveryAuditSiteWritesAKind(t *testing.T) {
	t.Parallel()
	fset := token.NewFileSet()
	sites := 0
	for _, dir := range []string{".", "../storage"} {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			f, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				return err
			}
			ast.Inspect(f, func(n ast.Node) bool {
				if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
					if v, _ := strconv.Unquote(lit.Value); kindName.MatchString(v) && !words.Known(v) {
						t.Errorf("%s: kind %q has no words in the catalogues (formats/words/i18n)", fset.Position(lit.Pos()), v)
					}
				}
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				sel, ok := call.Fun.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				if id, ok := sel.X.(*ast.Ident); ok && id.Name == "words" && sel.Sel.Name == "Text" {
					t.Errorf("%s: words.Text writes English words without a kind; give them a kind and parameters", fset.Position(call.Pos()))
				}
				if sel.Sel.Name != "AddAudit" || len(call.Args) != 1 {
					return true
				}
				sites++
				checkAuditRecord(t, fset.Position(call.Pos()).String(), call.Args[0])
				return true
			})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if sites < 20 {
		t.Fatalf("found %d AddAudit calls; the scan is not reading the hall's source", sites)
	}
}

// checkAuditRecord fails unless arg is &AuditRecord{…} with a Kind that
// can be a kind, or an Action.
func checkAuditRecord(t *testing.T, at string, arg ast.Expr) {
	t.Helper()
	u, ok := arg.(*ast.UnaryExpr)
	var lit *ast.CompositeLit
	if ok {
		lit, _ = u.X.(*ast.CompositeLit)
	}
	if lit == nil {
		t.Errorf("%s: AddAudit of a record not written in place; write &AuditRecord{…, Kind: …} so its kind can be checked", at)
		return
	}
	kind, action := false, false
	for _, e := range lit.Elts {
		kv, ok := e.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		switch kv.Key.(*ast.Ident).Name {
		case "Action":
			action = true
		case "Kind":
			kind = true
			if s, ok := kv.Value.(*ast.BasicLit); ok {
				if v, _ := strconv.Unquote(s.Value); v == "" || v == "text" {
					t.Errorf("%s: audit record of kind %s, which has no words but English", at, s.Value)
				}
			}
			if s, ok := kv.Value.(*ast.SelectorExpr); ok && s.Sel.Name == "KindText" {
				t.Errorf("%s: audit record of kind KindText, which has no words but English", at)
			}
		}
	}
	if !kind && !action {
		t.Errorf("%s: audit record without a Kind (nor an Action): it reads in English only on every page", at)
	}
}
