package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBORefusesInertDecidingFlags: perf bo refuses a deciding kernel's
// flag given with a kernel that cannot act on it — --hedge,
// --probe-window and --candidate-starts above 0 and --probe earned with
// anything but a portfolio; --candidate-fit anchored, --referee loo,
// --odds above 0 and --afford with a single kernel — (exit 2, one line
// naming the flag, its value and the kernel) before the journal or the
// trace is written; before, each was dropped without a word. The values
// that ask for nothing (perf bo's defaults, given explicitly) run with
// every kernel, and a portfolio takes every flag.
func TestBORefusesInertDecidingFlags(t *testing.T) {
	for _, c := range []struct {
		kernel string
		flags  []string
		want   string
	}{
		{"plus", []string{"--hedge", "3"}, `--hedge 3 acts only on a portfolio kernel; kernel "plus" has one candidate (leave --hedge out, or give 0: no hedging)`},
		{"auto", []string{"--hedge", "1"}, `--hedge 1 acts only on a portfolio kernel; kernel "auto" proposes the point of the one model it picks`},
		{"soft", []string{"--probe", "earned"}, `--probe earned acts only on a portfolio kernel`},
		{"auto:nystrom+plus", []string{"--probe-window", "5"}, `--probe-window 5 acts only on a portfolio kernel naming avg; kernel "auto:nystrom+plus" proposes the point`},
		{"base", []string{"--candidate-fit", "anchored"}, `--candidate-fit anchored acts only on a deciding kernel (auto, portfolio); kernel "base"`},
		{"auto", []string{"--candidate-starts", "3"}, `--candidate-starts 3 acts only on a portfolio kernel; kernel "auto"`},
		{"nystrom", []string{"--referee", "loo"}, `--referee loo acts only on a deciding kernel (auto, portfolio); kernel "nystrom"`},
		{"avg", []string{"--odds", "2"}, `--odds 2 acts only on a deciding kernel (auto, portfolio); kernel "avg"`},
		{"max", []string{"--afford"}, `--afford acts only on a deciding kernel (auto, portfolio); kernel "max" has one candidate (leave --afford out, or give false)`},
	} {
		dir := t.TempDir()
		js, journal := filepath.Join(dir, "run.json"), filepath.Join(dir, "run.journal")
		args := append([]string{"bo", "--problem", "Ackley2d", "--kernel", c.kernel, "--json", js, "--checkpoint", journal}, tinyBO...)
		code, stdout, stderr := runCLI(t, append(args, c.flags...)...)
		checkOneLineError(t, code, stdout, stderr, "perf bo: ", c.want)
		for _, f := range []string{js, journal} {
			if _, err := os.Stat(f); err == nil {
				t.Errorf("%s %v: %s written", c.kernel, c.flags, f)
			}
		}
	}
	off := []string{"--hedge", "0", "--probe", "always", "--probe-window", "0", "--candidate-fit", "own", "--candidate-starts", "0", "--referee", "evidence", "--odds", "0", "--afford=false"}
	for _, args := range [][]string{
		append([]string{"--kernel", "plus"}, off...),
		append([]string{"--kernel", "auto"}, off...),
		{"--kernel", "soft", "--probe", "off"},
		{"--kernel", "auto:nystrom+plus", "--candidate-fit", "anchored", "--referee", "loo", "--odds", "2", "--afford"},
		{"--kernel", "portfolio:nystrom:soft+plus", "--hedge", "1", "--probe", "earned", "--probe-window", "2", "--candidate-fit", "anchored", "--candidate-starts", "3", "--referee", "loo", "--odds", "2", "--afford"},
	} {
		all := append(append([]string{"bo", "--problem", "Ackley2d"}, tinyBO...), args...)
		if code, _, stderr := runCLI(t, all...); code != exitOK {
			t.Errorf("%v: exit %d, %q", args, code, stderr)
		}
	}
}

