package gp

import (
	"fmt"
	"math"

	"github.com/symbo/symbo/internal/budget"
	"github.com/symbo/symbo/internal/parallel"
	"github.com/symbo/symbo/linalg"
	"gonum.org/v1/gonum/mat"
)

// fitMethod selects how Fit maximizes the log marginal likelihood.
type fitMethod int

// fitSearch is how much of fitProfile's outer search runs (FitOptions).
type fitSearch int

const (
	searchFull fitSearch = iota
	searchGrid
	searchAround
)

const (
	// fitProfile (the default) maximizes the profile likelihood over
	// log ℓ: for each ℓ, one eigendecomposition C_ℓ = QΛQᵀ makes the
	// likelihood of K = v·C_ℓ + σ²·I = Q(vΛ + σ²)Qᵀ a sum of n terms, so
	// (v, σ²) are maximized globally in O(n) per evaluation; the outer 1-D
	// search over log ℓ (a log-spaced grid plus the starts, then Brent's
	// method around the best) needs no ℓ-derivative and one correlation
	// matrix and eigendecomposition per ℓ.
	fitProfile fitMethod = iota
	// fitBFGS runs BFGS on (log v, log ℓ, log σ²) from each start (the
	// original method; Nelder–Mead for families without a lengthscale
	// derivative).
	fitBFGS
)

func (m fitMethod) String() string {
	switch m {
	case fitProfile:
		return "profile"
	case fitBFGS:
		return "bfgs"
	}
	return fmt.Sprintf("fitMethod(%d)", int(m))
}

// Profile search settings: the ℓ grid is s·2^k for k in lengthGrid (s the
// data scale: octaves from s/64 to 2s, where the optima of the test
// problems lie, and s/1024 and 8s to catch the white-noise and constant
// plateaus), the inner grid over log(σ²/v) or log v has innerGrid points,
// and Brent stops at these absolute tolerances in log ℓ and in the inner
// log-parameter. Lengthscales closer than sameTol in log ℓ count as one.
var lengthGrid = [...]float64{-10, -6, -5, -4, -3, -2, -1, 0, 1, 3}

const (
	innerGrid = 24
	outerTol  = 1e-4
	innerTol  = 1e-7
	sameTol   = 1e-6
)

// spectrumer is implemented by Bounds that produce the eigendecomposition of
// C_ℓ more cheaply than CorrTo followed by an eigendecomposition (plus,
// which decomposes k_max anyway). The eigenvalues need not be sorted.
type spectrumer interface {
	spectrumTo(eig *linalg.Eigen, scratch *mat.SymDense, l float64) error
}

// profiler evaluates the profile log marginal likelihood
// P(log ℓ) = max over (v, σ²) in the box of lml(v, ℓ, σ²).
type profiler struct {
	b     Bound
	be    linalg.Backend
	y     []float64
	n     int
	s     *profScratch // for sequential evaluations (at)
	a0    float64      // log v bounds
	a1    float64
	b0    float64 // log σ² bounds
	b1    float64
	fixed bool    // σ² fixed at s2
	s2    float64 // fixed noise (standardized), may be 0
	pr    *priorSpec
	// budget bounds the scratch of concurrent evaluations (atAll).
	budget budget.Limit
	// mean: a constant prior mean is profiled out (MeanConstant), each
	// likelihood then that of the GLS residual y − m̂·1 (glsSpectral).
	mean  bool
	evals int
	// lastErr is the last evaluation error (diagnostics).
	lastErr error
}

// profScratch is the spectrum of one profile evaluation and its scratch:
// the eigenvalues lam and squared projections yt2 of y (with a constant
// mean, the projections yt of y and ot of the ones instead), or for a
// lowRankSpectrumer Bound the low-rank spectrum low (lam and yt2 then
// alias its own, and sums counts its zero block).
type profScratch struct {
	c        *mat.SymDense
	eig      linalg.Eigen
	lam, yt2 []float64
	yt, ot   []float64
	low      *lowRankSpec
}

// profPoint is one evaluated lengthscale with its inner optimum.
type profPoint struct {
	logl, logv, logs2 float64
	lml               float64 // −Inf if infeasible
}

func newProfiler(b Bound, be linalg.Backend, y []float64, mean bool) *profiler {
	p := &profiler{b: b, be: be, y: y, n: len(y), mean: mean}
	p.s = p.newScratch()
	return p
}

func (p *profiler) newScratch() *profScratch {
	if _, ok := p.b.(lowRankSpectrumer); ok {
		return &profScratch{low: &lowRankSpec{}}
	}
	if p.mean {
		return &profScratch{c: mat.NewSymDense(p.n, nil), yt: make([]float64, p.n), ot: make([]float64, p.n)}
	}
	return &profScratch{c: mat.NewSymDense(p.n, nil), yt2: make([]float64, p.n)}
}

