package bo

import (
	"fmt"
	"slices"
	"strings"

	"github.com/symbo/symbo/gp"
	"github.com/symbo/symbo/internal/check"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/linalg"
	"github.com/symbo/symbo/orbit"
)

// Kernel is the GP covariance of an Optimizer: a family of correlation
// functions whose signal variance, lengthscale and noise are fitted to the
// observations at every acquisition step, optionally invariant under a
// group. Build one with Base, Nystrom, Avg, AvgNorm, Max, Plus,
// ParseKernel, or Custom for a family of your own. The zero value is Base(kernel.RBF).
type Kernel struct {
	name  string
	shape kernel.Shape
	group orbit.Group // nil for base and custom kernels without a group
	// family builds the gp.Family for dimension e.d (checked against the
	// group's) with the optimizer's settings in e.
	family func(e famEnv) (gp.Family, error)
	// nystrom: a Nyström kernel (plus, nystrom), whose design
	// Config.Landmarks caps (gp.NewLandmarkPlusFamily).
	nystrom bool
	// capped: Config.Landmarks applies (every built-in kernel but Soft): the
	// Nyström kernels cap their design, the others are wrapped by
	// landmarked, gp.NewLandmarkFamily.
	capped bool
	// canon: predict in canonical coordinates (max and plus over a group
	// with a canonical map; see canon.go).
	canon bool
	// needsGroup: a built-in invariant kernel, which New refuses without
	// its group.
	needsGroup bool
	// custom: built by Custom, whose family has no symbo shape.
	custom bool
	// arms: auto's candidates, in the order ties are broken (see Auto);
	// odds: the log prior odds (AutoOdds) of each of the last favoured
	// arms (1, or AutoFavouring's).
	arms     []Kernel
	odds     float64
	favoured int
	// prop turns the fitted model(s) into the next point (nil: maximizer,
	// one model's acquisition; Portfolio: portfolioProposer).
	prop proposer
	// leftOut: the candidates named but left out as too costly over the
	// group, each with its reason (afford.go). named and namedFavoured:
	// every candidate named and the favoured count, before any was left
	// out (With reapplies the rule under DecideOptions.Afford);
	// affordErr: no candidate left under that rule (New refuses it).
	leftOut       []string
	named         []Kernel
	namedFavoured int
	affordErr     error
	// decide: a deciding kernel's own options (With).
	decide DecideOptions
	// err: why a constructor without an error result (Auto, Portfolio)
	// could not build the kernel; New returns it.
	err error
	// classGroup: the group whose classes of coordinates Protocol.ARD
	// gives a lengthscale each when the kernel has no group of its own
	// (ParseKernel's base and nystrom over a group; nil: every coordinate
	// its own class).
	classGroup orbit.Group
}

