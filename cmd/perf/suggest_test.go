package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/symbo/symbo/bo"
	"github.com/symbo/symbo/internal/frontend"
)

// TestSuggestReplaysBO: perf suggest, given the first k evaluations of a
// perf bo run as its history, prints exactly the point that run evaluated
// next (initial design and acquisition steps alike): the same function of
// (settings, seed, history) — for perf bo's default protocol given to
// suggest explicitly (--prior none --mean sample), and for suggest's own
// defaults given to perf bo (--prior botorch --mean constant; with no
// --kernel, suggest's default kernel is frontend.DefaultKernel, the
// portfolio with soft, its candidates' fits anchored unless
// --candidate-fit own says otherwise, its probe window 5 unless
// --probe-window says otherwise, in normalized coordinates unless
// --normalize=false, UCB's β scaled by 0.25 unless --beta-scale says
// otherwise; --allow-repeats, since perf bo may return to an
// observed point where suggest's default does not).
func TestSuggestReplaysBO(t *testing.T) {
	for _, c := range []struct{ bo, suggest []string }{
		{[]string{"--kernel", "plus"}, []string{"--kernel", "plus", "--prior", "none", "--mean", "sample", "--normalize=false", "--beta-scale", "1"}},
		{[]string{"--kernel", "plus", "--prior", "botorch", "--mean", "constant", "--normalize", "--beta-scale", "0.25"}, []string{"--kernel", "plus"}},
		{[]string{"--kernel", frontend.DefaultKernel, "--prior", "botorch", "--mean", "constant", "--candidate-fit", "anchored", "--probe-window", "5", "--normalize", "--beta-scale", "0.25"}, nil},
		{[]string{"--kernel", frontend.DefaultKernel, "--prior", "botorch", "--mean", "constant", "--normalize", "--beta-scale", "0.25"}, []string{"--candidate-fit", "own", "--probe-window", "0"}},
		{[]string{"--kernel", frontend.DefaultKernel, "--prior", "botorch", "--mean", "constant", "--candidate-fit", "anchored", "--probe-window", "1"}, []string{"--probe-window", "1", "--normalize=false", "--beta-scale", "1"}},
		// The help's recipe, as written there, for a single kernel and a
		// deciding one.
		{[]string{"--kernel", "plus"}, append([]string{"--kernel", "plus"}, suggestRecipe...)},
		{[]string{"--kernel", "portfolio:nystrom+avg:soft+plus", "--candidate-starts", "3", "--afford"}, append([]string{"--kernel", "portfolio:nystrom+avg:soft+plus", "--candidate-fit", "own", "--probe-window", "0", "--probe", "always"}, suggestRecipe...)},
	} {
		suggestReplaysBO(t, c.bo, c.suggest)
	}
}

// suggestRecipe is perf suggest -h's list of the settings to give to
// reproduce a perf bo run (TestSuggestRecipeInHelp holds the help to it).
var suggestRecipe = []string{"--prior", "none", "--mean", "sample", "--normalize=false", "--ard=false", "--beta-scale", "1", "--hedge", "0"}

// TestSuggestRecipeInHelp: the help lists suggestRecipe (and
// --allow-repeats, which suggestReplaysBO always gives).
func TestSuggestRecipeInHelp(t *testing.T) {
	code, out, _ := runCLI(t, "suggest", "-h")
	if code != exitOK {
		t.Fatal(code)
	}
	flat := strings.Join(strings.Fields(out), " ")
	want := strings.Join(suggestRecipe, " ") + " --allow-repeats"
	if !strings.Contains(flat, want) {
		t.Errorf("perf suggest -h does not list the recipe %q", want)
	}
}

