package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"text/tabwriter"

	"github.com/symbo/symbo/bench"
	"github.com/symbo/symbo/bo"
	"github.com/symbo/symbo/bo/problem"
	"github.com/symbo/symbo/gp"
)

func init() {
	register(command{
		name:    "bo",
		summary: "run one Bayesian-optimization experiment (the paper's protocol) on a benchmark",
		run:     runBO,
	})
}

const boUsage = `
Usage: perf bo --problem P [--d D] --kernel K [--seed S] [--iters 50] [--init 5]
               [--json FILE [--force]] [--acq ucb|ei] [--beta paper|authors]
               [--fit own|base] [--prior none|botorch] [--backend B] [--workers N]

Maximizes benchmark P (BO maximizes −f for the minimization benchmarks,
the throughput for WLAN) with a GP using kernel K: --init uniform random
points, then --iters acquisition steps. Observations carry Gaussian noise
(2% of the variance of f over the box); regret is measured on the
noiseless f. Prints a summary table on stdout, one line of progress per
evaluation on stderr.

Kernels K: base, avg (orbit average), avgnorm (normalized orbit average,
k_avg(x,y)/√(k_avg(x,x)·k_avg(y,y)): not in the paper; it removes k_avg's
prior-variance peak at the group's fixed points), plus (PSD projection of k_max),
max (only for groups where k_max is PSD: sign flips, permutations,
hyperoctahedral, rotation2d). Problems: see 'perf eval -h'.

--json FILE writes the whole trace as JSON (refusing to overwrite an
existing file unless --force). Its top-level fields are stable:
  problem, d, kernel, seed       what was run
  evaluations                    one object per evaluation, the initial
                                 design included, each with phase ("init"
                                 or "bo"), x, y (the noisy observation),
                                 f (the noiseless objective BO maximizes:
                                 −f_paper, or WLAN's throughput), regret
                                 (f* − f; absent for WLAN), at_optimum
  cumulative_regret              R_t for t = 1…iters, summed over the BO
                                 iterations only (after the initial
                                 design); absent for WLAN
  simple_regret, best_f          best_f = the largest f over all evaluations
  exact_optimum_hits             evaluations at exactly f* (diagnostic)
plus the protocol (group, shape, acquisition, beta, fit_mode, init, iters,
backend, noise_variance, …), timings, and the environment (module,
go_version, simd, gomaxprocs, cpu). Floats are in shortest round-trip form.

Example:
  perf bo --problem Ackley2d --kernel plus --seed 3 --json ackley-plus-3.json
`

// boRecord is the --json document: the trace's fields and the environment's,
// flattened into one object.
type boRecord struct {
	*bo.Trace
	bench.ExperimentEnv
}

func runBO(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("bo", boUsage, stdout)
	name := fs.String("problem", "", "benchmark problem, e.g. ackley or Ackley2d")
	d := fs.Int("d", 0, "dimension; 0 selects the paper's")
	kern := fs.String("kernel", "", "GP kernel: base, avg, avgnorm, max or plus")
	seed := fs.Uint64("seed", 0, "random seed (initial design, noise, acquisition starts)")
	jsonPath := fs.String("json", "", "write the whole trace as JSON to `file`")
	force := fs.Bool("force", false, "overwrite an existing --json file")
	proto := protocolFlags(fs)
	workers := fs.Int("workers", 0, "goroutines for the acquisition optimizer; 0 means GOMAXPROCS (results do not depend on it)")
	if err := fs.parse(args); err != nil {
		return err
	}
	if err := fs.require("problem", "kernel"); err != nil {
		return err
	}
	if *d < 0 {
		return badInput("--d must be 0 (the paper's dimension) or positive, got %d", *d)
	}
	p, err := problem.New(*name, *d)
	if err != nil {
		return asInput(err)
	}
	cfg, err := proto.config(*workers)
	if err != nil {
		return err
	}
	if cfg.Kernel, err = bo.ParseKernel(*kern); err != nil {
		return asInput(err)
	}
	if *jsonPath != "" {
		if err := checkNewFile("json", *jsonPath, *force); err != nil {
			return err
		}
	}
	total := cfg.Init + cfg.Iters
	drawn := false
	tr, err := bo.Run(p, cfg, *seed, func(i int) {
		fmt.Fprintf(stderr, "\rperf bo: %s %s seed %d: evaluation %d/%d", p.Name(), cfg.Kernel, *seed, i+1, total)
		drawn = true
	})
	if drawn {
		fmt.Fprint(stderr, "\n")
	}
	if err != nil {
		if errors.Is(err, bo.ErrMaxNotPSD) || errors.Is(err, bo.ErrBadConfig) {
			return asInput(err)
		}
		return err
	}
	if *jsonPath != "" {
		if err := writeJSONFile(*jsonPath, boRecord{tr, bench.ExperimentEnvironment()}, *force); err != nil {
			return err
		}
	}
	return writeBOSummary(stdout, tr)
}

