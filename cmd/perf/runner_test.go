package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/symbo/symbo/internal/atomicfile"
	"github.com/symbo/symbo/internal/journal"
	"github.com/symbo/symbo/lab/experiments"
)

// cubes is an experiment as the runner sees it: n runs, run i computing
// i³ (calling ran), reported as their sum.
func cubes(n int, ran func(i int)) experiments.Plan[int, int] {
	runs := make([]experiments.Run[int], n)
	for i := range runs {
		runs[i] = experiments.Run[int]{Cell: "cubes", Cost: 1, Check: func(r int) bool { return r == i*i*i },
			Do: func(context.Context) (int, error) { ran(i); return i * i * i, nil }}
	}
	return experiments.Plan[int, int]{Runs: runs, Report: func(rs []int, _ time.Duration) int {
		sum := 0
		for _, r := range rs {
			sum += r
		}
		return sum
	}}
}

// TestRunnerResumesPlan: a plan's runs are journaled as they finish; a
// resumed runner reads the settings and runs back and runs none of them
// again; a run journaled twice is refused.
func TestRunnerResumesPlan(t *testing.T) {
	type settings struct {
		N int `json:"n"`
	}
	dir := t.TempDir()
	var stderr bytes.Buffer
	r := &runner{cmd: "perf cubes", stderr: &stderr, unit: "run record", whole: "study", enable: "--out DIR"}
	if err := r.create("--out", filepath.Join(dir, "runs.journal"), "perf cubes --resume", settings{6}); err != nil {
		t.Fatal(err)
	}
	sum, err := runPlan(r, cubes(6, func(int) {}), 2, nil)
	if cerr := r.close(nil); cerr != nil {
		t.Fatal(cerr)
	}
	if err != nil || sum != 225 || !strings.Contains(stderr.String(), "perf cubes: 6/6 runs") {
		t.Fatalf("sum %d, %v; stderr %q", sum, err, stderr.String())
	}

	r = &runner{cmd: "perf cubes", stderr: &stderr, unit: "run record", whole: "study", enable: "--out DIR"}
	var set settings
	kept, err := resume[planRecord[int]](r, dir, "runs.journal", "perf cubes --resume", &set)
	if err != nil || set.N != 6 || len(kept) != 6 {
		t.Fatalf("resume: %v, settings %+v, %d records", err, set, len(kept))
	}
	var again []int
	if sum, err = runPlan(r, cubes(6, func(i int) { again = append(again, i) }), 1, kept); err != nil || sum != 225 || len(again) != 0 {
		t.Errorf("resumed: sum %d, %v, ran %v again", sum, err, again)
	}
	if err := r.close(nil); err != nil {
		t.Fatal(err)
	}

	dup := append(slices.Clone(kept[:2]), kept[1])
	_, err = runPlan(&runner{cmd: "perf cubes", stderr: &stderr, path: "runs.journal"}, cubes(6, func(int) {}), 1, dup)
	var ie *inputError
	if !errors.As(err, &ie) || err.Error() != fmt.Sprintf("--resume runs.journal: run %d journaled twice", kept[1].Index) {
		t.Errorf("a run journaled twice: %v", err)
	}
}

