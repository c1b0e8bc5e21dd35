package bo

import (
	"fmt"
	"strings"

	"github.com/symbo/symbo/gp"
	"github.com/symbo/symbo/internal/check"
	"github.com/symbo/symbo/internal/errclass"
	"github.com/symbo/symbo/internal/qmc"
	"github.com/symbo/symbo/linalg"
)

// Sentinel errors; returned errors wrap one of them (test with errors.Is).
var (
	// ErrUnknownKernel reports a kernel name ParseKernel does not know.
	ErrUnknownKernel = errclass.New(errclass.Input, "bo: unknown kernel")
	// ErrMaxNotPSD reports k_max requested for a group without a canonical
	// map (Proposition 1), where k_max need not be PSD.
	ErrMaxNotPSD = errclass.New(errclass.Input, "bo: k_max is not provably PSD for this group")
	// ErrBadConfig reports an invalid Config field.
	ErrBadConfig = errclass.New(errclass.Input, "bo: invalid configuration")
	// ErrBadPoint reports a point of the wrong length, with a NaN or
	// infinite coordinate, or outside the box.
	ErrBadPoint = errclass.New(errclass.Input, "bo: invalid point")
	// ErrBadValue reports a NaN or infinite observation.
	ErrBadValue = errclass.New(errclass.Input, "bo: invalid observation")
	// ErrSpaceExhausted reports an Ask with no candidate point left off
	// the excluded orbits (within the exclusion radius: the pending and
	// failed points', the observed ones' with Config.ExcludeObserved and
	// in the initial design). At a BO step the candidates are the points
	// the step searched — its Config.RawSamples raw samples, the best
	// observed point and its ascents' ends (package documentation, "The
	// exclusion radius") — so points that cover the box exhaust it, e.g.
	// hundreds of failures over a 1-d box under sign flips, and so may a
	// few observed points with a small RawSamples. A portfolio's step
	// returns it only when no candidate proposes a point.
	// The input (the points reported failed) caused it: an input error
	// (errclass.Input; C: SYMBO_EINVAL, Python: InvalidInput), whose
	// message starts "bo: search space exhausted" ("search space
	// exhausted" once a front end trims the package prefix). A caller
	// stops the study there or asks after cancelling pending points.
	ErrSpaceExhausted = errclass.New(errclass.Input, "bo: search space exhausted")
)

// BetaRule selects the UCB exploration weight β.
type BetaRule int

const (
	// BetaPaper is the paper's β_t = 0.5·d·log t, where t = n − Init + 1
	// counts the acquisition steps: t = 1 for the first point chosen by the
	// acquisition after the Init initial points, t = Iters for the last
	// (n = observations so far, pending and failed points counted too).
	// β_1 = 0, so the first step is pure
	// exploitation. The default.
	BetaPaper BetaRule = iota
	// BetaAuthors is the authors' public code, β = 0.5·d·log(2n) with n the
	// number of observations so far.
	BetaAuthors
)

func (b BetaRule) String() string {
	switch b {
	case BetaPaper:
		return "paper"
	case BetaAuthors:
		return "authors"
	}
	return fmt.Sprintf("BetaRule(%d)", int(b))
}

// ParseBeta parses "paper" or "authors".
func ParseBeta(s string) (BetaRule, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "paper":
		return BetaPaper, nil
	case "authors":
		return BetaAuthors, nil
	}
	return 0, fmt.Errorf("%w: unknown beta rule %q (want paper or authors)", ErrBadConfig, s)
}

// Liar selects the value the constant liar tells pending and failed
// points, for the acquisition only (see the package documentation,
// Parallel evaluations).
type Liar int

const (
	// LiarMean tells the mean of the observed values (CL-mean; the
	// default).
	LiarMean Liar = iota
	// LiarWorst tells the worst observed value (CL-min, symbo's choice
	// before; kept to reproduce it).
	LiarWorst
)

func (l Liar) String() string {
	switch l {
	case LiarMean:
		return "mean"
	case LiarWorst:
		return "worst"
	}
	return fmt.Sprintf("Liar(%d)", int(l))
}

