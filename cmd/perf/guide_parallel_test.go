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
	var src string
	for _, b := range guideBashBlocks(t) {
		if strings.Contains(b, "--pending running.csv") && strings.Contains(b, "&") {
			src = b
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

// TestGuideScriptsStopWhenSuggestFails runs the guide's perf suggest
// scripts as a user does (bash without -e) with a perf that refuses its
// files (exit 2, one line on stderr): they must stop without recording
// anything. They evaluated the empty point instead — ",0" in history.csv
// — and the parallel workers appended an empty line to running.csv,
// which every later perf suggest refused.
func TestGuideScriptsStopWhenSuggestFails(t *testing.T) {
	blocks := guideBashBlocks(t)
	bin := t.TempDir()
	stub := "#!/bin/sh\necho 'perf suggest: history.csv: line 1: 2 fields, want 4' >&2\nexit 2\n"
	if err := os.WriteFile(filepath.Join(bin, "perf"), []byte(stub), 0o755); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, b := range blocks {
		if !strings.Contains(b, "perf suggest") {
			continue
		}
		n++
		dir := t.TempDir()
		cmd := exec.Command("bash", "-c", b)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
		out, _ := cmd.CombinedOutput()
		for _, name := range []string{"history.csv", "failed.csv", "running.csv"} {
			if b, err := os.ReadFile(filepath.Join(dir, name)); err == nil && len(b) > 0 {
				t.Errorf("guide script %d: %s holds %q after perf suggest failed\n%s", n, name, b, out)
			}
		}
	}
	if n < 2 {
		t.Errorf("docs/guide.md has %d bash blocks calling perf suggest, want the loop and the parallel workers", n)
	}
}

// guideBashBlocks returns the bash blocks of docs/guide.md, skipping the
// test where bash or flock (the parallel workers' lock) is missing.
func guideBashBlocks(t *testing.T) []string {
	t.Helper()
	for _, tool := range []string{"bash", "flock"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s: %v", tool, err)
		}
	}
	guide, err := os.ReadFile(filepath.Join("..", "..", "docs", "guide.md"))
	if err != nil {
		t.Fatal(err)
	}
	var blocks []string
	for _, m := range regexp.MustCompile("(?s)```bash\n(.*?)```").FindAllStringSubmatch(string(guide), -1) {
		blocks = append(blocks, m[1])
	}
	return blocks
}
