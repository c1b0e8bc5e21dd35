package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/symbo/symbo/bo"
	"github.com/symbo/symbo/bo/problem"
	"github.com/symbo/symbo/gp"
	"github.com/symbo/symbo/internal/csvio"
	"github.com/symbo/symbo/internal/errclass"
	"github.com/symbo/symbo/internal/f64"
	"github.com/symbo/symbo/internal/frontend"
	"github.com/symbo/symbo/internal/journal"
	"github.com/symbo/symbo/lab/experiments"
	"github.com/symbo/symbo/linalg"
	"github.com/symbo/symbo/orbit"
)

// runCLI runs perf with args and returns the exit status, stdout and stderr.
func runCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(args, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// checkOneLineError checks the contract for bad input: exit 2, nothing on
// stdout, exactly one line on stderr, starting with prefix and containing
// every string in want.
func checkOneLineError(t *testing.T, code int, stdout, stderr, prefix string, want ...string) {
	t.Helper()
	if code != exitUsage {
		t.Errorf("exit status %d, want %d (stderr %q)", code, exitUsage, stderr)
	}
	if stdout != "" {
		t.Errorf("stdout = %.200q…, want nothing", stdout)
	}
	if !strings.HasSuffix(stderr, "\n") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("stderr = %q, want exactly one line", stderr)
	}
	if !strings.HasPrefix(stderr, prefix) {
		t.Errorf("stderr = %q, want prefix %q", stderr, prefix)
	}
	for _, w := range want {
		if !strings.Contains(stderr, w) {
			t.Errorf("stderr = %q, want it to mention %q", stderr, w)
		}
	}
}

func TestDispatch(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		code int
		// Substrings of stdout (exit 0) or stderr (otherwise).
		want []string
	}{
		{"help", []string{"help"}, 0, []string{"Subcommands", "gram"}},
		{"-h", []string{"-h"}, 0, []string{"Subcommands", "gram"}},
		{"--help", []string{"--help"}, 0, []string{"Subcommands", "gram"}},
		{"help gram", []string{"help", "gram"}, 0, []string{"Usage: perf gram", "Example", "--lengthscale"}},
		{"gram -h", []string{"gram", "-h"}, 0, []string{"Usage: perf gram", "Example", "testdata/examples/points5d.csv"}},
		{"gram --help", []string{"gram", "--help"}, 0, []string{"Usage: perf gram", "Example", "-backend"}},
		{"gram -help after flags", []string{"gram", "--d", "3", "-help"}, 0, []string{"Usage: perf gram"}},
		{"no subcommand", nil, 2, []string{"perf: missing subcommand", "gram", "help"}},
		{"unknown subcommand", []string{"frobnicate"}, 2, []string{`perf: unknown subcommand "frobnicate"`, "gram", "help"}},
		{"help unknown", []string{"help", "frobnicate"}, 2, []string{`perf help: unknown subcommand "frobnicate"`, "gram"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, tc.args...)
			if tc.code == 0 {
				if code != 0 || stderr != "" {
					t.Fatalf("exit %d, stderr %q; want 0 and nothing", code, stderr)
				}
				for _, w := range tc.want {
					if !strings.Contains(stdout, w) {
						t.Errorf("stdout does not mention %q:\n%s", w, stdout)
					}
				}
				return
			}
			checkOneLineError(t, code, stdout, stderr, "perf", tc.want...)
		})
	}
}

func TestFinishExitStatus(t *testing.T) {
	var stderr bytes.Buffer
	if got := finish("x", nil, &stderr); got != exitOK || stderr.Len() != 0 {
		t.Errorf("nil: %d %q", got, stderr.String())
	}
	stderr.Reset()
	if got := finish("x", errors.New("disk\nfull"), &stderr); got != exitFailure || stderr.String() != "perf x: disk; full\n" {
		t.Errorf("plain error: %d %q", got, stderr.String())
	}
	stderr.Reset()
	if got := finish("x", badInput("bad %d", 7), &stderr); got != exitUsage || stderr.String() != "perf x: bad 7\n" {
		t.Errorf("input error: %d %q", got, stderr.String())
	}
}