// ParseLiar parses "mean" or "worst".
func ParseLiar(s string) (Liar, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "mean":
		return LiarMean, nil
	case "worst":
		return LiarWorst, nil
	}
	return 0, fmt.Errorf("%w: unknown liar %q (want mean or worst)", ErrBadConfig, s)
}

// DefaultProbeWindow is the fixed-point probe's window (DecideOptions.ProbeWindow)
// of the front ends (perf suggest, the C and Python settings, Optuna's
// SymboSampler): the probe may fire in the first five BO steps only. Its
// bet is the prior's — avg's prior variance peaks on Fix(G), so avg
// proposes there first — and a proposal of avg's on Fix(G) that comes
// later is avg's posterior, not that bet. Five is the default initial
// design's size (measured: lab/results/soft/README.md, "The probe
// window").
const DefaultProbeWindow = 5

// DefaultHedgeStarts is Recommended's DecideOptions.HedgeStarts: the
// ascents of each candidate's hedging acquisition (EI beside UCB).
const DefaultHedgeStarts = 1

// DefaultCandidateStarts is Recommended's DecideOptions.CandidateStarts:
// the UCB ascents of each candidate other than the referee, whose search
// keeps DefaultStarts. Chosen on the users' suite's tuning half, where
// three ascents were no worse than ten (lab/results/hedge/starts.md); they
// bring the default's step within three times plus's at ten observations
// (docs/performance.md).
const DefaultCandidateStarts = 3

// DefaultExcludeObserved is Config.ExcludeObserved of the front ends
// (perf suggest, the C and Python settings, Optuna's SymboSampler): no
// proposal within the exclusion radius of an observed point's orbit.
// Without it the acquisition's maximizer can sit on an observed point
// (its ascent starts there, among others): on the box [−1, 1] × [−100,
// 100] with sign flips, plus returned to an observed point, bit for bit,
// on most asks of some seeds.
const DefaultExcludeObserved = true

// DefaultBetaScale is Protocol.BetaScale of the front ends: UCB's β is a
// quarter of the rule's (its weight on the standard deviation half). The
// paper's β_t = 0.5·d·log t was set for the paper's hypercubes; on the
// users' suite's tuning half a quarter of it lowered the default's regret
// resolvably on some problems and raised it on none, and it held on the
// soft suite, the fresh held-out set and the held-out half
// (lab/results/suite/pilots.md). 1 is the paper's β.
const DefaultBetaScale = 0.25

// MaxBetaScale bounds Protocol.BetaScale: UCB's weight on the standard
// deviation is then at most 1000 times the rule's, already exploration
// alone for a standardized mean, where a larger factor let β overflow to
// +Inf at some step and every later ask fail.
const MaxBetaScale = 1e6

// CandidateFit is how Auto's and Portfolio's candidates fit their
// hyperparameters (DecideOptions.CandidateFit).
type CandidateFit int

const (
	// CandidateFitOwn: every candidate runs its own full search (the
	// default): the profile likelihood's default, random and grid starts,
	// then the refinement.
	CandidateFitOwn CandidateFit = iota
	// CandidateFitAnchored: the last candidate (plus, in every built-in
	// spelling) is fitted first by the full search, and every other
	// candidate searches only around its fitted lengthscale
	// (gp.FitOptions.Around): about half of their likelihood evaluations.
	// Where the last candidate is left out of a step or its fit fails,
	// the others run their own search.
	CandidateFitAnchored
)

func (f CandidateFit) String() string {
	switch f {
	case CandidateFitOwn:
		return "own"
	case CandidateFitAnchored:
		return "anchored"
	}
	return fmt.Sprintf("CandidateFit(%d)", int(f))
}

// ProbeRule is when Portfolio's fixed-point probe fires
// (DecideOptions.Probe).
type ProbeRule int

