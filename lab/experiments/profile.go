package experiments

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/symbo/symbo/internal/budget"
	"gonum.org/v1/gonum/blas"
	gonumblas "gonum.org/v1/gonum/blas/gonum"
	"gonum.org/v1/gonum/mat"

	"github.com/symbo/symbo/bo"
	"github.com/symbo/symbo/bo/problem"
	"github.com/symbo/symbo/gp"
	"github.com/symbo/symbo/internal/errclass"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/linalg"
	"github.com/symbo/symbo/orbit"
)

// ProfileOptions configure Profile. The zero value of every field but
// Group is the documented default.
type ProfileOptions struct {
	// Group is the symmetry group (required).
	Group orbit.Group
	// N are the numbers of points profiled, ascending; nil means 55, 200,
	// 1000.
	N []int
	// Shape is the base kernel; the zero value is RBF, the only shape
	// with a closed-form k_avg.
	Shape kernel.Shape
	// Backend does the linear algebra; nil means linalg.Default().
	Backend linalg.Backend
	// M is the number of candidates of the k_plus cross-covariance; 0
	// means 1000.
	M int
	// BOKernels are the GP kernels of the BO phases (one real Ask each at
	// every n), as bo.ParseKernel names them under the paper's protocol,
	// or DefaultBOKernel for bo.Recommended's configuration; nil means
	// plus, base, avg and the default.
	BOKernels []string
	// Landmarks is bo.Config.Landmarks for the BO phases (the design cap
	// of plus and nystrom, the landmark cap of the others): 0 means
	// bo.DefaultLandmarks, negative never.
	Landmarks int
	// LandmarkFit is bo.Config.LandmarkFit for the BO phases.
	LandmarkFit gp.LandmarkFit
	// GemmN is the order of the reference DGEMMs the BO steps are compared
	// with (gonum's Dgemm and every backend's Gemm); 0 means 1000.
	GemmN int
	// MinTime and MaxReps are the timing rule (see Profile); 0 means
	// DefaultMinTime and DefaultMaxReps.
	MinTime time.Duration
	MaxReps int
	// MaxPhaseSeconds: a phase whose predicted time exceeds it is not run
	// but estimated (see Profile); 0 means 10.
	MaxPhaseSeconds float64
	// EigenVsC lists orders n at which Backend's EigenSym is timed against
	// LAPACKE_dsyevd called from C, the two alternating call for call, at
	// least 3 timed calls of each whatever n, medians reported (needs a
	// build with cgo and -tags openblas: otherwise Profile returns
	// ErrNoCDsyevd).
	EigenVsC []int
	// Seed seeds the points.
	Seed uint64
	// Progress receives one line per phase; nil means none.
	Progress io.Writer
	// Context, if not nil, stops the study between phases: Profile then
	// returns its error.
	Context context.Context
	// Budget is the memory budget in bytes of every request the study
	// makes (kernel.Options.Budget, gp's and bo's Budget,
	// orbit.Enumerator.Budget and its own matrices); 0 means 8 GiB
	// (orbit.DefaultBudget), never the environment: perf passes its
	// --mem-budget.
	Budget int64
}

// Row statuses.
const (
	StatusMeasured  = "measured"
	StatusEstimated = "estimated"
	StatusSkipped   = "skipped"
)

// Ratio kinds of a ProfileRow.
const (
	// RatioEnumOverClosed is t(enumerate)/t(closed) for the same kernel and
	// n, on the closed row: how many times faster the closed form is.
	RatioEnumOverClosed = "enumerate/closed time"
	// RatioEnumOverGemm is the enumerated k_max Gram's GFLOP/s at the same
	// n divided by this DGEMM's GFLOP/s.
	RatioEnumOverGemm = "enumeration/dgemm GFLOP/s"
	// RatioGoOverC is the profiled backend's EigenSym time over
	// LAPACKE_dsyevd's called from C.
	RatioGoOverC = "go/c time"
	// RatioStepOverDgemm is a BO step's time over that of gonum's Dgemm
	// (gonum.org/v1/gonum/blas/gonum) of order GemmN, interleaved with the
	// steps: after each timed Ask (at least 3), a garbage collection and
	// two Dgemms, the faster the Ask's reference; the ratio is the median
	// of the pairs' (so the machine's drift between the phases of a long
	// profile, which moved the Dgemm 181-333 ms on a shared machine, does
	// not enter it); the row's DgemmSeconds is the median of those
	// Dgemms. RatioBackendGemm is the step over the profiled backend's
	// Gemm row of the same run (not interleaved).
	RatioStepOverDgemm = "step/dgemm time"
)

// GonumDgemm names the DGEMM rows of gonum's own Dgemm
// (gonum.org/v1/gonum/blas/gonum), beside the linalg backends' Gemm.
const GonumDgemm = "gonum-dgemm"

// ProfileRow is one phase at one n.
type ProfileRow struct {
	// Phase names what is timed: enumerate-orbits, gram, eigen,
	// plus-spectrum, plus-build, plus-cross, dgemm, gp-fit, acquisition,
	// bo-iteration, eigen-vs-c.
	Phase string `json:"phase"`
	// Label is the human-readable name of the row.
	Label string `json:"label"`
	// Kernel (base, avg, max, plus), Method (closed, enumerate) and
	// Backend where they apply.
	Kernel  string `json:"kernel,omitempty"`
	Method  string `json:"method,omitempty"`
	Backend string `json:"backend,omitempty"`
	N       int    `json:"n"`
	M       int    `json:"m,omitempty"`
	// Status: measured, estimated (Seconds predicted from a smaller n,
	// see Note) or skipped (Note says why).
	Status  string  `json:"status"`
	Seconds float64 `json:"seconds"`
	Reps    int     `json:"reps"`
	// PairsPerSecond counts kernel evaluations (n(n+1)/2 per Gram, m·n per
	// cross-covariance); GFLOPS the credited flops per second (enumerated
	// Grams and crosses: 2·d·|G| per pair, EnumGramFlops; eigen: 9n³;
	// DGEMM: 2n³). 0 where they mean nothing.
	PairsPerSecond float64 `json:"pairs_per_second,omitempty"`
	GFLOPS         float64 `json:"gflops,omitempty"`
	// Share is Seconds over the BO iteration's at the same n (0 when there
	// is none).
	Share float64 `json:"share_of_bo_iteration,omitempty"`
	// Ratio, of kind RatioKind (RatioEnumOverClosed, RatioEnumOverGemm,
	// RatioGoOverC).
	Ratio     float64 `json:"ratio,omitempty"`
	RatioKind string  `json:"ratio_kind,omitempty"`
	// RatioBackendGemm (BO steps): the time over the profiled backend's
	// Gemm of order GemmN.
	RatioBackendGemm float64 `json:"ratio_backend_gemm,omitempty"`
	// DgemmSeconds (BO steps): the median time of the gonum Dgemms of
	// order GemmN interleaved with the step's Asks (RatioStepOverDgemm).
	DgemmSeconds float64 `json:"dgemm_seconds,omitempty"`
	// Landmarks (BO steps): the landmarks of the
	// step's fit, 0 when its design was every observation.
	Landmarks int    `json:"landmarks,omitempty"`
	Note      string `json:"note,omitempty"`
}

