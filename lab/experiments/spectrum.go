package experiments

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/symbo/symbo/internal/budget"
	"gonum.org/v1/gonum/mat"

	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/linalg"
	"github.com/symbo/symbo/orbit"
)

// Defaults of SpectrumOptions.
const (
	DefaultSpectrumN           = 3000
	DefaultSpectrumLengthscale = 0.5
	// MaxSpectrumN caps SpectrumOptions.N: each spectrum is a dense n×n
	// eigendecomposition, O(n³) time and 24·n² bytes (the Gram, its
	// eigenvectors, the eigensolver's copy); at the cap that is 9.6 GB
	// and hours of the pure-Go eigensolver.
	MaxSpectrumN = 20000
)

// The series of a spectrum panel, in drawing order.
const (
	SpectrumBase    = "base"    // k_b on S
	SpectrumAvg     = "avg"     // k_avg on S
	SpectrumPlus    = "plus"    // k_plus^(D) on S, D the sample itself
	SpectrumReduced = "base-S'" // k_b on the reduced domain S'
)

// SpectrumOptions configure Spectrum. The zero value is the default.
type SpectrumOptions struct {
	// Groups are the groups, one row of panels each; nil means
	// hyperoctahedral(1), (2), (3). Each must implement
	// orbit.CoordinateGroup (its elements are signed permutations, which
	// map S = [−1, 1]^d onto itself) and orbit.Canonicalizer (whose image
	// of S is the reduced domain S', a fundamental domain).
	Groups []orbit.Group
	// Shapes are the base kernels, one column of panels each; nil means
	// RBF and Matérn-5/2 (the paper's middle and right columns).
	Shapes []kernel.Shape
	// N is the number of points; 0 means DefaultSpectrumN (the paper's
	// 3000). It must lie in [2, MaxSpectrumN].
	N int
	// Lengthscale of every base kernel (variance 1), in the units of
	// S = [−1, 1]^d; 0 means DefaultSpectrumLengthscale. The paper does not
	// state its own.
	Lengthscale float64
	// FitLo and FitHi bound the 1-based indices of the slope fit (see
	// SpectrumPanel); 0 means 2 and N/10.
	FitLo, FitHi int
	// Seed of the points: S's sample of dimension d from the stream
	// (Seed, 2d), S''s from (Seed, 2d+1) (independent of S's).
	Seed uint64
	// Backend computes the eigenvalues; nil means linalg.Default().
	Backend linalg.Backend
	// Context stops the study between two spectra; nil means never.
	Context context.Context
	// Progress receives one line per spectrum; nil means none.
	Progress io.Writer
	// Budget is the memory budget in bytes of every request the study
	// makes (kernel.Options.Budget, gp's and bo's Budget,
	// orbit.Enumerator.Budget and its own matrices); 0 means 8 GiB
	// (orbit.DefaultBudget), never the environment: perf passes its
	// --mem-budget.
	Budget int64
}

// SpectrumSeries is the spectrum of one kernel's normalized Gram K/n.
type SpectrumSeries struct {
	// Kernel is SpectrumBase, SpectrumAvg, SpectrumPlus or
	// SpectrumReduced; Domain "S" or "S'".
	Kernel string `json:"kernel"`
	Domain string `json:"domain"`
	// Eigenvalues of K/n in descending order, those above Floor only
	// (Drawn of the N); the rest are rounding noise (or, for plus, the
	// ones its projection set to zero).
	Eigenvalues []float64 `json:"eigenvalues"`
	Drawn       int       `json:"drawn"`
	// Floor is kernel.Truncate's cut-off n·2⁻⁵²·λ_max on K/n: below it an
	// eigenvalue is not resolved by a backward-stable eigensolver. For
	// plus it is the projection's own cut-off.
	Floor float64 `json:"floor"`
	// Trace is tr(K)/n (1 for a unit-variance base kernel and k_max; the
	// mean of k_avg(x, x) ≤ 1 for avg); Sum the sum of all N eigenvalues
	// of K/n (for plus after the projection), equal to Trace up to
	// rounding except for what plus clipped.
	Trace float64 `json:"trace"`
	Sum   float64 `json:"sum"`
	// Negative counts the eigenvalues of K below zero (for plus, of
	// k_max(D, D) before the projection); Clipped, for plus, the
	// eigenvalues the projection dropped (Truncate: λ ≤ n·2⁻⁵²·λ_max).
	Negative int `json:"negative"`
	Clipped  int `json:"clipped,omitempty"`
	// Slope is the least-squares slope of log λ_i against log i over the
	// panel's fit range, R2 its coefficient of determination; absent when
	// fewer than two indices of the range are above Floor.
	Slope *float64 `json:"slope,omitempty"`
	R2    *float64 `json:"r2,omitempty"`
	// GramSeconds and EigenSeconds time the assembly and the
	// eigendecomposition (wall clock; not reproducible).
	GramSeconds  float64 `json:"gram_seconds"`
	EigenSeconds float64 `json:"eigen_seconds"`
}

