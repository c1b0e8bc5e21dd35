package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStats: two tiny ablations on disjoint seeds replicate side by side
// (every pair of kernels with a verdict, the decomposition on both
// sets); the coverage study pools them; overlapping seeds, a missing
// record and bad sizes are exit 2 with one line.
func TestStats(t *testing.T) {
	dir := t.TempDir()
	mainDir, repDir := filepath.Join(dir, "main"), filepath.Join(dir, "rep")
	for _, c := range []struct{ out, seeds string }{{mainDir, "0:5"}, {repDir, "5:10"}} {
		code, _, stderr := runCLI(t, "table", "--ablation", "--seeds", c.seeds, "--iters", "3", "--init", "3",
			"--problems", "Ackley2d", "--kernels", "base,nystrom,plus", "--out", c.out)
		if code != exitOK {
			t.Fatalf("table %s: exit %d, stderr %q", c.seeds, code, stderr)
		}
	}
	// Without max among the kernels, the ablation's other path says max
	// was not run (it said k_max is not PSD for Ackley2d's group, which it is).
	if md, err := os.ReadFile(filepath.Join(mainDir, "table.md")); err != nil || !strings.Contains(string(md), "| Ackley2d | — (max not run) | — |") {
		t.Errorf("table.md (%v) does not say max was not run:\n%s", err, md)
	}
	code, stdout, stderr := runCLI(t, "stats", "--main", mainDir, "--replication", repDir)
	if code != exitOK {
		t.Fatalf("stats: exit %d, stderr %q", code, stderr)
	}
	// Three kernels: three pairs, each with a verdict; the decomposition's
	// three differences and the share on both sets.
	if n := strings.Count(stdout, "| Ackley2d | "); n != 3+4 {
		t.Errorf("%d Ackley2d rows, want 3 pairs + 4 decomposition rows:\n%s", n, stdout)
	}
	if !strings.Contains(stdout, "Verdicts: ") || !strings.Contains(stdout, "| Ackley2d | gain of plus over base | ") {
		t.Errorf("output:\n%s", stdout)
	}
	// 10 pooled seeds: a row per comparison; 5 (one directory): none, which
	// is bad input (it printed an empty study and exit 0).
	code, stdout, stderr = runCLI(t, "stats", "--coverage", mainDir+","+repDir, "--n", "4", "--reps", "20", "--resamples", "99")
	if code != exitOK || strings.Count(stdout, "| Ackley2d | ") != 3 {
		t.Errorf("coverage: exit %d, stderr %q, stdout:\n%s", code, stderr, stdout)
	}
	code, stdout, stderr = runCLI(t, "stats", "--coverage", mainDir+","+repDir, "--n", "4", "--reps", "20", "--resamples", "99", "--level", "0.999")
	if code != exitOK || !strings.HasPrefix(stdout, "Intervals at the nominal level 0.999") || strings.Count(stdout, "| Ackley2d | ") != 3 {
		t.Errorf("coverage at --level 0.999: exit %d, stderr %q, stdout:\n%s", code, stderr, stdout)
	}
	code, stdout, stderr = runCLI(t, "stats", "--coverage", mainDir, "--n", "4", "--reps", "20", "--resamples", "99")
	checkOneLineError(t, code, stdout, stderr, "perf stats: ", "10 seeds in common")
	for _, args := range [][]string{
		{"stats", "--main", mainDir, "--replication", mainDir},
		{"stats", "--main", mainDir},
		{"stats", "--main", filepath.Join(dir, "none"), "--replication", repDir},
		{"stats", "--coverage", mainDir + "," + mainDir},
		{"stats", "--coverage", mainDir, "--n", "2"},
		{"stats", "--coverage", mainDir, "--n", "10x"},
		{"stats", "--coverage", mainDir + "," + repDir, "--level", "1"},
		{"stats", "--coverage", mainDir + "," + repDir, "--level", "0.3"},
		{"stats", "--coverage", mainDir + "," + repDir, "--level", "NaN"},
	} {
		code, _, stderr := runCLI(t, args...)
		if code != exitUsage || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and one line", args, code, stderr)
		}
	}
}