// ProfileResult is what Profile measured.
type ProfileResult struct {
	Environment
	Group           string       `json:"group"`
	D               int          `json:"d"`
	Order           string       `json:"order"` // |G| in decimal, "inf" for continuous groups
	Base            string       `json:"base"`
	N               []int        `json:"n"`
	M               int          `json:"m"`
	BOKernels       []string     `json:"bo_kernels"`
	Landmarks       int          `json:"landmarks,omitempty"`
	LandmarkFit     string       `json:"landmark_fit,omitempty"`
	GemmN           int          `json:"gemm_n"`
	BOObjective     string       `json:"bo_objective"`
	Seed            uint64       `json:"seed"`
	MinTimeSeconds  float64      `json:"min_time_seconds"`
	MaxReps         int          `json:"max_reps"`
	MaxPhaseSeconds float64      `json:"max_phase_seconds"`
	Rows            []ProfileRow `json:"rows"`
}

// ErrNoCDsyevd reports EigenVsC in a build without cgo and -tags openblas.
var ErrNoCDsyevd = errclass.New(errclass.Input, "experiments: profile: the C dsyevd comparison needs a build with cgo and -tags openblas")

// defaultProfileN are the point counts Profile uses by default.
var defaultProfileN = []int{55, 200, 1000}

// Profile times the phases of one BO iteration with the invariant kernels
// of o.Group, at each n of o.N (standard normal points, lengthscale 1):
//
//   - enumerate-orbits: orbit.Enumerator.Orbits of the n points (finite
//     groups);
//   - gram: the n×n Gram of k_b, k_avg and k_max, closed form and
//     enumeration (the closed row carries t(enumerate)/t(closed));
//   - eigen: the backend's EigenSym of the k_max Gram;
//   - plus-spectrum: what BO's k_plus fit does per lengthscale it tries
//     (gp's profile likelihood): κ(d_G/ℓ) from the orbit-distance matrix
//     (computed once, as the fit binds it), EigenSym, kernel.Truncate, the
//     clipped eigenvalues set to 0 — no K₊ is formed;
//   - plus-build: kernel.NewPlus on the n points (k_max Gram, eigen,
//     features φ(D));
//   - plus-cross: the M×n k_plus cross-covariance of M candidates against
//     the design (φ(D) cached), closed and enumerated k_max;
//   - dgemm: an n×n GEMM of every compiled-in backend and gonum's own
//     Dgemm (GonumDgemm) at the largest n, with the enumerated k_max
//     Gram's GFLOP/s over DGEMM's, and at GemmN (1000) when that differs;
//   - gp-fit, acquisition, bo-iteration: one real bo.Optimizer Ask after
//     n observations for each kernel of o.BOKernels (cold hyperparameter
//     fit, then the acquisition optimizer; the iteration is the whole Ask;
//     every kernel with o.Landmarks), never estimated, the iteration
//     row with its time over the GemmN DGEMMs' of the same run. The
//     objective is the Rastrigin problem of the same d for the
//     hyperoctahedral group, else a synthetic invariant objective (see
//     profileObjective); the points are uniform in the box.
//
// Timing: each phase runs once as a warm-up; if that took 1 s or more it
// is the measurement, otherwise the phase is repeated until MinTime has
// been timed and at least 3 runs made (at most MaxReps), and the median is
// reported. Estimation: before running a phase at n, Profile measures it
// at sizes climbing toward n (32, then at most ×4 a step through n/4 to
// n/2) while each is predicted to take at most MaxPhaseSeconds, and
// predicts the time at n from the largest measured size with an exponent
// midway between the slope measured between the two largest and the
// phase's nominal exponent in n — 2 for Grams and crosses, 1 for
// enumeration, 3 for the rest — which alone is used when only one size is
// measured (see extrapolate);
// when the prediction exceeds MaxPhaseSeconds the phase is not run and
// the row is marked estimated with the prediction and how it was made.
// The BO phases and DGEMMs are always run.
//
// Errors: a BO kernel bo.New refuses on the objective's box (an avg or
// avgnorm enumerated over more than bo.AvgEnumerateLimit elements, say)
// is refused before any phase runs, wrapping bo's error.
//
// Profile sets nothing process-wide; OpenBLAS's thread count is whatever
// linalg pinned it to (the perf CLI sets SYMBO_OPENBLAS_THREADS to
// GOMAXPROCS when unset, so that DGEMM and the Go code use the same
// number of threads).
func Profile(o ProfileOptions) (ProfileResult, error) {
	if o.Group == nil {
		return ProfileResult{}, errors.New("experiments: profile: no group")
	}
	if o.N == nil {
		o.N = defaultProfileN
	}
	if len(o.N) == 0 {
		return ProfileResult{}, errors.New("experiments: profile: empty list of n")
	}
	for i, n := range o.N {
		if n < 2 || (i > 0 && n <= o.N[i-1]) {
			return ProfileResult{}, fmt.Errorf("experiments: profile: n = %v: want ascending values ≥ 2", o.N)
		}
	}
	if o.M == 0 {
		o.M = 1000
	}
	if o.BOKernels == nil {
		o.BOKernels = []string{bo.NamePlus, bo.NameBase, bo.NameAvg, DefaultBOKernel}
	}
	if len(o.BOKernels) == 0 {
		return ProfileResult{}, errors.New("experiments: profile: no BO kernel")
	}
	if o.GemmN == 0 {
		o.GemmN = 1000
	}
	if o.GemmN < 1 {
		return ProfileResult{}, fmt.Errorf("experiments: profile: DGEMM order %d", o.GemmN)
	}
	if o.MinTime == 0 {
		o.MinTime = DefaultMinTime
	}
	if o.MaxReps == 0 {
		o.MaxReps = DefaultMaxReps
	}
	if o.MaxPhaseSeconds == 0 {
		o.MaxPhaseSeconds = 10
	}
	if o.M < 1 || o.MinTime < 0 || o.MaxReps < 1 || !(o.MaxPhaseSeconds > 0) {
		return ProfileResult{}, fmt.Errorf("experiments: profile: invalid options (m %d, min time %v, max reps %d, max phase seconds %v)", o.M, o.MinTime, o.MaxReps, o.MaxPhaseSeconds)
	}
	for _, n := range o.EigenVsC {
		if n < 1 {
			return ProfileResult{}, fmt.Errorf("experiments: profile: eigen-vs-c order %d: want ≥ 1", n)
		}
	}
	if len(o.EigenVsC) > 0 && !haveCDsyevd {
		return ProfileResult{}, ErrNoCDsyevd
	}
	if o.Backend == nil {
		be, err := linalg.Default()
		if err != nil {
			return ProfileResult{}, fmt.Errorf("experiments: profile: %w", err)
		}
		o.Backend = be
	}
	if o.Progress == nil {
		o.Progress = io.Discard
	}
	if _, err := kernel.NewBase(kernel.Params{Shape: o.Shape, Variance: 1, Lengthscale: 1}, o.Group.Dim()); err != nil {
		return ProfileResult{}, fmt.Errorf("experiments: profile: %w", err)
	}
	// The k_plus cross phase allocates its m candidates whole, as
	// Complexity does: a budget refusal now, not an out-of-memory crash
	// after the other phases (10000 candidates of d = 65536 are 5.2 GB).
	if err := budget.Limit(o.Budget).Check(fmt.Sprintf("%d candidates of %d coordinates", o.M, o.Group.Dim()), 8*float64(o.M)*float64(o.Group.Dim())); err != nil {
		return ProfileResult{}, fmt.Errorf("experiments: profile: %w", err)
	}
	p := &profiler{o: o, g: o.Group, d: o.Group.Dim(), be: o.Backend, last: map[string][]measured{}}
	if f, ok := o.Group.(orbit.Finite); ok {
		if sz, err := orbit.Size(o.Group); err == nil {
			p.fin, p.order = f, sz
		}
	}
	// Every BO kernel is built as its phases build it (boPhaseConfig),
	// once per initial design they use, before any phase runs: a kernel
	// bo.New refuses (avg enumerated over more than bo.AvgEnumerateLimit
	// elements, say) fails now, not after the Gram phases of every n.
	obj, _ := profileObjective(o.Group)
	for _, kind := range o.BOKernels {
		checked := map[int]bool{}
		for _, n := range o.N {
			cfg, err := p.boPhaseConfig(kind, n)
			if err == nil && checked[cfg.Init] {
				continue
			}
			if err == nil {
				checked[cfg.Init] = true
				_, err = newOptimizer(obj.lo, obj.hi, cfg, o.Seed)
			}
			if err != nil {
				return ProfileResult{}, fmt.Errorf("experiments: profile: BO kernel %s: %w", kind, err)
			}
		}
	}
	res := ProfileResult{
		Environment: environment(o.Backend, os.Getenv),
		Group:       o.Group.Name(), D: p.d, Order: "inf", Base: o.Shape.String(),
		N: slices.Clone(o.N), M: o.M, BOKernels: slices.Clone(o.BOKernels), Landmarks: o.Landmarks, LandmarkFit: fitName(o.LandmarkFit), GemmN: o.GemmN, Seed: o.Seed,
		MinTimeSeconds: o.MinTime.Seconds(), MaxReps: o.MaxReps, MaxPhaseSeconds: o.MaxPhaseSeconds,
	}
	if ord := o.Group.Order(); ord != nil {
		res.Order = ord.String()
	}
	_, res.BOObjective = profileObjective(o.Group)
	start := time.Now()
	took := make([]float64, len(o.N))
	for i, n := range o.N {
		t0, rows := time.Now(), len(p.rows)
		if err := p.atN(n); err != nil {
			return ProfileResult{}, err
		}
		took[i] = time.Since(t0).Seconds()
		line := fmt.Sprintf("profile: n = %d done (%d of %d sizes) in %s, %s elapsed", n, i+1, len(o.N), fmtETA(took[i]), fmtETA(time.Since(start).Seconds()))
		switch {
		case i+1 == len(o.N):
		case i == 0:
			line += "; the time left is estimated after the next size"
		default:
			e := 1.0
			if took[i-1] > 0 {
				e = min(max(math.Log(took[i]/took[i-1])/math.Log(float64(n)/float64(o.N[i-1])), 1), 3)
			}
			line += "; " + etaNote(o.N[i+1:], n, took[i], e, len(p.rows)-rows, o.MaxPhaseSeconds)
		}
		fmt.Fprintln(o.Progress, line)
	}
	if err := p.gemm(o.N[len(o.N)-1]); err != nil {
		return ProfileResult{}, err
	}
	if o.GemmN != o.N[len(o.N)-1] {
		if err := p.gemm(o.GemmN); err != nil {
			return ProfileResult{}, err
		}
	}
	for _, n := range o.EigenVsC {
		if err := p.eigenVsC(n); err != nil {
			return ProfileResult{}, err
		}
	}
	p.derive()
	res.Rows = p.rows
	return res, nil
}

