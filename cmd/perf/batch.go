package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/symbo/symbo/internal/experiments"
)

func init() {
	register(command{
		name:    "batch",
		summary: "run the study of parallel evaluations (batch sizes q × benchmarks × kernels × seeds)",
		run:     runBatch,
	})
}

const batchUsage = `
Usage: perf batch [--qs 1,2,4,8] [--seeds 10] [--iters 50] [--init 5]
                  [--problems Ackley2d,Rastrigin5d,Griewank6d] [--kernels base,plus]
                  [--out DIR [--force]] [--workers N] [protocol flags as perf table]

Runs every benchmark × kernel × batch size q × seed: each run asks its
points in rounds of q (pending points handled by the constant liar, see
perf bo --batch), evaluates them, tells them. Prints two Markdown tables:
the cumulative regret after the --iters acquisition evaluations per q (the
price of batching: the same number of evaluations, fewer model updates),
and the simple regret after the rounds the largest q needs (the wall-clock
gain: every q gets the same number of rounds). Lower is better; mean ±
standard error over the seeds.

With --out DIR it also writes batch.md, results.json and two figures:
batch-evals.png/.svg (cumulative regret against evaluations) and
batch-rounds.png/.svg (simple regret against rounds), one panel per
benchmark and kernel, one curve per q. A symbolic link at one of these
names in DIR is replaced by the file, never written through.

Example:
  perf batch --out docs/results/batch
`

func runBatch(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("batch", batchUsage, stdout)
	qs := fs.String("qs", "1,2,4,8", "comma-separated batch sizes")
	seeds := fs.Int("seeds", 10, "seeds 0…seeds−1")
	problems := fs.String("problems", "", "comma-separated benchmarks (default: Ackley2d,Rastrigin5d,Griewank6d)")
	kernels := fs.String("kernels", "", "comma-separated kernels (default: base,plus)")
	out := fs.String("out", "", "write batch.md, results.json and the figures into `dir`")
	force := fs.Bool("force", false, "write into a non-empty --out directory")
	proto := protocolFlags(fs)
	workers := fs.Int("workers", 0, "runs in parallel; 0 means GOMAXPROCS")
	if err := fs.parse(args); err != nil {
		return err
	}
	if fs.given()["batch"] {
		return badInput("--batch is set per run by --qs")
	}
	if *seeds < 1 || *seeds > experiments.MaxSeeds {
		return badInput("--seeds must lie in [1, %d], got %d", experiments.MaxSeeds, *seeds)
	}
	if *workers < 0 {
		return badInput("--workers must be ≥ 0, got %d", *workers)
	}
	cfg, err := proto.config(0, fs.budget)
	if err != nil {
		return err
	}
	opts := experiments.BatchOptions{Seeds: *seeds, Config: cfg, Iters: *proto.iters, Workers: *workers}
	if opts.Qs, err = parseIntsFlag("qs", *qs, 1); err != nil {
		return err
	}
	if opts.Problems, err = problemList(*problems); err != nil {
		return err
	}
	if opts.Kernels, err = kernelList(*kernels); err != nil {
		return err
	}
	if *out != "" {
		if err := prepareOutDir(*out, *force); err != nil {
			return err
		}
	}
	ctx, stop := signalContext()
	defer stop()
	bar := newProgressBar(stderr, "perf batch")
	opts.Progress, opts.Context = bar.update, ctx
	res, err := experiments.Batch(opts)
	bar.finish()
	if err != nil {
		if ctx.Err() != nil {
			return interrupted("perf batch keeps no journal; rerun it")
		}
		return err
	}
	md := res.Markdown()
	if *out != "" {
		data, err := json.Marshal(res)
		if err != nil {
			return fmt.Errorf("encoding results.json: %w", err)
		}
		if err := writeOutputIn(*out, "results.json", true, func(w io.Writer) error {
			_, err := w.Write(append(data, '\n'))
			return err
		}); err != nil {
			return err
		}
		for _, f := range []struct {
			name string
			view int
		}{{"batch-evals", experiments.CumulativeByEvaluation}, {"batch-rounds", experiments.SimpleByRound}, {"batch-rounds-cumulative", experiments.CumulativeByRound}} {
			if _, err := experiments.WriteFigure(*out, f.name, res.Panels(f.view), 2, res.Caption(f.view)...); err != nil {
				return err
			}
		}
		s, e := res.Settings, res.Environment
		doc := fmt.Sprintf("# Parallel evaluations\n\nCommand: `perf batch %s`\n\n%s\n"+
			"Mean ± standard error over %d seeds; lower is better. Points of a round are asked together with the "+
			"constant liar (pending points told the mean of the values seen, or the worst with --liar worst) and no two share an orbit.\n\n"+
			"Settings: %d init + %d acquisition evaluations, %s, beta %s, fit %s%s, backend %s.\n\n"+
			"Code: %s.\n\nWall time: %s for %d runs.\n\n"+
			"![cumulative regret against evaluations](batch-evals.png)\n\n![cumulative regret against rounds](batch-rounds-cumulative.png)\n\n![simple regret against rounds](batch-rounds.png)\n",
			strings.Join(args, " "), md, s.Seeds, s.Init, s.Iters, s.Acquisition, s.Beta, s.FitMode, priorNote(s.Prior), s.Backend,
			codeNote(e), fmtDuration(time.Duration(res.WallSeconds*float64(time.Second))), len(res.Runs))
		if err := writeOutputIn(*out, "batch.md", true, func(w io.Writer) error {
			_, err := io.WriteString(w, doc)
			return err
		}); err != nil {
			return err
		}
		if err := writeRecord(*out, "batch", "perf batch "+strings.Join(args, " "), proto.values(), "", "", e, res.Specs, res.Runs); err != nil {
			return err
		}
	}
	_, err = io.WriteString(stdout, md)
	return err
}