func suggestReplaysBO(t *testing.T, boArgs, suggestArgs []string) {
	dir := t.TempDir()
	js := filepath.Join(dir, "run.json")
	args := append([]string{"bo", "--problem", "Ackley2d", "--seed", "3", "--init", "3", "--iters", "4", "--json", js}, boArgs...)
	if code, _, stderr := runCLI(t, args...); code != exitOK {
		t.Fatalf("perf bo: %d %s", code, stderr)
	}
	data, _ := os.ReadFile(js)
	var tr bo.Trace
	if err := json.Unmarshal(data, &tr); err != nil {
		t.Fatal(err)
	}
	for k := 0; k < len(tr.Evaluations); k++ {
		var h strings.Builder
		for _, e := range tr.Evaluations[:k] {
			fmt.Fprintf(&h, "%s,%s,%s\n", fmtF(e.X[0]), fmtF(e.X[1]), fmtF(e.Y))
		}
		hist := filepath.Join(dir, fmt.Sprintf("h%d.csv", k))
		os.WriteFile(hist, []byte(h.String()), 0o644)
		// k = 0: an empty history file is zero observations (a
		// scheduler's first call), as no file is.
		sargs := append([]string{"suggest", "--problem", "Ackley2d", "--seed", "3", "--init", "3", "--history", hist, "--allow-repeats"}, suggestArgs...)
		if k == 0 {
			empty := filepath.Join(dir, "empty.csv")
			os.WriteFile(empty, nil, 0o644)
			sargs = append(sargs, "--pending", empty)
		}
		code, out, stderr := runCLI(t, sargs...)
		if code != exitOK {
			t.Fatalf("k = %d: exit %d: %s", k, code, stderr)
		}
		want := fmtF(tr.Evaluations[k].X[0]) + "," + fmtF(tr.Evaluations[k].X[1]) + "\n"
		if out != want {
			t.Errorf("bo %v, suggest %v, k = %d: suggest %q, perf bo evaluated %q", boArgs, suggestArgs, k, out, want)
		}
	}
}

func fmtF(v float64) string { return string(appendFloat(nil, v)) }

// TestSuggestBatchAndErrors: q points, the same bits on a second call, none
// on the orbit of a pending point; bad input is exit 2 with one line.
func TestSuggestBatchAndErrors(t *testing.T) {
	dir := t.TempDir()
	hist := filepath.Join(dir, "h.csv")
	os.WriteFile(hist, []byte("1,2,1.8,0.5\n-1,0.5,2,1.5\n0,0,1,2\n2,-2,0.1,0.7\n1.5,1,-1,0.2\n"), 0o644)
	pend := filepath.Join(dir, "p.csv")
	os.WriteFile(pend, []byte("0.3,-0.2,1.1\n"), 0o644)
	args := []string{"suggest", "--group", "hyperoctahedral", "--d", "3", "--box", "-2:2", "--kernel", "plus", "--history", hist, "--pending", pend, "--q", "3", "--minimize", "--seed", "9"}
	code, out1, stderr := runCLI(t, args...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	_, out2, _ := runCLI(t, args...)
	if out1 != out2 || strings.Count(out1, "\n") != 3 {
		t.Fatalf("outputs %q and %q", out1, out2)
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"bad kernel", []string{"suggest", "--problem", "Ackley2d", "--kernel", "plsu"}, "plsu"},
		{"both", []string{"suggest", "--problem", "Ackley2d", "--group", "signflip", "--kernel", "base"}, "not both"},
		{"history columns", []string{"suggest", "--group", "signflip", "--d", "2", "--box", "-1:1", "--kernel", "base", "--history", hist}, "columns"},
		{"history outside box", []string{"suggest", "--group", "signflip", "--d", "3", "--box", "-1:1", "--kernel", "base", "--history", hist}, "h.csv:1"},
		{"bad box", []string{"suggest", "--group", "signflip", "--d", "2", "--box", "1:0", "--kernel", "base"}, "--box"},
		{"q", []string{"suggest", "--problem", "Ackley2d", "--kernel", "base", "--q", "0"}, "--q"},
		{"iters", []string{"suggest", "--problem", "Ackley2d", "--kernel", "base", "--iters", "3"}, "-iters"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, tc.args...)
			checkOneLineError(t, code, stdout, stderr, "perf suggest: ", tc.want)
		})
	}
}