type measured struct {
	n       int
	seconds float64
}

type profiler struct {
	o     ProfileOptions
	g     orbit.Group
	fin   orbit.Finite // nil for continuous groups and orders beyond int
	order int
	d     int
	be    linalg.Backend
	rows  []ProfileRow
	last  map[string][]measured // key → its measurements, ascending in n
	ref   [3]*mat.Dense         // the BO steps' reference Dgemm operands (stepReference)
	now   func() time.Duration  // the clock of every timing (nil: the real one; timing.now)
	quiet bool                  // add appends without a progress line
}

// etaNote predicts the time of the sizes left from the last one's, n
// taking took seconds over rows rows: each size n' scales it by
// (n'/n)^e — e the log–log slope of the last two sizes' times, in
// [1, 3] — but its rows are each estimated
// instead of run past maxPhase, so a size takes at most about rows ×
// 3·maxPhase (a BO step runs three Asks). A guide, not a promise: it says
// how it was made.
func etaNote(left []int, n int, took, e float64, rows int, maxPhase float64) string {
	total := 0.0
	for _, m := range left {
		t := took * math.Pow(float64(m)/float64(n), e)
		if maxPhase > 0 {
			t = min(t, float64(rows)*3*maxPhase)
		}
		total += t
	}
	return fmt.Sprintf("about %s left (this size's time × (n'/n)^%.1f for n' = %s)", fmtETA(total), e, joinInts(left))
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ", ")
}