// DecideOptions are a deciding kernel's own options — Auto, Portfolio,
// their Of and Favouring forms, Recommended's kernel: how the candidates
// fit their hyperparameters, when a portfolio's fixed-point probe may
// fire and whether a portfolio hedges its acquisition. The zero value is the paper's protocol (each candidate its own
// search, the probe at any step). Kernels with one candidate ignore them.
type DecideOptions struct {
	// CandidateFit: CandidateFitOwn (0, each candidate its own search) or
	// CandidateFitAnchored (the others around the last one's
	// lengthscale).
	CandidateFit CandidateFit
	// ProbeWindow limits Portfolio's fixed-point probe to its first
	// ProbeWindow BO steps (step t = n − Init + 1 for n observations,
	// pending and failed points, as β's): at a later step a proposal of avg's on
	// Fix(G) competes on the referee's mean like every other. 0 means no
	// limit (the probe may fire at any step); negative is an error.
	// Recommended uses DefaultProbeWindow.
	ProbeWindow int
	// Probe is when the probe fires: ProbeAlways (0), ProbeEarned or
	// ProbeOff.
	Probe ProbeRule
	// Hedge (Portfolio only) makes every candidate propose two points:
	// the maximizer of Config.Acquisition and that of the other built-in
	// acquisition (HedgeAcquisition: EI beside UCB, UCB beside EI), on
	// the same raw samples, its ascents from the best HedgeStarts of them
	// under it. The referee's posterior mean then picks among all the
	// proposals, as among the candidates' without it. false (the zero
	// value) is one proposal per candidate. Cost: the raw samples are
	// scored by both acquisitions from one prediction each; the ascents
	// grow by HedgeStarts/Starts per candidate.
	Hedge bool
	// HedgeStarts is the number of ascents of the hedging acquisition
	// per candidate: 0, or more than Config.Starts, means Config.Starts;
	// negative is an error. Recommended uses DefaultHedgeStarts.
	HedgeStarts int
	// CandidateStarts (Portfolio only) is the number of ascents of
	// Config.Acquisition for each candidate other than the referee (the
	// candidate the evidence picks at the step, whose posterior mean
	// chooses among the proposals; its search keeps Config.Starts, but
	// not under Afford at a step where an avg or avgnorm candidate
	// fitted, whichever referees): 0, or Config.Starts or more, means
	// Config.Starts; negative is an error.
	// Recommended uses DefaultCandidateStarts. Cost: the ascents, most of
	// a step at small n, fall from C·Starts to Starts + (C−1)·
	// CandidateStarts for C candidates.
	CandidateStarts int
	// Referee is the score that picks the referee among the fitted
	// candidates (the model Auto predicts with, whose means pick
	// Portfolio's proposal), the favoured ones' raised by the log prior
	// odds: RefereeEvidence (0, the log marginal likelihood) or
	// RefereeLOO (the leave-one-out log predictive density,
	// gp.GP.LOOLogPredictive; in a step where a candidate has no exact
	// GP, above Config.Landmarks, every candidate is scored by its
	// evidence). Cost of RefereeLOO: O(n³/3) per candidate and step,
	// about one more Cholesky factor.
	Referee RefereeRule
	// Odds, when positive, replaces AutoOdds as the log prior odds added
	// to each favoured candidate's score; 0 means AutoOdds (ln 20);
	// negative, NaN, ±Inf or above MaxOdds is an error.
	Odds float64
	// Afford also leaves out avg and avgnorm over the scaling groups,
	// whose exact k_avg takes an adaptive quadrature per pair, and where
	// k_avg is enumerated over more than AffordEnumerateLimit elements
	// (see affordable): false (the zero value, every committed record)
	// holds the candidates to AutoEnumerateLimit alone. Recommended sets
	// it, so a candidate list a front end names is held to it. Under
	// Afford, at a step where an avg or avgnorm candidate of a portfolio
	// fitted, every candidate, the referee included, searches with
	// CandidateStarts ascents (when set), not the referee's
	// Config.Starts, and avg and avgnorm score the first
	// ⌈RawSamples/CutRawShare⌉ raw samples: their evaluations cost the
	// most per pair, and a list naming avg stepped up to 5.3× plus's
	// (under 4× with the rule, docs/performance.md); the step's
	// Diagnostics.CutStarts and its trace's cut_starts say so. Where
	// avg's or avgnorm's ascent ends and prefix all lie on excluded
	// orbits, it searches again over every raw sample: its search is
	// exhausted (it proposes nothing) only as without the cut, and Ask
	// returns ErrSpaceExhausted only when no candidate proposes.
	Afford bool
}

// logOdds is the log prior odds of each favoured candidate:
// DecideOptions.Odds when set, else the kernel's own (AutoOdds).
func (k Kernel) logOdds() float64 {
	if k.decide.Odds > 0 {
		return k.decide.Odds
	}
	return k.odds
}

// RefereeRule is how a deciding kernel scores its candidates
// (DecideOptions.Referee).
type RefereeRule int

const (
	// RefereeEvidence (the zero value, every committed record and
	// Recommended): the log marginal likelihood.
	RefereeEvidence RefereeRule = iota
	// RefereeLOO: the leave-one-out log predictive density.
	RefereeLOO
)

func (r RefereeRule) String() string {
	switch r {
	case RefereeEvidence:
		return "evidence"
	case RefereeLOO:
		return "loo"
	}
	return fmt.Sprintf("RefereeRule(%d)", int(r))
}

// ParseRefereeRule parses "evidence" or "loo".
func ParseRefereeRule(s string) (RefereeRule, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "evidence":
		return RefereeEvidence, nil
	case "loo":
		return RefereeLOO, nil
	}
	return 0, fmt.Errorf("%w: unknown referee rule %q (want evidence or loo)", ErrBadConfig, s)
}

// check refuses options New cannot run (ErrBadConfig).
func (o DecideOptions) check() error {
	if o.CandidateFit != CandidateFitOwn && o.CandidateFit != CandidateFitAnchored {
		return fmt.Errorf("%w: candidate fit %v", ErrBadConfig, o.CandidateFit)
	}
	if o.ProbeWindow < 0 || o.ProbeWindow > MaxEvaluations {
		return fmt.Errorf("%w: probe window %d, want 0 (no limit) to %d", ErrBadConfig, o.ProbeWindow, MaxEvaluations)
	}
	if o.Probe < ProbeAlways || o.Probe > ProbeOff {
		return fmt.Errorf("%w: probe rule %v", ErrBadConfig, o.Probe)
	}
	if o.HedgeStarts < 0 || o.HedgeStarts > maxStarts {
		return fmt.Errorf("%w: hedge starts %d, want 0 (Config.Starts) to %d", ErrBadConfig, o.HedgeStarts, maxStarts)
	}
	if o.CandidateStarts < 0 || o.CandidateStarts > maxStarts {
		return fmt.Errorf("%w: candidate starts %d, want 0 (Config.Starts) to %d", ErrBadConfig, o.CandidateStarts, maxStarts)
	}
	if o.Referee != RefereeEvidence && o.Referee != RefereeLOO {
		return fmt.Errorf("%w: referee rule %v", ErrBadConfig, o.Referee)
	}
	if !(o.Odds >= 0 && o.Odds <= MaxOdds) {
		return fmt.Errorf("%w: odds %v, want 0 (AutoOdds) or a log prior odds in (0, %g]", ErrBadConfig, o.Odds, float64(MaxOdds))
	}
	return nil
}

