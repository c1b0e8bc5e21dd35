package bench

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Tests of the scripts behind the regression gate (scripts/bench-compare.sh,
// scripts/bench-gate.sh) where their decisions need no benchmark run.

// needTools skips the test when bash or git is missing.
func needTools(t *testing.T) {
	t.Helper()
	for _, tool := range []string{"bash", "git"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not found: %v", tool, err)
		}
	}
}

// runScript runs bash script args… in dir with env added to a minimal
// environment, and returns its combined output and exit status.
func runScript(t *testing.T, dir string, env []string, script string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command("bash", append([]string{script}, args...)...)
	cmd.Dir = dir
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"), "TMPDIR=" + t.TempDir()}, env...)
	out, err := cmd.CombinedOutput()
	code := 0
	if err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatalf("%s: %v\n%s", script, err, out)
		}
		code = ee.ExitCode()
	}
	return string(out), code
}

// TestCompareRefusesWorkingTreeWithoutSuite: a working tree without
// BenchmarkCore is an error (exit 1) before anything is built, as a NEW
// revision without it is — its runs would print no benchmark, and a
// comparison with nothing on one side reads as no change.
func TestCompareRefusesWorkingTreeWithoutSuite(t *testing.T) {
	needTools(t)
	script, err := os.ReadFile("../scripts/bench-compare.sh")
	if err != nil {
		t.Fatal(err)
	}
	repo := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Dir = repo
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	write := func(name, text string) {
		t.Helper()
		p := filepath.Join(repo, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	git("init", "-q")
	write("scripts/bench-compare.sh", string(script))
	write("bench/core_test.go", "package bench\n\nimport \"testing\"\n\nfunc BenchmarkCore(b *testing.B) {}\n")
	git("add", ".")
	git("commit", "-q", "-m", "base")
	write("bench/core_test.go", "package bench\n\nimport \"testing\"\n\nfunc BenchmarkOther(b *testing.B) {}\n")

	out, code := runScript(t, repo, []string{"OUT=" + filepath.Join(repo, "out"), "TAGS="}, "scripts/bench-compare.sh", "HEAD")
	if code != 1 || !strings.Contains(out, "the working tree has no BenchmarkCore") {
		t.Errorf("bench-compare.sh HEAD with a working tree without BenchmarkCore: exit %d, want 1 with \"the working tree has no BenchmarkCore\"; output:\n%s", code, out)
	}
}