// TestExitStatus: exitStatus maps every error class (errclass.Classes),
// and finish gives each error its class's status however it is wrapped —
// the sentinels the old hand lists missed included (bo.ErrHistory,
// gp.ErrNilArgument, problem.ErrLength, …, linalg.ErrNotFinite), and
// perf's own errors (csvio.Error, journals, the exit-2 inputError).
func TestExitStatus(t *testing.T) {
	want := map[errclass.Class]int{errclass.Internal: exitFailure, errclass.Input: exitUsage, errclass.Size: exitUsage}
	for _, c := range errclass.Classes() {
		if w, ok := want[c]; !ok || exitStatus(c) != w {
			t.Errorf("class %v: exit status %d, want %d (mapped: %t)", c, exitStatus(c), w, ok)
		}
	}
	for _, tc := range []struct {
		err  error
		want int
	}{
		{bo.ErrHistory, exitUsage},
		{gp.ErrNilArgument, exitUsage},
		{problem.ErrLength, exitUsage},
		{problem.ErrNotFinite, exitUsage},
		{problem.ErrOutOfBounds, exitUsage},
		{problem.ErrUsers, exitUsage},
		{linalg.ErrNotFinite, exitUsage},
		{linalg.ErrUnavailable, exitUsage},
		{orbit.ErrOverBudget, exitUsage},
		{frontend.ErrInvalid, exitUsage},
		{&frontend.RowError{Input: "history", Row: 2, Err: linalg.ErrNotPositiveDefinite}, exitUsage},
		{&csvio.Error{File: "x.csv", Line: 3, Msg: "bad"}, exitUsage},
		{journal.ErrCorrupt, exitUsage},
		{experiments.ErrBadOptions, exitUsage},
		{errNotFinite, exitUsage},
		{asInput(errors.New("disk full")), exitUsage},
		{linalg.ErrNotPositiveDefinite, exitFailure},
		{gp.ErrNoDerivative, exitFailure},
		{errors.New("bo: invalid point"), exitFailure}, // a text, not the sentinel
		{interrupted("kept 3 runs"), exitInterrupted},
	} {
		for _, err := range []error{tc.err, fmt.Errorf("ctx: %w", tc.err), fmt.Errorf("a: %w", fmt.Errorf("b: %w", tc.err))} {
			var stderr bytes.Buffer
			if got := finish("x", err, &stderr); got != tc.want {
				t.Errorf("%v: exit status %d, want %d", err, got, tc.want)
			}
		}
	}
}

// parseMatrixJSON decodes perf's matrix JSON, keeping every number as
// written.
func parseMatrixJSON(t *testing.T, s string) (rows, cols int, m [][]json.Number) {
	t.Helper()
	var out struct {
		Rows   *int            `json:"rows"`
		Cols   *int            `json:"cols"`
		Matrix [][]json.Number `json:"matrix"`
	}
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	dec.DisallowUnknownFields()
	if err := dec.Decode(&out); err != nil {
		t.Fatalf("output is not the matrix JSON: %v\n%s", err, s)
	}
	if dec.More() {
		t.Fatalf("trailing data after the JSON object")
	}
	if out.Rows == nil || out.Cols == nil || out.Matrix == nil {
		t.Fatalf("missing field in %q", s)
	}
	if len(out.Matrix) != *out.Rows {
		t.Fatalf("rows = %d but matrix has %d rows", *out.Rows, len(out.Matrix))
	}
	for i, r := range out.Matrix {
		if len(r) != *out.Cols {
			t.Fatalf("cols = %d but row %d has %d entries", *out.Cols, i, len(r))
		}
	}
	return *out.Rows, *out.Cols, out.Matrix
}

// shortest parses n and checks it is written in shortest round-trip form.
func shortest(t *testing.T, n json.Number) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(string(n), 64)
	if err != nil {
		t.Fatalf("%q: %v", n, err)
	}
	if s := strconv.FormatFloat(v, 'g', -1, 64); s != string(n) {
		t.Fatalf("%q is not in shortest round-trip form %q", n, s)
	}
	return v
}

