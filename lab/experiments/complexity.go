package experiments

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/symbo/symbo/gp"
	"github.com/symbo/symbo/internal/budget"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/linalg"
	"github.com/symbo/symbo/orbit"
)

// ComplexityOptions configure Complexity. The zero value is the default.
type ComplexityOptions struct {
	// Group of the sweep in n; nil means hyperoctahedral(5) (|G| = 3840).
	Group orbit.Group
	// N are the numbers of points of the sweep in n; nil means 32, 64,
	// …, 1024.
	N []int
	// GroupSweep are the groups of the sweep in |G|, each a family of
	// growing groups; nil means signflip d = 2…12 and hyperoctahedral
	// d = 1…6.
	GroupSweep []GroupFamily
	// GroupN is the number of points of the sweep in |G|; 0 means 64.
	GroupN int
	// M is the number of candidates scored by one iteration; 0 means
	// 100 (each candidate's k_max row against the design costs O(n|G|) with
	// enumeration, so m = 1000 would confine the enumerated iterations to
	// the smallest n).
	M int
	// Shape is the base kernel; the zero value is RBF (k_avg's closed
	// form needs it).
	Shape kernel.Shape
	// Backend does the linear algebra; nil means linalg.Default().
	Backend linalg.Backend
	// LandmarkM is the number of landmarks of the landmark GP's sweep in
	// n, over the sizes LandmarkN (each > 2·LandmarkM); 0 and nil mean 32
	// and 256, 512, …, 16384: its cost is linear in n, so the sweep goes
	// further than the exact kernels' to leave the constant terms behind.
	LandmarkM int
	LandmarkN []int
	// LandmarkMs are the landmark counts of the sweep in m (n =
	// LandmarkNPerM·m); nil means 32, 64, …, 1024.
	LandmarkMs []int
	// MinTime and MaxReps: the timing rule of Profile; 0 means
	// DefaultMinTime and DefaultMaxReps.
	MinTime time.Duration
	MaxReps int
	// MaxPointSeconds: a point of a series whose time, extrapolated from
	// the previous points (see Complexity), exceeds it is not run (nor are
	// the larger ones); 0 means 5.
	MaxPointSeconds float64
	Seed            uint64
	// Budget is the memory budget in bytes of every request the study
	// makes (kernel.Options.Budget, gp's and bo's Budget,
	// orbit.Enumerator.Budget and its own matrices); 0 means 8 GiB
	// (orbit.DefaultBudget), never the environment: perf passes its
	// --mem-budget.
	Budget int64

	// Progress receives one line per measured point; nil means none.
	Progress io.Writer
	// Context, if not nil, stops the study between points: Complexity
	// then returns its error.
	Context context.Context
}

// GroupFamily is a named sequence of groups of growing order.
type GroupFamily struct {
	Name   string
	Groups []orbit.Group
}

// ComplexitySeries is one row of the complexity table: the time of a
// quantity against n or |G|, and the least-squares slope of log time
// against log x.
type ComplexitySeries struct {
	// Quantity: gram, eigen, psd-projection, per-query, iteration,
	// landmark-gp, enumerate-orbits.
	Quantity string `json:"quantity"`
	Kernel   string `json:"kernel,omitempty"`
	Method   string `json:"method,omitempty"`
	// Against is "n", "|G|" or "m" (landmarks); Family names the groups of
	// a |G| sweep.
	Against string `json:"against"`
	Family  string `json:"family,omitempty"`
	// Cost is the paper's Table 2 entry, Predicted its exponent in the
	// swept variable (asymptotically).
	Cost      string  `json:"cost"`
	Predicted float64 `json:"predicted"`
	// X and Seconds are the measured points (median times); D the
	// dimensions of a |G| sweep; NotRun the x values skipped because
	// predicted too slow.
	X       []float64 `json:"x"`
	D       []int     `json:"d,omitempty"`
	Seconds []float64 `json:"seconds"`
	NotRun  []float64 `json:"not_run,omitempty"`
	// Slope and R2 of the log-log fit (absent with fewer than two
	// points; R2 absent when every time is equal). SlopeGD is the slope
	// against |G|·d for |G| sweeps (the enumeration does O(d) work per
	// element).
	Slope *float64 `json:"slope,omitempty"`
	R2    *float64 `json:"r2,omitempty"`
	// SlopeTop is the slope between the last two measured points: the
	// exponent nearest the asymptotic one when constant or lower-order
	// terms still weigh at the small end (absent with fewer than two).
	SlopeTop *float64 `json:"slope_top,omitempty"`
	SlopeGD  *float64 `json:"slope_vs_g_times_d,omitempty"`
	Note     string   `json:"note,omitempty"`
}