// TestRunnerInterrupted: what an interrupted run says it kept and how to
// resume it, for a plan and for a sequential run, with and without a
// journal, and for a command that keeps none.
func TestRunnerInterrupted(t *testing.T) {
	table := runner{cmd: "perf table", unit: "run record", whole: "table", enable: "--out DIR"}
	bo := runner{cmd: "perf bo", unit: "evaluation", whole: "run", enable: "--checkpoint FILE"}
	journaled := func(r runner, path, resume string) *runner {
		r.path, r.resumeCmd, r.w = path, resume, &journal.Writer{} // only tested for nil
		return &r
	}
	stopped := fmt.Sprintf("stopped after %d of %d evaluations", 3, 9)
	for _, tc := range []struct {
		r       *runner
		stopped string
		want    string
	}{
		{&runner{cmd: "perf spectrum"}, "", "interrupted: perf spectrum keeps no journal; rerun it"},
		{&table, "", "interrupted: nothing was kept (run with --out DIR to make a table resumable)"},
		{journaled(table, "res/runs.journal", "perf table --out res --resume"), "", "interrupted: finished runs are kept in res/runs.journal; resume with: perf table --out res --resume"},
		{&bo, stopped, "interrupted: stopped after 3 of 9 evaluations; nothing was kept (run with --checkpoint FILE to make a run resumable)"},
		{journaled(bo, "r.journal", "perf bo --resume r.journal"), stopped, "interrupted: stopped after 3 of 9 evaluations, all kept in r.journal; resume with: perf bo --resume r.journal"},
	} {
		err := tc.r.interrupted(tc.stopped)
		var ie *interruptedError
		if !errors.As(err, &ie) || err.Error() != tc.want {
			t.Errorf("%s: %v, want %q", tc.r.cmd, err, tc.want)
		}
	}
}

// TestRunnerCloseJournalThenLock: close closes the journal and then
// releases the output directory's lock the runner holds — a --resume the
// lock lets in finds the journal free — and reports the journal's Close
// error (it was dropped), after the command's own error if there is one;
// the lock is released whether or not the journal closes cleanly.
func TestRunnerCloseJournalThenLock(t *testing.T) {
	errRun := errors.New("the run failed")
	for _, runErr := range []error{nil, errRun} {
		for _, closeFails := range []bool{false, true} {
			dir := t.TempDir()
			lock, err := atomicfile.LockDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			r := &runner{cmd: "perf cubes", stderr: &bytes.Buffer{}, unit: "run record", whole: "study", enable: "--out DIR"}
			r.hold(lock)
			if err := r.create("--out", filepath.Join(dir, "runs.journal"), "perf cubes --resume", nil); err != nil {
				t.Fatal(err)
			}
			if closeFails {
				r.w.Close() // the runner's Close then fails: file already closed
			}
			err = r.close(runErr)
			switch {
			case closeFails && (err == nil || !strings.Contains(err.Error(), "closing the journal "+filepath.Join(dir, "runs.journal"))):
				t.Errorf("run error %v, failing Close: %v, want the journal's Close error", runErr, err)
			case runErr != nil && !errors.Is(err, runErr), !closeFails && err != runErr:
				t.Errorf("run error %v, failing Close %v: %v, want the run's error first", runErr, closeFails, err)
			}
			if r.w != nil || r.lock != nil {
				t.Error("close left the runner holding its journal or lock")
			}
			again, err := atomicfile.LockDir(dir)
			if err != nil {
				t.Fatalf("the directory after close: %v", err)
			}
			_, w, err := journal.OpenIn(dir, "runs.journal", "perf cubes")
			if err != nil {
				t.Fatalf("the journal after close: %v", err)
			}
			w.Close()
			again.Release()
		}
	}
}

// TestShellQuoteSurvivesOneLine: the resume command an error message
// prints names its path as the shell reads it back (bash, asked to print
// the quoted word), after finish has folded the message onto one line.
// Before, a path with a newline, a tab or two spaces in a row was single
// quoted and the fold changed it: --out $'a\nb' printed "resume with:
// perf table --out 'a; b' --resume", another directory.
func TestShellQuoteSurvivesOneLine(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	for _, p := range []string{"plain/dir", "a b", "it's", `x\y`, "a\nb", "a\tb", "a  b", "a\u00a0b", "a\u0085b", "é/ü", "a\rb\x7f"} {
		q := shellQuote(p)
		msg := oneLine("resume with: perf table --out " + q + " --resume")
		if !strings.Contains(msg, " "+q+" ") {
			t.Errorf("path %q: quoted %s, the one-line message %q does not keep it", p, q, msg)
			continue
		}
		out, err := exec.Command(bash, "-c", "printf %s "+q).Output()
		if err != nil || string(out) != p {
			t.Errorf("path %q: quoted %s, bash reads back %q (%v)", p, q, out, err)
		}
	}
}