// TestSuggestHeader (issue 15): --history and --pending may start with a
// header row, as many schedulers write them: the suggestion is that of the
// same file without it; a header alone is zero rows. A malformed row is
// still an error naming file:line:column, and a first row with a number
// in it is data, not a header. Before, every header was refused
// ("h.csv:1:1: "x1" is not a number").
func TestSuggestHeader(t *testing.T) {
	rows := "1,2,1.8,0.5\n-1,0.5,2,1.5\n0,0,1,2\n2,-2,0.1,0.7\n1.5,1,-1,0.2\n"
	pend := "0.3,-0.2,1.1\n"
	base := []string{"suggest", "--group", "hyperoctahedral", "--d", "3", "--box", "-2:2", "--kernel", "plus", "--q", "2", "--minimize", "--seed", "9"}
	run := func(hist, pending string) (int, string, string) {
		return runCLI(t, append(base, "--history", writeFile(t, "h.csv", hist), "--pending", writeFile(t, "p.csv", pending))...)
	}
	code, want, stderr := run(rows, pend)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, tc := range []struct{ name, hist, pending string }{
		{"history header", "x1,x2,x3,y\n" + rows, pend},
		{"pending header", rows, "x1,x2,x3\n" + pend},
		{"both, CRLF and quotes", "\"x1\",\"x2\",\"x3\",\"y\"\r\n" + strings.ReplaceAll(rows, "\n", "\r\n"), "a, b, c\n" + pend},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, got, stderr := run(tc.hist, tc.pending)
			if code != exitOK || got != want {
				t.Errorf("exit %d, %q (%s), want %q as without the header", code, got, stderr, want)
			}
		})
	}
	// A header alone is an empty history: the initial design's first point.
	_, first, _ := runCLI(t, append(base, "--history", writeFile(t, "e.csv", ""))...)
	if code, got, stderr := runCLI(t, append(base, "--history", writeFile(t, "h.csv", "x1,x2,x3,y\n"))...); code != exitOK || got != first {
		t.Errorf("header alone: exit %d, %q (%s), want %q", code, got, stderr, first)
	}
	for _, tc := range []struct{ name, hist, want string }{
		{"bad row after header", "x1,x2,x3,y\n1,2,1.8,0.5\n1,abc,1,2\n", `h.csv:3:2: "abc" is not a number`},
		{"mixed first row", "x1,2,x3,y\n" + rows, `h.csv:1:1: "x1" is not a number`},
		{"header narrower", "x1,x2,y\n" + rows, "h.csv:2: row has 4 fields, want 3 (as in the header, line 1)"},
		{"second header", "x1,x2,x3,y\n" + rows + "x1,x2,x3,y\n", `h.csv:7:1: "x1" is not a number`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := run(tc.hist, pend)
			checkOneLineError(t, code, stdout, stderr, "perf suggest: --history: ", tc.want)
		})
	}
}

// TestSuggestFailedScheduler: a scheduler loop that evaluates each
// suggested point and lists the failures in --failed never gets a failed
// point (or its orbit) again — before, a scheduler that dropped failed
// rows got the same point forever — and a group on some coordinates
// (--coords) reaches the optimizer; five pending points and no history
// (a parallel study's start, which crashed) give design points.
func TestSuggestFailedScheduler(t *testing.T) {
	dir := t.TempDir()
	hist, failed := filepath.Join(dir, "h.csv"), filepath.Join(dir, "f.csv")
	os.WriteFile(hist, []byte("x1,x2,x3,y\n"), 0o644)
	os.WriteFile(failed, nil, 0o644)
	var h, f strings.Builder
	h.WriteString("x1,x2,x3,y\n")
	var fails [][3]float64
	for i := range 14 {
		code, out, stderr := runCLI(t, "suggest", "--group", "hyperoctahedral", "--d", "3", "--box", "-2:2", "--kernel", "plus",
			"--init", "3", "--seed", "4", "--history", hist, "--failed", failed, "--minimize")
		if code != exitOK {
			t.Fatalf("step %d: exit %d: %s", i, code, stderr)
		}
		var x [3]float64
		if _, err := fmt.Sscanf(strings.TrimSpace(out), "%g,%g,%g", &x[0], &x[1], &x[2]); err != nil {
			t.Fatalf("step %d: %q: %v", i, out, err)
		}
		for _, p := range fails {
			if sortedAbs(p) == sortedAbs(x) {
				t.Fatalf("step %d: %v is on the orbit of the failed point %v", i, x, p)
			}
		}
		if max(abs(x[0]), abs(x[1]), abs(x[2])) > 1.2 { // the black box fails there
			fails = append(fails, x)
			fmt.Fprintf(&f, "%s,%s,%s\n", fmtF(x[0]), fmtF(x[1]), fmtF(x[2]))
			os.WriteFile(failed, []byte(f.String()), 0o644)
			continue
		}
		y := x[0]*x[0] + x[1]*x[1] + x[2]*x[2]
		fmt.Fprintf(&h, "%s,%s,%s,%s\n", fmtF(x[0]), fmtF(x[1]), fmtF(x[2]), fmtF(y))
		os.WriteFile(hist, []byte(h.String()), 0o644)
	}
	if len(fails) == 0 {
		t.Fatal("the failure region was never hit")
	}
	pend := filepath.Join(dir, "p.csv")
	os.WriteFile(pend, []byte("0.1,0.2,0.3,-1,1\n0.5,0.5,0.5,0,0\n-1,-1,1,1,1\n1,1,1,1,1\n0,0,0,0,0\n"), 0o644)
	code, out, stderr := runCLI(t, "suggest", "--group", "permutation", "--d", "5", "--coords", "0,1,2", "--box", "-2:2",
		"--kernel", "plus", "--pending", pend, "--q", "3")
	if code != exitOK || strings.Count(out, "\n") != 3 {
		t.Fatalf("pending beyond init with --coords: exit %d, %q, %s", code, out, stderr)
	}
	for _, bad := range [][]string{{"--coords", "0,0"}, {"--coords", "5"}, {"--coords", "x"}} {
		args := append([]string{"suggest", "--group", "permutation", "--d", "5", "--box", "-2:2", "--kernel", "plus"}, bad...)
		if code, _, stderr := runCLI(t, args...); code != exitUsage || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%v: exit %d, %q", bad, code, stderr)
		}
	}
}