// ComplexityResult is what Complexity measured.
type ComplexityResult struct {
	Environment
	Group  string `json:"group"`
	Base   string `json:"base"`
	M      int    `json:"m"`
	GroupN int    `json:"group_n"`
	// LandmarkM is the landmarks of the landmark GP's sweep in n.
	LandmarkM int                `json:"landmark_m"`
	Series    []ComplexitySeries `json:"series"`
}

// defaultComplexityN are the sizes of Complexity's sweep in n.
var defaultComplexityN = []int{32, 64, 128, 256, 512, 1024}

// DefaultGroupSweep is signflip d = 2…12 and hyperoctahedral d = 1…6.
func DefaultGroupSweep() []GroupFamily {
	var sf, ho []orbit.Group
	for d := 2; d <= 12; d++ {
		g, _ := orbit.SignFlip(d)
		sf = append(sf, g)
	}
	for d := 1; d <= 6; d++ {
		g, _ := orbit.Hyperoctahedral(d)
		ho = append(ho, g)
	}
	return []GroupFamily{{"signflip", sf}, {"hyperoctahedral", ho}}
}

// Complexity measures the paper's Table 2 (cost per BO iteration):
// the time of each quantity against n (group o.Group) and, for the orbit
// work, against |G| (o.GroupSweep, o.GroupN points), with the log-log
// least-squares slope (FitPowerLaw) next to the predicted exponent.
//
// Quantities (standard normal points, lengthscale 1, unit variance):
//
//   - gram: the n×n Gram of k_b (O(n²)), k_max and k_avg (O(n²|G|*)), by
//     closed form and by enumeration;
//   - eigen: the backend's EigenSym of the k_max Gram (O(n³));
//   - psd-projection: the paper's projection K₊ = Q·diag(λ kept)·Qᵀ from
//     it (kernel.ProjectTo: eigenvalues ≤ n·ε·λ_max dropped; O(n³), but
//     no product at all when none is, as for a PSD k_max Gram). BO's fit
//     never forms K₊ (perf profile's plus-spectrum row times what it does);
//   - per-query: one kernel value k(x, y) between two new points — k_b
//     (O(1)), k_avg (O(|G|*)), k_plus over a design of n points
//     (O(n|G|*)); timed over a batch of 64 queries;
//   - iteration: one BO iteration at fixed hyperparameters — build the
//     kernel (k_plus: NewPlus on the n points), the GP (gp.New: Gram and
//     Cholesky) and score M candidates with the posterior mean and
//     variance. The paper's Table 2 (the Cost field) has
//     O(m + n² + n³) base, O((m + n²)|G|* + n³) avg and
//     O((mn + n²)|G|* + n³) plus, counting m kernel values for the
//     candidates; a candidate scored here takes n kernel values (k_plus:
//     n k_max values and the O(n·r) features) and an O(n²) triangular
//     solve (gp's Predict), so the loop costs O(mn² + n³) base and
//     O((mn + n²)|G|* + mn² + n³) avg and plus — exponent 3 in n at fixed
//     m, as predicted. Hyperparameter fitting repeats this kind of work a
//     data-dependent number of times and is left out;
//   - eigen, for every compiled-in backend: gonum's is
//     linalg/internal/eigsym (dsyevd's algorithm in Go), openblas's
//     LAPACKE dsyevd (O(n³));
//   - landmark-gp, for every kernel bo caps (plus and nystrom: k_plus with
//     a design capped at m landmarks; base, max, avg, avgnorm:
//     gp.NewLandmarkFamily's DTC model): gp.New at fixed hyperparameters —
//     the greedy pivoted Cholesky selection with its n×m kernel columns,
//     the thin QR of those columns, the eigendecompositions of C(D, D) and
//     of the m×m core, the posterior: what one likelihood evaluation of a
//     landmark fit costs, plus the posterior's r×r eigendecomposition.
//     O(n·m·c + n·m² + m³), c the cost of one kernel evaluation: against n
//     (LandmarkN, to 16384) at m = LandmarkM (slope 1), and against m at
//     n = LandmarkNPerM·m (slope 3);
//   - enumerate-orbits: orbit.Enumerator.Orbits of GroupN points (O(n|G|)).
//
// |G|* is |G| for enumeration; for closed forms the growth in |G|
// disappears (k_max: a sort, O(d log d); k_avg: O(d) for sign flips, the
// O(2^d·d) permanent for (signed) permutations).
//
// Timing follows Profile's rule. A point whose time, extrapolated from the
// series' previous point by the local slope of its last two points (at
// least 1; min(predicted, 2) after the first point), exceeds
// MaxPointSeconds is not run, nor are the series' larger points; slopes
// are fitted to the measured points only.
func Complexity(o ComplexityOptions) (ComplexityResult, error) {
	if o.Group == nil {
		g, err := orbit.Hyperoctahedral(5)
		if err != nil {
			return ComplexityResult{}, err
		}
		o.Group = g
	}
	if o.N == nil {
		o.N = defaultComplexityN
	}
	if o.GroupSweep == nil {
		o.GroupSweep = DefaultGroupSweep()
	}
	if o.GroupN == 0 {
		o.GroupN = 64
	}
	if o.M == 0 {
		o.M = 100
	}
	if o.LandmarkM == 0 {
		o.LandmarkM = 32
	}
	if o.LandmarkN == nil {
		o.LandmarkN = []int{256, 512, 1024, 2048, 4096, 8192, 16384}
	}
	if o.LandmarkMs == nil {
		o.LandmarkMs = []int{32, 64, 128, 256, 512, 1024}
	}
	if o.LandmarkM < 1 {
		return ComplexityResult{}, fmt.Errorf("experiments: complexity: landmark count %d", o.LandmarkM)
	}
	for i, n := range o.LandmarkN {
		if n <= 2*o.LandmarkM || (i > 0 && n <= o.LandmarkN[i-1]) {
			return ComplexityResult{}, fmt.Errorf("experiments: complexity: landmark sizes %v: want ascending values > 2·%d", o.LandmarkN, o.LandmarkM)
		}
	}
	for i, m := range o.LandmarkMs {
		if m < 1 || (i > 0 && m <= o.LandmarkMs[i-1]) {
			return ComplexityResult{}, fmt.Errorf("experiments: complexity: landmark counts %v: want ascending values ≥ 1", o.LandmarkMs)
		}
	}
	if o.MinTime == 0 {
		o.MinTime = DefaultMinTime
	}
	if o.MaxReps == 0 {
		o.MaxReps = DefaultMaxReps
	}
	if o.MaxPointSeconds == 0 {
		o.MaxPointSeconds = 5
	}
	if len(o.N) < 2 {
		return ComplexityResult{}, errors.New("experiments: complexity: need at least two sizes n")
	}
	for i, n := range o.N {
		if n < 2 || (i > 0 && n <= o.N[i-1]) {
			return ComplexityResult{}, fmt.Errorf("experiments: complexity: n = %v: want ascending values ≥ 2", o.N)
		}
	}
	if o.GroupN < 2 || o.M < 1 || o.MinTime < 0 || o.MaxReps < 1 || !(o.MaxPointSeconds > 0) {
		return ComplexityResult{}, fmt.Errorf("experiments: complexity: invalid options (group n %d, m %d, min time %v, max reps %d, max point seconds %v)", o.GroupN, o.M, o.MinTime, o.MaxReps, o.MaxPointSeconds)
	}
	if o.Backend == nil {
		be, err := linalg.Default()
		if err != nil {
			return ComplexityResult{}, fmt.Errorf("experiments: complexity: %w", err)
		}
		o.Backend = be
	}
	if o.Progress == nil {
		o.Progress = io.Discard
	}
	// The m candidates of the largest dimension are allocated whole: a
	// budget refusal now, not an out-of-memory crash at the first point.
	maxD := o.Group.Dim()
	for _, f := range o.GroupSweep {
		for _, g := range f.Groups {
			maxD = max(maxD, g.Dim())
		}
	}
	if err := budget.Limit(o.Budget).Check(fmt.Sprintf("%d candidates of %d coordinates", o.M, maxD), 8*float64(o.M)*float64(maxD)); err != nil {
		return ComplexityResult{}, fmt.Errorf("experiments: complexity: %w", err)
	}
	// So is each series' largest point set (--n and --landmark-n in the
	// group's dimension, --group-n in the sweep's): at d = 65536 (group
	// none) 5000 points are 2.6 GB, allocated before a point is timed
	// or skipped as too slow.
	pn, pd := slices.Max(o.N), o.Group.Dim()
	if len(o.LandmarkN) > 0 {
		pn = max(pn, slices.Max(o.LandmarkN))
	}
	for _, f := range o.GroupSweep {
		for _, g := range f.Groups {
			if float64(o.GroupN)*float64(g.Dim()) > float64(pn)*float64(pd) {
				pn, pd = o.GroupN, g.Dim()
			}
		}
	}
	if err := budget.Limit(o.Budget).Check(fmt.Sprintf("%d points of %d coordinates", pn, pd), 8*float64(pn)*float64(pd)); err != nil {
		return ComplexityResult{}, fmt.Errorf("experiments: complexity: %w", err)
	}
	c := &complexity{o: o}
	res := ComplexityResult{
		Environment: environment(o.Backend, os.Getenv),
		Group:       o.Group.Name(), Base: o.Shape.String(), M: o.M, GroupN: o.GroupN, LandmarkM: o.LandmarkM,
	}
	for _, s := range c.nSeries() {
		if err := c.sweep(&s.series, s.xs, s.run); err != nil {
			return ComplexityResult{}, err
		}
		res.Series = append(res.Series, s.series)
	}
	for _, s := range c.landmarkSeries() {
		if err := c.sweep(&s.series, s.xs, s.run); err != nil {
			return ComplexityResult{}, err
		}
		res.Series = append(res.Series, s.series)
	}
	for _, fam := range o.GroupSweep {
		for _, s := range c.groupSeries(fam) {
			if err := c.sweep(&s.series, s.xs, s.run); err != nil {
				return ComplexityResult{}, err
			}
			res.Series = append(res.Series, s.series)
		}
	}
	return res, nil
}