const (
	// ProbeAlways (the zero value, every committed record): whenever
	// avg's proposal is on the group's fixed-point set and no observed,
	// pending or failed point is (within DecideOptions.ProbeWindow).
	ProbeAlways ProbeRule = iota
	// ProbeEarned: as ProbeAlways, and only where the referee — the
	// candidate the evidence chose, whose posterior means pick the
	// proposal — rates avg's proposal at least as high by its own
	// acquisition (UCB, EI: mean and uncertainty) as the proposal its
	// means picked. The bet on Fix(G) is then one the model the data
	// favour would make; where its uncertainty there is no larger than
	// elsewhere and its mean lower, the evaluation goes where it expects
	// more.
	ProbeEarned
	// ProbeOff: never; avg's proposals compete on the referee's means
	// like every other.
	ProbeOff
)

func (r ProbeRule) String() string {
	switch r {
	case ProbeAlways:
		return "always"
	case ProbeEarned:
		return "earned"
	case ProbeOff:
		return "off"
	}
	return fmt.Sprintf("ProbeRule(%d)", int(r))
}

// ParseProbeRule parses "always", "earned" or "off".
func ParseProbeRule(s string) (ProbeRule, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "always":
		return ProbeAlways, nil
	case "earned":
		return ProbeEarned, nil
	case "off":
		return ProbeOff, nil
	}
	return 0, fmt.Errorf("%w: unknown probe rule %q (want always, earned or off)", ErrBadConfig, s)
}

// ParseCandidateFit parses "own" or "anchored".
func ParseCandidateFit(s string) (CandidateFit, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "own":
		return CandidateFitOwn, nil
	case "anchored":
		return CandidateFitAnchored, nil
	}
	return 0, fmt.Errorf("%w: unknown candidate fit %q (want own or anchored)", ErrBadConfig, s)
}

// Default protocol and acquisition-optimizer budgets.
const (
	DefaultInit       = 5
	DefaultIters      = 50
	DefaultRawSamples = 512
	DefaultStarts     = 10
	DefaultMaxIter    = 100
	// DefaultLandmarks is the design cap of the Nyström kernels
	// (Config.Landmarks 0): the paper's k_plus, every observation in the
	// design, up to this many observations; landmarks above.
	DefaultLandmarks = 256
)

// Caps, checked by New and Run before anything is allocated: exact GP
// regression costs O(n²) memory and O(n³) time in the number n of
// observations, so MaxEvaluations (observations and pending points; Init,
// and Init + Iters in Run) is far beyond what an exact GP can fit anyway.
const (
	MaxEvaluations = 1_000_000
	// MaxDim caps the box dimension: the acquisition's quasi-random raw
	// samples (a Halton sequence) are defined up to dimension 1000.
	MaxDim = qmc.MaxDim
	// MaxBatch caps AskBatch's q and RunOptions.Batch.
	MaxBatch = 1 << 10
)

// Caps of the acquisition optimizer's budgets (Config.RawSamples, Starts
// and MaxIter): it scores RawSamples points of d coordinates and runs
// Starts ascents of at most MaxIter steps each.
const (
	maxRawSamples = 1 << 22
	maxStarts     = 1 << 12
	maxAscentIter = 1 << 16
)