// With returns k with the deciding options o; New refuses invalid ones
// (ErrBadConfig), and a deciding kernel none of whose candidates
// o.Afford leaves (ErrBadConfig, naming them and why). The
// candidates k keeps follow o: With(o) after With(o') is With(o).
func (k Kernel) With(o DecideOptions) Kernel {
	k.decide = o
	if k.named != nil {
		k.arms, k.favoured, k.leftOut, k.affordErr = afford(k.name, k.named, k.namedFavoured, k.group, k.shape, o.Afford)
	}
	return k
}

// Options returns the deciding options of k (With).
func (k Kernel) Options() DecideOptions { return k.decide }

// famEnv is what a Kernel's family is built with: the dimension d and
// the optimizer's workers, backend, memory budget and landmark cap
// (Config.Landmarks with its default applied: m ≥ 1, or negative for
// none).
type famEnv struct {
	d, workers int
	be         linalg.Backend
	budget     int64
	landmarks  int
}

// landmarked caps an exact family at e.landmarks training points: above
// them its GP is gp.NewLandmarkFamily's (DTC on that many landmarks,
// hyperparameters fitted on as many of the points); with a negative cap
// it is fam itself.
func (e famEnv) landmarked(fam gp.Family, err error) (gp.Family, error) {
	if err != nil || e.landmarks < 0 {
		return fam, err
	}
	return gp.NewLandmarkFamily(fam, e.landmarks, gp.LandmarkOptions{Backend: e.be})
}

// opts are the kernel options of the optimizer's settings.
func (e famEnv) opts() kernel.Options {
	return kernel.Options{Workers: e.workers, Budget: e.budget}
}

// shapeName is the base shape traces report: the shape's name, or
// "custom" for a Custom kernel (its correlation is the caller's).
func (k Kernel) shapeName() string {
	if k.custom {
		return "custom"
	}
	return k.shape.String()
}

// Kernel names as ParseKernel and the command line spell them.
const (
	NameBase      = "base"
	NameAvg       = "avg"
	NameAvgNorm   = "avgnorm"
	NameMax       = "max"
	NamePlus      = "plus"
	NameSoft      = "soft"
	NameNystrom   = "nystrom"
	NameAuto      = "auto"
	NamePortfolio = "portfolio"
)

// KernelNames lists the names ParseKernel accepts.
func KernelNames() []string {
	return []string{NameBase, NameNystrom, NameAvg, NameAvgNorm, NameMax, NamePlus, NameSoft, NameAuto, NamePortfolio}
}

// Base is the base kernel k_b(x, y) = v·κ(‖x − y‖/ℓ) of the given shape.
func Base(shape kernel.Shape) Kernel {
	return Kernel{name: NameBase, shape: shape, capped: true, family: func(e famEnv) (gp.Family, error) {
		return e.landmarked(gp.NewBaseFamily(shape, e.d))
	}}
}

// Nystrom is the base kernel of the given shape Nyström-extended from the
// observed points D, k(x, D)·K⁺·k(D, y) with K = k(D, D) truncated by the
// rule of Plus: k_plus over the trivial group. It is not invariant; its
// prior variance vanishes away from the data, which is the part of
// k_plus's behaviour that does not come from the group. Beside Base, Max
// and Plus it makes the 2×2 invariance × Nyström ablation.
func Nystrom(shape kernel.Shape) Kernel {
	return Kernel{name: NameNystrom, shape: shape, nystrom: true, capped: true, family: func(e famEnv) (gp.Family, error) {
		g, err := orbit.Trivial(e.d)
		if err != nil {
			return nil, fmt.Errorf("%w: nystrom: %v", ErrBadConfig, err)
		}
		return plusFamily(shape, g, e)
	}}
}

// Avg is the orbit average k_avg over g of the base kernel of the given
// shape. New refuses it (ErrBadConfig) where k_avg over g with this shape
// would be enumerated over more than AvgEnumerateLimit elements (see
// AvgEnumerateLimit for the cost and the alternatives).
func Avg(g orbit.Group, shape kernel.Shape) Kernel {
	return Kernel{name: NameAvg, shape: shape, group: g, needsGroup: true, capped: true, family: func(e famEnv) (gp.Family, error) {
		if err := checkAvgEnumeration(g, shape); err != nil {
			return nil, err
		}
		return e.landmarked(gp.NewAvgFamily(shape, g, e.opts()))
	}}
}