type complexity struct {
	o ComplexityOptions
}

// pending is a series to measure: run(i) returns the function to time
// at point i (errSkip-wrapped errors and ErrNoClosedForm drop the series).
type pending struct {
	series ComplexitySeries
	xs     []float64
	run    func(i int) (func() error, error)
}

func (c *complexity) params() kernel.Params {
	return kernel.Params{Shape: c.o.Shape, Variance: 1, Lengthscale: 1}
}

// sweep measures series s at the points xs.
func (c *complexity) sweep(s *ComplexitySeries, xs []float64, run func(i int) (func() error, error)) error {
	label := s.Quantity + " " + s.Kernel + " " + s.Method
	if s.Family != "" {
		label += " (" + s.Family + ")"
	}
	for i, x := range xs {
		if c.o.Context != nil {
			if err := c.o.Context.Err(); err != nil {
				return err
			}
		}
		if k := len(s.X); k > 0 {
			// Extrapolate by the local slope of the last two points (at
			// least 1), or min(predicted, 2) from a single point.
			exp := max(1, min(s.Predicted, 2))
			if k >= 2 {
				exp = max(1, math.Log(s.Seconds[k-1]/s.Seconds[k-2])/math.Log(s.X[k-1]/s.X[k-2]))
			}
			pred := s.Seconds[k-1] * math.Pow(x/s.X[k-1], exp)
			if pred > c.o.MaxPointSeconds {
				s.NotRun = append(s.NotRun, xs[i:]...)
				s.Note = fmt.Sprintf("x ≥ %g not run (predicted > %gs)", x, c.o.MaxPointSeconds)
				fmt.Fprintf(c.o.Progress, "complexity: %-45s %s = %-6g not run (predicted %.3g s)\n", label, s.Against, x, pred)
				break
			}
		}
		f, err := run(i)
		var sec float64
		if err == nil {
			sec, _, err = timeMedian(c.o.MinTime, c.o.MaxReps, f)
		}
		if err != nil {
			if errors.Is(err, errSkip) || errors.Is(err, kernel.ErrNoClosedForm) || errors.Is(err, orbit.ErrOverBudget) {
				s.Note = err.Error()
				s.X, s.Seconds, s.D = nil, nil, nil
				fmt.Fprintf(c.o.Progress, "complexity: %-45s skipped: %v\n", label, err)
				return nil
			}
			return fmt.Errorf("experiments: complexity: %s at %s = %g: %w", label, s.Against, x, err)
		}
		if s.Quantity == "per-query" {
			sec /= queryBatch
		}
		s.X = append(s.X, x)
		s.Seconds = append(s.Seconds, sec)
		fmt.Fprintf(c.o.Progress, "complexity: %-45s %s = %-6g %.4g s\n", label, s.Against, x, sec)
	}
	if len(s.X) >= 2 {
		slope, _, r2, err := FitPowerLaw(s.X, s.Seconds)
		if err == nil {
			s.Slope = &slope
			if !math.IsNaN(r2) {
				s.R2 = &r2
			}
		}
		k := len(s.X)
		if top := math.Log(s.Seconds[k-1]/s.Seconds[k-2]) / math.Log(s.X[k-1]/s.X[k-2]); !math.IsNaN(top) && !math.IsInf(top, 0) {
			s.SlopeTop = &top
		}
		if len(s.D) > 0 {
			gd := make([]float64, len(s.X))
			for i := range gd {
				gd[i] = s.X[i] * float64(s.D[i])
			}
			if slope, _, _, err := FitPowerLaw(gd, s.Seconds); err == nil {
				s.SlopeGD = &slope
			}
		}
	}
	if len(s.D) > len(s.X) {
		s.D = s.D[:len(s.X)]
	}
	return nil
}