// scratchBytes is the memory of one profScratch and the evaluation using
// it (about three n×n matrices for an eigendecomposition).
func (p *profiler) scratchBytes() float64 {
	if lb, ok := p.b.(*landmarkBound); ok {
		return lb.mem
	}
	return 3 * 8 * float64(p.n) * float64(p.n)
}

// at returns the profile optimum at log ℓ (one evaluation, recorded).
func (p *profiler) at(logl float64) profPoint {
	pt, err := p.eval(p.s, logl)
	p.note(pt, err)
	return pt
}

// note records an evaluation: its count and, in evaluation order, the
// last error (an infeasible point's only when none came before).
func (p *profiler) note(pt profPoint, err error) {
	p.evals++
	if err != nil {
		p.lastErr = err
	} else if math.IsInf(pt.lml, -1) && p.lastErr == nil {
		p.lastErr = fmt.Errorf("gp: lengthscale %g: covariance not positive definite even with jitter: %w", math.Exp(pt.logl), linalg.ErrNotPositiveDefinite)
	}
}

// parallelProfileN is the number of observations from which the profile
// evaluates its starting lengthscales concurrently: below it an
// evaluation takes well under a millisecond and workers cost more than
// they save (and bo's experiments already run many fits at once).
const parallelProfileN = 200

// atAll evaluates the profile at every log ℓ of ls, concurrently (one
// scratch per worker, at most GOMAXPROCS of them and as many as the memory
// budget holds) from parallelProfileN observations, and records them in
// order: the same points, count and last error as calling at in turn. It
// returns the points and, for each, the last error as of its evaluation.
func (p *profiler) atAll(ls []float64) ([]profPoint, []error) {
	pts := make([]profPoint, len(ls))
	errs := make([]error, len(ls))
	last := make([]error, len(ls))
	w := 1
	if p.n >= parallelProfileN {
		w = parallel.Workers(0, len(ls))
		for w > 1 && !p.budget.Fits(float64(w)*p.scratchBytes()) {
			w--
		}
	}
	if w <= 1 {
		for i, t := range ls {
			pts[i] = p.at(t)
			last[i] = p.lastErr
		}
		return pts, last
	}
	scr := make([]*profScratch, w)
	scr[0] = p.s
	for k := 1; k < w; k++ {
		scr[k] = p.newScratch()
	}
	parallel.For(len(ls), w, func(k, i int) {
		pts[i], errs[i] = p.eval(scr[k], ls[i])
	})
	for i := range ls {
		p.note(pts[i], errs[i])
		last[i] = p.lastErr
	}
	return pts, last
}

// eval returns the profile optimum at log ℓ using the scratch s, and the
// error that kept the spectrum from being computed (the point then has
// lml −Inf). It reads only p's settings, so evaluations with distinct
// scratch may run concurrently.
func (p *profiler) eval(s *profScratch, logl float64) (profPoint, error) {
	pt := profPoint{logl: logl, lml: math.Inf(-1)}
	l := math.Exp(logl)
	var err error
	if lr, ok := p.b.(lowRankSpectrumer); ok {
		if err = lr.lowRankSpectrumTo(s.low, p.y, l, p.mean); err != nil {
			return pt, fmt.Errorf("gp: lengthscale %g: %w", l, err)
		}
		s.lam, s.yt2 = s.low.lam, s.low.yt2
		return p.inner(s, pt, logl), nil
	}
	if sp, ok := p.b.(spectrumer); ok {
		err = sp.spectrumTo(&s.eig, s.c, l)
	} else if err = p.b.CorrTo(s.c, nil, l); err == nil {
		err = p.be.EigenSym(&s.eig, s.c)
	}
	if err != nil {
		return pt, fmt.Errorf("gp: lengthscale %g: %w", l, err)
	}
	s.lam = s.eig.Values
	n := p.n
	q := s.eig.Vectors.RawMatrix()
	if p.mean {
		// ỹ = Qᵀy and õ = Qᵀ1.
		clear(s.yt)
		clear(s.ot)
		for i := range n {
			row := q.Data[i*q.Stride : i*q.Stride+n]
			yi := p.y[i]
			for j, v := range row {
				s.yt[j] += v * yi
				s.ot[j] += v
			}
		}
		return p.inner(s, pt, logl), nil
	}
	// ỹ = Qᵀy, squared.
	clear(s.yt2)
	for i := range n {
		row := q.Data[i*q.Stride : i*q.Stride+n]
		yi := p.y[i]
		for j, v := range row {
			s.yt2[j] += v * yi
		}
	}
	for j, v := range s.yt2 {
		s.yt2[j] = v * v
	}
	return p.inner(s, pt, logl), nil
}

