package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestParallelBudgets: run keeps no global state, the memory budget
// included (it was a process-wide limit that --mem-budget set and each run
// restored, so parallel runs saw each other's): two runs at once with
// different --mem-budget values each see their own, again and again — one
// refuses what the other computes, both where perf sizes its result
// (gram's n×n output) and where the library does (an enumerated orbit of
// k_max, through kernel.Options.Budget).
func TestParallelBudgets(t *testing.T) {
	t.Parallel()
	var rows strings.Builder
	for i := range 200 {
		fmt.Fprintf(&rows, "%g,%g,%g,%g\n", float64(i)/50, 1-float64(i)/70, float64(i%7)/3, -float64(i%5)/4)
	}
	many := writeFile(t, "many.csv", rows.String()) // 200 points: a 200×200 result, 1.3 MiB with its JSON
	few := writeFile(t, "few.csv", rows.String()[:strings.Index(rows.String(), "\n")+1])
	gram := func(x, kern string, extra ...string) []string {
		return append([]string{"gram", "--group", "hyperoctahedral", "--d", "4", "--base", "rbf", "--lengthscale", "1", "--kernel", kern, "--x", x}, extra...)
	}
	cases := []struct {
		name         string
		args         []string
		small, large string   // --mem-budget values: refused, accepted
		want         []string // in the refusal
	}{
		// perf's own check: 200·200·(8+26) bytes = 1.3 MiB.
		{"result", gram(many, "base"), "1MiB", "2MiB", []string{"200×200 result", "over the budget of 1 MiB"}},
		// The library's: one orbit of hyperoctahedral(4), 384·4·8 bytes =
		// 12 KiB, enumerated (the output, the point and the JSON are tiny).
		{"orbit", gram(few, "max", "--method", "enumerate"), "8KiB", "64KiB", []string{"enumerating hyperoctahedral(4)", "budget 8192"}},
	}
	const rounds = 8
	var wg sync.WaitGroup
	for _, tc := range cases {
		for _, large := range []bool{false, true} {
			mb := map[bool]string{false: tc.small, true: tc.large}[large]
			args := append(append([]string(nil), tc.args...), "--mem-budget", mb)
			wg.Go(func() {
				for r := range rounds {
					code, stdout, stderr := runCLI(t, args...)
					switch {
					case large && (code != exitOK || !strings.HasPrefix(stdout, "{")):
						t.Errorf("%s, --mem-budget %s, round %d: exit %d, stderr %q; want the result", tc.name, mb, r, code, stderr)
					case !large && (code != exitUsage || stdout != "" || !containsAll(stderr, tc.want)):
						t.Errorf("%s, --mem-budget %s, round %d: exit %d, stderr %q; want a refusal naming %q", tc.name, mb, r, code, stderr, tc.want)
					}
				}
			})
		}
	}
	wg.Wait()
}

func containsAll(s string, subs []string) bool {
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			return false
		}
	}
	return true
}

// TestMemBudgetEnv: $SYMBO_MEMORY_BUDGET is the default of --mem-budget,
// read by each subcommand as it parses its flags; the flag wins; a
// malformed variable is bad input (exit 2 naming it), flag or not.
func TestMemBudgetEnv(t *testing.T) {
	var rows strings.Builder
	for i := range 200 {
		fmt.Fprintf(&rows, "%d,%d\n", i, i%3)
	}
	x := writeFile(t, "x.csv", rows.String())
	args := []string{"gram", "--group", "signflip", "--d", "2", "--base", "rbf", "--lengthscale", "1", "--kernel", "base", "--x", x}
	t.Setenv("SYMBO_MEMORY_BUDGET", "1MiB")
	code, stdout, stderr := runCLI(t, args...)
	checkOneLineError(t, code, stdout, stderr, "perf gram: ", "200×200 result", "over the budget of 1 MiB")
	if code, _, stderr := runCLI(t, append(args, "--mem-budget", "2MiB")...); code != exitOK {
		t.Errorf("--mem-budget 2MiB over SYMBO_MEMORY_BUDGET=1MiB: exit %d, %s", code, stderr)
	}
	t.Setenv("SYMBO_MEMORY_BUDGET", "lots")
	for _, extra := range [][]string{nil, {"--mem-budget", "2MiB"}} {
		code, stdout, stderr := runCLI(t, append(args, extra...)...)
		checkOneLineError(t, code, stdout, stderr, "perf gram: ", "SYMBO_MEMORY_BUDGET", "lots")
	}
}

// TestMemBudgetBeforeJournal: a table, a study or a perf bo run whose
// runs are over --mem-budget is refused before its journal is created
// or a progress line printed: exit 2, exactly one line on stderr, no
// runs.journal (no checkpoint); perf check refuses such a rerun in one
// line too. Before, the table printed its progress
// bar, then failed inside its first run, leaving a journal of a table
// that could never run (perf bo left its checkpoint). A resume whose
// runs are all kept still finishes under any budget: nothing runs.
func TestMemBudgetBeforeJournal(t *testing.T) {
	dir := t.TempDir()
	tiny := []string{"--seeds", "1", "--iters", "2", "--init", "3", "--workers", "1"}
	for _, tc := range []struct {
		cmd  string
		args []string
	}{
		{"table", append([]string{"table", "--problems", "Ackley2d", "--kernels", "base"}, tiny...)},
		{"robustness", append([]string{"robustness", "--problems", "ackley", "--dims", "1", "--kernels", "base"}, tiny...)},
		{"batch", append([]string{"batch", "--problems", "Ackley2d", "--qs", "1", "--kernels", "base"}, tiny...)},
	} {
		out := filepath.Join(dir, tc.cmd)
		code, stdout, stderr := runCLI(t, append(tc.args, "--out", out, "--mem-budget", "1KiB")...)
		checkOneLineError(t, code, stdout, stderr, "perf "+tc.cmd+": ", "over the budget of 1 KiB")
		if _, err := os.Stat(filepath.Join(out, "runs.journal")); err == nil {
			t.Errorf("perf %s left %s/runs.journal for runs that cannot start", tc.cmd, out)
		}
	}
	cp := filepath.Join(dir, "cp.journal")
	code, stdout, stderr := runCLI(t, "bo", "--problem", "Ackley2d", "--kernel", "base", "--init", "3", "--iters", "2", "--checkpoint", cp, "--mem-budget", "1KiB")
	checkOneLineError(t, code, stdout, stderr, "perf bo: ", "over the budget of 1 KiB")
	if _, err := os.Stat(cp); err == nil {
		t.Error("perf bo left a checkpoint for a run that cannot start")
	}
	out := filepath.Join(dir, "done")
	if code, _, stderr := runCLI(t, append([]string{"table", "--problems", "Ackley2d", "--kernels", "base", "--out", out}, tiny...)...); code != exitOK {
		t.Fatalf("table: exit %d: %s", code, stderr)
	}
	if code, _, stderr := runCLI(t, "table", "--out", out, "--resume", "--mem-budget", "1KiB"); code != exitOK {
		t.Errorf("resume of a finished table under --mem-budget 1KiB: exit %d: %s", code, stderr)
	}
	// perf check too: one line, no progress bar before it.
	code, stdout, stderr = runCLI(t, "check", "--dir", out, "--mem-budget", "1KiB")
	checkOneLineError(t, code, stdout, stderr, "perf check: ", "over the budget of 1 KiB")
}