// fmtETA formats seconds for a progress line: "12 s", "3.4 min", "1.2 h".
func fmtETA(s float64) string {
	switch {
	case s < 90:
		return fmt.Sprintf("%.0f s", s)
	case s < 5400:
		return fmt.Sprintf("%.1f min", s/60)
	}
	return fmt.Sprintf("%.1f h", s/3600)
}

// timeMedian is the package's timeMedian on p's clock.
func (p *profiler) timeMedian(maxReps int, f func() error) (float64, error) {
	med, _, err := timeRounds(timing{minTime: p.o.MinTime, minReps: minReps, maxReps: maxReps, slow: slowRep, now: p.now}, f)
	if err != nil {
		return 0, err
	}
	return med[0], nil
}

// profPhase describes one row to time at n.
type profPhase struct {
	row ProfileRow
	exp float64 // exponent in n for the prediction
	// setup builds the inputs at n and returns the function to time; an
	// error wrapping errSkip skips the row with its message as the note.
	setup func(n int) (func() error, error)
	// always: run the phase whatever its predicted time (BO steps,
	// DGEMMs).
	always bool
	// repeat: time at least minReps runs after the warm-up even when one
	// takes a second or more (BO steps: one Ask is a noisy sample).
	repeat bool
	// pairs and flops at n (0: not reported).
	pairs, flops func(n int) float64
}

// errSkip marks a row skipped (skipf); the runners catch it, so it is an
// internal error should it ever escape.
var errSkip = errclass.New(errclass.Internal, "skipped")

type skipError struct{ msg string }

func (e skipError) Error() string { return e.msg }
func (e skipError) Unwrap() error { return errSkip }

func skipf(format string, a ...any) error { return skipError{fmt.Sprintf(format, a...)} }

func (ph profPhase) key() string {
	return ph.row.Phase + "/" + ph.row.Kernel + "/" + ph.row.Method + "/" + ph.row.Backend
}

// run times ph at n, or estimates or skips it, and appends the row.
func (p *profiler) run(ph profPhase, n int) error {
	if p.o.Context != nil {
		if err := p.o.Context.Err(); err != nil {
			return err
		}
	}
	r := ph.row
	r.N = n
	key := ph.key()
	if !ph.always {
		h := p.probe(ph, n)
		if len(h) > 0 {
			pred, how := extrapolate(h, n, ph.exp)
			if pred > p.o.MaxPhaseSeconds {
				r.Status, r.Seconds = StatusEstimated, pred
				r.Note = fmt.Sprintf("estimated: %s > %gs", how, p.o.MaxPhaseSeconds)
				p.fill(&r, ph, n)
				p.add(r)
				return nil
			}
		}
	}
	f, err := ph.setup(n)
	if err == nil {
		rule := timing{minTime: p.o.MinTime, minReps: minReps, maxReps: p.o.MaxReps, slow: slowRep, now: p.now}
		if ph.repeat {
			rule.slow = 0
		}
		var med []float64
		if med, r.Reps, err = timeRounds(rule, f); err == nil {
			r.Seconds = med[0]
		}
	}
	if err != nil {
		var se skipError
		if !errors.As(err, &se) && !errors.Is(err, kernel.ErrNoClosedForm) && !errors.Is(err, orbit.ErrOverBudget) && !errors.Is(err, bo.ErrMaxNotPSD) {
			return fmt.Errorf("experiments: profile: %s n=%d: %w", r.Label, n, err)
		}
		r.Status, r.Note = StatusSkipped, err.Error()
		p.add(r)
		return nil
	}
	r.Status = StatusMeasured
	p.last[key] = append(p.last[key], measured{n, r.Seconds})
	p.fill(&r, ph, n)
	p.add(r)
	return nil
}

// probe returns the measurements of ph to predict its time at n from,
// after measuring it at sizes that climb toward n while they are cheap:
// from n = 32 when nothing is measured yet and n > 64, then at most ×4 at
// a time through sizes ⌊n/2^k⌋, always by n/4 to n/2, each the median of
// up to 5 timed runs (MinTime) and only while its own predicted time (at
// the nominal exponent) is at most MaxPhaseSeconds. So an estimate
// extrapolates from n/2 wherever that size is affordable, with the slope
// measured between n/4 and n/2 (extrapolate), not from a small n with the
// nominal exponent. Probe failures end the climb.
func (p *profiler) probe(ph profPhase, n int) []measured {
	key := ph.key()
	h := p.last[key]
	if len(h) == 0 && n > 64 {
		if f, err := ph.setup(32); err == nil {
			if s, err := p.timeMedian(5, f); err == nil {
				h = append(h, measured{32, s})
			}
		}
	}
	for len(h) > 0 {
		top := h[len(h)-1]
		if top.n >= n/2 {
			break
		}
		c := nextProbe(top.n, n)
		// The probe's cost at the nominal exponent: a slope inflated by
		// cache effects between small sizes must not stop the climb.
		if pred := top.seconds * math.Pow(float64(c)/float64(top.n), ph.exp); pred > p.o.MaxPhaseSeconds {
			break
		}
		f, err := ph.setup(c)
		if err != nil {
			break
		}
		s, err := p.timeMedian(5, f)
		if err != nil {
			break
		}
		h = append(h, measured{c, s})
	}
	p.last[key] = h
	return h
}

// nextProbe is the size probe measures after top (< ⌊n/2⌋) on its way to
// n: n/2 once top ≥ n/4, else the largest ⌊n/2^k⌋ (k ≥ 2) in
// (top, min(4·top, n/4)], or n/4 when none is.
func nextProbe(top, n int) int {
	if 4*top >= n {
		return n / 2
	}
	c := n / 4
	for c/2 > top && c > 4*top {
		c /= 2
	}
	return max(c, top+1)
}