// inner maximizes over (v, σ²) at log ℓ = logl for the spectrum in s.
func (p *profiler) inner(s *profScratch, pt profPoint, logl float64) profPoint {
	if p.fixed {
		f := func(t float64) float64 { return p.lmlFixed(s, t) }
		t, v := max1D(f, p.a0, p.a1, math.NaN(), innerGrid, innerTol)
		pt.logv, pt.logs2, pt.lml = t, math.Log(p.s2), v
	} else {
		f := func(rho float64) float64 { l, _ := p.lmlRatio(s, rho); return l }
		rho, v := max1D(f, p.b0-p.a1, p.b1-p.a0, math.NaN(), innerGrid, innerTol)
		_, t := p.lmlRatio(s, rho)
		pt.logv, pt.logs2, pt.lml = t, t+rho, v
	}
	if p.pr != nil {
		lp, _ := p.pr.lengthLog(logl)
		pt.lml += lp
	}
	if math.IsNaN(pt.lml) || math.IsInf(pt.lml, 1) {
		pt.lml = math.Inf(-1)
	}
	return pt
}

// sums returns A = Σ ỹ²_i/d_i and B = Σ log d_i for d_i = α·λ_i + β (with
// a constant mean, A is the GLS residual's, glsSpectral), with
// the jitter that factorJitter would add (a multiple of the mean diagonal
// α·mean(λ) + β) when min d_i is not safely positive; ok is false if even
// the largest jitter does not help.
func (p *profiler) sums(s *profScratch, alpha, beta float64) (a, b float64, ok bool) {
	spec := s.low
	if spec == nil {
		// The full spectrum (n eigenvalues): a low-rank spectrum without
		// a zero block or a tail.
		spec = &lowRankSpec{lam: s.lam, yt2: s.yt2, mean: p.mean, yt: s.yt, ot: s.ot}
	}
	a, b, _, ok = lowRankSums(spec, alpha, beta)
	return a, b, ok
}

// lmlFixed is the log marginal likelihood at log v = t with σ² fixed.
func (p *profiler) lmlFixed(s *profScratch, t float64) float64 {
	a, b, ok := p.sums(s, math.Exp(t), p.s2)
	if !ok {
		return math.Inf(-1)
	}
	l := gaussLML(a, b, float64(p.n))
	if p.pr != nil {
		lp, _ := p.pr.v.logPDF(t)
		l += lp
	}
	return l
}

// lmlRatio maximizes over v at fixed ρ = log(σ²/v): with K = v(C + r·I),
// lml = −A/2v − B/2 − (n/2)·log v − (n/2)·log 2π is concave in log v with
// maximum at v = A/n, clamped to the feasible interval. It returns the lml
// and log v.
func (p *profiler) lmlRatio(s *profScratch, rho float64) (float64, float64) {
	a, b, ok := p.sums(s, 1, math.Exp(rho))
	if !ok {
		return math.Inf(-1), 0.5 * (p.a0 + p.a1)
	}
	nf := float64(p.n)
	if p.pr != nil {
		return p.mapRatio(a, b, rho)
	}
	t := math.Log(a / nf)
	t = min(max(t, max(p.a0, p.b0-rho)), min(p.a1, p.b1-rho))
	return -0.5*a*math.Exp(-t) - 0.5*b - 0.5*nf*t - 0.5*nf*log2Pi, t
}

// mapRatio is lmlRatio with the Gamma priors on v and σ² = v·e^ρ: at
// fixed ρ, lml + log p(v) + log p(σ²) is concave in t = log v (−A/2·e^{−t}
// and −rate·e^t are concave, the rest is linear), with stationary point
// the positive root u = e^t of B·u² + c·u − A/2 = 0, B = b_v + b_σ·e^ρ,
// c = n/2 − (a_v − 1) − (a_σ − 1); clamping it into the feasible interval
// is exact. It returns the log posterior (up to the ℓ term) and log v.
func (p *profiler) mapRatio(a, b, rho float64) (float64, float64) {
	nf := float64(p.n)
	pv, pn := p.pr.v, p.pr.n
	c := 0.5*nf - (pv.a - 1) - (pn.a - 1)
	bb := pv.b + pn.b*math.Exp(rho)
	disc := math.Sqrt(c*c + 2*a*bb)
	var u float64
	if c >= 0 {
		u = a / (c + disc)
	} else {
		u = (disc - c) / (2 * bb)
	}
	t := math.Log(u)
	t = min(max(t, max(p.a0, p.b0-rho)), min(p.a1, p.b1-rho))
	lv, _ := pv.logPDF(t)
	ln, _ := pn.logPDF(t + rho)
	return -0.5*a*math.Exp(-t) - 0.5*b - 0.5*nf*t - 0.5*nf*log2Pi + lv + ln, t
}