func abs(v float64) float64 { return max(v, -v) }

// sortedAbs is the orbit of x under signed permutations, rounded to 1e-9.
func sortedAbs(x [3]float64) [3]float64 {
	a := [3]float64{abs(x[0]), abs(x[1]), abs(x[2])}
	for i := range a {
		for j := i + 1; j < len(a); j++ {
			if a[j] < a[i] {
				a[i], a[j] = a[j], a[i]
			}
		}
		a[i] = float64(int64(a[i]*1e9)) / 1e9
	}
	return a
}

// TestSuggestFlagsAreTheSettingsTable: perf suggest's flags are the
// settings table's (frontend.Settings) and its own inputs (the history,
// pending and failed files, q, the backend), and -h describes each
// setting from the table: the same values and defaults as C and Python.
func TestSuggestFlagsAreTheSettingsTable(t *testing.T) {
	code, out, stderr := runCLI(t, "suggest", "-h")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	flags := map[string]string{}
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "  -") && i+1 < len(lines) {
			name, _, _ := strings.Cut(strings.TrimPrefix(l, "  -"), " ")
			flags[name] = strings.TrimSpace(lines[i+1])
		}
	}
	if len(flags) < 20 {
		t.Fatalf("-h lists %d flags: %v", len(flags), flags)
	}
	own := map[string]bool{"history": true, "pending": true, "failed": true, "q": true, "backend": true}
	table := map[string]frontend.Setting{}
	for _, s := range frontend.Settings {
		if s.Flag != "" {
			table[s.Flag] = s
		}
	}
	for name, usage := range flags {
		s, ok := table[name]
		switch {
		case own[name]:
		case !ok:
			t.Errorf("--%s is neither a setting of the table nor one of suggest's inputs", name)
		case !strings.Contains(usage, s.Values) || !strings.Contains(usage, s.Absent):
			t.Errorf("--%s: -h says %q, the table %q (absent: %q)", name, usage, s.Values, s.Absent)
		}
	}
	for name := range table {
		if _, ok := flags[name]; !ok {
			t.Errorf("the table's --%s is not a flag of perf suggest", name)
		}
	}
}

// TestSuggestNaNHistorySaysFailed: a NaN value in --history is refused
// with one line that points to --failed, where a failed evaluation goes.
func TestSuggestNaNHistorySaysFailed(t *testing.T) {
	h := writeFile(t, "h.csv", "0.1,0.2,1\n0.3,-0.4,nan\n")
	code, stdout, stderr := runCLI(t, "suggest", "--group", "signflip", "--d", "2", "--box", "-1:1", "--history", h)
	checkOneLineError(t, code, stdout, stderr, "perf suggest: ", "--failed")
}

