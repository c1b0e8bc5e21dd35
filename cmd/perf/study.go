package main

import (
	"io"
	"path/filepath"
	"strings"

	"github.com/symbo/symbo/bo"
	"github.com/symbo/symbo/lab/experiments"
)

// studyJournalFile is the journal of perf batch and perf robustness in
// their --out directory (journal kind "perf batch" or "perf robustness",
// records planRecord[*bo.Trace], settings studySettings).
const studyJournalFile = "runs.journal"

// studySettings is the journal header of a study: the arguments it was
// started with, which --resume parses again, so that the resumed plan is
// the started one (only --out, --workers and --mem-budget are taken from
// the resuming command line).
type studySettings struct {
	Args []string `json:"args"`
}

// study is a subcommand that runs a plan of BO runs and reports it: perf
// batch and perf robustness.
type study[Res any] struct {
	name string // "batch"
	// flags parses args and returns the flag set, the plan flags and
	// what builds the plan from them (called after --workers,
	// --mem-budget and --out may have been set from a resuming
	// command line).
	flags func(args []string, stdout io.Writer) (*flagSet, *planFlags, func() (experiments.Plan[*bo.Trace, Res], error), error)
	// report prints the result and, with --out, writes its files;
	// command is the command line that started the study.
	report func(res Res, pf *planFlags, command string, stop func() error, stdout, stderr io.Writer) error
	// figures are the names of the figures report writes (name.png and
	// name.svg), which --force removes with the study's other files
	// before it starts.
	figures []string
}

// runStudy runs s with args. With --out DIR every finished run is
// journaled in DIR/runs.journal as it completes; 'perf NAME --out DIR
// --resume' (with --workers and --mem-budget, nothing else) continues
// a study that stopped — Ctrl-C, SIGTERM, kill -9 — from its journal and
// ends with the files an uninterrupted study writes.
func runStudy[Res any](s study[Res], args []string, stdout, stderr io.Writer) (err error) {
	cmd := "perf " + s.name
	fs, pf, build, err := s.flags(args, stdout)
	if err != nil {
		return err
	}
	r := &runner{cmd: cmd, stderr: stderr, unit: "run record", whole: "study", enable: "--out DIR"}
	defer func() { err = r.close(err) }()
	resumeCmd := cmd + " --out " + shellQuote(*pf.out) + " --resume"
	started, resuming := args, *pf.resume
	var kept []planRecord[*bo.Trace]
	if resuming {
		if err := fs.require("out"); err != nil {
			return err
		}
		if err := fs.onlyWith("resume", "out", "workers", "mem-budget"); err != nil {
			return err
		}
		lock, err := lockWritableOutDir(*pf.out)
		if err != nil {
			return err
		}
		r.hold(lock)
		var set studySettings
		if kept, err = resume[planRecord[*bo.Trace]](r, *pf.out, studyJournalFile, resumeCmd, &set); err != nil {
			return err
		}
		// The study's own arguments, with this command line's --out,
		// --workers and --mem-budget.
		fs2, pf2, build2, err := s.flags(set.Args, stdout)
		if err != nil {
			return badInput("--resume %s: the study's arguments: %w", filepath.Join(*pf.out, studyJournalFile), err)
		}
		*pf2.out = *pf.out
		if fs.given()["workers"] {
			*pf2.workers = *pf.workers
		}
		if fs.given()["mem-budget"] {
			fs2.budget = fs.budget
		}
		pf, build, started = pf2, build2, set.Args
	}
	plan, err := build()
	if err != nil {
		return err
	}
	if err := preflight(plan.Runs, kept); err != nil {
		return err
	}
	if *pf.out != "" && !resuming {
		lock, err := prepareOutDir(*pf.out, *pf.force)
		if err != nil {
			return err
		}
		r.hold(lock)
		jpath := filepath.Join(*pf.out, studyJournalFile)
		if *pf.force {
			if err := removeOutputs(*pf.out, s.name, s.figures...); err != nil {
				return err
			}
		}
		if err := r.create("--out", jpath, resumeCmd, studySettings{Args: args}); err != nil {
			return err
		}
	}
	if *pf.out != "" {
		removeStaleTemps(stderr, cmd, *pf.out, append(outputNames(s.name, s.figures...), outProbe)...)
	}
	res, err := runPlan(r, plan, *pf.workers, kept)
	if err != nil {
		return err
	}
	return r.outputsFailed(s.report(res, pf, cmd+" "+strings.Join(started, " "), r.stopped, stdout, stderr))
}