// SpectrumPanel is the four spectra of one (base kernel, group).
type SpectrumPanel struct {
	Base  string `json:"base"`
	Group string `json:"group"`
	D     int    `json:"d"`
	Order int    `json:"order"` // |G|
	// Reduced describes S'.
	Reduced string `json:"reduced_domain"`
	// FitLo and FitHi are the 1-based indices of the slope fit: from the
	// options' FitLo to min(options' FitHi, the last index every series
	// has above its floor), so that all four slopes cover the same
	// indices. The fit uses the indices of a geometric grid
	// (SpectrumGridPerDecade a decade, the integers below that spacing) in
	// the range: log-uniform weight, as the log-log plot shows them.
	FitLo int `json:"fit_lo"`
	FitHi int `json:"fit_hi"`
	// AvgAbovePlus counts the indices i (of the Compared that both avg and
	// plus have above their floors) where λ_i(k_avg) > λ_i(k_plus): 0 when
	// k_avg's spectrum lies under k_plus's everywhere.
	AvgAbovePlus int `json:"avg_above_plus"`
	Compared     int `json:"compared"`
	// PlusOverReduced is the range [min, max] of λ_i(k_plus on S) /
	// λ_i(k_b on S') over the fit range (1 where they match).
	PlusOverReduced []float64        `json:"plus_over_reduced,omitempty"`
	Series          []SpectrumSeries `json:"series"`
}

// SpectrumGridPerDecade is the density of the geometric index grid of the
// slope fit and of the figure's curves.
const SpectrumGridPerDecade = 40

// SpectrumResult is what Spectrum computed.
type SpectrumResult struct {
	Environment
	N           int     `json:"n"`
	Lengthscale float64 `json:"lengthscale"`
	Variance    float64 `json:"variance"`
	Seed        uint64  `json:"seed"`
	// FitLo and FitHi are the options' fit range (each panel may end it
	// earlier, see SpectrumPanel). Spectra are the panels, groups major.
	FitLo       int             `json:"fit_lo"`
	FitHi       int             `json:"fit_hi"`
	Spectra     []SpectrumPanel `json:"panels"`
	WallSeconds float64         `json:"wall_seconds"`
}

// spectrumGroup is what Spectrum needs from a group.
type spectrumGroup interface {
	orbit.CoordinateGroup
	orbit.Canonicalizer
}

// CheckSpectrumGroup reports (wrapping ErrBadOptions) a group Spectrum
// cannot use: one whose elements are not signed permutations of the
// coordinates (orbit.CoordinateGroup) or without a canonical map
// (orbit.Canonicalizer) onto a fundamental domain.
func CheckSpectrumGroup(g orbit.Group) error {
	if orbit.IsNil(g) {
		return fmt.Errorf("%w: spectrum: nil group", ErrBadOptions)
	}
	if _, ok := g.(spectrumGroup); !ok {
		return fmt.Errorf("%w: spectrum: %s is not a group of signed coordinate permutations with a canonical map (use none, signflip, permutation or hyperoctahedral)", ErrBadOptions, g.Name())
	}
	if _, err := orbit.Size(g); err != nil {
		return fmt.Errorf("%w: spectrum: %w", ErrBadOptions, err)
	}
	return nil
}