// Config configures an Optimizer: what a user sets — the kernel, the
// direction, the acquisition, the initial design, the noise, the scale
// and the resources — and, embedded, the Protocol (the reproduction and
// research knobs). The zero value is the paper's protocol with the base
// RBF kernel, maximizing: GP-UCB with β_t = 0.5·d·log t, every kernel
// fitted on its own likelihood, 5 uniform initial points, 512
// quasi-random raw samples and 10 quasi-Newton starts. Recommended
// returns the configuration symbo recommends for a group.
type Config struct {
	// Kernel is the GP covariance (Base, Avg, AvgNorm, Max, Plus or
	// Custom); the zero value is Base(kernel.RBF).
	Kernel Kernel
	// Minimize minimizes the values told instead of maximizing them.
	Minimize bool
	// Acquisition is the acquisition function: UCB{} (the default, also
	// for nil), EI{} or one of the caller's.
	Acquisition Acquisition
	// FixNoise holds the GP noise variance at Noise (units of y) instead
	// of fitting it. Run sets Noise to the problem's noise variance when
	// Noise is 0. Noise is used only with FixNoise: a non-zero Noise
	// without it is ErrBadConfig (the noise would be fitted regardless).
	FixNoise bool
	Noise    float64
	// Init is the number of uniform random initial points (0 means 5, at
	// most MaxEvaluations).
	Init int
	// Landmarks caps the exact GP of every built-in kernel but Soft (exact
	// at any n; a portfolio leaves it out above the cap): while the
	// observations (and pending points) number at most Landmarks the GP is
	// exact (for Plus and Nystrom the design is all of them — the paper's
	// k_plus); above, it is a GP on Landmarks landmarks chosen among them
	// by a greedy pivoted Cholesky of the kernel's Gram and is rank ≤
	// Landmarks plus noise: O(m) kernel evaluations per prediction. For
	// Plus and Nystrom the landmarks are k_plus's design
	// (gp.NewLandmarkPlusFamily); for Base, Max, Avg and AvgNorm the GP is
	// the DTC approximation of the kernel's own (gp.NewLandmarkFamily).
	// LandmarkFit says how the hyperparameters are then fitted. 0 means
	// DefaultLandmarks (256), negative never (always exact). At most
	// MaxEvaluations. Custom kernels ignore it.
	Landmarks int
	// Workers is the number of goroutines for the acquisition optimizer and
	// kernel assembly; 0 means GOMAXPROCS. Results do not depend on it.
	Workers int
	// Backend does the GP's linear algebra; nil means linalg.Default().
	Backend linalg.Backend
	// Budget is the memory budget in bytes of every request the optimizer
	// makes — its GPs' work matrices (gp.FitOptions.Budget), its kernels'
	// enumerated orbits and matrices (kernel.Options.Budget), a step's
	// raw samples ((RawSamples+1)·(8d+32) bytes) with their scrambled
	// Halton tables (quadratic in d: about 90 MB at d = 1000) — each
	// sized before it is allocated and refused above it (orbit.ErrOverBudget);
	// a budget below a step's raw samples, or below a GP on the Init
	// points, which the first BO step is sure to need, New refuses.
	// 0 means orbit.DefaultBudget (8 GiB), never the environment;
	// negative is an error. A Custom family keeps the budget it was
	// built with. Results do not depend on it (when nothing is refused).
	Budget int64
	// Protocol holds the reproduction and research knobs: its zero value
	// (PaperProtocol) is the paper's protocol; Recommended sets
	// RecommendedProtocol. Its fields are promoted (cfg.Prior).
	Protocol
}