// queryBatch is the number of kernel values timed together by per-query.
const queryBatch = 64

func (c *complexity) points(n, d int) *mat.Dense { return Points(n, d, c.o.Seed) }

func (c *complexity) nSeries() []pending {
	g, d := c.o.Group, c.o.Group.Dim()
	xs := make([]float64, len(c.o.N))
	for i, n := range c.o.N {
		xs[i] = float64(n)
	}
	n := func(i int) int { return c.o.N[i] }
	var out []pending
	add := func(q, kern, meth, cost string, pred float64, run func(i int) (func() error, error)) {
		out = append(out, pending{series: ComplexitySeries{Quantity: q, Kernel: kern, Method: meth, Against: "n", Cost: cost, Predicted: pred}, xs: xs, run: run})
	}
	gram := func(kind string, m kernel.Method) func(i int) (func() error, error) {
		return func(i int) (func() error, error) {
			k, err := c.kernel(kind, g, m)
			if err != nil {
				return nil, err
			}
			return gramFunc(k.(kernel.Gramer), c.points(n(i), d)), nil
		}
	}
	add("gram", "base", "", "O(n²)", 2, gram("base", kernel.Auto))
	for _, kind := range []string{"max", "avg"} {
		add("gram", kind, "enumerate", "O(n²|G|)", 2, gram(kind, kernel.Enumerate))
		add("gram", kind, "closed", "O(n²|G|*)", 2, gram(kind, kernel.Closed))
	}
	maxGram := func(n int) (*mat.SymDense, error) {
		k, err := kernel.NewMax(c.params(), g, kernel.Options{Budget: c.o.Budget})
		if err != nil {
			return nil, err
		}
		var s mat.SymDense
		return &s, k.GramTo(&s, c.points(n, d))
	}
	be := c.o.Backend
	// Every compiled-in backend's eigensolver (the profiled one first).
	eigBackends := []linalg.Backend{be}
	for _, name := range linalg.Available() {
		if name == be.Name() {
			continue
		}
		if b, err := linalg.ByName(name); err == nil {
			eigBackends = append(eigBackends, b)
		}
	}
	for _, eb := range eigBackends {
		cost := "O(n³)"
		if eb.Name() == "gonum" {
			cost = "O(n³): eigsym (dsyevd in Go)"
		} else if eb.Name() == "openblas" {
			cost = "O(n³): LAPACKE dsyevd"
		}
		add("eigen", "", eb.Name(), cost, 3, func(i int) (func() error, error) {
			k, err := maxGram(n(i))
			if err != nil {
				return nil, err
			}
			var e linalg.Eigen
			return func() error { return eb.EigenSym(&e, k) }, nil
		})
	}
	add("psd-projection", "", be.Name(), "O(n³)", 3, func(i int) (func() error, error) {
		k, err := maxGram(n(i))
		if err != nil {
			return nil, err
		}
		var e linalg.Eigen
		if err := be.EigenSym(&e, k); err != nil {
			return nil, err
		}
		sc, kp := mat.NewDense(n(i), n(i), nil), mat.NewDense(n(i), n(i), nil)
		return func() error { return psdProject(be, kp, sc, &e) }, nil
	})
	// Per-query: a batch of k(x_q, y_q) between new points.
	qx, qy := Points(queryBatch, d, c.o.Seed+11), Points(queryBatch, d, c.o.Seed+12)
	query := func(k kernel.Kernel) func() error {
		dst := mat.NewDense(1, 1, nil)
		return func() error {
			for q := range queryBatch {
				if err := k.CrossTo(dst, qx.Slice(q, q+1, 0, d).(*mat.Dense), qy.Slice(q, q+1, 0, d).(*mat.Dense)); err != nil {
					return err
				}
			}
			return nil
		}
	}
	add("per-query", "base", "", "O(1)", 0, func(int) (func() error, error) {
		k, err := c.kernel("base", g, kernel.Auto)
		if err != nil {
			return nil, err
		}
		return query(k), nil
	})
	for _, m := range []kernel.Method{kernel.Enumerate, kernel.Closed} {
		add("per-query", "avg", methodName(m), "O(|G|*)", 0, func(int) (func() error, error) {
			k, err := c.kernel("avg", g, m)
			if err != nil {
				return nil, err
			}
			return query(k), nil
		})
	}
	for _, m := range []kernel.Method{kernel.Enumerate, kernel.Closed} {
		add("per-query", "plus", methodName(m), "O(n|G|*)", 1, func(i int) (func() error, error) {
			k, err := c.plus(g, m, c.points(n(i), d))
			if err != nil {
				return nil, err
			}
			return query(k), nil
		})
	}
	iter := func(kind string, m kernel.Method) func(i int) (func() error, error) {
		return func(i int) (func() error, error) {
			x := c.points(n(i), d)
			y := make([]float64, n(i))
			for r := range y {
				row := x.RawRowView(r)
				y[r] = -vecDot(row, row)
			}
			cand := Points(c.o.M, d, c.o.Seed+13)
			if _, err := c.kernel(kind, g, m); err != nil {
				return nil, err // e.g. no closed form
			}
			// gp.New at the fixed hyperparameters of c.params() asks the
			// family for exactly that kernel.
			p := c.params()
			fam, err := gp.FamilyOf(d, p.Shape, func(q kernel.Params) (kernel.Kernel, error) {
				if q != p {
					return nil, fmt.Errorf("experiments: complexity: kernel asked for %+v, want %+v", q, p)
				}
				if kind == "plus" {
					return c.plus(g, m, x)
				}
				return c.kernel(kind, g, m)
			})
			if err != nil {
				return nil, err
			}
			h := gp.Hyper{Variance: p.Variance, Lengthscale: p.Lengthscale, Noise: 1e-2}
			var ws gp.Workspace
			return func() error {
				post, err := gp.New(fam, x, y, h, gp.Options{Backend: be, Budget: c.o.Budget})
				if err != nil {
					return err
				}
				for q := range c.o.M {
					if _, _, err := post.Predict(&ws, cand.RawRowView(q)); err != nil {
						return err
					}
				}
				return nil
			}, nil
		}
	}
	add("iteration", "base", "", "O(m + n² + n³)", 3, iter("base", kernel.Auto))
	for _, m := range []kernel.Method{kernel.Enumerate, kernel.Closed} {
		add("iteration", "avg", methodName(m), "O((m + n²)|G|* + n³)", 3, iter("avg", m))
	}
	for _, m := range []kernel.Method{kernel.Enumerate, kernel.Closed} {
		add("iteration", "plus", methodName(m), "O((mn + n²)|G|* + n³)", 3, iter("plus", m))
	}
	return out
}