// priorFlag defines --prior (shared by bo, table and robustness).
func priorFlag(fs *flagSet) *string {
	return fs.String("prior", "none", "hyperparameter prior: none (plain likelihood) or botorch (MAP with BoTorch's classic SingleTaskGP Gamma priors, lengthscale on the unit-cube scale)")
}

// parsePriorFlag parses --prior (bad values are bad input).
func parsePriorFlag(s string) (gp.Prior, error) {
	p, err := gp.ParsePrior(s)
	if err != nil {
		return p, badInput("--prior: %w", err)
	}
	return p, nil
}

// priorNote is ", prior NAME" for a recorded prior name, "" for none.
func priorNote(name string) string {
	if name == "" || name == "none" {
		return ""
	}
	return ", prior " + name
}

// protocolFlags turns the shared protocol flags of bo and table into a
// bo.Config (bad values are bad input).
// protocol holds the flags that bo, table and robustness share: together
// they make the bo.Config of every run.
type protocol struct {
	acq, beta, fit, prior, backend *string
	iters, initN                   *int
}

// protocolFlags adds the shared protocol flags to fs.
func protocolFlags(fs *flagSet) *protocol {
	return &protocol{
		iters:   fs.Int("iters", bo.DefaultIters, "acquisition steps after the initial design"),
		initN:   fs.Int("init", bo.DefaultInit, "uniform random initial points"),
		acq:     fs.String("acq", "ucb", "acquisition function: ucb or ei"),
		beta:    fs.String("beta", "paper", "UCB weight: paper (0.5·d·log t) or authors (0.5·d·log 2n, their code)"),
		fit:     fs.String("fit", "own", "hyperparameters: own (each kernel's likelihood) or base (the base kernel's, the authors' code)"),
		prior:   priorFlag(fs),
		backend: backendFlag(fs),
	}
}

// config parses the protocol flags into a bo.Config with the given
// Workers; every bad value is bad input.
func (p *protocol) config(workers int) (bo.Config, error) {
	var cfg bo.Config
	var err error
	if cfg.Acquisition, err = bo.ParseAcquisition(*p.acq); err != nil {
		return cfg, badInput("--acq: %w", err)
	}
	if cfg.Beta, err = bo.ParseBeta(*p.beta); err != nil {
		return cfg, badInput("--beta: %w", err)
	}
	switch strings.ToLower(*p.fit) {
	case "own":
		cfg.FitMode = gp.ModeOwn
	case "base":
		cfg.FitMode = gp.ModeBase
	default:
		return cfg, badInput("--fit must be own or base, got %q", *p.fit)
	}
	if *p.iters < 1 {
		return cfg, badInput("--iters must be ≥ 1, got %d", *p.iters)
	}
	if *p.initN < 1 {
		return cfg, badInput("--init must be ≥ 1, got %d", *p.initN)
	}
	if workers < 0 {
		return cfg, badInput("--workers must be ≥ 0, got %d", workers)
	}
	cfg.Iters, cfg.Init, cfg.Workers = *p.iters, *p.initN, workers
	if cfg.Prior, err = parsePriorFlag(*p.prior); err != nil {
		return cfg, err
	}
	if cfg.Backend, err = backendByName(*p.backend); err != nil {
		return cfg, err
	}
	return cfg, nil
}

