package errclass_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/symbo/symbo/internal/errclass"
)

const errclassPath = "github.com/symbo/symbo/internal/errclass"

// notErrclass are the package-level sentinels deliberately made without
// errclass.New, keyed "dir.Name" (dir relative to the module root). Each
// is Internal to Of.
var notErrclass = map[string]string{
	"linalg/internal/eigsym.errNoConvergence": "eigsym imports only the standard library and internal/f64 (it could move to gonum); " +
		"an implicit QL that does not converge is linalg's failure, never observed, not the input's",
	"cmd/perf.errHelp": "not a failure: finish returns exit status 0 for it before any class is read",
	"internal/atomicfile.errWouldBlock": "never returned: it stands for flock's EWOULDBLOCK where a platform has no flock(2) " +
		"and nothing is locked; LockDir turns EWOULDBLOCK into its own classified error",
}

// aliases are the package-level sentinels that re-export another
// package's (the same value, so the same class), keyed like notErrclass.
var aliases = map[string]string{
	"orbit.ErrOverBudget": "internal/budget.ErrOverBudget",
}

// internalOnPurpose are the sentinels declared errclass.Internal, each
// with the reason it is not the input's fault. An Internal sentinel not
// listed here fails the test: Internal is what a user sees as a bug in
// symbo, so declaring one is a decision, not a default.
var internalOnPurpose = map[string]string{
	"linalg.ErrNotPositiveDefinite": "a covariance the library built itself that stays non-positive-definite after the GP's jitter " +
		"is a numerical failure (a fit start that meets one counts it as −∞ likelihood)",
	"gp.ErrNoDerivative":      "a marker Fit catches (it falls back to a derivative-free search); only a caller's own Family returns it",
	"lab/experiments.errSkip": "a marker the profile and complexity runners catch: the row is skipped with its message as the note",
	"bo.errArmSkipped":        "a marker the auto and portfolio fit loop catches: the candidate sits out the step (NaN evidence); never returned",
	"gp.errPlusPanicked":      "every prediction of a GP after building its plus posterior panicked: a bug in symbo or a caller's kernel, never the input's",
	"internal/atomicfile.ErrDirSync": "the file system failed to flush a directory (an I/O error, as the os error it wraps, which has no class): " +
		"nothing the input can change",
}

// TestSentinelsClassified parses every non-test Go file of the module and
// checks each package-level sentinel — a variable named Err… (exported),
// or any made with errors.New — is made with errclass.New and a class
// constant (errclass.Input, Size or Internal), unless notErrclass lists it
// with its reason; Internal ones must be in internalOnPurpose. A sentinel
// added with errors.New, or without a class, fails here, so no error can
// become SYMBO_EINTERNAL (exit status 1) by being forgotten. Run with -v
// for the table of sentinels and classes.
func TestSentinelsClassified(t *testing.T) {
	root := filepath.Join("..", "..")
	if mod, err := os.ReadFile(filepath.Join(root, "go.mod")); err != nil || !strings.HasPrefix(string(mod), "module github.com/symbo/symbo\n") {
		t.Fatalf("the module root is not %s: %v", root, err)
	}
	found, bad, err := scan(root)
	if err != nil {
		t.Fatal(err)
	}
	allowed := map[string]bool{}
	for _, b := range bad {
		if src, ok := aliases[b.key]; ok && !b.classified {
			if c, ok := found[src]; ok {
				found[b.key] = c
				allowed[b.key] = true
				continue
			}
		}
		if _, ok := notErrclass[b.key]; ok && !b.classified {
			allowed[b.key] = true
			continue
		}
		if b.classified {
			t.Errorf("%s: %s is made with errclass.New but listed in notErrclass", b.pos, b.key)
			continue
		}
		t.Errorf("%s: %s is not made with errclass.New(errclass.Input|Size|Internal, \"…\"): declare its class (internal/errclass's doc says which)", b.pos, b.key)
	}
	for key := range aliases {
		if !allowed[key] {
			t.Errorf("aliases lists %s, which the sources no longer declare as an alias", key)
		}
	}
	for key := range notErrclass {
		if !allowed[key] {
			t.Errorf("notErrclass lists %s, which the sources no longer declare", key)
		}
	}
	for key, c := range found {
		if _, listed := internalOnPurpose[key]; (c == errclass.Internal) != listed {
			t.Errorf("%s is %v: Internal sentinels, and only they, are listed in internalOnPurpose with a reason", key, c)
		}
	}
	for key := range internalOnPurpose {
		if _, ok := found[key]; !ok {
			t.Errorf("internalOnPurpose lists %s, which the sources no longer declare", key)
		}
	}
	// The walk sees the sources: some sentinels every front end meets.
	for key, want := range map[string]errclass.Class{
		"orbit.ErrInvalid": errclass.Input, "orbit.ErrOverBudget": errclass.Size, "bo.ErrHistory": errclass.Input,
		"bo/problem.ErrOutOfBounds": errclass.Input, "internal/frontend.ErrInvalid": errclass.Input,
		"linalg.ErrNotFinite": errclass.Input, "capi.errSize": errclass.Size,
	} {
		if got, ok := found[key]; !ok || got != want {
			t.Errorf("%s: class %v (found %t), want %v", key, got, ok, want)
		}
	}
	if len(found) < 35 {
		t.Errorf("found %d sentinels: the walk misses sources", len(found))
	}

	for _, k := range slices.Sorted(maps.Keys(found)) {
		t.Logf("%-8v %s", found[k], k)
	}
}