// LandmarkNPerM is n/m in the landmark GP's sweep in m.
const LandmarkNPerM = 4

// landmarkKernels are the kernels of the landmark GP's sweeps, each with
// the capped family bo builds for it (plus and nystrom: k_plus with a
// capped design; the others: gp.NewLandmarkFamily's DTC model).
var landmarkKernels = []struct {
	name string
	fam  func(c *complexity, m int) (gp.Family, error)
}{
	{"plus", func(c *complexity, m int) (gp.Family, error) {
		return gp.NewLandmarkPlusFamily(c.o.Shape, c.o.Group, kernel.Options{Budget: c.o.Budget}, kernel.PlusOptions{Backend: c.o.Backend}, m)
	}},
	{"nystrom", func(c *complexity, m int) (gp.Family, error) {
		g, err := orbit.Trivial(c.o.Group.Dim())
		if err != nil {
			return nil, err
		}
		return gp.NewLandmarkPlusFamily(c.o.Shape, g, kernel.Options{Budget: c.o.Budget}, kernel.PlusOptions{Backend: c.o.Backend}, m)
	}},
	{"base", func(c *complexity, m int) (gp.Family, error) {
		return c.capped(gp.NewBaseFamily(c.o.Shape, c.o.Group.Dim()))(m)
	}},
	{"max", func(c *complexity, m int) (gp.Family, error) {
		return c.capped(gp.NewMaxFamily(c.o.Shape, c.o.Group, kernel.Options{Budget: c.o.Budget}))(m)
	}},
	{"avg", func(c *complexity, m int) (gp.Family, error) {
		return c.capped(gp.NewAvgFamily(c.o.Shape, c.o.Group, kernel.Options{Budget: c.o.Budget}))(m)
	}},
	{"avgnorm", func(c *complexity, m int) (gp.Family, error) {
		return c.capped(gp.NewAvgFamily(c.o.Shape, c.o.Group, kernel.Options{Budget: c.o.Budget, Normalize: true}))(m)
	}},
}