// extrapolate predicts the time at n from the measurements h (ascending
// in n): t(n') · (n/n')^e from the largest n', with e the midpoint of the
// slope s measured in log–log between the two largest sizes and the
// phase's nominal exponent p (s kept within [0.5, p], so that timing noise
// and cache effects cannot run away), or p when only one size is
// measured. Why the midpoint: a cost that is a sum of powers of n with
// nonnegative coefficients has a log–log slope that grows with n toward
// its leading exponent, so the slope beyond n' lies between the slope
// measured below n' and p; the midpoint halves the worst error of either
// end, to a factor 2^((p−s)/2) per doubling. It says how.
func extrapolate(h []measured, n int, nominal float64) (float64, string) {
	top := h[len(h)-1]
	e, how := nominal, fmt.Sprintf("t(n=%d)·(n/%d)^%g, the nominal exponent", top.n, top.n, nominal)
	if len(h) >= 2 {
		a := h[len(h)-2]
		if a.seconds > 0 && top.seconds > 0 && top.n > a.n {
			s := math.Log(top.seconds/a.seconds) / math.Log(float64(top.n)/float64(a.n))
			s = min(max(s, 0.5), nominal)
			e = (s + nominal) / 2
			how = fmt.Sprintf("t(n=%d)·(n/%d)^%.2f, the midpoint of the slope measured between n = %d and %d (%.2f) and the nominal exponent %g", top.n, top.n, e, a.n, top.n, s, nominal)
		}
	}
	return top.seconds * math.Pow(float64(n)/float64(top.n), e), how
}

func (p *profiler) fill(r *ProfileRow, ph profPhase, n int) {
	if r.Seconds <= 0 {
		return
	}
	if ph.pairs != nil {
		r.PairsPerSecond = ph.pairs(n) / r.Seconds
	}
	if ph.flops != nil {
		if f := ph.flops(n); f > 0 {
			r.GFLOPS = f / r.Seconds / 1e9
		}
	}
}

func (p *profiler) add(r ProfileRow) {
	p.rows = append(p.rows, r)
	if p.quiet {
		return
	}
	line := fmt.Sprintf("profile: %-28s n=%-5d ", r.Label, r.N)
	switch r.Status {
	case StatusMeasured:
		line += fmt.Sprintf("%.4g s (%d reps)", r.Seconds, r.Reps)
	case StatusEstimated:
		line += fmt.Sprintf("~%.3g s (estimated)", r.Seconds)
	default:
		line += "skipped: " + r.Note
	}
	fmt.Fprintln(p.o.Progress, line)
}

func gramPairs(n int) float64 { return float64(n) * float64(n+1) / 2 }

func (p *profiler) params() kernel.Params {
	return kernel.Params{Shape: p.o.Shape, Variance: 1, Lengthscale: 1}
}

func methodName(m kernel.Method) string {
	if m == kernel.Closed {
		return "closed"
	}
	return "enumerate"
}

// orbitKernel builds k_avg or k_max with method m.
func (p *profiler) orbitKernel(kind string, m kernel.Method) (kernel.Gramer, error) {
	opts := kernel.Options{Method: m, Budget: p.o.Budget}
	if kind == "avg" {
		return kernel.NewAvg(p.params(), p.g, opts)
	}
	return kernel.NewMax(p.params(), p.g, opts)
}

// enumFlops returns the flop credit of pairs enumerated pairs, 0 for
// continuous groups.
func (p *profiler) enumFlops(pairs float64) float64 {
	if p.fin == nil {
		return 0
	}
	return pairs * 2 * float64(p.d) * float64(p.order)
}

func (p *profiler) atN(n int) error {
	pts := func(n int) *mat.Dense { return Points(n, p.d, p.o.Seed) }
	var phases []profPhase

	if p.fin != nil {
		var buf []float64
		phases = append(phases, profPhase{
			row: ProfileRow{Phase: "enumerate-orbits", Label: "orbit enumeration"},
			exp: 1,
			setup: func(n int) (func() error, error) {
				raw := pts(n).RawMatrix().Data
				return func() error {
					var err error
					buf, err = orbit.Enumerator{Budget: p.o.Budget}.Orbits(buf[:0], p.fin, raw, n)
					return err
				}, nil
			},
		})
	}
	phases = append(phases, profPhase{
		row: ProfileRow{Phase: "gram", Label: "Gram k_b", Kernel: "base"},
		exp: 2,
		setup: func(n int) (func() error, error) {
			k, err := kernel.NewBase(p.params(), p.d)
			if err != nil {
				return nil, err
			}
			return gramFunc(k, pts(n)), nil
		},
		pairs: gramPairs,
	})
	for _, kind := range []string{"avg", "max"} {
		for _, m := range []kernel.Method{kernel.Closed, kernel.Enumerate} {
			phases = append(phases, profPhase{
				row: ProfileRow{Phase: "gram", Label: "Gram k_" + kind + " " + methodName(m), Kernel: kind, Method: methodName(m)},
				exp: 2,
				setup: func(n int) (func() error, error) {
					k, err := p.orbitKernel(kind, m)
					if err != nil {
						return nil, err
					}
					return gramFunc(k, pts(n)), nil
				},
				pairs: gramPairs,
				flops: func(n int) float64 {
					if m == kernel.Closed {
						return 0
					}
					return p.enumFlops(gramPairs(n))
				},
			})
		}
	}
	for _, ph := range phases {
		if err := p.run(ph, n); err != nil {
			return err
		}
	}

	// Linear algebra on the k_max Gram (closed form when there is one).
	mx, err := kernel.NewMax(p.params(), p.g, kernel.Options{Budget: p.o.Budget})
	if err != nil {
		return fmt.Errorf("experiments: profile: %w", err)
	}
	maxGram := func(n int) (*mat.SymDense, error) {
		var k mat.SymDense
		err := mx.GramTo(&k, pts(n))
		return &k, err
	}
	be := p.be.Name()
	la := []profPhase{{
		row: ProfileRow{Phase: "eigen", Label: "eigen of the k_max Gram", Backend: be},
		exp: 3,
		setup: func(n int) (func() error, error) {
			k, err := maxGram(n)
			if err != nil {
				return nil, err
			}
			var e linalg.Eigen
			return func() error { return p.be.EigenSym(&e, k) }, nil
		},
		flops: func(n int) float64 { return 9 * math.Pow(float64(n), 3) },
	}, {
		row: ProfileRow{Phase: "plus-spectrum", Label: "k_plus spectrum, one ℓ", Kernel: "plus", Backend: be},
		exp: 3,
		setup: func(n int) (func() error, error) {
			dist, err := orbitDistances(p.g, pts(n), p.o.Budget)
			if err != nil {
				return nil, err
			}
			var c mat.SymDense
			var e linalg.Eigen
			return func() error { return plusSpectrum(p.be, &e, &c, dist, p.params()) }, nil
		},
	}, {
		row: ProfileRow{Phase: "plus-build", Label: "k_plus build", Kernel: "plus", Method: mx.Method().String(), Backend: be},
		exp: 3,
		setup: func(n int) (func() error, error) {
			x := pts(n)
			return func() error {
				_, err := kernel.NewPlus(mx, x, kernel.PlusOptions{Backend: p.be})
				return err
			}, nil
		},
	}}
	for _, m := range []kernel.Method{kernel.Closed, kernel.Enumerate} {
		la = append(la, profPhase{
			row: ProfileRow{Phase: "plus-cross", Label: fmt.Sprintf("k_plus cross, %s", methodName(m)), Kernel: "plus", Method: methodName(m), Backend: be, M: p.o.M},
			exp: 1, // m·n pairs, m fixed
			setup: func(n int) (func() error, error) {
				k, err := kernel.NewMax(p.params(), p.g, kernel.Options{Method: m, Budget: p.o.Budget})
				if err != nil {
					return nil, err
				}
				design := pts(n)
				pl, err := kernel.NewPlus(k, design, kernel.PlusOptions{Backend: p.be})
				if err != nil {
					return nil, err
				}
				cand := Points(p.o.M, p.d, p.o.Seed+1)
				var dst mat.Dense
				return func() error { return pl.CrossTo(&dst, cand, design) }, nil
			},
			pairs: func(n int) float64 { return float64(p.o.M) * float64(n) },
			flops: func(n int) float64 {
				if m == kernel.Closed {
					return 0
				}
				return p.enumFlops(float64(p.o.M) * float64(n))
			},
		})
	}
	for _, ph := range la {
		if err := p.run(ph, n); err != nil {
			return err
		}
	}
	return p.boPhases(n)
}