func TestWriteMatrixJSON(t *testing.T) {
	vals := []float64{0.1, 1.0 / 3, -2, 0, math.Copysign(0, -1), 5e-324, math.MaxFloat64,
		1e21, 1e-7, 123456789, math.Nextafter(1, 2), -math.SmallestNonzeroFloat64 * 7}
	m := mat.NewDense(3, 4, vals)
	var buf bytes.Buffer
	if err := writeMatrixJSON(&buf, m); err != nil {
		t.Fatal(err)
	}
	r, c, got := parseMatrixJSON(t, buf.String())
	if r != 3 || c != 4 {
		t.Fatalf("shape %d×%d", r, c)
	}
	for i := range r {
		for j := range c {
			v := shortest(t, got[i][j])
			if w := m.At(i, j); math.Float64bits(v) != math.Float64bits(w) {
				t.Errorf("(%d,%d): %v read back as %v", i, j, w, v)
			}
		}
	}

	buf.Reset()
	if err := writeMatrixJSON(&buf, &mat.Dense{}); err != nil {
		t.Fatal(err)
	}
	if r, c, _ := parseMatrixJSON(t, buf.String()); r != 0 || c != 0 {
		t.Errorf("empty matrix: %d×%d", r, c)
	}

	for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		buf.Reset()
		if err := writeMatrixJSON(&buf, mat.NewDense(1, 2, []float64{1, bad})); err == nil {
			t.Errorf("%v: no error", bad)
		}
		if buf.Len() != 0 {
			t.Errorf("%v: wrote %q", bad, buf.String())
		}
	}
}

type brokenWriter struct{}

func (brokenWriter) Write([]byte) (int, error) { return 0, io.ErrClosedPipe }

func TestWriteMatrixJSONWriteError(t *testing.T) {
	err := writeMatrixJSON(brokenWriter{}, mat.NewDense(1, 1, []float64{1}))
	if !errors.Is(err, io.ErrClosedPipe) {
		t.Errorf("err = %v, want wrapping %v", err, io.ErrClosedPipe)
	}
	var ie *inputError
	if errors.As(err, &ie) {
		t.Errorf("a write failure is not bad input")
	}
}

// TestHelpEveryCommand: every subcommand's -h prints its usage and its
// flags with their types and defaults, and nothing else (the wrapper that
// refuses repeated flags once made the flag package print panics here).
func TestHelpEveryCommand(t *testing.T) {
	for _, c := range commands {
		code, stdout, stderr := runCLI(t, c.name, "-h")
		if code != exitOK || stderr != "" {
			t.Errorf("%s -h: exit %d, stderr %q", c.name, code, stderr)
		}
		if strings.Contains(stdout, "panic") || strings.Contains(stdout, " value\n") {
			t.Errorf("%s -h prints a panic or an untyped flag:\n%s", c.name, stdout)
		}
		if !strings.Contains(stdout, "Usage: perf "+c.name) || !strings.Contains(stdout, "-mem-budget string") {
			t.Errorf("%s -h lacks its usage or typed flags:\n%s", c.name, stdout)
		}
	}
}