// capped returns the constructor of fam capped at m (gp.NewLandmarkFamily).
func (c *complexity) capped(fam gp.Family, err error) func(m int) (gp.Family, error) {
	return func(m int) (gp.Family, error) {
		if err != nil {
			return nil, err
		}
		return gp.NewLandmarkFamily(fam, m, gp.LandmarkOptions{Backend: c.o.Backend})
	}
}

// landmarkSeries are the landmark GP's sweeps of every kernel: against n
// (LandmarkN) at m = LandmarkM, and against m at n = 4m.
func (c *complexity) landmarkSeries() []pending {
	d := c.o.Group.Dim()
	var out []pending
	for _, lk := range landmarkKernels {
		build := func(n, m int) (func() error, error) {
			fam, err := lk.fam(c, m)
			if err != nil {
				return nil, err
			}
			x := c.points(n, d)
			y := make([]float64, n)
			for r := range y {
				row := x.RawRowView(r)
				y[r] = -vecDot(row, row)
			}
			h := gp.Hyper{Variance: 1, Lengthscale: 1, Noise: 1e-2}
			return func() error {
				post, err := gp.New(fam, x, y, h, gp.Options{Backend: c.o.Backend, Budget: c.o.Budget})
				if err == nil && post.Landmarks() == 0 {
					err = fmt.Errorf("experiments: complexity: %s, n = %d, m = %d: no landmarks", lk.name, n, m)
				}
				return err
			}, nil
		}
		ns := make([]float64, len(c.o.LandmarkN))
		for i, n := range c.o.LandmarkN {
			ns[i] = float64(n)
		}
		ms := make([]float64, len(c.o.LandmarkMs))
		for i, m := range c.o.LandmarkMs {
			ms[i] = float64(m)
		}
		if len(ns) > 0 {
			out = append(out, pending{
				series: ComplexitySeries{Quantity: "landmark-gp", Kernel: lk.name, Method: fmt.Sprintf("m=%d", c.o.LandmarkM), Against: "n", Cost: "O(n·m·c + n·m² + m³), m fixed", Predicted: 1},
				xs:     ns,
				run:    func(i int) (func() error, error) { return build(int(ns[i]), c.o.LandmarkM) },
			})
		}
		out = append(out, pending{
			series: ComplexitySeries{Quantity: "landmark-gp", Kernel: lk.name, Method: fmt.Sprintf("n=%d·m", LandmarkNPerM), Against: "m", Cost: "O(n·m·c + n·m² + m³), n ∝ m", Predicted: 3},
			xs:     ms,
			run:    func(i int) (func() error, error) { m := int(ms[i]); return build(LandmarkNPerM*m, m) },
		})
	}
	return out
}

