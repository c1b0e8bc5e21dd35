// Package symbo_test holds repository-level checks of the user docs: the
// README's first screen keeps its bounds, and every Go, Python and bash
// example of README.md and docs/guide.md runs as written.
package symbo_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/symbo/symbo/internal/testdepth"
)

// Bounds of the README's first screen.
const (
	maxWordsBeforeCommand = 120 // words before the first code fence
	maxExampleBody        = 15  // lines of the first Go block's main function
	maxExampleLines       = 35  // lines of that block, imports included
)

func readDoc(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// fenced returns the contents of the code blocks of s fenced as ```lang,
// in order.
func fenced(s, lang string) []string {
	var blocks []string
	open := "```" + lang + "\n"
	for {
		i := strings.Index(s, open)
		if i < 0 {
			return blocks
		}
		s = s[i+len(open):]
		j := strings.Index(s, "```")
		if j < 0 {
			return blocks
		}
		blocks = append(blocks, s[:j])
		s = s[j:]
	}
}

// words counts the words of Markdown text: the fields with a letter or a
// digit (so "#", "—" and "|" do not count).
func words(s string) int {
	n := 0
	word := regexp.MustCompile(`[\pL\pN]`)
	for _, f := range strings.Fields(s) {
		if word.MatchString(f) {
			n++
		}
	}
	return n
}

// TestReadmeFirstScreen: what symbo is and for whom in at most 120 words,
// then the two commands (the paper's table on the pure-Go default, and
// the tests), then a short Go example with the recommended configuration.
func TestReadmeFirstScreen(t *testing.T) {
	s := readDoc(t, "README.md")
	fence := strings.Index(s, "```")
	if fence < 0 {
		t.Fatal("README.md has no code block")
	}
	if n := words(s[:fence]); n > maxWordsBeforeCommand {
		t.Errorf("README.md has %d words before its first command, want ≤ %d", n, maxWordsBeforeCommand)
	}
	if !strings.HasPrefix(s[fence:], "```sh\n") {
		t.Fatalf("the README's first block is not the commands: %.40q", s[fence:])
	}
	cmds := fenced(s[fence:], "sh")[0]
	for _, want := range []string{"go run ./cmd/perf table --out results", "make test"} {
		if !strings.Contains(cmds, want) {
			t.Errorf("the README's first commands lack %q:\n%s", want, cmds)
		}
	}
	if !strings.Contains(s, "go build -o bin/perf ./cmd/perf") {
		t.Error("the README does not say how to build perf")
	}
	goBlocks := fenced(s, "go")
	if len(goBlocks) == 0 {
		t.Fatal("README.md has no Go block")
	}
	ex := goBlocks[0]
	if strings.Index(s, "```go\n") > strings.Index(s, "\n## ") {
		t.Error("the README's Go example is not on its first screen (before the first ## section)")
	}
	if n := strings.Count(ex, "\n"); n > maxExampleLines {
		t.Errorf("the README's Go example has %d lines, want ≤ %d", n, maxExampleLines)
	}
	if body := mainBody(ex); body < 0 || body > maxExampleBody {
		t.Errorf("the README's Go example's main body has %d lines, want 0–%d", body, maxExampleBody)
	}
	if !strings.Contains(ex, "bo.Recommended(") {
		t.Error("the README's Go example does not use bo.Recommended")
	}
	out := runGo(t, []string{ex})[0]
	if !strings.Contains(out, "best f = ") || !strings.Contains(out, "(err <nil>)") {
		t.Errorf("the README's Go example printed %q", out)
	}
}

// mainBody returns the number of lines between "func main() {" and its
// closing brace, or −1 without one.
func mainBody(src string) int {
	i := strings.Index(src, "func main() {\n")
	if i < 0 {
		return -1
	}
	j := strings.Index(src[i:], "\n}\n")
	if j < 0 {
		return -1
	}
	return strings.Count(src[i:i+j], "\n")
}

// TestReadmeGo runs every Go block of the README.
func TestReadmeGo(t *testing.T) {
	blocks := fenced(readDoc(t, "README.md"), "go")
	for i, out := range runGo(t, blocks) {
		if !strings.Contains(out, "(err <nil>)") {
			t.Errorf("README.md Go block %d printed %q", i, out)
		}
	}
}

// TestReadmeLinks and TestGuideLinks: every relative link of the user
// docs names a file of the repository (and a section of it, for links
// into another Markdown file's heading).
func TestReadmeLinks(t *testing.T) { checkLinks(t, "README.md") }
func TestGuideLinks(t *testing.T)  { checkLinks(t, "docs/guide.md") }

// TestDocsLinks: the same for the other docs a reader reaches from the
// README: the design, the performance record and the results summary.
func TestDocsLinks(t *testing.T) {
	for _, p := range []string{"docs/design.md", "docs/performance.md", "lab/results/README.md", "lab/results/paper.md"} {
		checkLinks(t, p)
	}
}

func checkLinks(t *testing.T, path string) {
	s := readDoc(t, path)
	if outside := "../" + "shared"; strings.Contains(s, outside) {
		t.Errorf("%s cites a path outside the repository (%s)", path, outside)
	}
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	for _, m := range link.FindAllStringSubmatch(s, -1) {
		target := m[1]
		if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
			continue
		}
		file, anchor, _ := strings.Cut(target, "#")
		doc := s
		if file != "" {
			full := filepath.Join(filepath.Dir(path), file)
			if _, err := os.Stat(full); err != nil {
				t.Errorf("%s links to %s: %v", path, target, err)
				continue
			}
			if anchor == "" || !strings.HasSuffix(file, ".md") {
				continue
			}
			doc = readDoc(t, full)
		}
		if anchor != "" && !hasAnchor(doc, anchor) {
			t.Errorf("%s links to %s: no such section", path, target)
		}
	}
}