// TestHelpFlagValue: -h, -help and --help are a boolean. --help=false
// (or -h=false) asks for no help: the subcommand parses on and runs, or
// refuses its input with exit 2 and one line; a value that is no boolean
// is exit 2 and one line; --help=true is help. The flag package, given
// no help flag of perf's, took -h and -help with any value for a request
// of help (exit 0 and the usage, false and "maybe" alike), and perf's own
// dispatch knew --help=true for no subcommand.
func TestHelpFlagValue(t *testing.T) {
	for _, c := range commands {
		for _, h := range []string{"--help=false", "-h=false", "-help=0"} {
			// The unknown flag stops every subcommand before any work.
			code, stdout, stderr := runCLI(t, c.name, h, "--no-such-flag")
			checkOneLineError(t, code, stdout, stderr, "perf "+c.name+": ", "-no-such-flag")
		}
		code, stdout, stderr := runCLI(t, c.name, "--help=maybe")
		checkOneLineError(t, code, stdout, stderr, "perf "+c.name+": ", `invalid boolean value "maybe" for -help`)
		for _, args := range [][]string{{"--help=true"}, {"-h=1"}, {"-h", "-h"}, {"-h", "--no-such-flag"}, {"--help=false", "--help"}} {
			code, stdout, stderr := runCLI(t, append([]string{c.name}, args...)...)
			if code != exitOK || stderr != "" || !strings.Contains(stdout, "Usage: perf "+c.name) {
				t.Errorf("%s %s: exit %d, stderr %q, stdout %.100q", c.name, strings.Join(args, " "), code, stderr, stdout)
			}
		}
	}
	// --help=false is not one of the settings --resume refuses.
	code, stdout, stderr := runCLI(t, "bo", "--resume", filepath.Join(t.TempDir(), "missing.jsonl"), "--help=false")
	checkOneLineError(t, code, stdout, stderr, "perf bo: --resume: ", "missing.jsonl")
	// With no subcommand.
	for _, args := range [][]string{{"--help=false"}, {"-h=false"}, {"-help=f"}} {
		code, stdout, stderr := runCLI(t, args...)
		checkOneLineError(t, code, stdout, stderr, "perf: ", "missing subcommand")
	}
	code, stdout, stderr = runCLI(t, "--help=maybe")
	checkOneLineError(t, code, stdout, stderr, "perf: ", "--help=maybe")
	for _, args := range [][]string{{"--help=true"}, {"-h=1"}, {"-help=T"}} {
		if code, stdout, stderr := runCLI(t, args...); code != exitOK || stderr != "" || !strings.Contains(stdout, "Subcommands") {
			t.Errorf("perf %s: exit %d, stderr %q, stdout %.100q", args[0], code, stderr, stdout)
		}
	}
	if code, stdout, stderr := runCLI(t, "--help=false", "gram", "-h"); code != exitOK || stderr != "" || !strings.Contains(stdout, "Usage: perf gram") {
		t.Errorf("perf --help=false gram -h: exit %d, stderr %q, stdout %.100q", code, stderr, stdout)
	}
}

// TestFlagEdges: flag values a red team found — each was accepted
// or explained wrongly — are exit 2 with one line saying what is wrong.
func TestFlagEdges(t *testing.T) {
	gram := []string{"gram", "--group", "permutation", "--d", "3", "--base", "rbf", "--lengthscale", "1", "--kernel", "max", "--x", writeFile(t, "x.csv", "1,2,3\n")}
	suggest := []string{"suggest", "--group", "permutation", "--d", "3", "--box", "-1:1", "--kernel", "plus"}
	for _, tc := range []struct {
		name string
		args []string
		want []string
	}{
		// --coords "" meant all coordinates, while "coords": [] is an error.
		{"gram coords empty", append(gram, "--coords", ""), []string{"--coords is empty"}},
		{"suggest coords empty", append(suggest, "--coords", " "), []string{"--coords is empty"}},
		// "got -2".
		{"seeds empty range", []string{"table", "--seeds", "5:3"}, []string{"range 5:3 is empty"}},
		{"seeds equal range", []string{"table", "--seeds", "5:5"}, []string{"range 5:5 is empty"}},
		// 0.5 was 1 byte while 0 was refused; 1GB was read as 1 GiB though
		// only binary units are documented.
		{"mem budget half a byte", append(gram, "--mem-budget", "0.5"), []string{"--mem-budget", "whole number of bytes"}},
		{"mem budget decimal unit", append(gram, "--mem-budget", "1GB"), []string{"--mem-budget", `unknown unit "GB"`}},
		// A finite factor this large let β overflow at some step; every
		// later step failed with a message naming no flag.
		{"suggest beta scale huge", append(suggest, "--beta-scale", "1e308"), []string{"beta_scale", "(0, 1e+06]"}},
		{"bo beta scale huge", []string{"bo", "--problem", "Ackley2d", "--kernel", "plus", "--beta-scale", "1e308"}, []string{"--beta-scale", "(0, 1e+06]"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, tc.args...)
			checkOneLineError(t, code, stdout, stderr, "perf "+tc.args[0]+": ", tc.want...)
		})
	}
	if code, _, stderr := runCLI(t, append(gram, "--mem-budget", "1.5KiB")...); code != exitOK {
		t.Errorf("--mem-budget 1.5KiB: exit %d: %s", code, stderr)
	}
}