// TestSuggestMinimizeAgreesWithProblem: --minimize=false with a minimized
// problem is refused, as --minimize with a maximized one is (it was
// ignored: the same points as without it).
func TestSuggestMinimizeAgreesWithProblem(t *testing.T) {
	code, stdout, stderr := runCLI(t, "suggest", "--problem", "Ackley2d", "--minimize=false")
	checkOneLineError(t, code, stdout, stderr, "perf suggest: ", "Ackley2d is minimized")
	if code, _, stderr := runCLI(t, "suggest", "--problem", "Ackley2d", "--minimize"); code != exitOK {
		t.Errorf("--minimize with a minimized problem: exit %d, %s", code, stderr)
	}
}

// TestSuggestRowErrorLineAfterHeader: a row the optimizer refuses (here
// outside the box) is named by its line in the file, also when the file
// starts with a header row: the header is line 1, so data row i is line
// i + 2, not i + 1 (which names the row before it, or the header).
func TestSuggestRowErrorLineAfterHeader(t *testing.T) {
	base := []string{"suggest", "--group", "signflip", "--d", "2", "--box", "-1:1"}
	for _, c := range []struct {
		flag, text, line string
	}{
		{"--history", "x1,x2,y\n0.5,0.5,1\n3,0,2\n", ":3:"},
		{"--history", "0.5,0.5,1\n3,0,2\n", ":2:"}, // no header: unchanged
		{"--pending", "x1,x2\n3,0\n", ":2:"},
		{"--failed", "\ufeffx1,x2\r\n0.1,0.2\r\n0,3\r\n", ":3:"},
	} {
		p := writeFile(t, fmt.Sprintf("f%s.csv", strings.TrimLeft(c.flag, "-")), c.text)
		code, stdout, stderr := runCLI(t, append(base, c.flag, p)...)
		checkOneLineError(t, code, stdout, stderr, "perf suggest: ", p+c.line, "outside")
	}
}

// TestSuggestBoxMessages: a refused --box names its value once, and the
// interval at fault by place when there are several. Before, a single
// interval read `--box "1:0": "1:0" needs finite LO < HI`.
func TestSuggestBoxMessages(t *testing.T) {
	for _, tc := range []struct {
		box, want string
	}{
		{"1:0", `--box "1:0" needs finite LO < HI`},
		{"-1", `--box "-1" is not LO:HI`},
		{"0:1,1:-1", `--box "0:1,1:-1": interval 2, "1:-1", needs finite LO < HI`},
		{"x,0:1", `--box "x,0:1": interval 1, "x", is not LO:HI`},
	} {
		code, stdout, stderr := runCLI(t, "suggest", "--group", "signflip", "--d", "2", "--box", tc.box, "--kernel", "base")
		checkOneLineError(t, code, stdout, stderr, "perf suggest: ", tc.want)
		if n := strings.Count(stderr, tc.box); n != 1 {
			t.Errorf("--box %q: stderr %q names the value %d times, want once", tc.box, stderr, n)
		}
	}
}