func (c *complexity) groupSeries(fam GroupFamily) []pending {
	xs := make([]float64, len(fam.Groups))
	ds := make([]int, len(fam.Groups))
	for i, g := range fam.Groups {
		sz, err := orbit.Size(g)
		if err != nil {
			sz = 0
		}
		xs[i], ds[i] = float64(sz), g.Dim()
	}
	n := c.o.GroupN
	var out []pending
	add := func(q, kern, meth, cost string, pred float64, run func(i int) (func() error, error)) {
		out = append(out, pending{series: ComplexitySeries{Quantity: q, Kernel: kern, Method: meth, Against: "|G|", Family: fam.Name, Cost: cost, Predicted: pred, D: slices.Clone(ds)}, xs: xs, run: run})
	}
	add("enumerate-orbits", "", "", "O(n|G|)", 1, func(i int) (func() error, error) {
		f, ok := fam.Groups[i].(orbit.Finite)
		if !ok {
			return nil, skipf("%s is not finite", fam.Groups[i].Name())
		}
		raw := c.points(n, f.Dim()).RawMatrix().Data
		var buf []float64
		return func() error {
			var err error
			buf, err = orbit.Enumerator{Budget: c.o.Budget}.Orbits(buf[:0], f, raw, n)
			return err
		}, nil
	})
	for _, kind := range []string{"max", "avg"} {
		for _, m := range []kernel.Method{kernel.Enumerate, kernel.Closed} {
			pred, cost := 1.0, "O(n²|G|)"
			if m == kernel.Closed {
				pred, cost = 0, "O(n²) per |G|: closed form"
			}
			add("gram", kind, methodName(m), cost, pred, func(i int) (func() error, error) {
				g := fam.Groups[i]
				k, err := c.kernel(kind, g, m)
				if err != nil {
					return nil, err
				}
				return gramFunc(k.(kernel.Gramer), c.points(n, g.Dim())), nil
			})
		}
	}
	for _, m := range []kernel.Method{kernel.Enumerate, kernel.Closed} {
		pred, cost := 1.0, "O(n|G|) per query"
		if m == kernel.Closed {
			pred, cost = 0, "O(n) per query: closed form"
		}
		add("per-query", "plus", methodName(m), cost, pred, func(i int) (func() error, error) {
			g := fam.Groups[i]
			d := g.Dim()
			k, err := c.plus(g, m, c.points(n, d))
			if err != nil {
				return nil, err
			}
			qx, qy := Points(queryBatch, d, c.o.Seed+11), Points(queryBatch, d, c.o.Seed+12)
			dst := mat.NewDense(1, 1, nil)
			return func() error {
				for q := range queryBatch {
					if err := k.CrossTo(dst, qx.Slice(q, q+1, 0, d).(*mat.Dense), qy.Slice(q, q+1, 0, d).(*mat.Dense)); err != nil {
						return err
					}
				}
				return nil
			}, nil
		})
	}
	return out
}

