package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/symbo/symbo/bo"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/lab/experiments"
)

// Validation shared by the subcommands' flags: one rule, one message,
// wherever a flag of that meaning appears.

// checkSeeds refuses --seeds outside [1, experiments.MaxSeeds] (table,
// batch, robustness).
func checkSeeds(n int) error {
	return checkIn("seeds", n, 1, experiments.MaxSeeds)
}

// seedRange is the value of --seeds: "N" for the seeds 0…N−1, or "A:B"
// for A…B−1 (a replication on a disjoint set, e.g. --seeds 100:130).
// Set refuses counts outside [1, experiments.MaxSeeds] and first seeds
// outside [0, experiments.MaxFirstSeed].
type seedRange struct{ first, n int }

// seedsFlag defines --seeds on fs with default 0…n−1.
func seedsFlag(fs *flagSet, n int, usage string) *seedRange {
	r := &seedRange{n: n}
	fs.Var(r, "seeds", usage+": `N` for the seeds 0…N−1, A:B for A…B−1")
	return r
}

func (r *seedRange) String() string {
	if r == nil || r.first == 0 {
		if r == nil {
			return "0"
		}
		return strconv.Itoa(r.n)
	}
	return fmt.Sprintf("%d:%d", r.first, r.first+r.n)
}

func (r *seedRange) Set(s string) error {
	a, b, isRange := strings.Cut(s, ":")
	if !isRange {
		n, err := strconv.Atoi(s)
		if err != nil {
			return fmt.Errorf("want N or A:B, got %q", s)
		}
		*r = seedRange{0, n}
		return checkSeeds(n)
	}
	first, err1 := strconv.Atoi(a)
	end, err2 := strconv.Atoi(b)
	if err1 != nil || err2 != nil {
		return fmt.Errorf("want N or A:B with integers A < B, got %q", s)
	}
	if first < 0 || first > experiments.MaxFirstSeed {
		return fmt.Errorf("the first seed must lie in [0, %d], got %d", experiments.MaxFirstSeed, first)
	}
	if end <= first {
		return fmt.Errorf("the range %d:%d is empty (A:B means the seeds A…B−1: want A < B)", first, end)
	}
	*r = seedRange{first, end - first}
	return checkSeeds(end - first)
}

// checkWorkers refuses a negative --workers (0 means GOMAXPROCS).
func checkWorkers(n int) error {
	if n < 0 {
		return badInput("--workers must be ≥ 0, got %d", n)
	}
	return nil
}

// checkLandmarks refuses a --landmarks other than −1, 0 or a count of
// observations.
func checkLandmarks(m int) error {
	if m < -1 || m > bo.MaxEvaluations {
		return badInput("--landmarks must be -1 (never), 0 (the default, %d) or a count in [1, %d], got %d", bo.DefaultLandmarks, bo.MaxEvaluations, m)
	}
	return nil
}

// checkAtLeast refuses an integer flag below lo.
func checkAtLeast(flagName string, v, lo int) error {
	if v < lo {
		return badInput("--%s must be at least %d, got %d", flagName, lo, v)
	}
	return nil
}

// checkIn refuses an integer flag outside [lo, hi].
func checkIn(flagName string, v, lo, hi int) error {
	if v < lo || v > hi {
		return badInput("--%s must lie in [%d, %d], got %d", flagName, lo, hi, v)
	}
	return nil
}

// checkInitIters refuses an --init outside [1, bo.MaxEvaluations − 1]
// (a run has at least one --iters step), then an --iters outside [1, the
// evaluations --init leaves] (the protocol flags, perf figure).
func checkInitIters(init, iters int) error {
	if err := checkIn("init", init, 1, bo.MaxEvaluations-1); err != nil {
		return err
	}
	if iters < 1 || iters > bo.MaxEvaluations-init {
		return badInput("--iters must lie in [1, %d] (%d evaluations less --init %d), got %d", bo.MaxEvaluations-init, bo.MaxEvaluations, init, iters)
	}
	return nil
}

// parseIntsFlag parses a comma-separated list of integers in [lo, 1e8].
func parseIntsFlag(flagName, s string, lo int) ([]int, error) {
	out, err := splitList(flagName, s, func(f string) (int, error) {
		v, err := strconv.Atoi(f)
		if err != nil || v < lo || v > 1e8 {
			return 0, fmt.Errorf("%q is not an integer in [%d, 1e8]", f, lo)
		}
		return v, nil
	})
	if err == nil && len(out) == 0 {
		return nil, badInput("--%s is empty", flagName)
	}
	return out, err
}

// ascendingInts is parseIntsFlag for a list that must be strictly
// ascending (sizes of a sweep).
func ascendingInts(flagName, s string, lo int) ([]int, error) {
	v, err := parseIntsFlag(flagName, s, lo)
	if err != nil {
		return nil, err
	}
	for i := 1; i < len(v); i++ {
		if v[i] <= v[i-1] {
			return nil, badInput("--%s %q: values must be strictly ascending", flagName, s)
		}
	}
	return v, nil
}

// timing holds the flags of the timed measurements of profile and
// complexity: how long and how often to time one item (a phase, a point),
// the predicted time above which an item is not run, and the base kernel
// timed.
type timing struct {
	maxReps *int
	minTime *time.Duration
	maxName string
	maxItem *float64
	shape   *string
}