// orbitDistances returns the orbit-distance matrix d_G(x_i, x_j) of the
// rows of x, as gp's plus family binds it (kernel.OrbitDistTo with the
// memory budget b).
func orbitDistances(g orbit.Group, x *mat.Dense, b int64) (*mat.SymDense, error) {
	n, _ := x.Dims()
	dm := mat.NewSymDense(n, nil)
	if err := kernel.OrbitDistTo(dm, g, x, kernel.Options{Budget: b}); err != nil {
		return nil, err
	}
	return dm, nil
}

// plusSpectrum is the work BO's k_plus fit does for each lengthscale it
// tries (gp's profile likelihood, plusBound.spectrumTo; not reachable
// through gp's API, so repeated here): the unit-variance correlation
// κ(d_G/ℓ) of the shape and lengthscale of p from the distance matrix
// dist into c, its eigendecomposition into e, and the spectral cut-off of
// kernel.Truncate (default tolerance) with the clipped eigenvalues set to
// 0. K₊ itself is never formed.
func plusSpectrum(be linalg.Backend, e *linalg.Eigen, c, dist *mat.SymDense, p kernel.Params) error {
	n := dist.SymmetricDim()
	if c.IsEmpty() {
		c.ReuseAsSym(n)
	}
	q := kernel.Params{Shape: p.Shape, Variance: 1, Lengthscale: p.Lengthscale}
	draw, craw := dist.RawSymmetric(), c.RawSymmetric()
	for i := range n {
		di := draw.Data[i*draw.Stride : i*draw.Stride+n]
		ci := craw.Data[i*craw.Stride : i*craw.Stride+n]
		for j := i; j < n; j++ {
			ci[j] = q.Kappa(di[j])
		}
	}
	if err := be.EigenSym(e, c); err != nil {
		return err
	}
	first, _, err := kernel.Truncate(e.Values, 0)
	if err != nil {
		return err
	}
	for i := range first {
		e.Values[i] = 0
	}
	return nil
}

func gramFunc(k kernel.Gramer, x *mat.Dense) func() error {
	var dst mat.SymDense
	return func() error { return k.GramTo(&dst, x) }
}

// profileObjective returns the objective the BO phases maximize and its
// description: the Rastrigin problem for hyperoctahedral(d), d ≤ 16;
// for scaling, −Σ_k (x_k/‖x‖ − 1/√d)² on [0.1, 10]^d (invariant under
// x ↦ c·x); for every other group, the radial Rastrigin
// −(‖x‖² − 10·cos(2π‖x‖)) on [−5.12, 5.12]^d, invariant under every
// orthogonal map.
func profileObjective(g orbit.Group) (boObjective, string) {
	d := g.Dim()
	if _, ok := g.(*orbit.HyperoctahedralGroup); ok && d <= problem.MaxDim {
		if pr, err := problem.New("rastrigin", d); err == nil {
			lo, hi := pr.Bounds()
			neg := func(x []float64) (float64, error) { v, err := pr.Evaluate(x); return -v, err }
			return boObjective{lo, hi, neg}, fmt.Sprintf("−Rastrigin %dd (bo/problem)", d)
		}
	}
	lo, hi := make([]float64, d), make([]float64, d)
	if _, ok := g.(*orbit.ScalingGroup); ok {
		for i := range d {
			lo[i], hi[i] = 0.1, 10
		}
		f := func(x []float64) (float64, error) {
			nrm := math.Sqrt(vecDot(x, x))
			var s float64
			for _, v := range x {
				t := v/nrm - 1/math.Sqrt(float64(d))
				s += t * t
			}
			return -s, nil
		}
		return boObjective{lo, hi, f}, "synthetic: −Σ(x_k/‖x‖ − 1/√d)² on [0.1, 10]^d"
	}
	for i := range d {
		lo[i], hi[i] = -5.12, 5.12
	}
	f := func(x []float64) (float64, error) {
		r := math.Sqrt(vecDot(x, x))
		return -(r*r - 10*math.Cos(2*math.Pi*r)), nil
	}
	return boObjective{lo, hi, f}, "synthetic: −(‖x‖² − 10·cos 2π‖x‖) on [−5.12, 5.12]^d"
}

type boObjective struct {
	lo, hi []float64
	f      func([]float64) (float64, error)
}