// TestStudiesRefuseInertDecidingFlags: perf table, batch and robustness
// refuse a deciding kernel's flag that acts on no kernel of --kernels
// (their default lists of single kernels included), before any run, and
// take one that acts on some of them.
func TestStudiesRefuseInertDecidingFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"table", "--problems", "Ackley2d", "--kernels", "base,plus,soft", "--hedge", "1"}, `perf table: invalid settings: --hedge 1 acts only on a portfolio kernel; none of the kernels base,plus,soft can act on it`},
		{[]string{"table", "--problems", "Ackley2d", "--kernels", "auto,plus", "--probe", "earned"}, `--probe earned acts only on a portfolio kernel naming avg; none of the kernels auto,plus`},
		{[]string{"table", "--problems", "Ackley2d", "--candidate-fit", "anchored"}, `--candidate-fit anchored acts only on a deciding kernel (auto, portfolio); none of the kernels base,avg,plus,max`},
		{[]string{"batch", "--problems", "Ackley2d", "--qs", "1", "--candidate-starts", "3"}, `perf batch: invalid settings: --candidate-starts 3 acts only on a portfolio kernel; none of the kernels base,plus`},
		{[]string{"robustness", "--problems", "ackley", "--dims", "1", "--kernels", "plus", "--odds", "2"}, `perf robustness: invalid settings: --odds 2 acts only on a deciding kernel (auto, portfolio); kernel "plus" has one candidate`},
	} {
		// Small studies, so that the old code, which ran them, fails
		// quickly.
		dir := filepath.Join(t.TempDir(), "out")
		code, stdout, stderr := runCLI(t, append(c.args, "--seeds", "1", "--iters", "1", "--init", "2", "--workers", "1", "--out", dir)...)
		checkOneLineError(t, code, stdout, stderr, "perf "+c.args[0]+": ", c.want)
		if _, err := os.Stat(dir); err == nil {
			t.Errorf("%v: %s created", c.args, dir)
		}
	}
	// A flag that acts on one kernel of the list is taken.
	args := []string{"table", "--problems", "Ackley2d", "--seeds", "1", "--iters", "1", "--init", "2", "--workers", "1",
		"--kernels", "plus,portfolio:nystrom+plus", "--hedge", "1", "--probe-window", "2", "--candidate-fit", "anchored"}
	if code, stdout, stderr := runCLI(t, args...); code != exitOK || !strings.Contains(stdout, "portfolio") {
		t.Errorf("%v: exit %d, %q, %q", args, code, stdout, stderr)
	}
}

// TestRefusesLandmarksWithSoft: --landmarks above 0 with soft alone,
// which has no landmark form (exact at any n), is refused (exit 2, one
// line) by perf suggest (before --history is read), perf bo (before its
// journal), perf table over a list of soft only and perf profile over
// --bo-kernel soft; before, it was dropped without a word. -1 (never)
// runs with soft, and a list with another kernel takes a cap.
func TestRefusesLandmarksWithSoft(t *testing.T) {
	const want = `--landmarks 16 acts only on a kernel with a landmark form (every kernel but soft); kernel "soft" has none`
	code, stdout, stderr := runCLI(t, "suggest", "--group", "hyperoctahedral", "--d", "2", "--box", "-1:1", "--kernel", "soft", "--landmarks", "16", "--history", "/nonexistent/h.csv")
	checkOneLineError(t, code, stdout, stderr, "perf suggest: ", strings.TrimPrefix(want, "--"))
	journal := filepath.Join(t.TempDir(), "run.journal")
	code, stdout, stderr = runCLI(t, append([]string{"bo", "--problem", "Ackley2d", "--kernel", "soft", "--landmarks", "16", "--checkpoint", journal}, tinyBO...)...)
	checkOneLineError(t, code, stdout, stderr, "perf bo: ", want)
	if _, err := os.Stat(journal); err == nil {
		t.Errorf("perf bo wrote %s", journal)
	}
	code, stdout, stderr = runCLI(t, "table", "--problems", "Ackley2d", "--kernels", "soft", "--landmarks", "16", "--seeds", "1", "--iters", "1", "--init", "2", "--workers", "1")
	checkOneLineError(t, code, stdout, stderr, "perf table: ", want)
	code, stdout, stderr = runCLI(t, "profile", "--group", "hyperoctahedral", "--d", "2", "--n", "10", "--bo-kernel", "soft", "--landmarks", "16")
	checkOneLineError(t, code, stdout, stderr, "perf profile: ", want)
	for _, args := range [][]string{
		append([]string{"bo", "--problem", "Ackley2d", "--kernel", "soft", "--landmarks", "-1"}, tinyBO...),
		{"table", "--problems", "Ackley2d", "--kernels", "soft,plus", "--landmarks", "16", "--seeds", "1", "--iters", "1", "--init", "2", "--workers", "1"},
		{"suggest", "--group", "hyperoctahedral", "--d", "2", "--box", "-1:1", "--kernel", "soft", "--landmarks", "-1"},
		{"suggest", "--group", "hyperoctahedral", "--d", "2", "--box", "-1:1", "--landmarks", "16"},
	} {
		if code, _, stderr := runCLI(t, args...); code != exitOK {
			t.Errorf("%v: exit %d, %q", args, code, stderr)
		}
	}
}
