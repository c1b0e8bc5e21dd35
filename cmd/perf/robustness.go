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
		name:    "robustness",
		summary: "run the paper's group-size study (Figure 4, left): Ackley and Rastrigin in d = 1…5",
		run:     runRobustness,
	})
}

const robustnessUsage = `
Usage: perf robustness [--seeds N|A:B] [--iters 50] [--init 5] [--out DIR [--force]]
                       [--problems ackley,rastrigin] [--dims 1,2,3,4,5] [--kernels LIST]
                       [--fit own|base] [--prior none|botorch] [--mean sample|constant] [--beta paper|authors] [--acq ucb|ei]
                       [--backend B] [--workers N] [--skip PROBLEM/KERNEL,…]
       perf robustness --out DIR --resume [--workers N]

Runs the paper's robustness-to-group-size study: Ackley and Rastrigin in
d = 1…5, invariant under the hyperoctahedral group (|G| = 2^d·d!: 2, 8,
48, 384, 3840), every kernel (base, avg, plus, max) and seed, each run the
protocol of 'perf bo'. Prints a Markdown table of the average regret
R_T/T (T = --iters BO iterations after the initial design; mean ±
standard error over the seeds; bold best, underlined not significantly worse, as in
'perf table'). Progress and ETA on stderr.

--skip leaves points out, shown as "not run": Ackley's base kernel is
Matérn-5/2, for which k_avg has no closed form, so Ackley5d/avg enumerates
|G| = 3840 elements per kernel pair and costs minutes per run. A point bo
refuses (avg enumerated over more than bo.AvgEnumerateLimit = 8192 group
elements: Ackley6d/avg, |G| = 46080, and beyond) fails the study before
any run (exit 2, naming the point and the skip that runs the rest)
unless skipped, e.g. --dims 6 --skip Ackley6d/avg. A --skip of a point
the study does not have — a misspelt name, or max where it is not PSD,
which the study leaves out anyway — is refused.

With --out DIR (created; refused if it exists and is not empty, unless
--force, which first removes the files below that a previous study wrote
there) every finished run is journaled in DIR/runs.journal as it
completes, and a study that stopped — Ctrl-C, SIGTERM, kill -9 — is
continued by 'perf robustness --out DIR --resume' (its arguments are read
from the journal; only --workers and --mem-budget may be given again).
At the end it writes robustness.md, results.json (every trace),
record.json (what 'perf check' reruns) and
robustness.png / robustness.svg (R_T/T against d with standard-error bars,
one panel per problem); a symbolic link at one of these names in DIR is
replaced by the file, never written through.

Example:
  perf robustness --out results/robustness
  perf robustness --seeds 2 --dims 1,2 --kernels base,plus --iters 10
`

func runRobustness(args []string, stdout, stderr io.Writer) error {
	return runStudy(study[*experiments.RobustnessResult]{name: "robustness", flags: robustnessFlags, report: reportRobustness,
		figures: []string{"robustness"}}, args, stdout, stderr)
}

// robustnessFlags parses perf robustness's arguments (see study.flags).
func robustnessFlags(args []string, stdout io.Writer) (*flagSet, *planFlags, func() (experiments.Plan[*bo.Trace, *experiments.RobustnessResult], error), error) {
	fs := newFlagSet("robustness", robustnessUsage, stdout)
	problems := fs.String("problems", "ackley,rastrigin", "comma-separated problem families (any with a known optimum and a d parameter)")
	dims := fs.String("dims", "1,2,3,4,5", "comma-separated dimensions")
	skip := fs.String("skip", "", "comma-separated `points` problem/kernel to leave out, e.g. Ackley5d/avg (shown as \"not run\"); a point bo refuses, such as avg over more than bo.AvgEnumerateLimit enumerated elements, fails the study unless skipped")
	pf := newPlanFlags(fs, experiments.TableKernels, "the seeds of each point", "comma-separated kernels of 'perf bo -h' (default: base,avg,plus,max)",
		"journal the runs and write robustness.md, results.json and the plots into `dir`", "write into a non-empty --out directory, overwriting its files")
	if err := parsePlan(fs, args); err != nil {
		return nil, nil, nil, err
	}
	return fs, pf, func() (experiments.Plan[*bo.Trace, *experiments.RobustnessResult], error) {
		var plan experiments.Plan[*bo.Trace, *experiments.RobustnessResult]
		cfg, kernels, err := pf.check(fs.budget)
		if err != nil {
			return plan, err
		}
		opts := experiments.RobustnessOptions{FirstSeed: pf.seeds.first, Seeds: pf.seeds.n, Config: cfg, Iters: *pf.proto.iters, Batch: *pf.proto.batch, Workers: *pf.workers, Kernels: kernels}
		if opts.Problems, err = splitList("problems", *problems, func(p string) (string, error) { return p, nil }); err != nil {
			return plan, err
		}
		if opts.Dims, err = parseIntsFlag("dims", *dims, 1); err != nil {
			return plan, err
		}
		if opts.Skip, err = skipList(*skip); err != nil {
			return plan, err
		}
		return experiments.Robustness(opts)
	}, nil
}

// reportRobustness prints the study's table and, with --out, writes its
// files.
func reportRobustness(res *experiments.RobustnessResult, pf *planFlags, command string, stop func() error, stdout, stderr io.Writer) error {
	wall := fmtDuration(time.Duration(res.WallSeconds * float64(time.Second)))
	fmt.Fprintf(stderr, "perf robustness: %d runs in %s\n", len(res.Runs), wall)
	md := res.Markdown()
	if *pf.out != "" {
		if err := writeResults(*pf.out, results{
			kind: "robustness", all: res, figures: []figure{{"robustness", res.Panels(), 2, res.Caption()}},
			page:    robustnessPage(res, command, md, wall),
			command: command, proto: pf.proto.values(), env: res.Environment, specs: res.Specs, runs: res.Runs, stop: stop,
		}); err != nil {
			return err
		}
	}
	return printResult(stdout, md)
}

// robustnessPage is robustness.md: the command, the table md and how to
// read it, the settings, the code, the environment and the wall time.
func robustnessPage(res *experiments.RobustnessResult, command, md, wall string) string {
	s, e := res.Settings, res.Environment
	return fmt.Sprintf("# Robustness to the group size (Figure 4, left)\n\nCommand: `%s`\n\n"+
		"Average regret R_T/T, T = %d BO iterations after %d initial points; mean ± standard error over %s. "+
		"Lower is better; bold: best mean of the row; underlined: not significantly worse than the best "+
		"(paired t test over the seeds, Holm-corrected over the study's comparisons, family-wise error 5%%).\n\n%s\n"+
		"Settings: %s, beta %s, fit %s%s, backend %s.\n\n"+
		"Code: %s.\n\n"+
		"Environment: %s, %s, SIMD %s, GOMAXPROCS %d, %s (%d CPUs), %s/%s.\n\n"+
		"Wall time: %s for %d runs.\n\n![average regret](robustness.png)\n",
		command, s.Iters, s.Init, s.SeedsPhrase(), md,
		s.Acquisition, s.Beta, s.FitMode, priorNote(s.Prior)+meanNote(s.Mean), s.Backend,
		codeNote(e), e.Module, e.GoVersion, e.SIMD, e.GOMAXPROCS, e.CPU, e.NumCPU, e.GOOS, e.GOARCH, wall, len(res.Runs))
}