// timingFlags adds --max-reps, --min-time, --max-ITEM-seconds (default
// maxDefault, described by maxUsage) and --base to fs.
func timingFlags(fs *flagSet, item string, maxDefault float64, maxUsage string) *timing {
	t := &timing{maxName: "max-" + item + "-seconds"}
	t.shape = fs.String("base", "rbf", "base kernel: "+orList(kernel.ShapeNames())+" (k_avg has a closed form with rbf only)")
	t.maxItem = fs.Float64(t.maxName, maxDefault, maxUsage)
	t.maxReps = fs.Int("max-reps", experiments.DefaultMaxReps, "cap on the timed runs of a "+item)
	t.minTime = fs.Duration("min-time", experiments.DefaultMinTime, "time each "+item+" for at least this long (with ≥ 3 runs)")
	return t
}

// check validates the timing flags and returns the base kernel's shape.
func (t *timing) check() (kernel.Shape, error) {
	if err := checkAtLeast("max-reps", *t.maxReps, 1); err != nil {
		return 0, err
	}
	if *t.minTime < 0 {
		return 0, badInput("--min-time must not be negative, got %v", *t.minTime)
	}
	if err := positiveFinite(t.maxName, *t.maxItem); err != nil {
		return 0, err
	}
	shape, err := kernel.ParseShape(*t.shape)
	if err != nil {
		return 0, badInput("--base: %w", err)
	}
	return shape, nil
}

// planFlags are the flags that batch and robustness share, the
// subcommands that execute a plan of BO runs (runStudy): --seeds,
// --workers, --kernels, the protocol's, --out, --force and --resume
// (their usages say what each command counts and writes).
type planFlags struct {
	seeds        *seedRange
	workers      *int
	kernels, out *string
	force        *bool
	resume       *bool
	proto        *protocol
	// fs and defaults (the study's kernels without --kernels) serve
	// check's refusal of inert deciding flags.
	fs       *flagSet
	defaults []string
}

// newPlanFlags adds the plan flags to fs with the given usages; defaults
// are the study's kernels without --kernels.
func newPlanFlags(fs *flagSet, defaults []string, seedsUsage, kernelsUsage, outUsage, forceUsage string) *planFlags {
	return &planFlags{
		fs:       fs,
		defaults: defaults,
		seeds:    seedsFlag(fs, 10, seedsUsage),
		kernels:  fs.String("kernels", "", kernelsUsage),
		out:      fs.pathFlag("out", outUsage),
		force:    fs.Bool("force", false, forceUsage),
		resume:   fs.Bool("resume", false, "continue the study journaled in --out (with --workers and --mem-budget, nothing else)"),
		proto:    protocolFlags(fs),
		workers:  fs.Int("workers", 0, "runs in parallel; 0 means GOMAXPROCS"),
	}
}

// parsePlan parses the arguments of a study with plan flags and a
// --problems list (perf batch, perf robustness), then refuses --force
// without --out and an empty --problems, --kernels or choice flag.
func parsePlan(fs *flagSet, args []string) error {
	if err := fs.parse(args); err != nil {
		return err
	}
	if err := fs.needs("force", "out"); err != nil {
		return err
	}
	return fs.refuseEmpty(append([]string{"problems", "kernels"}, choiceFlags...)...)
}

// refuseEmpty refuses a list flag of names given an empty value (a shell
// variable that was unset): left out it means the default, but given
// empty it would run the default study silently (perf table's rule).
func (fs *flagSet) refuseEmpty(names ...string) error {
	given := fs.given()
	for _, n := range names {
		if f := fs.Lookup(n); given[n] && f != nil && strings.TrimSpace(f.Value.String()) == "" {
			return badInput("--%s is empty; leave it out for the default", n)
		}
	}
	return nil
}

// choiceFlags are the flags of the experiments (perf table, batch,
// robustness, bo; suggest's too) that take one of a few words, the protocol's and
// --noise and --regret: given empty they are refused (refuseEmpty), not
// read as their default, as --acq, --beta and --fit already were.
var choiceFlags = []string{"acq", "beta", "fit", "prior", "mean", "backend", "liar", "landmark-fit", "candidate-fit", "probe", "referee", "noise", "regret"}

// check validates the plan flags and returns the protocol's
// configuration (with the memory budget b) and the kernels (nil: the
// experiment's default). A deciding kernel's flag given with kernels
// none of which can act on it is refused (refuseInert; one that acts on
// some of them is taken).
func (f *planFlags) check(b int64) (bo.Config, []string, error) {
	if err := checkWorkers(*f.workers); err != nil {
		return bo.Config{}, nil, err
	}
	cfg, err := f.proto.config(0, b)
	if err != nil {
		return cfg, nil, err
	}
	kernels, err := kernelList(*f.kernels)
	if err != nil {
		return cfg, nil, err
	}
	if err := refuseInert(f.fs, orKernels(kernels, f.defaults), cfg.Kernel.Options(), cfg.Landmarks); err != nil {
		return cfg, nil, err
	}
	return cfg, kernels, nil
}

// orList spells names as "a, b or c" for flag help: the lists of shapes,
// kernels and acquisitions come from the library's tables, so a new entry
// appears in every help text without an edit here.
func orList(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	out := names[0]
	for _, n := range names[1 : len(names)-1] {
		out += ", " + n
	}
	return out + " or " + names[len(names)-1]
}

// commaList spells names as "a, b, c".
func commaList(names []string) string {
	out := ""
	for i, n := range names {
		if i > 0 {
			out += ", "
		}
		out += n
	}
	return out
}

// orKernels is kernels, or defaults where --kernels was left out (nil).
func orKernels(kernels, defaults []string) []string {
	if kernels == nil {
		return defaults
	}
	return kernels
}