// AvgNorm is the normalized orbit average v·a(x, y)/√(a(x, x)·a(y, y))
// (kernel.Options.Normalize; not in the paper: k_avg's prior variance
// peaks at the group's fixed points, which biases GP-UCB toward them).
// New refuses it where it refuses Avg.
func AvgNorm(g orbit.Group, shape kernel.Shape) Kernel {
	return Kernel{name: NameAvgNorm, shape: shape, group: g, needsGroup: true, capped: true, family: func(e famEnv) (gp.Family, error) {
		if err := checkAvgEnumeration(g, shape); err != nil {
			return nil, err
		}
		o := e.opts()
		o.Normalize = true
		return e.landmarked(gp.NewAvgFamily(shape, g, o))
	}}
}

// Max is the max kernel k_max used directly as the covariance. New accepts
// it only for groups with a canonical map (orbit.Canonicalizer: sign
// flips, permutations, signed permutations, planar rotations, scalingdir,
// the trivial group), where k_max(x, y) = k_b(φ(x), φ(y)) is PSD for every isotropic
// non-increasing base kernel (the paper's Proposition 1); elsewhere New
// fails with ErrMaxNotPSD and suggests Plus.
func Max(g orbit.Group, shape kernel.Shape) Kernel {
	_, canon := g.(orbit.Canonicalizer)
	return Kernel{name: NameMax, shape: shape, group: g, needsGroup: true, canon: canon, capped: true, family: func(e famEnv) (gp.Family, error) {
		if !canon {
			return nil, fmt.Errorf("%w: %s has no canonical map (the paper's Proposition 1 covers sign flips, permutations, signed permutations and rotations); use kernel plus, its PSD projection", ErrMaxNotPSD, g.Name())
		}
		return e.landmarked(gp.NewMaxFamily(shape, g, e.opts()))
	}}
}

// Plus is k_plus, the PSD projection of k_max Nyström-extended from the
// observed points (the paper's kernel), or from landmarks chosen among
// them once they outnumber Config.Landmarks.
func Plus(g orbit.Group, shape kernel.Shape) Kernel {
	_, canon := g.(orbit.Canonicalizer)
	return Kernel{name: NamePlus, shape: shape, group: g, needsGroup: true, canon: canon, nystrom: true, capped: true, family: func(e famEnv) (gp.Family, error) {
		return plusFamily(shape, g, e)
	}}
}

// Soft is the group as a soft constraint: the mix
// k_soft = (1 − SoftShare)·k_plus + SoftShare·k_nystrom of Plus and
// Nystrom on the same design (every observation) at one lengthscale
// (gp.NewMixFamily), the covariance of an invariant function plus a
// smaller non-invariant one (a residual pathway, after Finzi, Benton and
// Wilson, "Residual Pathway Priors for Soft Equivariance Constraints",
// NeurIPS 2021). It is not invariant: where the data contradict the group
// its posterior departs from the orbit-constant one and its evidence
// exceeds plus's; where the group holds it stays near plus's. Not in the
// paper.
//
// Its GP is exact: Config.Landmarks does not cap it (there is no landmark
// form of the mix yet), so a likelihood evaluation costs O(n³) at every n
// — one n×n eigendecomposition for the profile, as plus's, over a group
// with a canonical map (whose k_max Gram is PSD and enters unprojected;
// one more for the projection over other groups) — and a prediction both
// extensions' kernel rows plus O(n·R) for their R ≤ 2n stacked features
// (the feature form); over a group with a canonical map both rows are
// base-kernel rows in canonical coordinates (gp.NewMixFamily). As a candidate of Auto or
// Portfolio it drops out of the steps with more than Config.Landmarks
// observations (its evidence is then NaN in the trace), so that their
// cost stays that of the capped candidates.
func Soft(g orbit.Group, shape kernel.Shape) Kernel {
	return Kernel{name: NameSoft, shape: shape, group: g, needsGroup: true, family: func(e famEnv) (gp.Family, error) {
		po := kernel.PlusOptions{Backend: e.be}
		inv, err := gp.NewPlusFamily(shape, g, e.opts(), po)
		if err != nil {
			return nil, err
		}
		tg, err := orbit.Trivial(e.d)
		if err != nil {
			return nil, fmt.Errorf("%w: soft: %v", ErrBadConfig, err)
		}
		free, err := gp.NewPlusFamily(shape, tg, e.opts(), po)
		if err != nil {
			return nil, err
		}
		return gp.NewMixFamily(inv, free, SoftShare)
	}}
}

// SoftShare is the share of Soft's signal variance in its non-invariant
// part. 0.2 and 0.5 measured alike as candidates of a portfolio
// (measured: lab/results/soft); it is small so that under a right group
// the posterior stays near plus's.
const SoftShare = 0.2