// Protocol is how an Optimizer models and searches beyond what a user
// sets in Config: the exploration rule, the constant liar, the fitting
// rules, the prior and mean, the acquisition optimizer's budgets and the
// exclusion of observed points (a deciding kernel's own options are the
// kernel's: DecideOptions). The
// experiments reproduce the paper with PaperProtocol (the zero value) and
// study the others; a user takes Recommended's.
type Protocol struct {
	// Beta: BetaPaper (default) or BetaAuthors. Used by UCB only.
	Beta BetaRule
	// BetaScale, when positive, multiplies the rule's β (UCB's weight on
	// the standard deviation is then √(BetaScale·β)); 0 means 1, the
	// rule's own (the paper's protocol: perf bo, perf table); negative,
	// NaN, ±Inf or above MaxBetaScale is an error. Recommended sets
	// DefaultBetaScale.
	BetaScale float64
	// Liar is the value told pending and failed points for the
	// acquisition: LiarMean (default) or LiarWorst.
	Liar Liar
	// FitMode: gp.ModeOwn (default, the paper) or gp.ModeBase (the
	// authors' code: fit the base kernel, reuse its hyperparameters).
	FitMode gp.Mode
	// Prior: gp.PriorNone (default, the plain likelihood) or
	// gp.PriorBoTorch (MAP with BoTorch's classic SingleTaskGP priors; the
	// lengthscale prior is on ℓ divided by the box's largest side, i.e. on
	// the unit-cube scale of BoTorch's input normalization).
	Prior gp.Prior
	// Mean is the GP's prior mean: gp.MeanSample (default, the paper's
	// protocol: the sample mean of the observations) or gp.MeanConstant (a
	// constant fitted by maximum likelihood with the other
	// hyperparameters, as BoTorch's SingleTaskGP does; see gp.Mean). The
	// models conditioned on pending points (constant liar) and the
	// canonical-coordinate models use it too, each with its own GLS
	// estimate of the constant.
	Mean gp.Mean
	// Restarts is the number of random hyperparameter starts per fit
	// besides the default one (gp.FitOptions): 0 means gp's default (2),
	// negative none, at most gp.MaxRestarts.
	Restarts int
	// RawSamples quasi-random points (0 means 512) are scored; the best
	// Starts of them (0 means 10), with the best observed point, start a
	// bounded quasi-Newton ascent of at most MaxIter iterations (0 means
	// 100). At most 2²², 2¹² and 2¹⁶ respectively. These points and the
	// ascents' ends are all a step searches: where they all lie on
	// excluded orbits Ask returns ErrSpaceExhausted, so a small RawSamples
	// can exhaust a step on a box the excluded orbits do not cover.
	RawSamples, Starts, MaxIter int
	// LandmarkFit is how a GP with landmarks is fitted
	// (gp.FitOptions.LandmarkFit): gp.LandmarkFitDefault (the kernel's
	// rule: Plus and Nystrom on the landmark model's likelihood,
	// re-choosing the landmarks for every lengthscale, on at most
	// max(4·m, 1024) of the observations, O(min(n, max(4m, 1024))·m²)
	// each; the others on the exact likelihood of m of the observations,
	// O(m³) each),
	// gp.LandmarkFitSubset, gp.LandmarkFitLikelihood or gp.LandmarkFitFull
	// (the landmark likelihood on every observation, O(n·m²) each) for
	// every kernel.
	LandmarkFit gp.LandmarkFit
	// ExcludeObserved extends the exclusion radius of the pending and
	// failed points to the observed ones: no BO step proposes a point
	// within the exclusion radius of an observed point's orbit (package
	// documentation, "The exclusion radius"); where the acquisition's
	// maximizer lands there, the next best ascent end is taken, then the
	// best raw sample off every excluded orbit. false (the zero value,
	// perf bo and perf table) lets a step return to an observed point, as
	// the paper's protocol does; the front ends set it
	// (DefaultExcludeObserved): re-evaluating a point tells a
	// deterministic objective nothing. The initial design excludes
	// observed points either way.
	ExcludeObserved bool
	// StepAside (with ExcludeObserved) changes what is taken where the
	// acquisition's best ascent end lies on an observed point's excluded
	// orbit: the best of the points just outside the exclusion radius
	// beside it (2·d of them, one step along each coordinate each way)
	// competes, by the acquisition's value, with the next ascent end off
	// every excluded orbit — the acquisition's next best, rather than the
	// next local maximum, which may lie anywhere. Where the model rates an
	// observed point highest (the optimum found), a step then refines
	// beside it instead of leaving for a region it rates lower. Pending
	// and failed points' orbits are not stepped aside from (a batch keeps
	// its spread). false (the zero value, perf bo and perf table without
	// --step-aside) takes the next ascent end; Recommended sets it, chosen
	// on the users' suite's tuning half (lab/results/hedge/aside.md). Cost:
	// at most 4·d exclusion tests and acquisition values per excluded end.
	StepAside bool
	// Normalize fits and searches in normalized coordinates, so that the
	// user's units do not matter: every coordinate is mapped by
	// u_k = (x_k − c_k)/s_k, with c and s chosen from the box and the
	// kernel's group (orbit.CoordinateMaps) so that the group commutes
	// with the map and acts on u as on x — coordinates the group mixes
	// share one map; a class the group only permutes, or leaves alone,
	// has its sides mapped into [−1, 1]; a class it flips or rotates is
	// scaled about 0, its largest |bound| to 1; a scaling group's
	// coordinates are not mapped. The kernel, the GP fit and its priors,
	// the initial design, the acquisition search, the exclusion radius,
	// the fixed-point probe, landmarks and canonical maps all work on u;
	// Ask, AskBatch, Best, History and every point a caller sees or gives
	// (Tell, AddPending, Fail, Record, Restore) are in the user's units
	// (proposals mapped back and clamped into the box), and
	// Diagnostics.Hyper's lengthscale is on u's scale. See "Units" in the
	// package documentation. false (the zero value: perf bo, perf table,
	// every committed record) computes on the user's coordinates, bit for
	// bit as before the setting; Recommended sets it.
	Normalize bool
	// ARD gives each class of coordinates its own lengthscale: the
	// coordinates the group permutes or rotates together share one; a
	// coordinate it only flips, or leaves alone (outside an OnCoords
	// group's coordinates), has its own. Each step fits the base kernel
	// with one lengthscale per class (gp.FitClassLengthscales, with the
	// fit's prior per lengthscale), scales each class's coordinates by
	// the shortest lengthscale over its own, and fits every kernel's one
	// lengthscale on the scaled coordinates — a scaling the group
	// commutes with, so that every kernel (max, plus, avg with its closed
	// forms, soft, the landmark GPs) is the same kernel of the scaled
	// inputs, as invariant as before. Diagnostics.Hyper.Lengthscales
	// reports the lengthscale along each coordinate. Nothing changes with
	// fewer than two classes (a group that mixes every coordinate), for a
	// custom kernel, or over a scaling group. Cost: one more fit per step,
	// O(C·m² + m³) per likelihood evaluation with C classes and m ≤ 256
	// of the observations. false (the zero value: perf bo, perf table,
	// every committed record) is one lengthscale; Recommended sets it.
	ARD bool
	// ResidualVariance adds to the predictive variance of the Nyström
	// kernels — Plus, Nystrom, Soft, their landmark GPs, the canonical
	// models — the prior variance their design misses at x
	// (gp.Options.ResidualVariance). Without it k_plus's variance falls
	// towards 0 away from the observations (less than half of the base
	// GP's there: gp's TestNystromIsBaseLessResidual), so a Nyström kernel
	// hardly explores there; with it, the variance far from the data is
	// the prior's, as the base GP's is (Nystrom becomes the base GP
	// exactly). The means, the likelihoods, the fits and the evidence
	// between candidates are unchanged. Cost: O(r) per prediction. false
	// (the zero value: perf bo, perf table, every committed record,
	// Recommended) is the paper's k_plus posterior; a study, not a default
	// (lab/results/suite/pilots.md).
	ResidualVariance bool
}