func vecDot(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// boPhases times one Ask of a fresh optimizer told n points for each BO
// kernel: fit, acquisition and the whole iteration come from the same
// Asks (medians taken separately).
// fitName is a LandmarkFit as records spell it ("" for the default).
func fitName(f gp.LandmarkFit) string {
	if f == gp.LandmarkFitDefault {
		return ""
	}
	return f.String()
}

func (p *profiler) boPhases(n int) error {
	for _, kind := range p.o.BOKernels {
		if err := p.boPhase(n, kind); err != nil {
			return err
		}
	}
	return nil
}

// DefaultBOKernel is the name of the BO kernel ProfileOptions.BOKernels
// take for bo.Recommended's configuration (the front ends' default).
const DefaultBOKernel = "default"

// boConfig is the configuration of a BO phase's kernel: bo.Recommended's
// for DefaultBOKernel, else the paper's protocol with the kernel named.
func (p *profiler) boConfig(kind string) (bo.Config, error) {
	if kind == DefaultBOKernel {
		return bo.Recommended(p.g, p.o.Shape)
	}
	kern, err := bo.ParseKernel(kind, p.g, p.o.Shape)
	return bo.Config{Kernel: kern}, err
}

// boPhaseConfig is the configuration the BO phase of kind builds its
// optimizer with at n observations: boConfig's, with an initial design
// of min(n, bo.DefaultInit) points (so that the Ask after the n is a BO
// step) and the options' backend, landmarks and budget.
func (p *profiler) boPhaseConfig(kind string, n int) (bo.Config, error) {
	cfg, err := p.boConfig(kind)
	if err != nil {
		return cfg, err
	}
	cfg.Init, cfg.Backend, cfg.Landmarks, cfg.LandmarkFit, cfg.Budget = min(bo.DefaultInit, n), p.be, p.o.Landmarks, p.o.LandmarkFit, p.o.Budget
	return cfg, nil
}

// newOptimizer is bo.New, with which the BO phases and Profile's check
// before them build their optimizers; a variable so that a test can see
// the configurations.
var newOptimizer = bo.New

func (p *profiler) boPhase(n int, kind string) error {
	obj, _ := profileObjective(p.g)
	lab := kind
	rows := []ProfileRow{
		{Phase: "gp-fit", Label: "  GP fit, " + lab, Kernel: kind, Backend: p.be.Name()},
		{Phase: "acquisition", Label: "  acquisition, " + lab, Kernel: kind, Backend: p.be.Name()},
		{Phase: "bo-iteration", Label: "BO step, " + lab, Kernel: kind, Backend: p.be.Name()},
	}
	var fit, acq, ask, ref []float64
	landmarks := 0
	ga, gb, gc, err := p.stepReference()
	if err != nil {
		return err
	}
	iter := profPhase{
		row:    rows[2],
		exp:    3,
		always: true,
		repeat: true,
		setup: func(n int) (func() error, error) {
			xs, ys, err := boData(obj, n, p.o.Seed)
			if err != nil {
				return nil, err
			}
			fit, acq, ask, ref = fit[:0], acq[:0], ask[:0], ref[:0]
			return func() error {
				cfg, err := p.boPhaseConfig(kind, n)
				if err != nil {
					return err
				}
				opt, err := newOptimizer(obj.lo, obj.hi, cfg, p.o.Seed)
				if err != nil {
					return err
				}
				for i := range xs {
					if err := opt.Tell(xs[i], ys[i]); err != nil {
						return err
					}
				}
				t := time.Now()
				if _, err := opt.Ask(); err != nil {
					return err
				}
				ask = append(ask, time.Since(t).Seconds())
				// The reference: the faster of two Dgemms after a
				// collection (the Ask's garbage would otherwise be
				// collected during them).
				runtime.GC()
				g := math.Inf(1)
				for range 2 {
					t = time.Now()
					gonumDgemm(ga, gb, gc)
					g = min(g, time.Since(t).Seconds())
				}
				ref = append(ref, g)
				d := opt.Diagnostics()
				fit = append(fit, d.Timings.Fit.Seconds())
				acq = append(acq, d.Timings.Acq.Seconds())
				landmarks = d.Hyper.Landmarks
				return nil
			}, nil
		},
	}
	// timeMedian times bo.New and the Tells too; the rows report the Asks
	// alone (the last Reps of them: the warm-up Ask is the measurement
	// only when it was the single run).
	// The row p.run adds times the whole setup; it is replaced (and only
	// then printed) with the Asks' median, so stderr and the table agree.
	before := len(p.rows)
	p.quiet = true
	err = p.run(iter, n)
	p.quiet = false
	if err != nil {
		return err
	}
	it := p.rows[before]
	p.rows = p.rows[:before]
	lastReps := func(v []float64) []float64 {
		if it.Reps < len(v) {
			return v[len(v)-it.Reps:]
		}
		return v
	}
	if it.Status == StatusMeasured {
		it.Seconds = median(lastReps(ask))
		it.Landmarks = landmarks
		a, g := lastReps(ask), lastReps(ref)
		pairs := make([]float64, len(a))
		for i := range a {
			pairs[i] = a[i] / g[i]
		}
		it.Ratio, it.RatioKind, it.DgemmSeconds = median(pairs), RatioStepOverDgemm, median(g)
	}
	for i, r := range rows[:2] {
		r.N, r.Status, r.Note, r.Landmarks = n, it.Status, it.Note, it.Landmarks
		src := fit
		if i == 1 {
			src = acq
		}
		if it.Status == StatusMeasured {
			r.Seconds, r.Reps = median(lastReps(src)), it.Reps
		}
		p.add(r)
	}
	p.add(it)
	return nil
}

// boData draws n uniform points in the objective's box and their values.
func boData(obj boObjective, n int, seed uint64) ([][]float64, []float64, error) {
	r := rand.New(rand.NewPCG(seed, 7))
	xs := make([][]float64, n)
	ys := make([]float64, n)
	for i := range n {
		x := make([]float64, len(obj.lo))
		for k := range x {
			x[k] = obj.lo[k] + (obj.hi[k]-obj.lo[k])*r.Float64()
		}
		y, err := obj.f(x)
		if err != nil {
			return nil, nil, err
		}
		xs[i], ys[i] = x, y
	}
	return xs, ys, nil
}

// gemm adds one DGEMM row per compiled-in backend at n, and one for
// gonum's own Dgemm (GonumDgemm).
func (p *profiler) gemm(n int) error {
	type impl struct {
		name string
		mul  func(a, b, c *mat.Dense)
	}
	var impls []impl
	for _, name := range linalg.Available() {
		be, err := linalg.ByName(name)
		if err != nil {
			return fmt.Errorf("experiments: profile: %w", err)
		}
		impls = append(impls, impl{name, func(a, b, c *mat.Dense) { be.Gemm(false, false, 1, a, b, 0, c) }})
	}
	impls = append(impls, impl{GonumDgemm, gonumDgemm})
	for _, im := range impls {
		label := "DGEMM, backend " + im.name
		if im.name == GonumDgemm {
			label = "DGEMM, gonum/blas Dgemm"
		}
		ph := profPhase{
			row:    ProfileRow{Phase: "dgemm", Label: label, Backend: im.name},
			exp:    3,
			always: true,
			setup: func(n int) (func() error, error) {
				if err := budget.Limit(p.o.Budget).Check(fmt.Sprintf("a DGEMM of order %d", n), 3*8*float64(n)*float64(n)); err != nil {
					return nil, err
				}
				a, b := Dense(n, 3, 0), Dense(n, 3, 1)
				c := mat.NewDense(n, n, nil)
				return func() error { im.mul(a, b, c); return nil }, nil
			},
			flops: func(n int) float64 { return GemmFlops(n) },
		}
		if err := p.run(ph, n); err != nil {
			return err
		}
	}
	return nil
}

// stepReference returns the operands of the BO steps' reference Dgemm of
// order GemmN, made on first use and shared by every step of the profile.
func (p *profiler) stepReference() (a, b, c *mat.Dense, err error) {
	if p.ref[0] == nil {
		gn := p.o.GemmN
		if err := budget.Limit(p.o.Budget).Check(fmt.Sprintf("a DGEMM of order %d", gn), 3*8*float64(gn)*float64(gn)); err != nil {
			return nil, nil, nil, fmt.Errorf("experiments: profile: %w", err)
		}
		p.ref = [3]*mat.Dense{Dense(gn, 3, 0), Dense(gn, 3, 1), mat.NewDense(gn, gn, nil)}
	}
	return p.ref[0], p.ref[1], p.ref[2], nil
}

// gonumDgemm is c = a·b by gonum's own Dgemm, the BO steps' reference.
func gonumDgemm(a, b, c *mat.Dense) {
	ar, br, cr := a.RawMatrix(), b.RawMatrix(), c.RawMatrix()
	gonumblas.Implementation{}.Dgemm(blas.NoTrans, blas.NoTrans, ar.Rows, br.Cols, ar.Cols, 1, ar.Data, ar.Stride, br.Data, br.Stride, 0, cr.Data, cr.Stride)
}

// derive fills the ratio and share columns.
func (p *profiler) derive() {
	find := func(profPhase, kern, method string, n int) *ProfileRow {
		for i := range p.rows {
			r := &p.rows[i]
			if r.Phase == profPhase && r.Kernel == kern && r.Method == method && r.N == n && r.Status != StatusSkipped {
				return r
			}
		}
		return nil
	}
	for i := range p.rows {
		r := &p.rows[i]
		if r.Status == StatusSkipped {
			continue
		}
		switch r.Phase {
		case "eigen-vs-c":
		case "gp-fit", "acquisition", "bo-iteration":
			// Against the step of the same kernel.
			if it := find("bo-iteration", r.Kernel, "", r.N); it != nil && it.Seconds > 0 {
				r.Share = r.Seconds / it.Seconds
			}
		default:
			// Against the step of the first BO kernel.
			if it := find("bo-iteration", p.o.BOKernels[0], "", r.N); it != nil && it.Seconds > 0 {
				r.Share = r.Seconds / it.Seconds
			}
		}
		switch {
		case (r.Phase == "gram" || r.Phase == "plus-cross") && r.Method == "closed":
			if e := find(r.Phase, r.Kernel, "enumerate", r.N); e != nil && r.Seconds > 0 {
				r.Ratio, r.RatioKind = e.Seconds/r.Seconds, RatioEnumOverClosed
				if e.Status == StatusEstimated {
					r.Note = "ratio against the estimated enumeration"
				}
			}
		case r.Phase == "dgemm":
			if e := find("gram", "max", "enumerate", r.N); e != nil && e.GFLOPS > 0 && r.GFLOPS > 0 {
				r.Ratio, r.RatioKind = e.GFLOPS/r.GFLOPS, RatioEnumOverGemm
			}
		case r.Phase == "bo-iteration" && r.Status == StatusMeasured:
			// Ratio: interleaved with the Asks (boPhase).
			if g := p.dgemmAt(p.be.Name(), p.o.GemmN); g != nil {
				r.RatioBackendGemm = r.Seconds / g.Seconds
			}
		}
	}
}

// dgemmAt is the measured DGEMM row of the implementation name at order
// n, or nil.
func (p *profiler) dgemmAt(name string, n int) *ProfileRow {
	for i := range p.rows {
		r := &p.rows[i]
		if r.Phase == "dgemm" && r.Backend == name && r.N == n && r.Status == StatusMeasured && r.Seconds > 0 {
			return r
		}
	}
	return nil
}

// eigenVsC times the profiled backend's EigenSym (gonum: the pure-Go
// solver; openblas: LAPACKE through cgo) and LAPACKE_dsyevd called from C
// on the same symmetric matrix of order n, alternately in one process.
func (p *profiler) eigenVsC(n int) error {
	be := p.be
	a := Symmetric(n, p.o.Seed)
	var e linalg.Eigen
	// Go and C alternate call for call (timeRounds), so the machine's
	// drift hits both alike; at least minReps timed rounds even at n where
	// one call takes over a second, unlike the profile's other phases.
	med, reps, err := timeRounds(timing{minTime: p.o.MinTime, minReps: minReps, maxReps: max(p.o.MaxReps, minReps)},
		func() error { return be.EigenSym(&e, a) }, cDsyevd(a))
	if err != nil {
		return fmt.Errorf("experiments: profile: eigen-vs-c n=%d: %w", n, err)
	}
	goRow := ProfileRow{Phase: "eigen-vs-c", Label: "EigenSym " + be.Name() + " (Go)", Method: "go", Backend: be.Name(),
		N: n, Seconds: med[0], Reps: reps, Status: StatusMeasured}
	cRow := ProfileRow{Phase: "eigen-vs-c", Label: "LAPACKE_dsyevd (C)", Method: "c", Backend: "openblas",
		N: n, Seconds: med[1], Reps: reps, Status: StatusMeasured}
	flops := 9 * math.Pow(float64(n), 3)
	goRow.GFLOPS = flops / goRow.Seconds / 1e9
	cRow.GFLOPS = flops / cRow.Seconds / 1e9
	goRow.Ratio, goRow.RatioKind = goRow.Seconds/cRow.Seconds, RatioGoOverC
	p.add(goRow)
	p.add(cRow)
	return nil
}
