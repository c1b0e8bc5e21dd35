// Package symbo_test holds repository-level checks: the README's library
// example is a complete program that compiles and runs.
package symbo_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadmeExample extracts the first Go block after "## As a library" in
// README.md, checks it is at most 25 lines and gofmt-clean, and runs it.
func TestReadmeExample(t *testing.T) {
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	i := strings.Index(s, "## As a library")
	if i < 0 {
		t.Fatal(`README.md has no "## As a library" section`)
	}
	// Every Go block of the README is a complete program: each is
	// formatted, compiled and run; the first (the library example) must
	// fit in 25 lines and optimize.
	blocks := 0
	for rest := s; ; blocks++ {
		start := strings.Index(rest, "```go\n")
		if start < 0 {
			break
		}
		rest = rest[start+len("```go\n"):]
		src := rest[:strings.Index(rest, "```")]
		rest = rest[len(src):]
		out := runGoBlock(t, src)
		if blocks == 0 && strings.Index(s, src) < i {
			t.Fatal("the first Go block is not the library example")
		}
		if blocks == 0 {
			if n := strings.Count(src, "\n"); n > 25 {
				t.Errorf("README example has %d lines, want ≤ 25", n)
			}
			if !strings.Contains(out, "best f = ") || !strings.Contains(out, "(err <nil>)") {
				t.Errorf("output %q", out)
			}
		} else if !strings.Contains(out, "(err <nil>)") {
			t.Errorf("block %d: output %q", blocks, out)
		}
	}
	if blocks < 2 {
		t.Errorf("%d Go blocks in README.md, want the library example and the kernels", blocks)
	}
}

// runGoBlock formats, builds and runs one README Go program and returns
// its output.
func runGoBlock(t *testing.T, src string) string {
	t.Helper()
	dir, err := os.MkdirTemp(".", ".readme-example-*")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "main.go")
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("gofmt", "-l", file).CombinedOutput(); err != nil || len(out) > 0 {
		t.Errorf("README example is not gofmt-clean: %s %v", out, err)
	}
	out, err := exec.Command("go", "run", "./"+dir).CombinedOutput()
	if err != nil {
		t.Fatalf("go run: %v\n%s\n%s", err, out, src)
	}
	return string(out)
}

// TestReadmeResultsTable: the README's Results table is the one its
// command printed — the table of docs/results/table-own/table.md, which
// that command (with --out) wrote, and whose record perf check reruns.
func TestReadmeResultsTable(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile("docs/results/table-own/table.md")
	if err != nil {
		t.Fatal(err)
	}
	table := func(s string) string {
		i := strings.Index(s, "| Benchmark |")
		if i < 0 {
			return ""
		}
		j := strings.Index(s[i:], "\n\n")
		if j < 0 {
			j = len(s) - i
		}
		return s[i : i+j]
	}
	r := string(readme)
	r = r[strings.Index(r, "## Results"):]
	got, want := table(r), table(string(page))
	if got == "" || got != want {
		t.Errorf("README's Results table:\n%s\ndocs/results/table-own/table.md's:\n%s", got, want)
	}
	if !strings.Contains(string(page), "--kernels base,avg,avgnorm,plus,max --seeds 0:30") || !strings.Contains(r, "perf table --kernels base,avg,avgnorm,plus,max --seeds 0:30") {
		t.Error("the README's Results command and table-own's command differ")
	}
}