// psdProject writes K₊ = Q·diag(λ kept)·Qᵀ into kp (scaled: scratch) by
// kernel.ProjectTo with its default tolerance: nothing when no eigenvalue
// is dropped.
func psdProject(be linalg.Backend, kp, scaled *mat.Dense, e *linalg.Eigen) error {
	_, err := kernel.ProjectTo(be, kp, scaled, e, 0)
	return err
}

// kernel builds k_b, k_avg or k_max.
func (c *complexity) kernel(kind string, g orbit.Group, m kernel.Method) (kernel.Kernel, error) {
	switch kind {
	case "base":
		return kernel.NewBase(c.params(), g.Dim())
	case "avg":
		return kernel.NewAvg(c.params(), g, kernel.Options{Method: m, Budget: c.o.Budget})
	case "plus":
		return kernel.NewMax(c.params(), g, kernel.Options{Method: m, Budget: c.o.Budget})
	}
	return kernel.NewMax(c.params(), g, kernel.Options{Method: m, Budget: c.o.Budget})
}

// plus builds k_plus over k_max (method m) with design x.
func (c *complexity) plus(g orbit.Group, m kernel.Method, x *mat.Dense) (*kernel.Plus, error) {
	mx, err := kernel.NewMax(c.params(), g, kernel.Options{Method: m, Budget: c.o.Budget})
	if err != nil {
		return nil, err
	}
	return kernel.NewPlus(mx, x, kernel.PlusOptions{Backend: c.o.Backend})
}