// Auto decides at every fit how to use the group g: it fits each of its
// candidates — AutoCandidates: the group ignored (nystrom), the orbit
// average (avg) and the projected max kernel (plus) — to the
// observations, each by the optimizer's own fit, and predicts with the
// one whose fitted log marginal likelihood is highest (type-II maximum
// likelihood over the kernel as over its hyperparameters; ties go to
// the earlier candidate). A declared group the data contradict loses to
// nystrom, which does not assume it. The choice is a function of the
// observations like everything else a step does; traces record it
// (Evaluation.Kernel) with every candidate's evidence
// (Evaluation.Evidence, in Trace.Candidates' order).
//
// Pending and failed points exclude their orbits under g whichever
// candidate predicts. Cost: the fits of all candidates (about the sum of
// their fit times) and one acquisition, of the chosen kernel. Where k_avg
// over g with this shape costs more than AutoEnumerateLimit base-kernel
// evaluations per pair (enumerated over more than 64 elements, or a
// permanent of order 7 or more; see affordable) avg is left out, under
// this and every candidate list: the candidates are nystrom and plus, as
// Trace.Candidates records, and Trace.LeftOut says why. Under
// DecideOptions.Afford (the front ends') it is also left out where
// k_avg is enumerated over more than AffordEnumerateLimit elements or
// takes a quadrature (the scaling groups). Without a group
// (g nil; avg and plus need one) New refuses the kernel with
// ErrBadConfig, as it refuses Plus(nil, shape).
func Auto(g orbit.Group, shape kernel.Shape) Kernel {
	k, err := AutoOf(g, shape, AutoCandidates()...)
	if err != nil {
		// Without a group (avg and plus need one): New refuses it, as
		// it refuses Plus(nil, shape), naming auto.
		return Kernel{name: NameAuto, shape: shape, group: g, needsGroup: true, err: err}
	}
	k.name = NameAuto
	return k
}

// AutoEnumerateLimit is the largest cost per pair of points, in
// base-kernel evaluations, of a candidate Auto and Portfolio keep (see
// affordable): the largest finite group over which they include avg when
// k_avg has no closed form for the base shape, and 2^m for RBF's
// permanent of order m. An enumerated k_avg costs O(|G|·d) per kernel
// pair against plus's closed-form orbit distance, and Portfolio also
// maximizes avg's acquisition. 64 keeps a step of the front ends'
// default within about 4× plus's, the bound the deciding kernels are
// held to, and every group of the committed studies within it
// (hyperoctahedral(3) with Matérn-5/2 and hyperoctahedral(6) with RBF
// the largest; measured: docs/performance.md, "The default's step over
// large groups").
const AutoEnumerateLimit = 64

// AutoOf is Auto choosing among the named kernels (at least two of
// KernelNames but auto and portfolio, distinct; ties go to the earlier), named
// "auto:a+b+…" in traces and by ParseKernel. Errors: ErrBadConfig for
// fewer than two candidates, a repeated one, auto or portfolio among
// them, or one that needs a group given none; ErrUnknownKernel for an
// unknown name.
func AutoOf(g orbit.Group, shape kernel.Shape, names ...string) (Kernel, error) {
	return listOf(NameAuto, g, shape, names)
}

// listOf is AutoOf (kind NameAuto) or PortfolioOf (NamePortfolio); its
// errors name the kind asked for.
func listOf(kind string, g orbit.Group, shape kernel.Shape, names []string) (Kernel, error) {
	if len(names) < 2 {
		return Kernel{}, fmt.Errorf("%w: %s needs at least two candidates, got %q", ErrBadConfig, kind, names)
	}
	return autoOf(kind, g, shape, names[:len(names)-1], names[len(names)-1:])
}

// AutoFavouring is AutoOf over the candidates others then favoured (in
// that order for ties), with AutoOdds added to the evidence of each of
// favoured rather than of the last alone: among the favoured the evidence
// decides, and one of others predicts only when its evidence exceeds
// every favoured one's by more than the odds. Both lists are non-empty;
// it is named "auto:o+…:f+…" in traces and by ParseKernel ("auto:o+…+f",
// AutoOf's name, when favoured is one candidate).
func AutoFavouring(g orbit.Group, shape kernel.Shape, others, favoured []string) (Kernel, error) {
	return favouringOf(NameAuto, g, shape, others, favoured)
}

// favouringOf is AutoFavouring (kind NameAuto) or PortfolioFavouring
// (NamePortfolio); its errors name the kind asked for.
func favouringOf(kind string, g orbit.Group, shape kernel.Shape, others, favoured []string) (Kernel, error) {
	if len(others) == 0 || len(favoured) == 0 {
		return Kernel{}, fmt.Errorf("%w: %s needs candidates both before and after the favoured ones' colon, got %q and %q", ErrBadConfig, kind, others, favoured)
	}
	return autoOf(kind, g, shape, others, favoured)
}

