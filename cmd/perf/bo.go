package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"text/tabwriter"

	"github.com/symbo/symbo/bo"
	"github.com/symbo/symbo/bo/problem"
	"github.com/symbo/symbo/gp"
	"github.com/symbo/symbo/internal/frontend"
	"github.com/symbo/symbo/lab/experiments"
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
               [--json FILE [--force]] [--checkpoint FILE] [--acq ucb|ei]
               [--beta paper|authors] [--fit own|base] [--prior none|botorch] [--mean sample|constant]
               [--noise box|observed|VARIANCE] [--landmarks M] [--candidate-fit own|anchored]
               [--probe-window W] [--backend B] [--workers N] [--mem-budget SIZE]
       perf bo --resume FILE [--workers N]

Optimizes benchmark P with a GP using kernel K, in P's direction (the
paper's minimization form; WLAN's throughput is maximized): --init uniform
random points, then --iters acquisition steps. Observations carry Gaussian
noise (2% of the variance of f over the box); regret is measured on the
noiseless f. Prints a summary table on stdout; progress goes to stderr (one
live line on a terminal; otherwise one line per evaluation, and the last
one again, with the time since, whenever 30 s pass without one).

Kernels K: base; nystrom (the base kernel Nyström-extended from the
observations, as plus is from k_max; not invariant); avg (orbit average;
refused, exit 2, where it would be enumerated over more than 8192 group
elements, bo.AvgEnumerateLimit: every Matérn base kernel over a group of
that size, RBF over one without a closed form; its cost is |G| base-kernel
evaluations per pair of points); avgnorm (normalized orbit average, k_avg(x,y)/√(k_avg(x,x)·k_avg(y,y)): not
in the paper; it removes k_avg's prior-variance peak at the group's fixed
points; refused where avg is); plus (PSD projection of k_max); soft (0.8·plus + 0.2·nystrom on
the same data: an invariant function plus a smaller non-invariant one, so
the data can overrule a wrong group; not in the paper; exact at every n,
--landmarks does not apply); max (only for groups where k_max is
PSD, those with a canonical map: none, signflip, permutation,
hyperoctahedral, rotation2d, scalingdir, and any of them on some
coordinates, e.g. Net6d's); auto (at every fit, the one of nystrom, avg and plus with the highest fitted log
marginal likelihood: it decides how to use the group, and drops it when
the data contradict it; the trace names each step's choice and every
candidate's evidence); portfolio (auto's candidates each propose their
own acquisition maximizer, and the proposal with the highest posterior
mean under auto's choice is evaluated, except once: while no evaluated
point lies on the group's fixed-point set, avg's proposal there is, within
--probe-window; the trace names the winner, the means and the probe). Both leave avg out where one k_avg value costs more than 64
base-kernel evaluations (a group of more than 64 elements to enumerate,
or a permanent of order 7 or more; bo.AutoEnumerateLimit); the trace
lists the candidates and says why one was left out. auto:a+b+… and portfolio:a+b+…
name other candidates, the last favoured by the prior odds; a+b:c+d favours
each of c and d. Problems: see 'perf eval -h'.

--noise sets the variance of the observation noise: box (the default, 2%
of the variance of f over the box), observed (2% of the variance of f
over the run's initial design) or a fixed variance, e.g. --noise 0.01.

--candidate-fit anchored (for auto and portfolio kernels): the last
candidate (plus, in every built-in spelling) is fitted first, and the
others search their lengthscale only around its (itself and a factor 2
either side, then the bracket and Brent refinement) instead of from
their own default, random and grid starts: about half their likelihood
evaluations (bo.CandidateFitAnchored; own, the default, is each its own
full search).

--probe-window W (for portfolio kernels): the fixed-point probe may fire
in the first W BO steps only; later, avg's proposal on the fixed-point
set competes on the referee's mean like every other (bo.DecideOptions.ProbeWindow;
0, the default here, is no limit; perf suggest and the C and Python
front ends use 5).

A deciding kernel's flag given with a kernel that cannot act on it is
refused (exit 2), as the front ends refuse the setting: --hedge,
--probe-window and --candidate-starts above 0 and --probe earned act on
a portfolio only; --candidate-fit anchored, --referee loo, --odds above 0
and --afford on auto and portfolio. The values that ask for nothing,
this command's defaults (--hedge 0, --probe always or off,
--probe-window 0, --candidate-fit own, --candidate-starts 0, --referee
evidence, --odds 0), are taken with every kernel. perf table, batch and
robustness refuse such a flag where it acts on no kernel of their
--kernels.

--landmarks M caps the exact GP of every kernel but soft (exact at any n):
while there are at most M
observations the GP is exact (for plus and nystrom the design is all of
them, the paper's kernel); above, it is a GP on M landmarks chosen among
them by a greedy pivoted Cholesky of the kernel's Gram (k_max's for plus
and nystrom, whose design they are; for the other kernels the DTC
approximation of their own GP) and has rank ≤ M. --landmark-fit says how
it is fitted: subset (the exact likelihood on M of the observations,
O(M³) per likelihood evaluation whatever n; the default of base, max, avg
and avgnorm), likelihood (the landmark model's, the landmarks re-chosen
at each lengthscale, on all the observations up to max(4M, 1024) and on
that many of them above, O(min(n, max(4M, 1024))·M²) each; the default
of plus and nystrom) or full (likelihood on all n observations at every
n, O(n·M²) each). 0 (default) means M = 256, so the paper's protocol (55
evaluations) is unchanged; −1 never uses landmarks. M ≥ 1 with --kernel
soft, which has no landmark form, is refused (exit 2), not ignored.