// checkNewFile refuses (as bad input) an output path that exists, unless
// force, and one whose directory does not exist.
func checkNewFile(flagName, path string, force bool) error {
	st, err := os.Stat(path)
	switch {
	case err == nil && st.IsDir():
		return badInput("--%s %s is a directory", flagName, path)
	case err == nil && !force:
		return badInput("--%s %s already exists; refusing to overwrite it (use --force)", flagName, path)
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return badInput("--%s: %w", flagName, err)
	}
	if dir := filepath.Dir(path); dir != "" {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			return badInput("--%s %s: directory %s does not exist", flagName, path, dir)
		}
	}
	return nil
}

// writeJSONFile writes v as indented JSON to path, creating it exclusively
// unless force (then truncating it).
func writeJSONFile(path string, v any, force bool) error {
	data, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		return fmt.Errorf("encoding %s: %w", path, err)
	}
	flags := os.O_WRONLY | os.O_CREATE | os.O_EXCL
	if force {
		flags = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	}
	f, err := os.OpenFile(path, flags, 0o644)
	if err != nil {
		if errors.Is(err, fs.ErrExist) {
			return badInput("%s already exists; refusing to overwrite it (use --force)", path)
		}
		return err
	}
	if _, err := f.Write(append(data, '\n')); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// writeBOSummary prints the human summary of a trace.
func writeBOSummary(w io.Writer, tr *bo.Trace) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	row := func(k string, v any) { fmt.Fprintf(tw, "%s\t%v\n", k, v) }
	row("problem", fmt.Sprintf("%s (group %s)", tr.Problem, tr.Group))
	row("kernel", fmt.Sprintf("%s (base %s)", tr.Kernel, tr.Shape))
	row("seed", tr.Seed)
	row("protocol", fmt.Sprintf("%s, beta %s, fit %s%s, %d init + %d iterations", tr.Acquisition, tr.Beta, tr.FitMode, priorNote(tr.Prior), tr.Init, tr.Iters))
	row("backend / simd / gomaxprocs", fmt.Sprintf("%s / %s / %d", tr.Backend, bench.ExperimentEnvironment().SIMD, runtime.GOMAXPROCS(0)))
	if tr.Optimum != nil {
		row("cumulative regret R_T (BO iterations)", string(appendFloat(nil, tr.CumulativeRegret[len(tr.CumulativeRegret)-1])))
		row("average regret R_T/T", string(appendFloat(nil, tr.CumulativeRegret[len(tr.CumulativeRegret)-1]/float64(len(tr.CumulativeRegret)))))
		row("simple regret", string(appendFloat(nil, tr.SimpleRegret[len(tr.SimpleRegret)-1])))
		row("exact-optimum hits", tr.ExactOptimumHits)
	}
	row("best f (maximized)", string(appendFloat(nil, tr.BestF)))
	var bestX []float64
	for _, e := range tr.Evaluations {
		if e.F == tr.BestF {
			bestX = e.X
			break
		}
	}
	xs := make([]string, len(bestX))
	for i, v := range bestX {
		xs[i] = string(appendFloat(nil, v))
	}
	row("best x", "["+strings.Join(xs, ", ")+"]")
	row("time fit / acq / other", fmt.Sprintf("%.2fs / %.2fs / %.2fs", tr.Timings.Fit.Seconds(), tr.Timings.Acq.Seconds(), tr.Timings.Other.Seconds()))
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("writing output: %w", err)
	}
	return nil
}
