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
	s = s[i:]
	start := strings.Index(s, "```go\n")
	if start < 0 {
		t.Fatal("no ```go block in the library section")
	}
	s = s[start+len("```go\n"):]
	src := s[:strings.Index(s, "```")]
	if n := strings.Count(src, "\n"); n > 25 {
		t.Errorf("README example has %d lines, want ≤ 25", n)
	}
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
		t.Fatalf("go run: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "best f = ") || !strings.Contains(string(out), "(err <nil>)") {
		t.Errorf("output %q", out)
	}
}