// TestLongInputEchoBounded: a 20 MB kernel name was echoed whole into the
// one line on stderr. Every message perf prints goes through
// frontend.Message, which shortens a long quoted input.
func TestLongInputEchoBounded(t *testing.T) {
	name := "plus+" + strings.Repeat("x", 20<<20)
	code, stdout, stderr := runCLI(t, "suggest", "--group", "signflip", "--d", "1", "--box", "-1:1", "--kernel", name)
	checkOneLineError(t, code, stdout, stderr[:min(len(stderr), 1000)], "perf suggest: ", "unknown kernel", fmt.Sprintf("(%d bytes)", len(name)))
	if len(stderr) > 400 {
		t.Errorf("stderr holds %d bytes: %.300s…", len(stderr), stderr)
	}
	code, _, stderr = runCLI(t, name)
	if code != exitUsage || len(stderr) > 400 || !strings.Contains(stderr, "unknown subcommand") {
		t.Errorf("unknown subcommand: exit %d, %d bytes on stderr: %.300s", code, len(stderr), stderr)
	}
}

// fullWriter fails every write, as stdout on a full disk does.
type fullWriter struct{}

func (fullWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// TestHelpToFullStdout: help that cannot be written is exit 1 with one
// line on stderr (it was exit 0, the help lost), "perf <sub>: writing
// output: …" naming the subcommand whose help it was (it said "perf:
// writing the output: …" whatever the subcommand).
func TestHelpToFullStdout(t *testing.T) {
	for _, c := range []struct {
		args   []string
		prefix string
	}{{[]string{"help"}, "perf: "}, {[]string{"bo", "-h"}, "perf bo: "}, {[]string{"help", "table"}, "perf table: "}} {
		var stderr bytes.Buffer
		want := c.prefix + "writing output: no space left on device\n"
		if code := run(c.args, fullWriter{}, &stderr); code != exitFailure || stderr.String() != want {
			t.Errorf("perf %s to a full stdout: exit %d, stderr %q; want exit %d, %q", strings.Join(c.args, " "), code, stderr.String(), exitFailure, want)
		}
	}
}

// TestCheckToFullStdout: perf check's report, which it prints without
// looking at the writes, to a stdout that cannot be written is exit 1
// and the last stderr line "perf check: writing output: …" (it said
// "perf: writing the output: …", not naming the subcommand).
func TestCheckToFullStdout(t *testing.T) {
	out := filepath.Join(t.TempDir(), "T")
	if code, _, stderr := runCLI(t, "table", "--seeds", "1", "--iters", "2", "--init", "3", "--problems", "Ackley2d", "--kernels", "base", "--workers", "1", "--out", out); code != exitOK {
		t.Fatalf("table: exit %d: %s", code, stderr)
	}
	path := filepath.Join(out, recordFile)
	var rec resultsRecord
	if data, err := os.ReadFile(path); err != nil || json.Unmarshal(data, &rec) != nil {
		t.Fatalf("record: %v", err)
	}
	rec.Modified = false // the test binary may be built from a modified tree
	if data, err := json.Marshal(rec); err != nil || os.WriteFile(path, data, 0o644) != nil {
		t.Fatalf("record: %v", err)
	}
	var stderr bytes.Buffer
	code := run([]string{"check", "--dir", out, "--cells", "1", "--workers", "1"}, fullWriter{}, &stderr)
	lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
	if want := "perf check: writing output: no space left on device"; code != exitFailure || lines[len(lines)-1] != want {
		t.Errorf("perf check to a full stdout: exit %d, stderr %q; want exit %d, last line %q", code, stderr.String(), exitFailure, want)
	}
}

// TestForceNeedsItsOutput: --force without the output it lets overwrite
// is refused up front (it was accepted and did nothing; a table or batch
// then ran whole).
func TestForceNeedsItsOutput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"bo", "--problem", "Ackley2d", "--kernel", "plus", "--force"}, "--force is used only with --json"},
		{[]string{"table", "--force"}, "--force is used only with --out"},
		{[]string{"batch", "--force"}, "--force is used only with --out"},
		{[]string{"robustness", "--force"}, "--force is used only with --out"},
		{[]string{"complexity", "--force"}, "--force is used only with --out"},
		{[]string{"spectrum", "--force"}, "--force is used only with --out"},
	} {
		code, stdout, stderr := runCLI(t, c.args...)
		checkOneLineError(t, code, stdout, stderr, "perf "+c.args[0]+": ", c.want)
	}
}

