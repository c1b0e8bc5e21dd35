package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/symbo/symbo/bo"
)

// TestSuggestReplaysBO: perf suggest, given the first k evaluations of a
// perf bo run as its history, prints exactly the point that run evaluated
// next (initial design and acquisition steps alike): the same function of
// (settings, seed, history).
func TestSuggestReplaysBO(t *testing.T) {
	dir := t.TempDir()
	js := filepath.Join(dir, "run.json")
	args := []string{"bo", "--problem", "Ackley2d", "--kernel", "plus", "--seed", "3", "--init", "3", "--iters", "4", "--json", js}
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
		sargs := []string{"suggest", "--problem", "Ackley2d", "--kernel", "plus", "--seed", "3", "--init", "3", "--history", hist}
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
			t.Errorf("k = %d: suggest %q, perf bo evaluated %q", k, out, want)
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
		{"no kernel", []string{"suggest", "--problem", "Ackley2d"}, "--kernel"},
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