// hasAnchor reports whether the Markdown s has a heading whose GitHub
// anchor is a.
func hasAnchor(s, a string) bool {
	drop := regexp.MustCompile(`[^\pL\pN _-]`)
	for _, line := range strings.Split(s, "\n") {
		if !strings.HasPrefix(line, "#") {
			continue
		}
		h := strings.ToLower(strings.TrimSpace(strings.TrimLeft(line, "#")))
		h = strings.ReplaceAll(drop.ReplaceAllString(h, ""), " ", "-")
		if h == a {
			return true
		}
	}
	return false
}

// TestGuideGo runs every Go block of docs/guide.md: each is a complete
// program that must exit 0 (the examples log.Fatal on any error).
func TestGuideGo(t *testing.T) {
	testdepth.Once(t)
	blocks := fenced(readDoc(t, "docs/guide.md"), "go")
	if len(blocks) < 4 {
		t.Fatalf("docs/guide.md has %d Go blocks, want the four examples", len(blocks))
	}
	// A program that checks a claim of the guide prints "…: true".
	for i, out := range runGo(t, blocks) {
		if strings.TrimSpace(out) == "" || strings.Contains(out, ": false") ||
			strings.Contains(out, "(err ") && !strings.Contains(out, "(err <nil>)") {
			t.Errorf("docs/guide.md Go block %d printed %q", i, out)
		}
	}
}

