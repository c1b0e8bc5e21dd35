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

// TestStatsSameTable: perf stats --main/--replication and --coverage
// read only one table on disjoint seeds: records that differ in a
// setting of familyKey (noise, prior, regret metric, iterations, …) or
// in their cells are exit 2 with one line naming the first difference.
// Before, they were compared or pooled and reported, exit 0.
func TestStatsSameTable(t *testing.T) {
	dir := t.TempDir()
	table := func(name, seeds string, extra ...string) string {
		t.Helper()
		out := filepath.Join(dir, name)
		iters := "2"
		if len(extra) == 2 && extra[0] == "--iters" {
			iters, extra = extra[1], nil
		}
		args := append([]string{"table", "--seeds", seeds, "--iters", iters, "--init", "3", "--problems", "Ackley2d", "--kernels", "base,nystrom,plus", "--workers", "1", "--out", out}, extra...)
		if code, _, stderr := runCLI(t, args...); code != exitOK {
			t.Fatalf("table %s: exit %d, stderr %q", name, code, stderr)
		}
		return out
	}
	mainDir := table("main", "0:3")
	if code, _, stderr := runCLI(t, "stats", "--main", mainDir, "--replication", table("rep", "3:6")); code != exitOK {
		t.Fatalf("the same table on disjoint seeds: exit %d, stderr %q", code, stderr)
	}
	for _, tc := range []struct {
		name  string
		extra []string
		want  string
	}{
		{"noise", []string{"--noise", "0.01"}, `--noise is "box" in ` + mainDir + `, "0.01" in `},
		{"prior", []string{"--prior", "botorch"}, `--prior is "none" in ` + mainDir + `, "botorch" in `},
		{"regret", []string{"--regret", "all"}, `--regret is "acq" in ` + mainDir + `, "all" in `},
		{"iters", []string{"--iters", "3"}, "--iters is 2 in " + mainDir + ", 3 in "},
		{"cells", []string{"--skip", "Ackley2d/plus"}, "cell Ackley2d/plus is only in --main " + mainDir},
	} {
		rep := table(tc.name, "3:6", tc.extra...)
		code, stdout, stderr := runCLI(t, "stats", "--main", mainDir, "--replication", rep)
		checkOneLineError(t, code, stdout, stderr, "perf stats: ", "not the same table", tc.want)
		if tc.name == "noise" {
			code, stdout, stderr := runCLI(t, "stats", "--coverage", mainDir+","+rep, "--n", "3", "--reps", "10", "--resamples", "99")
			checkOneLineError(t, code, stdout, stderr, "perf stats: ", "not the same table", tc.want)
		}
	}
}