--checkpoint FILE journals the settings and each finished evaluation to
FILE (a new file; one JSON line per evaluation, flushed to disk as it
completes). If the run stops — Ctrl-C, SIGTERM, kill -9, a crash —
'perf bo --resume FILE' continues it: the settings come from the file
(only --workers and --mem-budget, which do not change results, may be
given again), and so does the environment that changes them
($SYMBO_BACKEND, $SYMBO_OPENBLAS_THREADS: perf says when the resuming
shell's differs, and uses the journal's); the kept evaluations are
replayed, not re-evaluated, and the finished run's --json trace and
stdout are those of an uninterrupted run, timings aside.
On SIGINT/SIGTERM perf bo stops after the evaluation in progress and
prints the command that resumes it (exit status 130). Every line of the
journal carries the run's identity (a hash of its settings, seed
included) under its checksum: a journal holding lines of another run
(spliced from another journal, edited) is refused (exit 2), as is any
damage but a torn last line, which is dropped. Journals written before
this check (format version 1) are still resumed, with a warning. A
journal started by a build of another revision (a tree with uncommitted
changes counting as another) is refused (exit 2): the outputs would
name one commit for a run of two; where either build records no revision
(-buildvcs=false), perf resumes it with a warning.

--json FILE writes the whole trace as JSON (refusing to overwrite an
existing file unless --force — on --resume, unless the run was started
with --force or the file is the trace this run wrote before it was
stopped; written atomically at the end, its directory
checked before the run starts; with --checkpoint the journal keeps its
absolute path, so --resume from any directory writes the same file).
Its top-level fields are stable:
  problem, d, kernel, seed       what was run; minimize: the direction
  evaluations                    one object per evaluation, the initial
                                 design included, each with phase ("init"
                                 or "bo"), x, y (the noisy observation),
                                 f (the noiseless f, the paper's form),
                                 regret (f − f* when minimizing, f* − f
                                 when maximizing; absent for WLAN),
                                 at_optimum
  cumulative_regret              R_t for t = 1…iters, summed over the BO
                                 iterations only (after the initial
                                 design); absent for WLAN
  simple_regret, best_f          best_f = the best f over all evaluations
  exact_optimum_hits             evaluations at exactly f* (diagnostic)
plus the protocol (group, shape, acquisition, beta, fit_mode, init, iters,
backend, noise_variance, …), timings, and the environment (module,
go_version, simd, gomaxprocs, cpu). Floats are in shortest round-trip form.

Example:
  perf bo --problem Ackley2d --kernel plus --seed 3 --json ackley-plus-3.json
  perf bo --problem Rastrigin5d --kernel plus --checkpoint r5.journal
  perf bo --resume r5.journal
`

// boRecord is the --json document: the trace's fields and the environment's,
// flattened into one object (the trace's win where both have a field,
// e.g. backend).
type boRecord struct {
	tr  *bo.Trace
	env experiments.Environment
}

func (r boRecord) MarshalJSON() ([]byte, error) {
	t, err := json.Marshal(r.tr)
	if err != nil {
		return nil, err
	}
	e, err := json.Marshal(r.env)
	if err != nil {
		return nil, err
	}
	var tm, em map[string]json.RawMessage
	if err := json.Unmarshal(t, &tm); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(e, &em); err != nil {
		return nil, err
	}
	for k, v := range em {
		if _, ok := tm[k]; !ok {
			tm[k] = v
		}
	}
	return json.Marshal(tm)
}

// boSettings is everything that determines a perf bo run and its outputs:
// the header of its checkpoint journal.
type boSettings struct {
	Problem string `json:"problem"`
	D       int    `json:"d"`
	Kernel  string `json:"kernel"`
	Seed    uint64 `json:"seed"`
	Noise   string `json:"noise,omitempty"`
	Protocol
	JSON  string `json:"json,omitempty"`
	Force bool   `json:"force,omitempty"`
}

func runBO(args []string, stdout, stderr io.Writer) (err error) {
	fs := newFlagSet("bo", boUsage, stdout)
	name := fs.String("problem", "", "benchmark problem, e.g. ackley or Ackley2d")
	d := fs.Int("d", 0, "dimension; 0 selects the paper's")
	kern := fs.String("kernel", "", "GP kernel: "+orList(bo.KernelNames()))
	seed := fs.Uint64("seed", 0, "random seed (initial design, noise, acquisition starts)")
	jsonPath := fs.pathFlag("json", "write the whole trace as JSON to `file`")
	force := fs.Bool("force", false, "overwrite an existing --json file")
	checkpoint := fs.pathFlag("checkpoint", "journal the settings and every finished evaluation to `file` (new)")
	resumePath := fs.pathFlag("resume", "continue the run journaled in `file` (its settings are in it)")
	proto := protocolFlags(fs)
	noise := noiseFlag(fs)
	workers := fs.Int("workers", 0, "goroutines for the acquisition optimizer; 0 means GOMAXPROCS (results do not depend on it)")
	if err := fs.parse(args); err != nil {
		return err
	}
	if err := fs.needs("force", "json"); err != nil {
		return err
	}
	if err := fs.refuseEmpty(choiceFlags...); err != nil {
		return err
	}
	if err := checkWorkers(*workers); err != nil {
		return err
	}
	r := &runner{cmd: "perf bo", stderr: stderr, unit: "evaluation", whole: "run", enable: "--checkpoint FILE"}
	defer func() { err = r.close(err) }()
	var set boSettings
	var done []bo.Evaluation
	if *resumePath != "" {
		if err := fs.onlyWith("resume", "workers", "mem-budget"); err != nil {
			return err
		}
		var err error
		if done, err = resume[bo.Evaluation](r, "", *resumePath, "perf bo --resume "+shellQuote(*resumePath), &set); err != nil {
			return err
		}
	} else {
		if err := fs.require("problem", "kernel"); err != nil {
			return err
		}
		set = boSettings{Problem: *name, D: *d, Kernel: *kern, Seed: *seed, Noise: *noise, Protocol: proto.values(), JSON: *jsonPath, Force: *force}
		if set.JSON != "" && *checkpoint != "" {
			// The journal keeps the trace's path absolute, so that a
			// resume from another directory writes the same file.
			abs, err := filepath.Abs(set.JSON)
			if err != nil {
				return badInput("--json: %w", err)
			}
			set.JSON = abs
		}
	}
	// A fresh run's deciding flags given with a kernel that cannot act
	// on them are refused (refuseInert); a resumed run's settings are
	// its journal's, which no flag of this command line set.
	inert := fs
	if *resumePath != "" {
		inert = nil
	}
	p, cfg, err := set.build(*workers, fs.budget, inert)
	if err != nil {
		return err
	}
	rule, err := parseNoiseFlag(set.Noise)
	if err != nil {
		return err
	}
	journalFlag, journalPath := "--checkpoint", *checkpoint
	if *resumePath != "" {
		journalFlag, journalPath = "--resume", *resumePath
	}
	if err := checkDistinct("--json", set.JSON, journalFlag, journalPath); err != nil {
		return err
	}
	// Resumed, the --json file may be this run's own trace (killed after
	// writing it): it is replaced, as at the end. Any other file there is
	// replaced only if the run was started with --force.
	own := false
	if set.JSON != "" {
		remedy := "use --force"
		if *resumePath != "" {
			own = ownTrace(set.JSON, p, cfg, set.Seed, done)
			remedy = "it is not this run's trace and the run was started without --force; move it away and resume again"
		}
		if err := checkOutput("json", set.JSON, set.Force || own, remedy); err != nil {
			return err
		}
	}
	// A run that cannot start (over the memory budget: bo.Run checks its
	// largest fit first) is refused now, before its journal is created:
	// started under a cancelled context, bo.Run validates and stops.
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := bo.Run(cancelled, p, cfg, set.Seed, bo.RunOptions{Iters: set.Iters, Batch: set.Batch, Noise: rule, Resume: done}); err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	if *checkpoint != "" {
		if err := checkOutput("checkpoint", *checkpoint, false, "continue it with --resume, or remove it"); err != nil {
			return err
		}
		if err := r.create("--checkpoint", *checkpoint, "perf bo --resume "+shellQuote(*checkpoint), set); err != nil {
			return err
		}
		// Now that the journal exists, two names of it are one file
		// whatever links their paths take.
		if err := checkDistinct("--json", set.JSON, "--checkpoint", *checkpoint); err != nil {
			os.Remove(*checkpoint)
			return err
		}
	}
	if r.w != nil {
		// The journal is this process's (locked), so no one else is
		// writing its header: a temporary of it is a killed Create's.
		removeStaleTemps(stderr, r.cmd, filepath.Dir(r.path), filepath.Base(r.path))
		// A temporary of the --json trace beside it (beside a link's
		// target, which the trace replaces) may be a killed run's too:
		// the run writes the trace once every evaluation is journaled,
		// and one killed while writing it left the temporary. But the
		// journal's lock excludes only the other resumes of this run: a
		// perf bo of another journal (or none) naming the same --json
		// file may be writing it now, and its write would fail (exit 1)
		// were its temporary removed. So only the temporaries whose
		// writer is gone go (their lock is free: removeDeadTemps).
		if set.JSON != "" {
			target := set.JSON
			if t, err := filepath.EvalSymlinks(target); err == nil {
				target = t
			}
			removeDeadTemps(stderr, r.cmd, filepath.Dir(target), filepath.Base(target))
		}
	}
	var tr *bo.Trace
	label := fmt.Sprintf("perf bo: %s %s seed %d", p.Name(), cfg.Kernel.Name(), set.Seed)
	if err := r.stream(label, cfg.Init+set.Iters, len(done), func(ctx context.Context, keep func(any) error) error {
		var err error
		tr, err = bo.Run(ctx, p, cfg, set.Seed, bo.RunOptions{Iters: set.Iters, Batch: set.Batch, Noise: rule, Resume: done,
			OnEvaluation: func(e bo.Evaluation) error { return keep(e) }})
		return err
	}); err != nil {
		return err
	}
	if err := r.stopped(); err != nil {
		return err
	}
	if set.JSON != "" {
		if err := writeJSONOutput(set.JSON, boRecord{tr, experiments.Env(nil)}, set.Force || own); err != nil {
			return r.outputsFailed(err)
		}
	}
	return r.outputsFailed(writeBOSummary(stdout, tr))
}

// maxTraceBytes caps the --json file ownTrace reads: 256 MiB, far
// above the trace of a run of bo.MaxEvaluations.
const maxTraceBytes = 256 << 20

// ownTrace reports whether the file at path is the --json trace of the
// run of problem p with cfg and seed journaled with the evaluations done:
// its problem, kernel and seed, and exactly those evaluations, each
// point and observation bit for bit. perf bo writes its trace only once
// every evaluation is journaled, so the file an interrupted run wrote
// itself (killed after writing it) is one; another run's is not.
func ownTrace(path string, p *problem.Problem, cfg bo.Config, seed uint64, done []bo.Evaluation) bool {
	if len(done) == 0 {
		return false
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxTraceBytes+1))
	if err != nil || len(data) > maxTraceBytes {
		return false
	}
	var t struct {
		Problem     string `json:"problem"`
		Kernel      string `json:"kernel"`
		Seed        uint64 `json:"seed"`
		Evaluations []struct {
			X []float64 `json:"x"`
			Y float64   `json:"y"`
		} `json:"evaluations"`
	}
	if json.Unmarshal(data, &t) != nil || t.Problem != p.Name() || t.Kernel != cfg.Kernel.Name() || t.Seed != seed || len(t.Evaluations) != len(done) {
		return false
	}
	for i, e := range t.Evaluations {
		d := done[i]
		if math.Float64bits(e.Y) != math.Float64bits(d.Y) || len(e.X) != len(d.X) {
			return false
		}
		for j, x := range e.X {
			if math.Float64bits(x) != math.Float64bits(d.X[j]) {
				return false
			}
		}
	}
	return true
}

// build validates the settings and returns the problem and configuration
// (with the given Workers and memory budget, which are not settings: a run
// may resume with others). With fs (a fresh run's command line, nil for a
// resumed one), a deciding kernel's flag given there with a kernel that
// cannot act on it is refused (refuseInert), before bo.New.
func (s boSettings) build(workers int, budget int64, fs *flagSet) (*problem.Problem, bo.Config, error) {
	if s.D < 0 {
		return nil, bo.Config{}, badInput("--d must be 0 (the paper's dimension) or positive, got %d", s.D)
	}
	p, err := problem.New(s.Problem, s.D)
	if err != nil {
		return nil, bo.Config{}, asInput(err)
	}
	cfg, err := s.Protocol.config(workers, budget)
	if err != nil {
		return nil, bo.Config{}, err
	}
	k, err := bo.ParseKernel(s.Kernel, p.Group(), p.BaseShape())
	if err != nil {
		return nil, bo.Config{}, asInput(err)
	}
	if fs != nil {
		if err := refuseInert(fs, []string{k.Name()}, cfg.Kernel.Options(), cfg.Landmarks); err != nil {
			return nil, bo.Config{}, err
		}
	}
	cfg.Kernel, cfg.Minimize = k.With(cfg.Kernel.Options()), !p.Maximize()
	lo, hi := p.Bounds()
	if _, err := bo.New(lo, hi, cfg, s.Seed); err != nil {
		return nil, bo.Config{}, asInput(err)
	}
	return p, cfg, nil
}

// refuseInert refuses a deciding kernel's flag given on fs's command line
// (flag.Visit: its default, left out, is not the user's) with kernels
// none of which can act on it, as the front ends refuse the setting
// (frontend.RefuseInert, the one rule): --hedge, --probe-window and
// --candidate-starts above 0 and --probe earned act on a portfolio only;
// --candidate-fit anchored, --referee loo, --odds above 0 and --afford on a
// deciding kernel (auto, portfolio); --landmarks above 0 on every kernel
// but soft. The values that ask for nothing, perf bo's defaults among
// them (--hedge 0, --probe always or off, --candidate-fit own, …,
// --landmarks 0 or -1), are taken with every kernel. kernels is perf
// bo's one kernel or a study's list (perf table, batch, robustness),
// where a flag that acts on some of them is taken. It is bad input (exit
// 2).
func refuseInert(fs *flagSet, kernels []string, dec bo.DecideOptions, landmarks int) error {
	given := fs.given()
	flagName := func(key string) string { return strings.ReplaceAll(key, "_", "-") }
	return asInput(frontend.RefuseInert(kernels, dec, landmarks,
		func(key string) bool { return given[flagName(key)] },
		func(key string) string { return "--" + flagName(key) }))
}

// landmarksSummary says how the design cap of a Nyström kernel's run
// (tr.Landmarks ≠ 0) played out: never (−1); not reached, when no fit had
// more observations than the cap (the GP then used every observation, the
// paper's kernel); or reached, with the most landmarks a fit used. A fit
// sees the observations of the rounds before its own.
func landmarksSummary(tr *bo.Trace) string {
	if tr.Landmarks < 0 {
		return "none (every observation)"
	}
	most, fitted, start := 0, 0, 0
	for i, e := range tr.Evaluations {
		if i == 0 || e.Round != tr.Evaluations[i-1].Round {
			start = i // the observations before this round
		}
		if e.Hyper != nil {
			most = max(most, e.Hyper.Landmarks)
			fitted = max(fitted, start)
		}
	}
	if most == 0 {
		return fmt.Sprintf("cap %d, not reached (at most %d observations in a fit, all used)", tr.Landmarks, fitted)
	}
	return fmt.Sprintf("cap %d, reached (at most %d landmarks used, for fits of up to %d observations)", tr.Landmarks, most, fitted)
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

// meanFlag defines --mean (a protocol flag: bo, table, batch, robustness
// and suggest).
func meanFlag(fs *flagSet) *string {
	return fs.String("mean", "sample", "GP prior mean: sample (the sample mean of the observations, the paper's protocol) or constant (a constant fitted by maximum likelihood, profiled in closed form by generalized least squares, as BoTorch's SingleTaskGP fits its ConstantMean)")
}

// meanNote is ", mean NAME" for a recorded mean other than the default,
// "" for it.
func meanNote(name string) string {
	if name == "" || name == "sample" {
		return ""
	}
	return ", mean " + name
}

// landmarksNote is ", landmarks M" for a --landmarks other than the
// default, ", no landmarks" for a negative one.
func landmarksNote(m int) string {
	switch {
	case m < 0:
		return ", no landmarks"
	case m > 0:
		return fmt.Sprintf(", landmarks %d", m)
	}
	return ""
}

// candidateFitNote is ", candidates anchored" for a non-default
// DecideOptions.CandidateFit, else "".
func candidateFitNote(name string) string {
	if name == "" {
		return ""
	}
	return ", candidates " + name
}

// hedgeNote is ", hedged (S ascents)" (", hedged (1 ascent)") for a trace's Hedge S > 0, "" for
// none.
func hedgeNote(s int) string {
	if s <= 0 {
		return ""
	}
	if s == 1 {
		return ", hedged (1 ascent)"
	}
	return fmt.Sprintf(", hedged (%d ascents)", s)
}

// probeWindowNote is ", probe window W" for a DecideOptions.ProbeWindow W > 0,
// else "".
func probeWindowNote(w int) string {
	if w <= 0 {
		return ""
	}
	return fmt.Sprintf(", probe window %d", w)
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
	acq, beta, fit, prior, backend, liar *string
	mean, landmarkFit, candidateFit      *string
	probe                                *string
	iters, initN, batch, landmarks       *int
	probeWindow                          *int
	hedge                                *int
	normalize, ard, excludeObserved      *bool
	stepAside, residualVariance          *bool
	afford                               *bool
	referee                              *string
	odds, betaScale                      *float64
	candidateStarts                      *int
}

// Protocol is the protocol part of a run's settings, as the flags spell
// it (journaled with the run).
type Protocol struct {
	Iters   int    `json:"iters"`
	Init    int    `json:"init"`
	Batch   int    `json:"batch"`
	Acq     string `json:"acq"`
	Beta    string `json:"beta"`
	Fit     string `json:"fit"`
	Prior   string `json:"prior"`
	Backend string `json:"backend"`
	// Landmarks is --landmarks (0, the default, omitted).
	Landmarks int `json:"landmarks,omitempty"`
	// Liar is --liar ("mean", the default, omitted).
	Liar string `json:"liar,omitempty"`
	// Mean is --mean ("sample", the default, omitted).
	Mean string `json:"mean,omitempty"`
	// LandmarkFit is --landmark-fit ("default" omitted).
	LandmarkFit string `json:"landmark_fit,omitempty"`
	// CandidateFit is --candidate-fit ("own", the default, omitted).
	CandidateFit string `json:"candidate_fit,omitempty"`
	// Probe is --probe ("always", the default, omitted).
	Probe string `json:"probe,omitempty"`
	// ProbeWindow is --probe-window (0, no limit, omitted).
	ProbeWindow int `json:"probe_window,omitempty"`
	// Hedge is --hedge, the hedging ascents per candidate (0, no hedging,
	// omitted).
	Hedge int `json:"hedge,omitempty"`
	// CandidateStarts is --candidate-starts (0, Config.Starts, omitted).
	CandidateStarts int `json:"candidate_starts,omitempty"`
	// Normalize is --normalize (false, the raw coordinates, omitted).
	Normalize bool `json:"normalize,omitempty"`
	// ARD is --ard (false, one lengthscale, omitted).
	ARD bool `json:"ard,omitempty"`
	// ExcludeObserved is --exclude-observed (false omitted).
	ExcludeObserved bool `json:"exclude_observed,omitempty"`
	// StepAside is --step-aside (false omitted).
	StepAside bool `json:"step_aside,omitempty"`
	// ResidualVariance is --residual-variance (false omitted).
	ResidualVariance bool `json:"residual_variance,omitempty"`
	// Referee is --referee ("evidence", the default, omitted).
	Referee string `json:"referee,omitempty"`
	// Odds is --odds (0, bo.AutoOdds, omitted).
	Odds float64 `json:"odds,omitempty"`
	// Afford is --afford (false omitted).
	Afford bool `json:"afford,omitempty"`
	// BetaScale is --beta-scale (0, the rule's β, omitted).
	BetaScale float64 `json:"beta_scale,omitempty"`
}

// noiseFlag adds --noise, the observation noise rule of the runs.
func noiseFlag(fs *flagSet) *string {
	return fs.String("noise", "box", "observation noise variance: box (2% of the variance of f over the box), observed (2% of the variance of f over the initial design) or a fixed `variance`")
}

// parseNoiseFlag parses --noise.
func parseNoiseFlag(s string) (bo.NoiseRule, error) {
	r, err := bo.ParseNoiseRule(s)
	if err != nil {
		return r, badInput("--noise: %w", err)
	}
	return r, nil
}

// protocolFlags adds the shared protocol flags to fs: the optimizer's,
// and those of a run (--iters, --batch) unless optimizerOnly.
func protocolFlags(fs *flagSet, optimizerOnly ...bool) *protocol {
	iters, batch, exclude, aside, candStarts := new(int), new(int), new(bool), new(bool), new(int)
	resid, referee, odds, betaScale, afford := new(bool), new(string), new(float64), new(float64), new(bool)
	*referee = "evidence"
	*iters, *batch = bo.DefaultIters, 1
	if len(optimizerOnly) == 0 || !optimizerOnly[0] {
		iters = fs.Int("iters", bo.DefaultIters, "acquisition steps after the initial design")
		batch = fs.Int("batch", 1, "points asked per round and evaluated in parallel (constant liar; 1: sequential)")
		// perf suggest has its own spelling, --allow-repeats.
		exclude = fs.Bool("exclude-observed", false, "no BO step proposes a point within the exclusion radius of an observed point's orbit (bo.Protocol.ExcludeObserved; the front ends' default)")
		// perf suggest takes the front ends' default (bo.Recommended) here.
		candStarts = fs.Int("candidate-starts", 0, "portfolio only: the UCB ascents of each candidate other than the referee, whose search keeps bo.DefaultStarts (bo.DecideOptions.CandidateStarts); 0 means the same as the referee's")
		aside = fs.Bool("step-aside", false, "with --exclude-observed: where the acquisition's best ascent end is on an observed point's orbit, the best point just outside its exclusion radius competes with the next ascent end (bo.Protocol.StepAside)")
		odds = fs.Float64("odds", 0, "auto and portfolio only: the log prior odds added to each favoured candidate's score; 0 means bo.AutoOdds (ln 20) (bo.DecideOptions.Odds); off in the front ends")
		referee = fs.String("referee", "evidence", "auto and portfolio only: the score that picks the referee among the candidates, evidence (the log marginal likelihood) or loo (the leave-one-out log predictive density) (bo.DecideOptions.Referee); off in the front ends")
		afford = fs.Bool("afford", false, "auto and portfolio only: leave avg and avgnorm out over the scaling groups, whose exact k_avg takes an adaptive quadrature per pair, and where k_avg is enumerated over more than bo.AffordEnumerateLimit elements, and where avg or avgnorm fitted, search with --candidate-starts ascents for every candidate and half the raw samples for avg and avgnorm (bo.DecideOptions.Afford; the front ends' default)")
		resid = fs.Bool("residual-variance", false, "the Nyström kernels' (plus, nystrom, soft) predictive variance adds the prior variance their design misses, so that far from the data it is the prior's, as the base GP's is (bo.Protocol.ResidualVariance); off in the front ends")
	}
	// perf suggest's default is the front ends' (bo.DefaultBetaScale).
	betaScale = fs.Float64("beta-scale", 0, "multiplies UCB's β (bo.Protocol.BetaScale): 1 is the rule's own, perf bo's default (where 0 means 1 too); perf suggest's default is the front ends' 0.25, and it takes only a factor > 0")
	return &protocol{
		iters:            iters,
		initN:            fs.Int("init", bo.DefaultInit, "uniform random initial points"),
		batch:            batch,
		acq:              fs.String("acq", "ucb", "acquisition function: "+orList(bo.AcquisitionNames())),
		beta:             fs.String("beta", "paper", "UCB weight: paper (0.5·d·log t) or authors (0.5·d·log 2n, their code)"),
		fit:              fs.String("fit", "own", "hyperparameters: own (each kernel's likelihood) or base (the base kernel's, the authors' code)"),
		prior:            priorFlag(fs),
		mean:             meanFlag(fs),
		backend:          backendFlag(fs),
		liar:             fs.String("liar", "mean", "the constant liar's value for pending and failed points: mean (of the observed values) or worst (the worst observed, symbo's choice before)"),
		landmarks:        fs.Int("landmarks", 0, fmt.Sprintf("landmark cap `M` of every kernel but soft (exact at any n): the GP is exact up to M observations (for plus and nystrom every observation is in the design), a GP on M landmarks (greedy pivoted Cholesky of the kernel's Gram; k_max's for plus and nystrom) above; 0 means %d, -1 never (always exact)", bo.DefaultLandmarks)),
		landmarkFit:      landmarkFitFlag(fs),
		candidateFit:     fs.String("candidate-fit", "own", "how auto's and portfolio's candidates fit their hyperparameters: own (each its own full search) or anchored (the last candidate, plus, first; the others search only around its lengthscale: about half their likelihood evaluations)"),
		probeWindow:      fs.Int("probe-window", 0, "portfolio's fixed-point probe may fire in the first `W` BO steps only; 0 means no limit"),
		candidateStarts:  candStarts,
		hedge:            fs.Int("hedge", 0, "portfolio only: each candidate also proposes the maximizer of the other acquisition (EI beside UCB), from `S` ascents; the referee's mean picks among every proposal (bo.DecideOptions.Hedge, HedgeStarts); 0 means no hedging"),
		normalize:        fs.Bool("normalize", false, "fit and search in coordinates normalized by maps the group commutes with (bo.Protocol.Normalize; the front ends' default), not the box's raw coordinates"),
		probe:            fs.String("probe", "always", "when a portfolio's fixed-point probe fires: always (avg's proposal on Fix(G) while no point there is observed), earned (and only where the referee's own acquisition rates it at least as high as the proposal its means picked) or off (bo.DecideOptions.Probe)"),
		excludeObserved:  exclude,
		stepAside:        aside,
		ard:              fs.Bool("ard", false, "a lengthscale per class of coordinates the group allows (bo.Protocol.ARD; the front ends' default), not one"),
		betaScale:        betaScale,
		odds:             odds,
		referee:          referee,
		residualVariance: resid,
		afford:           afford,
	}
}

func (p *protocol) values() Protocol {
	liar := omitDefault(*p.liar, "mean")
	mean, lf := omitDefault(*p.mean, "sample"), omitDefault(*p.landmarkFit, "default")
	cf, pr := omitDefault(*p.candidateFit, "own"), omitDefault(*p.probe, "always")
	return Protocol{Iters: *p.iters, Init: *p.initN, Batch: *p.batch, Acq: *p.acq, Beta: *p.beta, Fit: *p.fit, Prior: *p.prior, Backend: *p.backend, Landmarks: *p.landmarks, Liar: liar, Mean: mean, LandmarkFit: lf, CandidateFit: cf, Probe: pr, ProbeWindow: *p.probeWindow, Hedge: *p.hedge, CandidateStarts: *p.candidateStarts, Normalize: *p.normalize, ARD: *p.ard, ExcludeObserved: *p.excludeObserved, StepAside: *p.stepAside, ResidualVariance: *p.residualVariance, Referee: omitDefault(*p.referee, "evidence"), Odds: *p.odds, Afford: *p.afford, BetaScale: *p.betaScale}
}

// omitDefault returns v, or "" where it spells the default def (any case,
// surrounding space): the journaled protocol omits defaults.
func omitDefault(v, def string) string {
	if strings.EqualFold(strings.TrimSpace(v), def) {
		return ""
	}
	return v
}

// landmarkFitFlag adds --landmark-fit, how a GP with landmarks is fitted.
func landmarkFitFlag(fs *flagSet) *string {
	return fs.String("landmark-fit", "default", "hyperparameters of a GP with landmarks: default (plus and nystrom: likelihood; the others: subset), subset (the exact likelihood on M of the observations), likelihood (the landmark model's on at most max(4M, 1024) of them) or full (the landmark model's on all of them)")
}

// config parses the protocol flags into a bo.Config with the given
// Workers and memory budget (Config.Budget: the subcommand's
// --mem-budget); every bad value is bad input. Its Kernel is unset but
// for the deciding options (--candidate-fit, --probe-window), which the
// caller carries over to the kernel it sets: k.With(cfg.Kernel.Options()).
func (p *protocol) config(workers int, budget int64) (bo.Config, error) {
	return p.values().config(workers, budget)
}

func (p Protocol) config(workers int, budget int64) (bo.Config, error) {
	cfg := bo.Config{Budget: budget}
	var err error
	if cfg.Acquisition, err = bo.ParseAcquisition(p.Acq); err != nil {
		return cfg, badInput("--acq: %w", err)
	}
	if cfg.Beta, err = bo.ParseBeta(p.Beta); err != nil {
		return cfg, badInput("--beta: %w", err)
	}
	if p.Liar != "" {
		if cfg.Liar, err = bo.ParseLiar(p.Liar); err != nil {
			return cfg, badInput("--liar: %w", err)
		}
	}
	switch strings.ToLower(p.Fit) {
	case "own":
		cfg.FitMode = gp.ModeOwn
	case "base":
		cfg.FitMode = gp.ModeBase
	default:
		return cfg, badInput("--fit must be own or base, got %q", p.Fit)
	}
	if err := checkInitIters(p.Init, p.Iters); err != nil {
		return cfg, err
	}
	if err := checkIn("batch", p.Batch, 1, bo.MaxBatch); err != nil {
		return cfg, err
	}
	if err := checkWorkers(workers); err != nil {
		return cfg, err
	}
	if err := checkLandmarks(p.Landmarks); err != nil {
		return cfg, err
	}
	cfg.Init, cfg.Workers, cfg.Landmarks = p.Init, workers, p.Landmarks
	if cfg.Prior, err = parsePriorFlag(p.Prior); err != nil {
		return cfg, err
	}
	if cfg.Mean, err = gp.ParseMean(p.Mean); err != nil {
		return cfg, badInput("--mean: %w", err)
	}
	if cfg.LandmarkFit, err = gp.ParseLandmarkFit(p.LandmarkFit); err != nil {
		return cfg, badInput("--landmark-fit: %w", err)
	}
	var dec bo.DecideOptions
	if p.CandidateFit != "" {
		if dec.CandidateFit, err = bo.ParseCandidateFit(p.CandidateFit); err != nil {
			return cfg, badInput("--candidate-fit: %w", err)
		}
	}
	if p.ProbeWindow < 0 || p.ProbeWindow > bo.MaxEvaluations {
		return cfg, badInput("--probe-window must lie in [0, %d] (0: no limit), got %d", bo.MaxEvaluations, p.ProbeWindow)
	}
	dec.ProbeWindow = p.ProbeWindow
	if p.Hedge < 0 || p.Hedge > bo.DefaultStarts {
		return cfg, badInput("--hedge must lie in [0, %d] (0: no hedging), got %d", bo.DefaultStarts, p.Hedge)
	}
	dec.Hedge, dec.HedgeStarts = p.Hedge > 0, p.Hedge
	if p.CandidateStarts < 0 || p.CandidateStarts > bo.DefaultStarts {
		return cfg, badInput("--candidate-starts must lie in [0, %d] (0: the referee's), got %d", bo.DefaultStarts, p.CandidateStarts)
	}
	dec.CandidateStarts = p.CandidateStarts
	if p.Probe != "" {
		if dec.Probe, err = bo.ParseProbeRule(p.Probe); err != nil {
			return cfg, badInput("--probe: %w", err)
		}
	}
	cfg.Normalize = p.Normalize
	cfg.ARD = p.ARD
	cfg.ExcludeObserved = p.ExcludeObserved
	if p.StepAside && !p.ExcludeObserved {
		return cfg, badInput("--step-aside needs --exclude-observed")
	}
	cfg.StepAside = p.StepAside
	cfg.ResidualVariance = p.ResidualVariance
	if !(p.Odds >= 0 && p.Odds <= bo.MaxOdds) {
		return cfg, badInput("--odds must be 0 (bo.AutoOdds) or a log prior odds in (0, %g], got %v", float64(bo.MaxOdds), p.Odds)
	}
	dec.Odds = p.Odds
	dec.Afford = p.Afford
	if !(p.BetaScale >= 0 && p.BetaScale <= bo.MaxBetaScale) {
		return cfg, badInput("--beta-scale must be 0 (the rule's β) or a factor in (0, %g], got %v", float64(bo.MaxBetaScale), p.BetaScale)
	}
	cfg.BetaScale = p.BetaScale
	if p.Referee != "" {
		if dec.Referee, err = bo.ParseRefereeRule(p.Referee); err != nil {
			return cfg, badInput("--referee: %w", err)
		}
	}
	// The kernel is the caller's to set; it carries these options over
	// (k.With(cfg.Kernel.Options())).
	cfg.Kernel = cfg.Kernel.With(dec)
	if cfg.Backend, err = backendByName(p.Backend); err != nil {
		return cfg, err
	}
	return cfg, nil
}

// writeBOSummary prints the human summary of a trace.
func writeBOSummary(w io.Writer, tr *bo.Trace) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	row := func(k string, v any) { fmt.Fprintf(tw, "%s\t%v\n", k, v) }
	row("problem", fmt.Sprintf("%s (group %s)", tr.Problem, tr.Group))
	row("kernel", fmt.Sprintf("%s (base %s)", tr.Kernel, tr.Shape))
	row("seed", tr.Seed)
	row("protocol", fmt.Sprintf("%s, beta %s, fit %s%s, %d init + %d iterations", tr.Acquisition, tr.Beta, tr.FitMode, priorNote(tr.Prior)+meanNote(tr.Mean)+candidateFitNote(tr.CandidateFit)+probeWindowNote(tr.ProbeWindow)+hedgeNote(tr.Hedge), tr.Init, tr.Iters))
	if tr.Landmarks != 0 {
		row("landmarks", landmarksSummary(tr))
	}
	row("backend / simd / gomaxprocs", fmt.Sprintf("%s / %s / %d", tr.Backend, experiments.Env(nil).SIMD, runtime.GOMAXPROCS(0)))
	if tr.Optimum != nil {
		row("cumulative regret R_T (BO iterations)", string(appendFloat(nil, tr.CumulativeRegret[len(tr.CumulativeRegret)-1])))
		row("average regret R_T/T", string(appendFloat(nil, tr.CumulativeRegret[len(tr.CumulativeRegret)-1]/float64(len(tr.CumulativeRegret)))))
		row("simple regret", string(appendFloat(nil, tr.SimpleRegret[len(tr.SimpleRegret)-1])))
		row("exact-optimum hits", tr.ExactOptimumHits)
	}
	dir := "maximized"
	if tr.Minimize {
		dir = "minimized"
	}
	row("best f ("+dir+")", string(appendFloat(nil, tr.BestF)))
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