// PaperProtocol is the paper's protocol (the zero Protocol), which perf bo
// and perf table run, so that every committed record reproduces.
var PaperProtocol = Protocol{}

// RecommendedProtocol is the protocol of Recommended: BoTorch's priors, a
// learned constant mean, no step on an observed point's orbit (stepping
// aside from it where the acquisition rates it highest), and normalized
// inputs (the user's units do not matter) with a lengthscale per class of
// coordinates, and UCB's β scaled by DefaultBetaScale.
func RecommendedProtocol() Protocol {
	return Protocol{Prior: gp.PriorBoTorch, Mean: gp.MeanConstant, ExcludeObserved: DefaultExcludeObserved, StepAside: true, Normalize: true, ARD: true, BetaScale: DefaultBetaScale}
}

// withDefaults returns c with zero fields replaced by their defaults, or an
// error for invalid fields.
func (c Config) withDefaults() (Config, error) {
	c.Kernel = c.Kernel.orDefault()
	if c.Acquisition == nil {
		c.Acquisition = acquisitions[0]
	} else if check.IsNil(c.Acquisition) {
		return c, fmt.Errorf("%w: a nil %T acquisition", ErrBadConfig, c.Acquisition)
	}
	if c.Beta != BetaPaper && c.Beta != BetaAuthors {
		return c, fmt.Errorf("%w: beta rule %v", ErrBadConfig, c.Beta)
	}
	if !(c.BetaScale >= 0 && c.BetaScale <= MaxBetaScale) {
		return c, fmt.Errorf("%w: BetaScale = %v, want 0 (the rule's β) or a factor in (0, %g]", ErrBadConfig, c.BetaScale, float64(MaxBetaScale))
	}
	if c.Liar != LiarMean && c.Liar != LiarWorst {
		return c, fmt.Errorf("%w: liar %v", ErrBadConfig, c.Liar)
	}
	if c.FitMode != gp.ModeOwn && c.FitMode != gp.ModeBase {
		return c, fmt.Errorf("%w: fit mode %v", ErrBadConfig, c.FitMode)
	}
	if c.Prior != gp.PriorNone && c.Prior != gp.PriorBoTorch {
		return c, fmt.Errorf("%w: prior %v", ErrBadConfig, c.Prior)
	}
	if c.Mean != gp.MeanSample && c.Mean != gp.MeanConstant {
		return c, fmt.Errorf("%w: mean %v", ErrBadConfig, c.Mean)
	}
	if _, err := gp.ParseLandmarkFit(c.LandmarkFit.String()); err != nil {
		return c, fmt.Errorf("%w: landmark fit %v", ErrBadConfig, c.LandmarkFit)
	}
	if err := c.Kernel.decide.check(); err != nil {
		return c, err
	}
	if c.Kernel.affordErr != nil {
		return c, c.Kernel.affordErr
	}
	for _, f := range []struct {
		name     string
		v        *int
		def, max int
	}{
		{"Init", &c.Init, DefaultInit, MaxEvaluations},
		{"RawSamples", &c.RawSamples, DefaultRawSamples, maxRawSamples},
		{"Starts", &c.Starts, DefaultStarts, maxStarts},
		{"MaxIter", &c.MaxIter, DefaultMaxIter, maxAscentIter},
	} {
		if err := checkCount(f.name, *f.v, f.max); err != nil {
			return c, err
		}
		if *f.v == 0 {
			*f.v = f.def
		}
	}
	if c.Restarts > gp.MaxRestarts {
		return c, fmt.Errorf("%w: Restarts = %d exceeds %d", ErrBadConfig, c.Restarts, gp.MaxRestarts)
	}
	if c.Workers < 0 {
		return c, fmt.Errorf("%w: Workers = %d is negative", ErrBadConfig, c.Workers)
	}
	if c.Budget < 0 {
		return c, fmt.Errorf("%w: Budget = %d is negative", ErrBadConfig, c.Budget)
	}
	if c.Landmarks > MaxEvaluations {
		return c, fmt.Errorf("%w: Landmarks = %d exceeds %d", ErrBadConfig, c.Landmarks, MaxEvaluations)
	}
	if c.Landmarks == 0 {
		c.Landmarks = DefaultLandmarks
	}
	if c.FixNoise && (!(c.Noise >= 0) || c.Noise > 1e300) {
		return c, fmt.Errorf("%w: Noise = %v", ErrBadConfig, c.Noise)
	}
	if !c.FixNoise && c.Noise != 0 {
		return c, fmt.Errorf("%w: Noise = %v without FixNoise (the noise variance is fitted; set FixNoise to hold it at Noise)", ErrBadConfig, c.Noise)
	}
	if c.Backend == nil {
		b, err := linalg.Default()
		if err != nil {
			return c, fmt.Errorf("bo: %w", err)
		}
		c.Backend = b
	}
	return c, nil
}

// checkCount accepts 0 (the default) through max.
func checkCount(name string, v, max int) error {
	if v < 0 || v > max {
		return fmt.Errorf("%w: %s = %d outside [0, %d]", ErrBadConfig, name, v, max)
	}
	return nil
}