// TestSuggestWarnsLeftOut: a list naming avg over hyperoctahedral(3) with
// Matérn-5/2 (48 elements, over bo.AffordEnumerateLimit) gets one line on
// stderr naming avg and why, after the points — stdout is the points
// alone, as without the warning (the same bits as the kernel without avg,
// which is what runs) — and a kernel that leaves nothing out, none.
func TestSuggestWarnsLeftOut(t *testing.T) {
	hist := filepath.Join(t.TempDir(), "history.csv")
	rows := "x1,x2,x3,y\n0.5,-0.25,0.75,1.5\n-0.5,0.125,0.25,0.75\n0.875,0.5,-0.625,2\n-0.125,-0.75,0.375,1\n0.25,0.625,-0.875,1.75\n"
	if err := os.WriteFile(hist, []byte(rows), 0o644); err != nil {
		t.Fatal(err)
	}
	args := func(kernel string) []string {
		return []string{"suggest", "--group", "hyperoctahedral", "--d", "3", "--box", "-1:1", "--base", "matern52", "--seed", "4", "--init", "5", "--history", hist, "--kernel", kernel}
	}
	code, out, errOut := runCLI(t, args("portfolio:nystrom+avg:soft+plus")...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	want := "perf suggest: warning: kernel portfolio:nystrom+avg:soft+plus leaves out avg: k_avg over hyperoctahedral(3) with matern52 would be enumerated: 48 evaluations per pair"
	if strings.Count(errOut, "\n") != 1 || !strings.HasPrefix(errOut, want) || !strings.Contains(errOut, "AffordEnumerateLimit") {
		t.Errorf("stderr = %q, want one line starting %q", errOut, want)
	}
	code, same, errSame := runCLI(t, args("portfolio:nystrom:soft+plus")...)
	if code != exitOK || errSame != "" {
		t.Errorf("without avg: exit %d, stderr %q", code, errSame)
	}
	if out != same || strings.Count(out, "\n") != 1 {
		t.Errorf("stdout with avg left out:\n%s\nwithout avg named:\n%s", out, same)
	}
	// A failing call keeps its one line of error.
	code, out, errOut = runCLI(t, append(args("portfolio:nystrom+avg:soft+plus"), "--pending", filepath.Join(t.TempDir(), "missing.csv"))...)
	checkOneLineError(t, code, out, errOut, "perf suggest: ")
}

// TestSuggestBlankYSaysPending: a --history row whose y is blank (a
// spreadsheet row written before its evaluation came back, or after it
// failed) is refused with one line that says where such a point goes;
// a blank x field is refused without that advice.
func TestSuggestBlankYSaysPending(t *testing.T) {
	base := []string{"suggest", "--group", "signflip", "--d", "2", "--box", "-1:1"}
	h := writeFile(t, "h.csv", "x1,x2,y\n0.1,0.2,1\n0.3,-0.4, \n")
	code, stdout, stderr := runCLI(t, append(base, "--history", h)...)
	checkOneLineError(t, code, stdout, stderr, "perf suggest: ", "h.csv:3:3: empty field (y); a point being evaluated goes in --pending")
	h = writeFile(t, "hx.csv", "0.1,0.2,1\n0.3,,2\n")
	code, stdout, stderr = runCLI(t, append(base, "--history", h)...)
	checkOneLineError(t, code, stdout, stderr, "perf suggest: ", "hx.csv:2:2: empty field")
	if strings.Contains(stderr, "--pending") {
		t.Errorf("a blank x: %q points to --pending", stderr)
	}
}

// TestSuggestStdoutIsInput: a stdout that is an input file is refused
// before it is read when the shell's '>' emptied it (the rows would be
// missing without a word: the new point could be a running one), or when
// it is --history or --failed (the points are not rows of them); '>>' on
// --pending, how a scheduler hands points out, appends the point.
func TestSuggestStdoutIsInput(t *testing.T) {
	rows := "0.1,0.2\n-0.3,0.4\n"
	base := []string{"suggest", "--group", "signflip", "--d", "2", "--box", "-1:1", "--seed", "1"}
	for _, c := range []struct {
		name, flag string
		flags      int // os.O_TRUNC for '>', os.O_APPEND for '>>'
		ok         bool
	}{
		{"pending >", "--pending", os.O_TRUNC, false},
		{"pending >>", "--pending", os.O_APPEND, true},
		{"failed >>", "--failed", os.O_APPEND, false},
		{"failed >", "--failed", os.O_TRUNC, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := writeFile(t, "p.csv", rows)
			out, err := os.OpenFile(path, os.O_WRONLY|c.flags, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer out.Close()
			var stderr strings.Builder
			code := run(append(base, c.flag, path), out, &stderr)
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if c.ok {
				if code != exitOK || !strings.HasPrefix(string(got), rows) || strings.Count(string(got), "\n") != 3 {
					t.Errorf("exit %d (%s), file %q: want the point appended", code, stderr.String(), got)
				}
				return
			}
			checkOneLineError(t, code, "", stderr.String(), "perf suggest: ", "stdout is "+c.flag+"'s file")
			if c.flags == os.O_APPEND && string(got) != rows {
				t.Errorf("file %q, want it untouched", got)
			}
		})
	}
}

// TestSuggestPendingBlankY: a --pending or --failed row shaped like a
// history row, its y blank, is refused with one line saying the rows
// have no y column.
func TestSuggestPendingBlankY(t *testing.T) {
	base := []string{"suggest", "--group", "signflip", "--d", "2", "--box", "-1:1"}
	for _, flag := range []string{"--pending", "--failed"} {
		p := writeFile(t, "p.csv", "x1,x2,y\n0.1,0.2,\n")
		code, stdout, stderr := runCLI(t, append(base, flag, p)...)
		checkOneLineError(t, code, stdout, stderr, "perf suggest: ", "p.csv:2:3: empty field; its rows are x1,…,xd, without a y column")
	}
}

// TestBoxNumbers: a --box bound spelled with a digit separator ("1_0",
// which strconv reads as 10) or a typeset minus ("−1", U+2212, as help
// texts print it) is refused naming the spelling; "-1" and "1e1" are read.
func TestBoxNumbers(t *testing.T) {
	for in, want := range map[string]string{"0:1_0": "digit separators", "−1:1": "ASCII '-'"} {
		if _, _, err := parseBox(in, 2); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("parseBox(%q): %v, want an error saying %q", in, err, want)
		}
	}
	lo, hi, err := parseBox("-1:1e1", 2)
	if err != nil || lo[1] != -1 || hi[1] != 10 {
		t.Errorf("parseBox(-1:1e1) = %v, %v, %v", lo, hi, err)
	}
}