// TestEmptyListFlags: perf batch's and perf robustness's --problems and
// --kernels given an empty value (a shell variable that was unset) are
// exit 2 with one line, as perf table's are. Before, both commands ran
// their default study (robustness: 400 runs) and exited 0. So are perf
// complexity's --sweep and perf profile's --eigen-vs-c: --sweep "" ran
// no sweep in |G|, --sweep " " the default one, and --eigen-vs-c ""
// timed nothing, each exiting 0.
func TestEmptyListFlags(t *testing.T) {
	tiny := []string{"--seeds", "1", "--iters", "1", "--init", "2", "--workers", "1"}
	// Small sizes, so that a run that is not refused ends soon.
	cx := []string{"complexity", "--group", "signflip", "--d", "2", "--n", "6,12", "--group-n", "6", "--m", "4", "--landmark-m", "4",
		"--landmark-n", "12,24", "--landmark-ms", "4,8", "--min-time", "1us", "--max-reps", "1"}
	px := []string{"profile", "--group", "signflip", "--d", "2", "--n", "6,12", "--m", "4", "--bo-kernel", "base", "--gemm-n", "2",
		"--min-time", "1us", "--max-reps", "1"}
	for _, tc := range []struct {
		flag string
		args []string
	}{
		{"--problems", append([]string{"batch", "--qs", "1", "--kernels", "base", "--problems", ""}, tiny...)},
		{"--kernels", append([]string{"batch", "--qs", "1", "--problems", "Ackley2d", "--kernels", " "}, tiny...)},
		{"--problems", append([]string{"robustness", "--dims", "1", "--kernels", "base", "--problems", " "}, tiny...)},
		{"--kernels", append([]string{"robustness", "--dims", "1", "--problems", "ackley", "--kernels", ""}, tiny...)},
		{"--sweep", append(cx[:len(cx):len(cx)], "--sweep", "")},
		{"--sweep", append(cx[:len(cx):len(cx)], "--sweep", " ")},
		{"--eigen-vs-c", append(px[:len(px):len(px)], "--eigen-vs-c", "")},
	} {
		code, stdout, stderr := runCLI(t, tc.args...)
		checkOneLineError(t, code, stdout, stderr, "perf "+tc.args[0]+": ", tc.flag+" is empty")
	}
}

// TestEmptyChoiceFlags: a flag of perf table, batch, robustness, bo or
// suggest that takes one of a few words (choiceFlags: --prior, --noise,
// --liar …; suggest's --kernel and --base too) given empty — a shell
// variable that was unset — is exit 2 with one line naming it, as --acq,
// --beta and --fit given empty were. Before, --prior "", --noise "" and
// the others ran with the default (--noise "" the box rule where a fixed
// variance was meant) and exited 0; perf suggest did so for every one of
// them after the others were fixed.
func TestEmptyChoiceFlags(t *testing.T) {
	tiny := []string{"--seeds", "1", "--iters", "1", "--init", "2", "--workers", "1", "--kernels", "base"}
	cmds := map[string][]string{
		"table":      append([]string{"table", "--problems", "Ackley2d"}, tiny...),
		"batch":      append([]string{"batch", "--qs", "1", "--problems", "Ackley2d"}, tiny...),
		"robustness": append([]string{"robustness", "--dims", "1", "--problems", "ackley"}, tiny...),
		"bo":         {"bo", "--problem", "Ackley2d", "--kernel", "base", "--iters", "1", "--init", "2", "--workers", "1"},
		"suggest":    {"suggest", "--problem", "Ackley2d", "--init", "2"},
	}
	checked := 0
	for _, cmd := range []string{"table", "batch", "robustness", "bo", "suggest"} {
		_, help, _ := runCLI(t, cmd, "-h")
		names := choiceFlags
		if cmd == "suggest" {
			names = append([]string{"kernel", "base"}, choiceFlags...)
		}
		for _, name := range names {
			if !strings.Contains(help, "\n  -"+name+" ") {
				continue // not one of cmd's flags
			}
			args := append(slices.Clip(cmds[cmd]), "--"+name, "")
			code, stdout, stderr := runCLI(t, args...)
			checkOneLineError(t, code, stdout, stderr, "perf "+cmd+": ", "--"+name+" is empty")
			checked++
		}
	}
	if checked < 59 {
		t.Errorf("%d cases checked, want every choice flag of the five commands (59)", checked)
	}
}