// ReducedDomain describes S' = φ(S) for a group Spectrum accepts: the
// fundamental domain of G in S = [−1, 1]^d picked by the group's canonical
// map φ, of volume vol(S)/|G|.
func ReducedDomain(g orbit.Group) string {
	d := g.Dim()
	cg, _ := g.(orbit.CoordinateGroup)
	if cg == nil {
		return "?"
	}
	permutes, flips := cg.CoordinateGroup()
	switch {
	case permutes && flips:
		if d == 1 {
			return "0 ≤ x ≤ 1"
		}
		return "0 ≤ x_1 ≤ … ≤ x_d ≤ 1"
	case permutes:
		if d == 1 {
			return "−1 ≤ x ≤ 1"
		}
		return "−1 ≤ x_1 ≤ … ≤ x_d ≤ 1"
	case flips:
		return "[0, 1]^d"
	}
	return "[−1, 1]^d"
}

// Spectrum computes the paper's Figure 4 (middle and right columns): the
// ordered eigenvalues of the normalized Gram matrices K/n of n i.i.d.
// uniform points on S = [−1, 1]^d for k_b, k_avg and k_plus^(D) (D the
// points themselves: the PSD projection of k_max(D, D), kernel.Truncate's
// rule, whose eigenvalues are the kept ones of k_max(D, D) and zeros), and
// of k_b on n i.i.d. uniform points of the reduced domain S' (φ of
// uniform points of S, with φ the group's canonical map: uniform on the
// fundamental domain φ(S), of volume vol(S)/|G|), for every (base kernel,
// group). Each spectrum is one Gram assembly (kernel package, closed
// forms first) and one EigenSym of the backend, run one after the other;
// the results are bit-identical for any GOMAXPROCS (per backend and
// build), timings aside. Memory: 24·n² + 16·n·d bytes at a time
// (SpectrumBytes), checked against the budget before anything is
// allocated.
func Spectrum(o SpectrumOptions) (*SpectrumResult, error) {
	start := time.Now()
	if o.N == 0 {
		o.N = DefaultSpectrumN
	}
	if o.N < 2 || o.N > MaxSpectrumN {
		return nil, fmt.Errorf("%w: spectrum: n must lie in [2, %d], got %d", ErrBadOptions, MaxSpectrumN, o.N)
	}
	if o.Lengthscale == 0 {
		o.Lengthscale = DefaultSpectrumLengthscale
	}
	if !(o.Lengthscale > 0) || math.IsInf(o.Lengthscale, 0) {
		return nil, fmt.Errorf("%w: spectrum: lengthscale must be positive and finite, got %v", ErrBadOptions, o.Lengthscale)
	}
	if o.FitLo == 0 {
		o.FitLo = 2
	}
	if o.FitHi == 0 {
		o.FitHi = max(o.N/10, min(o.FitLo+1, o.N))
	}
	if o.FitLo < 1 || o.FitHi > o.N || o.FitHi <= o.FitLo {
		return nil, fmt.Errorf("%w: spectrum: fit range [%d, %d] must satisfy 1 ≤ lo < hi ≤ n = %d", ErrBadOptions, o.FitLo, o.FitHi, o.N)
	}
	if o.Groups == nil {
		for d := 1; d <= 3; d++ {
			g, err := orbit.Hyperoctahedral(d)
			if err != nil {
				return nil, err
			}
			o.Groups = append(o.Groups, g)
		}
	}
	if o.Shapes == nil {
		o.Shapes = []kernel.Shape{kernel.RBF, kernel.Matern52}
	}
	if len(o.Groups) == 0 || len(o.Shapes) == 0 {
		return nil, fmt.Errorf("%w: spectrum: no groups or no base kernels", ErrBadOptions)
	}
	for _, g := range o.Groups {
		if err := CheckSpectrumGroup(g); err != nil {
			return nil, err
		}
	}
	for _, s := range o.Shapes {
		if err := (kernel.Params{Shape: s, Variance: 1, Lengthscale: o.Lengthscale}).Validate(); err != nil {
			return nil, fmt.Errorf("%w: spectrum: %w", ErrBadOptions, err)
		}
	}
	if o.Backend == nil {
		be, err := linalg.Default()
		if err != nil {
			return nil, err
		}
		o.Backend = be
	}
	if o.Context == nil {
		o.Context = context.Background()
	}
	if o.Progress == nil {
		o.Progress = io.Discard
	}
	n := o.N
	maxD := 0
	for _, g := range o.Groups {
		maxD = max(maxD, g.Dim())
	}
	if err := CheckSpectrumMemory(n, maxD, o.Budget); err != nil {
		return nil, err
	}
	// Every orbit kernel is built and tried on two points first, so that a
	// group too large to enumerate (Matérn k_avg has no closed form) fails
	// now, not after hours of the other spectra.
	for _, g := range o.Groups {
		two := SpectrumPoints(2, g.Dim(), o.Seed, nil)
		for _, shape := range o.Shapes {
			p := kernel.Params{Shape: shape, Variance: 1, Lengthscale: o.Lengthscale}
			avg, err := kernel.NewAvg(p, g, kernel.Options{Budget: o.Budget})
			if err != nil {
				return nil, fmt.Errorf("experiments: spectrum: %s %s avg: %w", shape, g.Name(), err)
			}
			mx, err := kernel.NewMax(p, g, kernel.Options{Budget: o.Budget})
			if err != nil {
				return nil, fmt.Errorf("experiments: spectrum: %s %s max: %w", shape, g.Name(), err)
			}
			var k2 mat.SymDense
			if err := avg.GramTo(&k2, two); err != nil {
				return nil, fmt.Errorf("experiments: spectrum: %s %s avg: %w", shape, g.Name(), err)
			}
			if err := mx.GramTo(&k2, two); err != nil {
				return nil, fmt.Errorf("experiments: spectrum: %s %s max: %w", shape, g.Name(), err)
			}
		}
	}

	res := &SpectrumResult{Environment: Env(o.Backend), N: n, Lengthscale: o.Lengthscale, Variance: 1, Seed: o.Seed, FitLo: o.FitLo, FitHi: o.FitHi}
	var gram mat.SymDense
	var eig linalg.Eigen
	total, done := len(o.Groups)*len(o.Shapes)*4, 0
	for _, g := range o.Groups {
		d := g.Dim()
		order, _ := orbit.Size(g)
		x := SpectrumPoints(n, d, o.Seed, nil)
		xr := SpectrumPoints(n, d, o.Seed, g.(orbit.Canonicalizer))
		for _, shape := range o.Shapes {
			p := kernel.Params{Shape: shape, Variance: 1, Lengthscale: o.Lengthscale}
			panel := SpectrumPanel{Base: shape.String(), Group: g.Name(), D: d, Order: order, Reduced: ReducedDomain(g)}
			for _, kind := range []string{SpectrumBase, SpectrumAvg, SpectrumPlus, SpectrumReduced} {
				if err := o.Context.Err(); err != nil {
					return nil, fmt.Errorf("experiments: spectrum: %w", err)
				}
				pts := x
				if kind == SpectrumReduced {
					pts = xr
				}
				s, err := spectrumOf(o.Backend, &gram, &eig, kind, p, g, pts, o.Budget)
				if err != nil {
					return nil, fmt.Errorf("experiments: spectrum: %s %s %s: %w", shape, g.Name(), kind, err)
				}
				done++
				fmt.Fprintf(o.Progress, "spectrum: [%d/%d] %-8s %-18s %-7s n = %d: gram %.3g s, eigen %.3g s, %d eigenvalues above the floor\n",
					done, total, shape, g.Name(), kind, n, s.GramSeconds, s.EigenSeconds, s.Drawn)
				panel.Series = append(panel.Series, s)
			}
			panel.fit(o.FitLo, o.FitHi)
			res.Spectra = append(res.Spectra, panel)
		}
	}
	res.WallSeconds = time.Since(start).Seconds()
	return res, nil
}