// TestSuggestBatchExhaustedSaysHowMany: a batch the search space runs out
// of midway — a 1-d box under sign flips whose history covers [0, 1] at
// spacing 0.002 (the exclusion radius: 10⁻³ of the diagonal, 2) but for a
// gap around 0.51 — is refused (exit 2, one line, no point: a batch is
// all or nothing) naming how many of its points could be proposed, n; and
// --q n does return n points, which --q n + 1 does not. Before, the line
// was bo's alone, counting the batch's first points as "pending" when the
// input held none, and did not say that a smaller --q would succeed.
func TestSuggestBatchExhaustedSaysHowMany(t *testing.T) {
	var h strings.Builder
	for i := 0; i <= 1000; i += 2 {
		if x := float64(i) / 1000; x <= 0.5 || x >= 0.52 {
			fmt.Fprintf(&h, "%s,%s\n", fmtF(x), fmtF(math.Sin(7*x)))
		}
	}
	hist := writeFile(t, "h.csv", h.String())
	args := func(q int) []string {
		return []string{"suggest", "--group", "hyperoctahedral", "--d", "1", "--box", "-1:1", "--history", hist, "--q", strconv.Itoa(q)}
	}
	code, stdout, stderr := runCLI(t, args(20)...)
	checkOneLineError(t, code, stdout, stderr, "perf suggest: ", "search space exhausted", "of the --q 20 points")
	m := regexp.MustCompile(`only (\d+) of the --q 20 points .*--q (\d+) returns those`).FindStringSubmatch(stderr)
	if m == nil || m[1] != m[2] {
		t.Fatalf("stderr %q does not say how many points --q 20 could propose", stderr)
	}
	n, _ := strconv.Atoi(m[1])
	if n < 1 || n >= 20 {
		t.Fatalf("stderr %q: %d points proposed, want 1…19", stderr, n)
	}
	code, stdout, stderr = runCLI(t, args(n)...)
	if code != exitOK || strings.Count(stdout, "\n") != n {
		t.Errorf("--q %d: exit %d, %d rows (stderr %q), want %d rows", n, code, strings.Count(stdout, "\n"), stderr, n)
	}
	code, stdout, stderr = runCLI(t, args(n+1)...)
	checkOneLineError(t, code, stdout, stderr, "perf suggest: ", fmt.Sprintf("only %d of the --q %d points", n, n+1))
}

