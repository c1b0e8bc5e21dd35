package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
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

// TestStatsHugeMetric: a record whose metrics are finite but so large
// that their differences or cubes overflow is exit 2 with one line in
// both modes, before any statistic; a metric of 1e100 still gives a
// finite report. Before, perf stats printed "−Inf [NaN, NaN]" and exit 0.
func TestStatsHugeMetric(t *testing.T) {
	dir := t.TempDir()
	record := func(name string, first int, metric func(kernel string, seed int) float64) string {
		t.Helper()
		var runs []string
		for _, k := range []string{"base", "nystrom", "plus"} {
			for s := first; s < first+12; s++ {
				runs = append(runs, fmt.Sprintf(`{"problem": "Ackley2d", "kernel": %q, "seed": %d, "batch": 1, "metric": %s, "best_f": 1, "seconds": 0.1}`,
					k, s, strconv.FormatFloat(metric(k, s), 'g', -1, 64)))
			}
		}
		rec := `{"version": 1, "kind": "table", "command": "perf table", "protocol": {"iters": 1, "init": 2, "batch": 1, "acq": "ucb", "beta": "paper", "fit": "own", "prior": "none", "backend": "gonum"}, "runs": [` +
			strings.Join(runs, ", ") + `]}`
		d := filepath.Join(dir, name)
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, recordFile), []byte(rec), 0o644); err != nil {
			t.Fatal(err)
		}
		return d
	}
	scaled := func(m float64) func(string, int) float64 {
		return func(k string, s int) float64 {
			v := map[string]float64{"base": m, "nystrom": -m, "plus": 0}[k]
			if s%5 == 0 {
				v = -v
			}
			return v
		}
	}
	okMain, okRep := record("ok-main", 0, scaled(1e100)), record("ok-rep", 12, scaled(1e100))
	code, stdout, stderr := runCLI(t, "stats", "--main", okMain, "--replication", okRep)
	if code != exitOK || strings.Contains(stdout, "NaN") || strings.Contains(stdout, "Inf") {
		t.Errorf("metrics of ±1e100: exit %d, stderr %q, stdout:\n%s", code, stderr, stdout)
	}
	code, stdout, stderr = runCLI(t, "stats", "--coverage", okMain+","+okRep, "--n", "4", "--reps", "10", "--resamples", "99")
	if code != exitOK || strings.Contains(stdout, "NaN") || strings.Contains(stdout, "Inf") {
		t.Errorf("coverage of metrics of ±1e100: exit %d, stderr %q, stdout:\n%s", code, stderr, stdout)
	}
	hugeMain, hugeRep := record("huge-main", 0, scaled(1.7e308)), record("huge-rep", 12, scaled(1.7e308))
	code, stdout, stderr = runCLI(t, "stats", "--main", hugeMain, "--replication", hugeRep)
	checkOneLineError(t, code, stdout, stderr, "perf stats: ", "has metric -1.7e+308, beyond the ±1e+100")
	code, stdout, stderr = runCLI(t, "stats", "--coverage", hugeMain+","+hugeRep, "--n", "4", "--reps", "10", "--resamples", "99")
	checkOneLineError(t, code, stdout, stderr, "perf stats: ", "has metric -1.7e+308, beyond the ±1e+100")
}

// TestResultWriteFails: when stdout cannot be written (a closed pipe, a
// full disk), perf batch and perf stats exit 1 with their last stderr
// line "perf <sub>: writing output: …", as perf table does. They returned
// the writer's bare error ("perf stats: io: read/write on closed pipe").
func TestResultWriteFails(t *testing.T) {
	dir := t.TempDir()
	mainDir, repDir := filepath.Join(dir, "main"), filepath.Join(dir, "rep")
	for _, c := range []struct{ out, seeds string }{{mainDir, "0:5"}, {repDir, "5:10"}} {
		code, _, stderr := runCLI(t, "table", "--seeds", c.seeds, "--iters", "2", "--init", "3",
			"--problems", "Ackley2d", "--kernels", "base,nystrom,plus", "--workers", "1", "--out", c.out)
		if code != exitOK {
			t.Fatalf("table %s: exit %d, stderr %q", c.seeds, code, stderr)
		}
	}
	for _, args := range [][]string{
		{"table", "--seeds", "1", "--iters", "2", "--init", "3", "--problems", "Ackley2d", "--kernels", "base", "--workers", "1"},
		{"batch", "--qs", "1", "--seeds", "1", "--iters", "2", "--init", "3", "--problems", "Ackley2d", "--kernels", "base", "--workers", "1"},
		{"stats", "--main", mainDir, "--replication", repDir},
		{"stats", "--coverage", mainDir + "," + repDir, "--n", "4", "--reps", "10", "--resamples", "99"},
	} {
		var stderr strings.Builder
		code := run(args, brokenWriter{}, &stderr)
		lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
		want := "perf " + args[0] + ": writing output: " + io.ErrClosedPipe.Error()
		if code != exitFailure || lines[len(lines)-1] != want {
			t.Errorf("%v, stdout failing: exit %d, stderr %q; want exit %d, last line %q", args, code, stderr.String(), exitFailure, want)
		}
		if n := strings.Count(stderr.String(), io.ErrClosedPipe.Error()); n != 1 {
			t.Errorf("%v: the write error is on %d lines of stderr, want 1:\n%s", args, n, stderr.String())
		}
	}
}