// SpectrumBytes is the memory Spectrum holds at a time for n points of
// dimension d (the largest of its groups'): the n×n Gram, its
// eigenvectors and the eigensolver's work copy, 24·n² bytes, and the two
// point sets of S and S', 16·n·d bytes — not negligible beside the
// matrices: at d = 65536 (orbit.MaxDim, group none) and n = 5000 they are
// 5.2 GB beside 0.6 GB.
func SpectrumBytes(n, d int) float64 {
	return 24*float64(n)*float64(n) + 16*float64(n)*float64(d)
}

// CheckSpectrumMemory refuses (orbit.ErrOverBudget) n points of
// dimension d whose matrices and point sets do not fit the memory budget
// b (0: 8 GiB), before anything is allocated.
func CheckSpectrumMemory(n, d int, b int64) error {
	return budget.Limit(b).Check(fmt.Sprintf("spectrum: the %d×%d Gram, its eigenvectors, the eigensolver's copy and two sets of %d points in dimension %d", n, n, n, d), SpectrumBytes(n, d))
}

// SpectrumPoints returns n points drawn uniformly from S = [−1, 1]^d, from
// the stream (seed, 2d) when canon is nil; otherwise n points of the
// stream (seed, 2d+1) mapped by canon: uniform on the fundamental domain
// φ(S) (φ is an isometry on each of the |G| images of it that tile S).
func SpectrumPoints(n, d int, seed uint64, canon orbit.Canonicalizer) *mat.Dense {
	stream := uint64(2 * d)
	if canon != nil {
		stream++
	}
	r := rand.New(rand.NewPCG(seed, stream))
	x := mat.NewDense(n, d, nil)
	row := make([]float64, d)
	for i := range n {
		for k := range row {
			row[k] = -1 + 2*r.Float64()
		}
		if canon != nil {
			canon.CanonicalTo(x.RawRowView(i), row)
		} else {
			copy(x.RawRowView(i), row)
		}
	}
	return x
}