// TestScan: scan, on a tree of its own, refuses every way of declaring a
// sentinel without a class and skips tests and testdata.
func TestScan(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"pkg/a.go": `package a

import (
	"errors"
	"fmt"

	ec "github.com/symbo/symbo/internal/errclass"
)

var (
	ErrPlain   = errors.New("a: plain")
	ErrFmt     = fmt.Errorf("a: %d", 1)
	errLower   = errors.New("a: lower")
	ErrGood    = ec.New(ec.Input, "a: good")
	ErrVar     = ec.New(cls, "a: var")
	ErrOther   = ec.New(ec.Huge, "a: other")
	ErrNone    error
	Errata     = 3
	notAnError = 4
	errLocal   = func() error { return errors.New("not package level") }
)

var cls = ec.Size
`,
		"pkg/a_test.go":     "package a\n\nimport \"errors\"\n\nvar ErrTest = errors.New(\"test\")\n",
		"pkg/testdata/b.go": "package b\n\nimport \"errors\"\n\nvar ErrData = errors.New(\"data\")\n",
		"pkg/sub/c.go":      "package c\n\nimport (\n\t\"errors\"\n\t\"github.com/symbo/symbo/internal/errclass\"\n)\n\nvar ErrSize = errclass.New(errclass.Size, \"c\")\nvar errE = errors.New(\"c\")\n",
		"cmd/perf/main.go":  "package main\n\nimport \"errors\"\n\nvar errHelp = errors.New(\"help requested\")\n",
		".hidden/d.go":      "package d\n\nimport \"errors\"\n\nvar ErrHidden = errors.New(\"d\")\n",
	}
	for name, src := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	found, bad, err := scan(root)
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]errclass.Class{"pkg.ErrGood": errclass.Input, "pkg/sub.ErrSize": errclass.Size}; !maps.Equal(found, want) {
		t.Errorf("found %v, want %v", found, want)
	}
	var keys []string
	for _, b := range bad {
		keys = append(keys, b.key)
	}
	slices.Sort(keys)
	want := []string{"cmd/perf.errHelp", "pkg.ErrFmt", "pkg.ErrNone", "pkg.ErrOther", "pkg.ErrPlain", "pkg.ErrVar", "pkg.errLower", "pkg/sub.errE"}
	if !slices.Equal(keys, want) {
		t.Errorf("refused %v, want %v", keys, want)
	}
}

// problem is a package-level sentinel scan refuses: not made with
// errclass.New and a class constant, or (classified) listed anyway.
type problem struct {
	key, pos   string
	classified bool
}

// scan parses every non-test Go file under root (skipping testdata and
// directories starting with . or _) and returns the class of each
// package-level sentinel made with errclass.New(errclass.C, …), keyed
// "dir.Name", and the sentinels — a variable named Err…, or made with
// errors.New — that are not, or that notErrclass lists.
func scan(root string) (map[string]errclass.Class, []problem, error) {
	found := map[string]errclass.Class{}
	var bad []problem
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, filepath.Dir(path))
		if err != nil {
			return err
		}
		errorsName, className := importName(f, "errors"), importName(f, errclassPath)
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, id := range vs.Names {
					var val ast.Expr
					if len(vs.Values) == len(vs.Names) {
						val = vs.Values[i]
					}
					_, isNew := isCall(val, errorsName, "New")
					args, isClass := isCall(val, className, "New")
					if !isNew && !isClass && !isErrName(id.Name) {
						continue
					}
					key := filepath.ToSlash(rel) + "." + id.Name
					c, ok := classArg(args, className)
					_, listed := notErrclass[key]
					if isClass && ok && !listed {
						found[key] = c
						continue
					}
					bad = append(bad, problem{key: key, pos: fset.Position(id.Pos()).String(), classified: isClass && ok})
				}
			}
		}
		return nil
	})
	return found, bad, err
}

// isErrName reports a name of the form Err… (ErrX, not Error or Errata).
func isErrName(name string) bool {
	r := strings.TrimPrefix(name, "Err")
	return r != name && r != "" && unicode.IsUpper([]rune(r)[0])
}

// importName returns the name under which f imports path ("" if it does
// not, or imports it as _ or .).
func importName(f *ast.File, path string) string {
	for _, im := range f.Imports {
		if p, _ := strconv.Unquote(im.Path.Value); p != path {
			continue
		}
		if im.Name != nil {
			if im.Name.Name == "_" || im.Name.Name == "." {
				return ""
			}
			return im.Name.Name
		}
		return path[strings.LastIndex(path, "/")+1:]
	}
	return ""
}

// isCall reports whether e is a call pkg.fn(…), and returns its arguments.
func isCall(e ast.Expr, pkg, fn string) ([]ast.Expr, bool) {
	call, ok := e.(*ast.CallExpr)
	if !ok || pkg == "" {
		return nil, false
	}
	return call.Args, isSelector(call.Fun, pkg, fn)
}

func isSelector(e ast.Expr, pkg, name string) bool {
	sel, ok := e.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != name {
		return false
	}
	id, ok := sel.X.(*ast.Ident)
	return ok && id.Name == pkg
}

// classArg returns the class errclass.New's arguments name: two arguments,
// the first a class constant of errclass's.
func classArg(args []ast.Expr, pkg string) (errclass.Class, bool) {
	if len(args) != 2 {
		return 0, false
	}
	for _, c := range errclass.Classes() {
		name := strings.ToUpper(c.String()[:1]) + c.String()[1:]
		if isSelector(args[0], pkg, name) {
			return c, true
		}
	}
	return 0, false
}
