package main

import (
	"fmt"
	"io"
	"time"

	"github.com/symbo/symbo/bo"
	"github.com/symbo/symbo/lab/experiments"
)

func init() {
	register(command{
		name:    "batch",
		summary: "run the study of parallel evaluations (batch sizes q × benchmarks × kernels × seeds)",
		run:     runBatch,
	})
}

const batchUsage = `
Usage: perf batch [--qs 1,2,4,8] [--seeds N|A:B] [--iters 50] [--init 5]
                  [--problems Ackley2d,Rastrigin5d,Griewank6d] [--kernels base,plus]
                  [--out DIR [--force]] [--workers N] [protocol flags as perf table,
                  but --batch: --qs sets each run's]
       perf batch --out DIR --resume [--workers N]

Runs every benchmark × kernel × batch size q × seed: each run asks its
points in rounds of q (pending points handled by the constant liar, see
perf bo --batch), evaluates them, tells them. Prints three Markdown
tables: the cumulative regret after the --iters acquisition evaluations
per q (the price of batching: the same number of evaluations, fewer model
updates), and the cumulative and the simple regret after the rounds the
largest q needs (the wall-clock gain: every q gets the same number of
rounds). Lower is better; mean ±
standard error over the seeds.

With --out DIR (created; refused if it exists and is not empty, unless
--force, which first removes the files below that a previous study wrote
there) every finished run is journaled in DIR/runs.journal as it
completes, and a study that stopped — Ctrl-C, SIGTERM, kill -9 — is
continued by 'perf batch --out DIR --resume' (its arguments are read
from the journal; only --workers and --mem-budget may be given again).
At the end it writes batch.md, results.json, record.json (what 'perf
check' reruns) and three figures: batch-evals.png/.svg (cumulative regret
against evaluations), batch-rounds-cumulative.png/.svg and
batch-rounds.png/.svg (cumulative and simple regret against rounds), one
panel per benchmark and kernel, one curve per q. A symbolic link at one of these
names in DIR is replaced by the file, never written through.

Example:
  perf batch --out lab/results/batch
`

func runBatch(args []string, stdout, stderr io.Writer) error {
	return runStudy(study[*experiments.BatchResult]{name: "batch", flags: batchFlags, report: reportBatch,
		figures: []string{"batch-evals", "batch-rounds", "batch-rounds-cumulative"}}, args, stdout, stderr)
}

// batchFlags parses perf batch's arguments (see study.flags).
func batchFlags(args []string, stdout io.Writer) (*flagSet, *planFlags, func() (experiments.Plan[*bo.Trace, *experiments.BatchResult], error), error) {
	fs := newFlagSet("batch", batchUsage, stdout)
	qs := fs.String("qs", "1,2,4,8", "comma-separated batch sizes")
	problems := fs.String("problems", "", "comma-separated benchmarks (default: Ackley2d,Rastrigin5d,Griewank6d)")
	pf := newPlanFlags(fs, experiments.BatchKernels, "the seeds", "comma-separated kernels (default: base,plus)",
		"journal the runs and write batch.md, results.json and the figures into `dir`", "write into a non-empty --out directory")
	if err := parsePlan(fs, args); err != nil {
		return nil, nil, nil, err
	}
	if fs.given()["batch"] {
		return nil, nil, nil, badInput("--batch is set per run by --qs")
	}
	return fs, pf, func() (experiments.Plan[*bo.Trace, *experiments.BatchResult], error) {
		var plan experiments.Plan[*bo.Trace, *experiments.BatchResult]
		cfg, kernels, err := pf.check(fs.budget)
		if err != nil {
			return plan, err
		}
		opts := experiments.BatchOptions{FirstSeed: pf.seeds.first, Seeds: pf.seeds.n, Config: cfg, Iters: *pf.proto.iters, Workers: *pf.workers, Kernels: kernels}
		if opts.Qs, err = parseIntsFlag("qs", *qs, 1); err != nil {
			return plan, err
		}
		if opts.Problems, err = problemList(*problems); err != nil {
			return plan, err
		}
		return experiments.Batch(opts)
	}, nil
}

// reportBatch prints the study's tables and, with --out, writes its files.
func reportBatch(res *experiments.BatchResult, pf *planFlags, command string, stop func() error, stdout, stderr io.Writer) error {
	md := res.Markdown()
	if *pf.out != "" {
		if err := writeResults(*pf.out, results{
			kind: "batch", all: res, figures: batchFigures(res), page: batchPage(res, command, md),
			command: command, proto: pf.proto.values(), env: res.Environment, specs: res.Specs, runs: res.Runs, stop: stop,
		}); err != nil {
			return err
		}
	}
	return printResult(stdout, md)
}

// batchFigures are the study's figures: cumulative regret against
// evaluations, simple and cumulative regret against rounds.
func batchFigures(res *experiments.BatchResult) []figure {
	var fs []figure
	for _, f := range []struct {
		name string
		view int
	}{{"batch-evals", experiments.CumulativeByEvaluation}, {"batch-rounds", experiments.SimpleByRound}, {"batch-rounds-cumulative", experiments.CumulativeByRound}} {
		fs = append(fs, figure{f.name, res.Panels(f.view), 2, res.Caption(f.view)})
	}
	return fs
}

// batchPage is batch.md: the command, the tables md and how to read them,
// the settings, the code and the wall time.
func batchPage(res *experiments.BatchResult, command, md string) string {
	s, e := res.Settings, res.Environment
	return fmt.Sprintf("# Parallel evaluations\n\nCommand: `%s`\n\n%s\n"+
		"Mean ± standard error over %s; lower is better. Points of a round are asked together with the "+
		"constant liar (pending points told the mean of the values seen, or the worst with --liar worst) and no two share an orbit.\n\n"+
		"Settings: %d init + %d acquisition evaluations, %s, beta %s, fit %s%s, backend %s.\n\n"+
		"Code: %s.\n\nWall time: %s for %d runs.\n\n"+
		"![cumulative regret against evaluations](batch-evals.png)\n\n![cumulative regret against rounds](batch-rounds-cumulative.png)\n\n![simple regret against rounds](batch-rounds.png)\n",
		command, md, s.SeedsPhrase(), s.Init, s.Iters, s.Acquisition, s.Beta, s.FitMode, priorNote(s.Prior)+meanNote(s.Mean), s.Backend,
		codeNote(e), fmtDuration(time.Duration(res.WallSeconds*float64(time.Second))), len(res.Runs))
}