// autoOf is favouringOf without its checks of the lists' lengths: the
// auto kernel, or with kind NamePortfolio the portfolio, over others then
// favoured, named (and its errors naming it) as that kind. The names are
// trimmed and lowered first, as ParseKernel reads a name, so that the
// checks (a repeated candidate) see the kernels named and the kernel is
// named in the canonical spelling.
func autoOf(kind string, g orbit.Group, shape kernel.Shape, others, favoured []string) (Kernel, error) {
	others, favoured = canonicalNames(others), canonicalNames(favoured)
	names := slices.Concat(others, favoured)
	k := Kernel{name: NameAuto, shape: shape, group: g, needsGroup: true, odds: AutoOdds, favoured: len(favoured)}
	if !slices.Equal(names, AutoCandidates()) {
		k.name = NameAuto + ":" + candidateList(others, favoured)
	}
	for i, n := range names {
		if n == NameAuto || strings.HasPrefix(n, NameAuto+":") || n == NamePortfolio || strings.HasPrefix(n, NamePortfolio+":") || slices.Contains(names[:i], n) {
			return Kernel{}, fmt.Errorf("%w: %s candidate %q (repeated, auto or portfolio)", ErrBadConfig, kind, n)
		}
		a, err := ParseKernel(n, g, shape)
		if err != nil {
			return Kernel{}, err
		}
		k.arms = append(k.arms, a)
	}
	if kind == NamePortfolio {
		// "auto:…" becomes "portfolio:…" before leaveOut, whose refusal
		// names the kernel.
		k.name, k.prop = NamePortfolio+strings.TrimPrefix(k.name, NameAuto), portfolioProposer{}
	}
	return k.leaveOut()
}

// canonicalNames returns the names trimmed and lowered (a fresh slice).
func canonicalNames(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = strings.ToLower(strings.TrimSpace(n))
	}
	return out
}

// candidateList spells the candidates as ParseKernel reads them: "a+b+c"
// when only the last is favoured, "a+b:c+d" when c and d are.
func candidateList(others, favoured []string) string {
	if len(favoured) == 1 {
		return strings.Join(slices.Concat(others, favoured), "+")
	}
	return strings.Join(others, "+") + ":" + strings.Join(favoured, "+")
}

// isFavoured reports whether candidate i of auto or portfolio has the
// prior odds.
func (k Kernel) isFavoured(i int) bool { return i >= len(k.arms)-k.favoured }

// Portfolio is Auto's candidates as a portfolio of proposals: each is
// fitted as under Auto, each proposes the maximizer of its own
// acquisition, and the step returns the proposal with the highest
// posterior mean under the candidate Auto would predict with (its
// evidence with AutoOdds; ties to that candidate's own proposal, then to
// the earlier candidate). A candidate whose search finds every point it
// rates on an excluded orbit (package documentation, "The exclusion
// radius") proposes nothing at that step (Diagnostics.Means: NaN), and
// the others choose among themselves — ties then to the earliest
// proposal where it is the referee's; Ask returns ErrSpaceExhausted only
// when no candidate proposes. It is GP-Hedge's choice (Hoffman, Brochu and de
// Freitas, UAI 2011: reward a proposal by the posterior mean there) made
// at every step from the current fit alone, so the next point stays a
// function of the observations: no gains are carried between steps.
//
// One exception, the fixed-point probe: while no observed, pending or
// failed point lies on the fixed-point set Fix(G) = {x : gx = x for all
// g}, a step whose avg proposal lies on it evaluates that proposal,
// whatever the means (at most once per run in sequential use; then the
// means decide again). avg's prior variance peaks on Fix(G), where
// invariant functions often have their optimum, and no posterior mean
// rates an unvisited point there before one is evaluated: without the
// probe the portfolio missed avg's advantage on Ackley2d and Griewank6d
// (lab/results/portfolio). A point is on Fix(G) when its share
// k_avg(x, x)/σ² at the lengthscale ProbeScale × the box diagonal is at
// least ProbeShare, whatever the fit. Without avg among the candidates,
// or under the trivial group (every point is fixed), there is no probe.
//
// Traces record the winner (Evaluation.Kernel), every candidate's
// evidence, the referee's mean at every proposal (Diagnostics.Means) and
// the probe (Diagnostics.Probe).
//
// Cost: Auto's fits and one acquisition per candidate, then one
// prediction per candidate and one k_avg diagonal over the n points at
// ℓ₀ (the probe's test). Its candidates are Auto's (without avg over a
// large group where k_avg would be enumerated).
func Portfolio(g orbit.Group, shape kernel.Shape) Kernel {
	k := Auto(g, shape)
	k.name, k.prop = NamePortfolio, portfolioProposer{}
	return k
}

// PortfolioOf is Portfolio among the named kernels (as AutoOf: at least
// two of KernelNames but auto and portfolio, distinct; the last is the
// one favoured by AutoOdds), named "portfolio:a+b+…" in traces and by
// ParseKernel. Errors: AutoOf's, naming portfolio.
func PortfolioOf(g orbit.Group, shape kernel.Shape, names ...string) (Kernel, error) {
	return listOf(NamePortfolio, g, shape, names)
}