// TestEmptyPathFlags: a flag that names a file or directory given an
// empty value (a shell variable that was unset) is exit 2 with one line
// naming the flag, before any work: nothing is written in the working
// directory. Before, perf table --out "" and perf bo --json ""
// --checkpoint "" ran and exited 0 writing no output, and perf table
// --out "" --resume looked for ./runs.journal.
func TestEmptyPathFlags(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	tiny := []string{"--seeds", "1", "--iters", "2", "--init", "3", "--workers", "1"}
	for _, tc := range []struct {
		flag string
		args []string
	}{
		{"--out", append([]string{"table", "--problems", "Ackley2d", "--kernels", "base", "--out", ""}, tiny...)},
		{"--out", []string{"table", "--out", "", "--resume"}},
		{"--json", []string{"bo", "--problem", "Ackley2d", "--kernel", "base", "--init", "3", "--iters", "2", "--json", "", "--checkpoint", ""}},
		{"--checkpoint", []string{"bo", "--problem", "Ackley2d", "--kernel", "base", "--init", "3", "--iters", "2", "--checkpoint", ""}},
		{"--resume", []string{"bo", "--resume", ""}},
		{"--out", append([]string{"robustness", "--problems", "ackley", "--dims", "1", "--kernels", "base", "--out", ""}, tiny...)},
		{"--out", append([]string{"batch", "--problems", "Ackley2d", "--qs", "1", "--kernels", "base", "--out", ""}, tiny...)},
		{"--dir", []string{"check", "--dir", ""}},
		{"--main", []string{"stats", "--main", "", "--replication", "x"}},
		{"--out", []string{"figure", "--out", ""}},
		{"--cpuprofile", []string{"profile", "--group", "signflip", "--d", "2", "--cpuprofile", ""}},
	} {
		code, stdout, stderr := runCLI(t, tc.args...)
		checkOneLineError(t, code, stdout, stderr, "perf "+tc.args[0]+": ", tc.flag+" is empty")
	}
	if entries, _ := os.ReadDir(dir); len(entries) > 0 {
		t.Errorf("the refused commands wrote %v into the working directory", entries)
	}
}

// TestSIMDEnvRefused: a SYMBO_SIMD value internal/f64 would ignore is
// refused before any subcommand runs (exit 2, one line), where the
// detected path would otherwise be timed and recorded as if asked for;
// the three levels and unset are accepted, and help still answers.
func TestSIMDEnvRefused(t *testing.T) {
	gram := []string{"eval", "--problem", "Ackley2d", "--x", writeFile(t, "x.csv", "0.5,-1\n")}
	t.Setenv(f64.EnvSIMD, "avx3")
	code, stdout, stderr := runCLI(t, gram...)
	checkOneLineError(t, code, stdout, stderr, "perf eval: ", `SYMBO_SIMD="avx3"`)
	if code, _, stderr := runCLI(t, "help"); code != exitOK {
		t.Errorf("perf help under SYMBO_SIMD=avx3: exit %d, stderr %q", code, stderr)
	}
	for _, v := range []string{"", "generic", "avx2", "avx512"} {
		t.Setenv(f64.EnvSIMD, v)
		if code, _, stderr := runCLI(t, gram...); code != exitOK {
			t.Errorf("SYMBO_SIMD=%q: exit %d, stderr %q", v, code, stderr)
		}
	}
}
