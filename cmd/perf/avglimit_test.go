package main

import (
	"path/filepath"
	"testing"
)

// TestAvgEnumerateLimitRefused: avg and avgnorm named alone over a group
// whose k_avg would be enumerated over more than bo.AvgEnumerateLimit
// elements — permutation(10) with Matérn-5/2, 3628800 elements, which
// used to be accepted and take tens of minutes a step (extrapolated) —
// are bad input in perf suggest, perf bo and perf table: exit 2 and one
// line naming the limit, before any run; at the limit (signflip(13), 8192
// elements) perf suggest proposes a point.
func TestAvgEnumerateLimitRefused(t *testing.T) {
	dir := t.TempDir()
	suggest := func(group, d, kernel string) []string {
		return []string{"suggest", "--group", group, "--d", d, "--box", "-1:1", "--base", "matern52", "--seed", "1", "--kernel", kernel}
	}
	for _, k := range []string{"avg", "avgnorm"} {
		code, out, errOut := runCLI(t, suggest("permutation", "10", k)...)
		checkOneLineError(t, code, out, errOut, "perf suggest: ", "kernel "+k, "permutation(10)", "3628800", "AvgEnumerateLimit", "plus")
		code, out, errOut = runCLI(t, "bo", "--problem", "Ackley10d:permutation", "--kernel", k, "--iters", "1", "--init", "2", "--seed", "1")
		checkOneLineError(t, code, out, errOut, "perf bo: ", "kernel "+k, "permutation(10)", "AvgEnumerateLimit")
		code, out, errOut = runCLI(t, "table", "--problems", "Ackley10d:permutation", "--kernels", k, "--seeds", "1", "--iters", "1", "--init", "2", "--out", filepath.Join(dir, "table-"+k))
		checkOneLineError(t, code, out, errOut, "perf table: ", "permutation(10)", "AvgEnumerateLimit")
	}
	code, out, errOut := runCLI(t, suggest("signflip", "13", "avg")...)
	if code != exitOK || errOut != "" || out == "" {
		t.Errorf("avg over signflip(13) (8192 elements): exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// TestProfileRefusesAvgUpFront: perf profile with avg among its BO
// kernels over permutation(8) with Matérn-5/2 (40320 elements, over
// bo.AvgEnumerateLimit) exits 2 with one line on stderr and no progress:
// it used to run every Gram, eigen and k_plus phase first and fail at the
// BO phase.
func TestProfileRefusesAvgUpFront(t *testing.T) {
	code, out, errOut := runCLI(t, "profile", "--group", "permutation", "--d", "8", "--base", "matern52", "--n", "20", "--m", "10", "--gemm-n", "10", "--bo-kernel", "plus,avg")
	checkOneLineError(t, code, out, errOut, "perf profile: ", "avg", "permutation(8)", "AvgEnumerateLimit")
}