// spectrumOf computes one series: the Gram of kind on x into gram, its
// eigendecomposition into eig (both reused across calls), the projection
// for plus, and the eigenvalues of K/n above the floor. b is the kernels'
// memory budget.
func spectrumOf(be linalg.Backend, gram *mat.SymDense, eig *linalg.Eigen, kind string, p kernel.Params, g orbit.Group, x *mat.Dense, b int64) (SpectrumSeries, error) {
	s := SpectrumSeries{Kernel: kind, Domain: "S"}
	var k kernel.Kernel
	var err error
	switch kind {
	case SpectrumBase, SpectrumReduced:
		k, err = kernel.NewBase(p, g.Dim())
		if kind == SpectrumReduced {
			s.Domain = "S'"
		}
	case SpectrumAvg:
		k, err = kernel.NewAvg(p, g, kernel.Options{Budget: b})
	case SpectrumPlus:
		k, err = kernel.NewMax(p, g, kernel.Options{Budget: b})
	}
	if err != nil {
		return s, err
	}
	t0 := time.Now()
	if err := kernel.Gram(k, gram, x); err != nil {
		return s, err
	}
	t1 := time.Now()
	if err := be.EigenSym(eig, gram); err != nil {
		return s, err
	}
	s.GramSeconds, s.EigenSeconds = t1.Sub(t0).Seconds(), time.Since(t1).Seconds()
	n := len(eig.Values)
	for i := range n {
		s.Trace += gram.At(i, i)
	}
	s.Trace /= float64(n)
	vals := slices.Clone(eig.Values) // ascending
	for _, v := range vals {
		if v < 0 {
			s.Negative++
		}
	}
	// The floor is the cut-off of the PSD projection (kernel.Truncate,
	// default tolerance): for plus the projection itself, for the others
	// the same numerical-rank rule.
	first, thr, err := kernel.Truncate(vals, 0)
	if err != nil {
		return s, err
	}
	if kind == SpectrumPlus {
		s.Clipped = first
		for i := range first {
			vals[i] = 0
		}
	}
	nf := float64(n)
	s.Floor = thr / nf
	for i := n - 1; i >= 0; i-- {
		v := vals[i] / nf
		s.Sum += v
		if i >= first {
			s.Eigenvalues = append(s.Eigenvalues, v)
		}
	}
	s.Drawn = len(s.Eigenvalues)
	return s, nil
}