// max1D maximizes f on [lo, hi]: m equally spaced points (plus x0 if it is
// not NaN), then Brent's method between the neighbours of the best. It
// returns the best point evaluated (ties: the earliest). Deterministic.
func max1D(f func(float64) float64, lo, hi, x0 float64, m int, tol float64) (float64, float64) {
	bx, bf := math.NaN(), math.Inf(-1)
	k := -1
	h := (hi - lo) / float64(m-1)
	for i := range m {
		x := lo + float64(i)*h
		if i == m-1 {
			x = hi
		}
		v := f(x)
		if v > bf || k < 0 {
			bx, bf, k = x, v, i
		}
	}
	if !math.IsNaN(x0) {
		if v := f(x0); v > bf {
			// Refine around x0 within its grid cell's neighbours.
			bx, bf = x0, v
			k = int(math.Round((x0 - lo) / h))
			k = min(max(k, 0), m-1)
		}
	}
	if math.IsInf(bf, -1) {
		return bx, bf
	}
	a := lo + float64(max(k-1, 0))*h
	b := lo + float64(min(k+1, m-1))*h
	if k+1 >= m-1 {
		b = hi
	}
	x, v := brentMax(f, a, b, bx, bf, tol)
	if v > bf {
		return x, v
	}
	return bx, bf
}

// brentMax maximizes f on [a, b] by Brent's method (golden section with
// parabolic interpolation, Brent 1973 "localmin") from x0 ∈ [a, b] with
// f(x0) = f0, to the absolute tolerance tol. It returns the best point
// evaluated.
func brentMax(f func(float64) float64, a, b, x0, f0, tol float64) (float64, float64) {
	const c = 0.3819660112501051 // (3 − √5)/2
	const eps = 1.4901161193847656e-08
	x, w, v := x0, x0, x0
	fx, fw, fv := -f0, -f0, -f0 // minimize −f
	var d, e float64
	for range 100 {
		mid := 0.5 * (a + b)
		tol1 := eps*math.Abs(x) + tol/3
		tol2 := 2 * tol1
		if math.Abs(x-mid) <= tol2-0.5*(b-a) {
			break
		}
		useGolden := true
		if math.Abs(e) > tol1 {
			r := (x - w) * (fx - fv)
			q := (x - v) * (fx - fw)
			pp := (x-v)*q - (x-w)*r
			q = 2 * (q - r)
			if q > 0 {
				pp = -pp
			} else {
				q = -q
			}
			if math.Abs(pp) < math.Abs(0.5*q*e) && pp > q*(a-x) && pp < q*(b-x) {
				e = d
				d = pp / q
				u := x + d
				if u-a < tol2 || b-u < tol2 {
					d = math.Copysign(tol1, mid-x)
				}
				useGolden = false
			}
		}
		if useGolden {
			if x < mid {
				e = b - x
			} else {
				e = a - x
			}
			d = c * e
		}
		var u float64
		if math.Abs(d) >= tol1 {
			u = x + d
		} else {
			u = x + math.Copysign(tol1, d)
		}
		fu := -f(u)
		if math.IsNaN(fu) {
			fu = math.Inf(1)
		}
		if fu <= fx {
			if u < x {
				b = x
			} else {
				a = x
			}
			v, fv = w, fw
			w, fw = x, fx
			x, fx = u, fu
		} else {
			if u < x {
				a = u
			} else {
				b = u
			}
			if fu <= fw || w == x {
				v, fv = w, fw
				w, fw = u, fu
			} else if fu <= fv || v == x || v == w {
				v, fv = u, fu
			}
		}
	}
	return x, -fx
}

