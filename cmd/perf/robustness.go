package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/symbo/symbo/bo/problem"
	"github.com/symbo/symbo/internal/experiments"
)

func init() {
	register(command{
		name:    "robustness",
		summary: "run the paper's group-size study (Figure 4, left): Ackley and Rastrigin in d = 1…5",
		run:     runRobustness,
	})
}

const robustnessUsage = `
Usage: perf robustness [--seeds 10] [--iters 50] [--init 5] [--out DIR [--force]]
                       [--problems ackley,rastrigin] [--dims 1,2,3,4,5] [--kernels LIST]
                       [--fit own|base] [--prior none|botorch] [--beta paper|authors] [--acq ucb|ei]
                       [--backend B] [--workers N] [--skip PROBLEM/KERNEL,…]

Runs the paper's robustness-to-group-size study: Ackley and Rastrigin in
d = 1…5, invariant under the hyperoctahedral group (|G| = 2^d·d!: 2, 8,
48, 384, 3840), every kernel (base, avg, plus, max) and seed, each run the
protocol of 'perf bo'. Prints a Markdown table of the average regret
R_T/T (T = --iters BO iterations after the initial design; mean ±
standard error over the seeds; bold best, underlined overlapping, as in
'perf table'). Progress and ETA on stderr.

--skip leaves points out, shown as "not run": Ackley's base kernel is
Matérn-5/2, for which k_avg has no closed form, so Ackley5d/avg enumerates
|G| = 3840 elements per kernel pair and costs minutes per run.

With --out DIR (created; refused if it exists and is not empty, unless
--force) it also writes robustness.md, results.json (every trace) and
robustness.png / robustness.svg (R_T/T against d with standard-error bars,
one panel per problem); a symbolic link at one of these names in DIR is
replaced by the file, never written through.

Example:
  perf robustness --out results/robustness
  perf robustness --seeds 2 --dims 1,2 --kernels base,plus --iters 10
`

func runRobustness(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("robustness", robustnessUsage, stdout)
	seeds := fs.Int("seeds", 10, "seeds 0…seeds−1 per point")
	out := fs.String("out", "", "write robustness.md, results.json and the plots into `dir`")
	force := fs.Bool("force", false, "write into a non-empty --out directory, overwriting its files")
	problems := fs.String("problems", "ackley,rastrigin", "comma-separated problem families (any with a known optimum and a d parameter)")
	dims := fs.String("dims", "1,2,3,4,5", "comma-separated dimensions")
	kernels := fs.String("kernels", "", "comma-separated subset of base,nystrom,avg,avgnorm,plus,max (default: base,avg,plus,max)")
	proto := protocolFlags(fs)
	workers := fs.Int("workers", 0, "runs in parallel; 0 means GOMAXPROCS")
	skip := fs.String("skip", "", "comma-separated `points` problem/kernel to leave out, e.g. Ackley5d/avg (shown as \"not run\")")
	if err := fs.parse(args); err != nil {
		return err
	}
	if *seeds < 1 {
		return badInput("--seeds must be ≥ 1, got %d", *seeds)
	}
	if *workers < 0 {
		return badInput("--workers must be ≥ 0, got %d", *workers)
	}
	cfg, err := proto.config(0, fs.budget)
	if err != nil {
		return err
	}
	if *seeds > experiments.MaxSeeds {
		return badInput("--seeds must be at most %d, got %d", experiments.MaxSeeds, *seeds)
	}
	opts := experiments.RobustnessOptions{Seeds: *seeds, Config: cfg, Iters: *proto.iters, Batch: *proto.batch, Workers: *workers}
	if opts.Problems, err = splitList("problems", *problems, func(p string) (string, error) { return p, nil }); err != nil {
		return err
	}
	if opts.Dims, err = parseIntsFlag("dims", *dims, 1); err != nil {
		return err
	}
	if opts.Kernels, err = kernelList(*kernels); err != nil {
		return err
	}
	if opts.Skip, err = skipList(*skip); err != nil {
		return err
	}
	if *out != "" {
		if err := prepareOutDir(*out, *force); err != nil {
			return err
		}
	}
	bar := newProgressBar(stderr, "perf robustness")
	opts.Progress = bar.update
	ctx, stop := signalContext()
	defer stop()
	opts.Context = ctx
	res, err := experiments.Robustness(opts)
	bar.finish()
	if err != nil {
		if ctx.Err() != nil {
			return interrupted("perf robustness keeps no journal; rerun it")
		}
		if errors.Is(err, experiments.ErrBadOptions) || errors.Is(err, problem.ErrUnknown) || errors.Is(err, problem.ErrDim) {
			return asInput(err)
		}
		return err
	}
	wall := fmtDuration(time.Duration(res.WallSeconds * float64(time.Second)))
	fmt.Fprintf(stderr, "perf robustness: %d runs in %s\n", len(res.Runs), wall)
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
		if _, err := experiments.WriteFigure(*out, "robustness", res.Panels(), 2, res.Caption()...); err != nil {
			return err
		}
		s, e := res.Settings, res.Environment
		doc := fmt.Sprintf("# Robustness to the group size (Figure 4, left)\n\nCommand: `perf robustness %s`\n\n"+
			"Average regret R_T/T, T = %d BO iterations after %d initial points; mean ± standard error over %d seeds. "+
			"Lower is better; bold: best mean of the row; underlined: 95%% interval overlaps the best's.\n\n%s\n"+
			"Settings: %s, beta %s, fit %s%s, backend %s.\n\n"+
			"Code: %s.\n\n"+
			"Environment: %s, %s, SIMD %s, GOMAXPROCS %d, %s (%d CPUs), %s/%s.\n\n"+
			"Wall time: %s for %d runs.\n\n![average regret](robustness.png)\n",
			strings.Join(args, " "), s.Iters, s.Init, s.Seeds, md,
			s.Acquisition, s.Beta, s.FitMode, priorNote(s.Prior), s.Backend,
			codeNote(e), e.Module, e.GoVersion, e.SIMD, e.GOMAXPROCS, e.CPU, e.NumCPU, e.GOOS, e.GOARCH, wall, len(res.Runs))
		if err := writeOutputIn(*out, "robustness.md", true, func(w io.Writer) error {
			_, err := io.WriteString(w, doc)
			return err
		}); err != nil {
			return err
		}
		if err := writeRecord(*out, "robustness", "perf robustness "+strings.Join(args, " "), proto.values(), "", "", e, res.Specs, res.Runs); err != nil {
			return err
		}
	}
	if _, err := io.WriteString(stdout, md); err != nil {
		return fmt.Errorf("writing output: %w", err)
	}
	return nil
}