// spectrumGrid returns the 1-based indices lo…hi of a geometric grid
// with SpectrumGridPerDecade points a decade (deduplicated, so every
// integer where the spacing is below one), lo and hi included.
func spectrumGrid(lo, hi int) []int {
	var out []int
	step := math.Pow(10, 1.0/SpectrumGridPerDecade)
	for v := float64(lo); ; v *= step {
		i := min(int(math.Round(v)), hi)
		if len(out) == 0 || i > out[len(out)-1] {
			out = append(out, i)
		}
		if i >= hi {
			return out
		}
	}
}

// fit sets the panel's fit range, every series' slope and the
// comparisons (see SpectrumPanel).
func (p *SpectrumPanel) fit(lo, hi int) {
	for _, s := range p.Series {
		hi = min(hi, s.Drawn)
	}
	if avg, plus := p.series(SpectrumAvg), p.series(SpectrumPlus); avg != nil && plus != nil {
		p.Compared = min(avg.Drawn, plus.Drawn)
		for i := range p.Compared {
			if avg.Eigenvalues[i] > plus.Eigenvalues[i] {
				p.AvgAbovePlus++
			}
		}
	}
	p.FitLo, p.FitHi = lo, hi
	if hi <= lo {
		p.FitHi = 0
		return
	}
	if plus, red := p.series(SpectrumPlus), p.series(SpectrumReduced); plus != nil && red != nil {
		r0, r1 := math.Inf(1), math.Inf(-1)
		for i := lo - 1; i < hi; i++ {
			r := plus.Eigenvalues[i] / red.Eigenvalues[i]
			r0, r1 = min(r0, r), max(r1, r)
		}
		p.PlusOverReduced = []float64{r0, r1}
	}
	grid := spectrumGrid(lo, hi)
	x := make([]float64, len(grid))
	for j, i := range grid {
		x[j] = float64(i)
	}
	for k := range p.Series {
		s := &p.Series[k]
		y := make([]float64, len(grid))
		for j, i := range grid {
			y[j] = s.Eigenvalues[i-1]
		}
		slope, _, r2, err := FitPowerLaw(x, y)
		if err != nil {
			continue
		}
		s.Slope = &slope
		if !math.IsNaN(r2) {
			s.R2 = &r2
		}
	}
}

// Series returns the panel's series of the given kernel, nil if absent.
func (p *SpectrumPanel) series(kind string) *SpectrumSeries {
	for i := range p.Series {
		if p.Series[i].Kernel == kind {
			return &p.Series[i]
		}
	}
	return nil
}

// spectrumLabel is a series' legend entry.
func spectrumLabel(kind string) string {
	switch kind {
	case SpectrumBase:
		return "k_b on S"
	case SpectrumAvg:
		return "k_avg on S"
	case SpectrumPlus:
		return "k_plus on S"
	case SpectrumReduced:
		return "k_b on S'"
	}
	return kind
}

// shapeTitle is a base kernel's name in a panel title (the spelling
// itself for a name that is not a shape).
func shapeTitle(base string) string {
	if sh, err := kernel.ParseShape(base); err == nil {
		return sh.Title()
	}
	return base
}

// Caption states what the spectrum figure shows.
func (r *SpectrumResult) Caption() []string {
	return []string{
		fmt.Sprintf("Normalized eigenvalues of K/n, n = %d uniform points (seed %d), lengthscale %g, variance 1; lower index = larger eigenvalue.", r.N, r.Seed, r.Lengthscale),
		"k_b, k_avg, k_plus^(D) (D = the points) on S = [−1, 1]^d; k_b on the fundamental domain S' (vol(S)/|G|, its own sample).",
		"Eigenvalues ≤ n·2⁻⁵²·λ_max (unresolved; clipped by k_plus) are not drawn. log-log: y is log10 λ_i, x a log axis.",
	}
}