// TestSuggestAppendsAfterUnterminatedRow: '>> FILE' onto a --pending file
// whose last row has no line end (as an editor or a program may leave
// it) puts the new point on a line of its own: the file then holds the
// old row and the point, which a second call reads back as two pending
// rows. Before, the point was glued to the last row ("0.3,0.4-0.83…,…"):
// the pending row and the point lost, and every later call refused the
// file.
func TestSuggestAppendsAfterUnterminatedRow(t *testing.T) {
	base := []string{"suggest", "--group", "signflip", "--d", "2", "--box", "-1:1", "--seed", "1"}
	for _, row := range []string{"0.3,0.4", "0.3,0.4\r"} {
		path := writeFile(t, "p.csv", row)
		out, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			t.Fatal(err)
		}
		var stderr strings.Builder
		code := run(append(base, "--pending", path), out, &stderr)
		out.Close()
		if code != exitOK {
			t.Fatalf("exit %d: %s", code, stderr.String())
		}
		got, _ := os.ReadFile(path)
		// The point perf prints to another stdout for the same input.
		_, point, _ := runCLI(t, append(base, "--pending", writeFile(t, "q.csv", "0.3,0.4\n"))...)
		if want := row + "\n" + point; string(got) != want {
			t.Errorf("row %q: file %q, want %q", row, got, want)
		}
		if code, _, stderr := runCLI(t, append(base, "--pending", path)...); code != exitOK {
			t.Errorf("row %q: the file appended to is refused: %s", row, stderr)
		}
	}
}

// TestSuggestRefusesInertDecidingFlags: --hedge, --probe earned and
// --probe-window above 0 with auto or a single kernel, and --candidate-fit
// anchored with a single kernel, are refused (exit 2, one line naming
// the setting and the kernel) before any file is read; before, they were
// dropped without a word. What perf suggest -h tells a user to give is
// still taken with every kernel: the recipe (suggestRecipe: --hedge 0)
// and, for a deciding kernel, --candidate-fit own --probe-window 0
// --probe always (also with a single kernel, where they ask for nothing
// it lacks), and the default kernel takes every flag.
func TestSuggestRefusesInertDecidingFlags(t *testing.T) {
	base := []string{"suggest", "--group", "hyperoctahedral", "--d", "2", "--box", "-1:1", "--history", "/nonexistent/h.csv"}
	for _, c := range []struct {
		kernel string
		flags  []string
		want   string
	}{
		{"plus", []string{"--hedge", "3"}, `hedge 3 acts only on a portfolio kernel; kernel "plus" has one candidate`},
		{"nystrom", []string{"--hedge", "1"}, `kernel "nystrom"`},
		{"auto", []string{"--hedge", "2"}, `hedge 2 acts only on a portfolio kernel; kernel "auto"`},
		{"soft", []string{"--probe", "earned"}, `probe earned acts only on a portfolio kernel`},
		{"max", []string{"--probe-window", "5"}, `probe_window 5 acts only on a portfolio kernel`},
		{"base", []string{"--candidate-fit", "anchored"}, `candidate_fit anchored acts only on a deciding kernel (auto, portfolio); kernel "base"`},
	} {
		code, stdout, stderr := runCLI(t, append(append(base, "--kernel", c.kernel), c.flags...)...)
		checkOneLineError(t, code, stdout, stderr, "perf suggest: ", c.want)
	}
	deciding := []string{"--candidate-fit", "own", "--probe-window", "0", "--probe", "always"}
	for _, k := range []string{"plus", "nystrom", "base", "avg", "soft", "max", "auto", "portfolio", frontend.DefaultKernel} {
		args := append(append([]string{"suggest", "--group", "hyperoctahedral", "--d", "2", "--box", "-1:1", "--kernel", k, "--allow-repeats"}, suggestRecipe...), deciding...)
		if code, stdout, stderr := runCLI(t, args...); code != exitOK || strings.Count(stdout, "\n") != 1 {
			t.Errorf("kernel %s with the recipe: exit %d, %q, %q", k, code, stdout, stderr)
		}
	}
	for _, flags := range [][]string{{"--hedge", "3", "--probe", "earned", "--probe-window", "2", "--candidate-fit", "anchored"}, {"--kernel", "portfolio", "--hedge", "3", "--probe-window", "2"}} {
		args := append([]string{"suggest", "--group", "hyperoctahedral", "--d", "2", "--box", "-1:1"}, flags...)
		if code, stdout, stderr := runCLI(t, args...); code != exitOK || strings.Count(stdout, "\n") != 1 {
			t.Errorf("%v: exit %d, %q, %q", flags, code, stdout, stderr)
		}
	}
}
