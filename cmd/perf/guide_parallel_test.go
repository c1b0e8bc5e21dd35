package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestGuideParallelWorkers: the guide shows how workers that run at once
// share the files of perf suggest (the pending points in running.csv),
// and following it no point is handed out twice. perf suggest only reads
// the files, so workers that do not hold a lock from suggest until their
// point is in running.csv read the same running.csv and get the same
// point: the example must serialize that step.
func TestGuideParallelWorkers(t *testing.T) {
	for _, tool := range []string{"bash", "flock"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s: %v", tool, err)
		}
	}
	guide, err := os.ReadFile(filepath.Join("..", "..", "docs", "guide.md"))
	if err != nil {
		t.Fatal(err)
	}
	var src string
	for _, m := range regexp.MustCompile("(?s)```bash\n(.*?)```").FindAllStringSubmatch(string(guide), -1) {
		if strings.Contains(m[1], "--pending running.csv") && strings.Contains(m[1], "&") {
			src = m[1]
		}
	}
	if src == "" {
		t.Fatal("docs/guide.md has no bash example of parallel workers sharing running.csv (--pending)")
	}
	// perf on PATH: this test binary as perf (TestMain).
	bin := t.TempDir()
	wrapper := "#!/bin/sh\nPERF_TEST_MAIN=1 exec '" + os.Args[0] + "' \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "perf"), []byte(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cmd := exec.Command("bash", "-e", "-c", src)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the guide's parallel workers: %v\n%s", err, out)
	}
	read := func(name string) []string {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return strings.Fields(string(b))
	}
	if r := read("running.csv"); len(r) != 0 {
		t.Errorf("running.csv keeps %d points after every worker finished", len(r))
	}
	seen := map[string]bool{}
	rows := append(read("history.csv"), read("failed.csv")...)
	for _, row := range rows {
		f := strings.Split(row, ",")
		x := strings.Join(f[:3], ",")
		if seen[x] {
			t.Errorf("the point %s was handed out twice", x)
		}
		seen[x] = true
	}
	if len(rows) < 6 {
		t.Errorf("the workers recorded %d evaluations, want at least 6", len(rows))
	}
}