// Panels returns the figure: one panel per (group, base kernel), groups
// down the rows and base kernels across the columns (Cols), each the
// spectra on log-log axes (log10 λ_i on a linear y axis, whose ticks stay
// readable over the 13 decades down to the floor; a log x axis) along a
// geometric index grid.
func (r *SpectrumResult) Panels() []Panel {
	var out []Panel
	for _, sp := range r.Spectra {
		p := Panel{
			Title:  fmt.Sprintf("%s, %s, |G| = %d", shapeTitle(sp.Base), sp.Group, sp.Order),
			XLabel: "index i (1 = largest eigenvalue)",
			YLabel: "log10 λ_i (eigenvalue of K/n)",
			LogX:   true,
		}
		for _, s := range sp.Series {
			ser := Series{Label: spectrumLabel(s.Kernel)}
			switch s.Kernel {
			case SpectrumBase, SpectrumAvg, SpectrumPlus:
				ser.Kernel = s.Kernel // the paper's styles: blue crosses, orange, green circles
			default:
				ser.Color = 4 // purple plus signs, apart from the kernels' colours
			}
			if s.Drawn > 0 {
				for _, i := range spectrumGrid(1, s.Drawn) {
					ser.X = append(ser.X, float64(i))
					ser.Y = append(ser.Y, math.Log10(s.Eigenvalues[i-1]))
				}
			}
			p.Series = append(p.Series, ser)
		}
		out = append(out, p)
	}
	return out
}

// Cols is the number of columns of the figure: one per base kernel.
func (r *SpectrumResult) Cols() int {
	var bases []string
	for _, p := range r.Spectra {
		if !slices.Contains(bases, p.Base) {
			bases = append(bases, p.Base)
		}
	}
	return max(1, len(bases))
}

// Markdown returns the slopes table: one row per panel, the slope (and
// R²) of every series over the panel's fit range, the comparisons of
// plus with base on S' and avg, and the counts of eigenvalues drawn.
func (r *SpectrumResult) Markdown() string {
	var b strings.Builder
	b.WriteString("| base | group | \\|G\\| | S' | fit range | slope base (S) | slope avg (S) | slope plus (S) | slope base (S') | plus/base(S') in range | avg > plus at | drawn base/avg/plus/S' | plus clipped | avg trace |\n")
	b.WriteString("|---|---|--:|---|---|--:|--:|--:|--:|--:|--:|---|--:|--:|\n")
	for _, p := range r.Spectra {
		rng := "–"
		if p.FitHi > 0 {
			rng = fmt.Sprintf("%d…%d", p.FitLo, p.FitHi)
		}
		fmt.Fprintf(&b, "| %s | %s | %d | %s | %s |", shapeTitle(p.Base), p.Group, p.Order, p.Reduced, rng)
		for _, k := range []string{SpectrumBase, SpectrumAvg, SpectrumPlus, SpectrumReduced} {
			s := p.series(k)
			switch {
			case s == nil || s.Slope == nil:
				b.WriteString(" – |")
			case s.R2 != nil:
				fmt.Fprintf(&b, " %.2f (R² %.3f) |", *s.Slope, *s.R2)
			default:
				fmt.Fprintf(&b, " %.2f |", *s.Slope)
			}
		}
		ratio := "–"
		if len(p.PlusOverReduced) == 2 {
			ratio = fmt.Sprintf("%.2f–%.2f", p.PlusOverReduced[0], p.PlusOverReduced[1])
		}
		fmt.Fprintf(&b, " %s | %d of %d |", ratio, p.AvgAbovePlus, p.Compared)
		var drawn []string
		for _, k := range []string{SpectrumBase, SpectrumAvg, SpectrumPlus, SpectrumReduced} {
			if s := p.series(k); s != nil {
				drawn = append(drawn, fmt.Sprint(s.Drawn))
			}
		}
		clipped, trace := "–", "–"
		if s := p.series(SpectrumPlus); s != nil {
			clipped = fmt.Sprint(s.Clipped)
		}
		if s := p.series(SpectrumAvg); s != nil {
			trace = fmt.Sprintf("%.4f", s.Trace)
		}
		fmt.Fprintf(&b, " %s | %s | %s |\n", strings.Join(drawn, "/"), clipped, trace)
	}
	return b.String()
}