// PortfolioFavouring is Portfolio over the candidates of AutoFavouring:
// others then favoured, each of favoured with the odds; its referee is
// the candidate AutoFavouring would predict with. It is named
// "portfolio:o+…:f+…" in traces and by ParseKernel (PortfolioOf's name
// when favoured is one candidate).
func PortfolioFavouring(g orbit.Group, shape kernel.Shape, others, favoured []string) (Kernel, error) {
	return favouringOf(NamePortfolio, g, shape, others, favoured)
}

// AutoOdds is the log prior odds with which auto favours its last
// candidate (plus: the group as declared, used as the paper does): another
// candidate predicts only when its fitted log marginal likelihood exceeds
// the last one's by more than ln 20 (a Bayes factor above 20, "strong"
// evidence on Kass and Raftery's scale). Without them (odds 1) the
// evidence picks avg on the off-fixed-point problems, where avg's
// proposals sit on the fixed-point set and explain the data they gathered
// there best, and nystrom on invariant problems where plus optimizes
// better (lab/results/auto.md).
const AutoOdds = 2.995732273553991 // ln 20

// MaxOdds bounds DecideOptions.Odds: a score lml + odds keeps the
// evidence's differences to about 1e-10 there, so among the favoured the
// evidence still decides (at 1e16 every favoured candidate's score
// rounded to the odds alone, and the first favoured won whatever its
// evidence); beyond any evidence a GP's likelihood reaches, it already
// means "always prefer the favoured".
const MaxOdds = 1e6

// AutoCandidates are the names of the kernels Auto chooses among, in its
// order.
func AutoCandidates() []string { return []string{NameNystrom, NameAvg, NamePlus} }

// plusFamily is k_plus over g with the observed points as the design
// (e.landmarks < 0), or at most e.landmarks of them (gp's landmark
// family).
func plusFamily(shape kernel.Shape, g orbit.Group, e famEnv) (gp.Family, error) {
	o, po := e.opts(), kernel.PlusOptions{Backend: e.be}
	if e.landmarks < 0 {
		return gp.NewPlusFamily(shape, g, o, po)
	}
	return gp.NewLandmarkPlusFamily(shape, g, o, po, e.landmarks)
}

// Custom is a covariance of your own: fam is a family of unit-variance
// correlation functions C_ℓ on R^d (gp.Family; gp.FamilyOf wraps any
// kernel.Kernel constructor), fitted like the built-in ones. Its kernels
// need no gradient: without kernel.Gradienter the acquisition ascent
// differentiates them by central differences (kernel.Grad), 2d more kernel
// rows per gradient. g is the group the family is invariant under, or nil:
// it is reported in traces and defines the orbits that pending points
// exclude (a batch never holds two points within 10⁻³ of the box diagonal
// of one orbit under g; with nil, of one point). Declare only a group the
// family is invariant under. name labels the kernel in traces and errors
// ("custom" when empty). fam, its Bounds and their kernels must be safe
// for concurrent use (gp.Family): the fits and the acquisition's starts
// call them on Config.Workers goroutines, and concurrent Runs with one
// Config share fam. With Protocol.Normalize (Recommended sets it) fam is
// evaluated on the normalized coordinates u, not the user's x (see
// Protocol.Normalize for the map): a kernel that is not stationary, or
// lengthscale bounds meant in the user's units, change meaning there;
// turn Normalize off to give fam the user's coordinates.
func Custom(name string, fam gp.Family, g orbit.Group) Kernel {
	return Kernel{name: name, group: g, custom: true, family: func(e famEnv) (gp.Family, error) {
		d := e.d
		if check.IsNil(fam) {
			return nil, fmt.Errorf("%w: custom kernel %q has a nil family", ErrBadConfig, name)
		}
		if fam.Dim() != d {
			return nil, fmt.Errorf("%w: custom kernel %q acts on dimension %d, box has %d", ErrBadConfig, name, fam.Dim(), d)
		}
		return fam, nil
	}}
}