// fitProfileLikelihood is fitHyper for fitProfile: it evaluates the profile at the
// starts (Init, the default, the random ones) and on the log-spaced grid,
// brackets the best and refines it with Brent's method.
func fitProfileLikelihood(b Bound, be linalg.Backend, ys []float64, s float64, bx box, fixedLogNoise float64, pr *priorSpec, opts FitOptions) (Hyper, fitInfo, error) {
	var info fitInfo
	p := newProfiler(b, be, ys, opts.Mean == MeanConstant)
	p.budget = budget.Limit(opts.Budget)
	p.pr = pr
	p.a0, p.a1 = bx.lo[0], bx.hi[0]
	p.b0, p.b1 = bx.lo[2], bx.hi[2]
	if opts.FixNoise {
		p.fixed, p.s2 = true, math.Exp(fixedLogNoise)
	}
	c0, c1 := bx.lo[1], bx.hi[1]
	clampL := func(t float64) float64 { return min(max(t, c0), c1) }

	var seeds []float64
	if h := opts.Init; h != nil {
		if err := h.check(); err != nil {
			return Hyper{}, info, fmt.Errorf("gp: Init: %w", err)
		}
		seeds = append(seeds, clampL(math.Log(h.Lengthscale)))
	}
	if opts.search == searchAround {
		// Only around the located ℓ (and Init): no default, random or
		// grid starts.
		seeds = append(seeds, clampL(opts.around), clampL(opts.around-math.Ln2), clampL(opts.around+math.Ln2))
	} else {
		seeds = append(seeds, clampL(math.Log(0.25*s)))
		// fitBFGS's random starts; only ℓ is used.
		for _, st := range randomStarts(opts, s) {
			seeds = append(seeds, clampL(st[1]))
		}
		ls := math.Log(s)
		for _, k := range lengthGrid {
			seeds = append(seeds, clampL(ls+k*math.Ln2))
		}
	}
	// Evaluate the distinct seeds (concurrently when they are costly: the
	// same points, recorded in order).
	var distinct []float64
	seen := func(t float64) bool {
		for _, q := range distinct {
			if math.Abs(q-t) <= sameTol*max(1, math.Abs(t)) {
				return true
			}
		}
		return false
	}
	for _, t := range seeds {
		if !seen(t) {
			distinct = append(distinct, t)
		}
	}
	pts, errAt := p.atAll(distinct)
	for i, pt := range pts {
		h := hyperOf([3]float64{pt.logv, pt.logl, pt.logs2})
		st := fitStart{From: h, To: h, LogMarginal: pt.lml}
		if math.IsInf(pt.lml, -1) {
			st.LogMarginal = math.NaN()
			st.Err = fmt.Errorf("gp: fit start %d: %w", len(info.Starts), errAt[i])
		}
		info.Starts = append(info.Starts, st)
	}
	best := 0
	for i, q := range pts {
		if q.lml > pts[best].lml {
			best = i
		}
	}
	if math.IsInf(pts[best].lml, -1) {
		info.Evaluations = p.evals
		err := p.lastErr
		return Hyper{}, info, fmt.Errorf("gp: fit: all %d starts failed: %w", len(info.Starts), err)
	}
	if opts.search == searchGrid {
		info.Best, info.Evaluations = best, p.evals
		return info.Starts[best].To, info, nil
	}
	// Bracket: the nearest evaluated points on each side, extended towards
	// the bounds while the profile still increases.
	bp := pts[best]
	lo, hi := c0, c1
	loF, hiF := false, false
	for _, q := range pts {
		if q.logl < bp.logl && (!loF || q.logl > lo) {
			lo, loF = q.logl, true
		}
		if q.logl > bp.logl && (!hiF || q.logl < hi) {
			hi, hiF = q.logl, true
		}
	}
	const ext = 2 * math.Ln2
	for !loF && bp.logl > c0 {
		t := max(bp.logl-ext, c0)
		q := p.at(t)
		if q.lml > bp.lml {
			hi, hiF = bp.logl, true
			bp = q
			continue
		}
		lo, loF = t, true
	}
	for !hiF && bp.logl < c1 {
		t := min(bp.logl+ext, c1)
		q := p.at(t)
		if q.lml > bp.lml {
			lo, loF = bp.logl, true
			bp = q
			continue
		}
		hi, hiF = t, true
	}
	from, ref := bp, bp
	f := func(t float64) float64 {
		q := p.at(t)
		if q.lml > ref.lml {
			ref = q
		}
		return q.lml
	}
	tol := outerTol
	if lb, ok := b.(*landmarkBound); ok && lb.tol > 0 {
		tol = lb.tol
	}
	if hi > lo {
		brentMax(f, lo, hi, bp.logl, bp.lml, tol)
	}
	info.Starts = append(info.Starts, fitStart{
		From:        hyperOf([3]float64{from.logv, from.logl, from.logs2}),
		To:          hyperOf([3]float64{ref.logv, ref.logl, ref.logs2}),
		LogMarginal: ref.lml,
	})
	info.Best = len(info.Starts) - 1
	info.Evaluations = p.evals
	return info.Starts[info.Best].To, info, nil
}