// TestGuideBash runs every bash block of docs/guide.md (the scheduler
// loop over perf suggest) with a freshly built perf first on PATH, each in
// an empty directory, under bash -e.
func TestGuideBash(t *testing.T) {
	testdepth.Once(t)
	blocks := fenced(readDoc(t, "docs/guide.md"), "bash")
	if len(blocks) == 0 {
		t.Fatal("docs/guide.md has no bash block (the perf suggest loop)")
	}
	bin := t.TempDir()
	if out, err := exec.Command("go", "build", "-o", filepath.Join(bin, "perf"), "./cmd/perf").CombinedOutput(); err != nil {
		t.Fatalf("go build perf: %v\n%s", err, out)
	}
	for i, src := range blocks {
		dir := t.TempDir()
		cmd := exec.Command("bash", "-e", "-c", src)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("docs/guide.md bash block %d: %v\n%s\n%s", i, err, out, src)
		}
		// The loop's last line is its best evaluation: x1,x2,x3,y.
		if i == 0 {
			last := strings.Split(strings.TrimSpace(string(out)), "\n")
			if f := strings.Split(last[len(last)-1], ","); len(f) != 4 {
				t.Errorf("the perf suggest loop printed %q, want its best row x1,x2,x3,y", out)
			}
			hist, err := os.ReadFile(filepath.Join(dir, "history.csv"))
			if err != nil || strings.Count(string(hist), "\n") < 10 {
				t.Errorf("the perf suggest loop's history.csv: %v\n%s", err, hist)
			}
		}
	}
}

// TestGuidePython runs every Python block of docs/guide.md with Debian's
// interpreter against a freshly built libsymbo (SYMBO_LIB). It is skipped
// where the interpreter lacks NumPy or Optuna, or no C compiler is found
// (make test's Python leg then warns the same way).
func TestGuidePython(t *testing.T) {
	testdepth.Once(t)
	const python = "/usr/bin/python3"
	if err := exec.Command(python, "-c", "import numpy, optuna").Run(); err != nil {
		t.Skipf("%s cannot import numpy and optuna: %v", python, err)
	}
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("no gcc: libsymbo cannot be built")
	}
	blocks := fenced(readDoc(t, "docs/guide.md"), "python")
	if len(blocks) < 2 {
		t.Fatalf("docs/guide.md has %d Python blocks, want the Optimizer and the Optuna examples", len(blocks))
	}
	lib := filepath.Join(t.TempDir(), "libsymbo.so")
	build := exec.Command("go", "build", "-buildmode=c-shared", "-o", lib, "./capi")
	build.Env = append(os.Environ(), "CGO_ENABLED=1")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build libsymbo: %v\n%s", err, out)
	}
	pkg, err := filepath.Abs("python")
	if err != nil {
		t.Fatal(err)
	}
	for i, src := range blocks {
		cmd := exec.Command(python, "-c", src)
		cmd.Dir = t.TempDir()
		cmd.Env = append(os.Environ(), "PYTHONPATH="+pkg, "SYMBO_LIB="+lib)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Errorf("docs/guide.md Python block %d: %v\n%s\n%s", i, err, out, src)
		}
	}
}

// goRun serializes runGo: its scratch directories live in the module.
var goRun sync.Mutex

// runGo checks that each Go program is gofmt-clean, builds them all in
// one go build, runs each, and returns their outputs in order.
func runGo(t *testing.T, srcs []string) []string {
	t.Helper()
	goRun.Lock()
	defer goRun.Unlock()
	// The programs import the module's packages: build them inside it,
	// in a directory go's ./... patterns skip (a leading dot).
	dir, err := os.MkdirTemp(".", ".doc-example-*")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	pkgs := []string{}
	for i, src := range srcs {
		p := filepath.Join(dir, "ex"+string(rune('a'+i)))
		if err := os.Mkdir(p, 0o755); err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(p, "main.go")
		if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command("gofmt", "-l", file).CombinedOutput(); err != nil || len(out) > 0 {
			t.Errorf("Go example %d is not gofmt-clean: %s %v\n%s", i, out, err, src)
		}
		pkgs = append(pkgs, "./"+p)
	}
	bin, err := filepath.Abs(filepath.Join(dir, "bin"))
	if err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("go", append([]string{"build", "-o", bin + "/"}, pkgs...)...).CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	outs := make([]string, len(srcs))
	for i, src := range srcs {
		out, err := exec.Command(filepath.Join(bin, "ex"+string(rune('a'+i)))).CombinedOutput()
		if err != nil {
			t.Fatalf("Go example %d: %v\n%s\n%s", i, err, out, src)
		}
		outs[i] = string(out)
	}
	return outs
}