// ParseKernel returns the kernel named name (base, nystrom, avg, avgnorm,
// max, plus, soft, auto, portfolio, or auto:a+b+… and portfolio:a+b+…
// naming the candidates, the last favoured by the odds, or auto:a+b:c+d
// and portfolio:a+b:c+d favouring each candidate after the colon, as
// AutoFavouring; case-insensitive) over the group g (required but by base
// and nystrom, which are not invariant and use g only for the classes of
// coordinates of Protocol.ARD) with the given base shape. Errors:
// ErrUnknownKernel for a name not in KernelNames (the message lists
// them); ErrBadConfig for a shape not in kernel.Shapes(), a kernel that
// needs a group given none, or a malformed candidate list (an empty name
// between the separators, more than one colon; see AutoOf).
func ParseKernel(name string, g orbit.Group, shape kernel.Shape) (Kernel, error) {
	if !slices.Contains(kernel.Shapes(), shape) {
		return Kernel{}, fmt.Errorf("%w: base shape %v is not one of %s", ErrBadConfig, shape, strings.Join(kernel.ShapeNames(), ", "))
	}
	n := strings.ToLower(strings.TrimSpace(name))
	for _, kind := range []string{NameAuto, NamePortfolio} {
		rest, ok := strings.CutPrefix(n, kind+":")
		if !ok {
			continue
		}
		if orbit.IsNil(g) {
			return Kernel{}, fmt.Errorf("%w: kernel %s needs a group", ErrBadConfig, n)
		}
		parts := strings.Split(rest, ":")
		if len(parts) > 2 {
			return Kernel{}, fmt.Errorf("%w: kernel %s: at most one colon between the candidates (others:favoured)", ErrBadConfig, n)
		}
		if slices.Contains(strings.Split(strings.ReplaceAll(rest, ":", "+"), "+"), "") {
			return Kernel{}, fmt.Errorf("%w: kernel %q: an empty candidate name (candidates are joined by +, the favoured ones after one colon)", ErrBadConfig, n)
		}
		if len(parts) == 1 {
			return listOf(kind, g, shape, strings.Split(rest, "+"))
		}
		return favouringOf(kind, g, shape, strings.Split(parts[0], "+"), strings.Split(parts[1], "+"))
	}
	switch n {
	case NameBase, NameNystrom:
		k := Base(shape)
		if n == NameNystrom {
			k = Nystrom(shape)
		}
		if !orbit.IsNil(g) {
			k.classGroup = g
		}
		return k, nil
	}
	var mk func(orbit.Group, kernel.Shape) Kernel
	switch n {
	case NameAvg:
		mk = Avg
	case NameAvgNorm:
		mk = AvgNorm
	case NameMax:
		mk = Max
	case NamePlus:
		mk = Plus
	case NameSoft:
		mk = Soft
	case NameAuto:
		mk = Auto
	case NamePortfolio:
		mk = Portfolio
	default:
		return Kernel{}, fmt.Errorf("%w %q (want %s)", ErrUnknownKernel, name, strings.Join(KernelNames(), ", "))
	}
	if orbit.IsNil(g) {
		return Kernel{}, fmt.Errorf("%w: kernel %s needs a group", ErrBadConfig, n)
	}
	return mk(g, shape), nil
}

// Name is the kernel's name (base, nystrom, avg, avgnorm, max, plus, or a
// custom kernel's: "custom" when Custom was given none).
func (k Kernel) Name() string {
	if k.name == "" {
		if k.custom {
			return "custom"
		}
		return NameBase
	}
	return k.name
}

// Candidates are the names of the kernels auto or portfolio k chooses
// among, in its order (Trace.Candidates); nil for any other kernel.
func (k Kernel) Candidates() []string {
	var out []string
	for _, a := range k.arms {
		out = append(out, a.Name())
	}
	return out
}

// Group is the group the kernel is invariant under (nil for base and
// nystrom).
func (k Kernel) Group() orbit.Group { return k.group }

// orDefault returns k, or Base(RBF) for the zero value.
func (k Kernel) orDefault() Kernel {
	if k.family == nil && k.name == "" {
		// Its deciding options stay, so that New checks them
		// (Kernel{}.With(bad) was accepted, the options dropped).
		return Base(kernel.RBF).With(k.decide)
	}
	return k
}

// A proposer turns an Optimizer's fitted model(s) into the next point at
// a BO step (n observations, pending and failed points), filling info
// with the winner's diagnostics. Single kernels and auto (one model per
// fit) are a maximizer; Portfolio (every candidate proposes, the model
// the evidence picks chooses) is a portfolioProposer. A new way to
// decide among candidates is a new proposer, not a flag other kernels
// check.
type proposer interface {
	propose(o *Optimizer, a *acqFunc, n int, info *Diagnostics) ([]float64, error)
}

// maximizer proposes the maximizer of the current model's acquisition a
// (maximizeAcq), starting also from the best observed point.
type maximizer struct{}

func (maximizer) propose(o *Optimizer, a *acqFunc, n int, info *Diagnostics) ([]float64, error) {
	return o.maximizeAcq(a, nil, o.cfg.Starts, n, o.modelXs()[o.bestIndex()], info)
}

// portfolioProposer lets every candidate propose and the evidence's model
// choose (Optimizer.portfolio); a is the current model's, unused.
type portfolioProposer struct{}

func (portfolioProposer) propose(o *Optimizer, _ *acqFunc, n int, info *Diagnostics) ([]float64, error) {
	return o.portfolio(n, info)
}

// proposer returns k's proposer: maximizer unless k is a portfolio.
func (k Kernel) proposer() proposer {
	if k.prop == nil {
		return maximizer{}
	}
	return k.prop
}
