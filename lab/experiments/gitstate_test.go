package experiments

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestGitStateCountsCode: a record's "modified" flag is set by
// uncommitted changes to the code, from any subdirectory, and not by
// results or Markdown written under docs/ (which results.sh rewrites
// experiment after experiment).
func TestGitStateCountsCode(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	run := func(args ...string) {
		t.Helper()
		c := exec.Command("git", args...)
		c.Dir = dir
		c.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	write := func(name, text string) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run("init", "-q")
	write("a.go", "package a\n")
	write("lab/results/x/table.md", "1\n")
	write("lab/results/x/regret.svg", "<svg/>\n")
	write("sub/README.md", "r\n")
	run("add", ".")
	run("commit", "-q", "-m", "init")
	rev, mod := gitState(dir)
	if len(rev) != 40 || mod {
		t.Fatalf("clean tree: rev %q modified %v", rev, mod)
	}
	write("lab/results/x/table.md", "2\n")
	write("lab/results/x/regret.svg", "<svg></svg>\n")
	write("sub/README.md", "r2\n")
	write("new.go", "package a\n") // untracked: not counted
	if _, mod := gitState(dir); mod {
		t.Error("results under lab/results/ and Markdown counted as modified code")
	}
	if _, mod := gitState(filepath.Join(dir, "lab", "results")); mod {
		t.Error("from lab/results/: results counted as modified code")
	}
	write("a.go", "package a // changed\n")
	if _, mod := gitState(dir); !mod {
		t.Error("a modified .go file not counted")
	}
	if _, mod := gitState(filepath.Join(dir, "sub")); !mod {
		t.Error("from a subdirectory: a modified .go file elsewhere not counted")
	}
}
