package kernel

import (
	"fmt"
	"math"
	"sync"

	"github.com/symbo/symbo/internal/parallel"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// The normalized orbit average (Options.Normalize):
//
//	k̃(x, y) = v·a(x, y)/√(a(x, x)·a(y, y)) = k(x, y)·r(x)·r(y),
//	r(x) = √(v/k(x, x)),
//
// with a the unit-variance k_avg and k = v·a the unnormalized one (the
// evaluator of the embedded orbitKernel, whatever its method). k_avg(x, x)
// is largest (= v) at the group's fixed points, so an unnormalized GP's
// posterior variance favours them; k̃ has k̃(x, x) = v everywhere. It is
// PSD (D^{−1/2}·K·D^{−1/2} with K PSD and D its positive diagonal) and
// invariant (r is invariant). For finite groups and quadratures
// k(x, x) ≥ v/|G| (the identity term; for quadratures the coincident
// node), which is 0 only for a subnormal v, and rotation2d's closed form
// is about v·ℓ/‖x‖ for ℓ ≪ ‖x‖; a k(x, x) that underflows to 0 is an
// error, never a silent Inf.

// Normalized reports whether a is the normalized orbit average
// (Options.Normalize).
func (a *Avg) Normalized() bool { return a.norm }

// CrossTo fills dst (n×m) with k(x_i, y_j). dst must not alias x or y.
// Normalized: one k_avg cross plus n + m diagonal evaluations; the m of
// y are skipped when y is bit for bit the last design seen (cache) and
// the n of x when x and y are the same matrix.
func (a *Avg) CrossTo(dst *mat.Dense, x, y *mat.Dense) error {
	if !a.norm {
		return a.orbitKernel.CrossTo(dst, x, y)
	}
	n, m, err := a.checkCross(dst, x, y)
	if err != nil {
		return err
	}
	crossTo(a.ev, a.nw(), dst, x, y, n, m)
	h, r := getScratch(n + m)
	defer putScratch(h)
	rx, ry := r[:n], r[n:]
	if err := a.invSqrtDiagCached(ry, y, m); err != nil {
		return err
	}
	if x == y {
		copy(rx, ry)
	} else if err := a.invSqrtDiag(rx, x, n); err != nil {
		return err
	}
	raw := dst.RawMatrix()
	v := a.p.Variance
	for i := range n {
		o := raw.Data[i*raw.Stride : i*raw.Stride+m]
		ri := rx[i]
		for j, rj := range ry[:len(o)] {
			o[j] = min(o[j]*ri*rj, v) // ≤ v by Cauchy–Schwarz; min drops rounding above it
		}
	}
	return a.finite("k(x, y)", dst)
}

// GramTo fills dst (n×n) with k(x_i, x_j), computing the upper triangle;
// the diagonal is exactly DiagTo's. Normalized: the k_avg Gram, scaled by
// the k_avg diagonal it already holds (no extra kernel evaluations). On
// error the contents of dst are unspecified.
func (a *Avg) GramTo(dst *mat.SymDense, x *mat.Dense) error {
	if !a.norm {
		return a.orbitKernel.GramTo(dst, x)
	}
	n, err := a.checkGram(dst, x)
	if err != nil {
		return err
	}
	v := a.p.Variance
	gramTo(a.ev, a.nw(), dst, x, n, v, false)
	raw := dst.RawSymmetric()
	h, r := getScratch(n)
	defer putScratch(h)
	for i := range n {
		kii := raw.Data[i*raw.Stride+i]
		ri, err := invSqrt(v, kii, "x", i)
		if err != nil {
			return err
		}
		r[i] = ri
	}
	for i := range n {
		o := raw.Data[i*raw.Stride : i*raw.Stride+n]
		ri := r[i]
		for j := i + 1; j < n; j++ {
			o[j] = min(o[j]*ri*r[j], v)
		}
		o[i] = v
	}
	if err := finiteSym(dst); err != nil {
		return err
	}
	a.remember(x, n, r)
	return nil
}

// DiagTo writes k(x_i, x_i) into dst (length n, allocated if nil).
// Normalized: v, without evaluating k_avg (an underflowing k_avg(x, x) is
// reported by CrossTo, GramTo and GradTo).
func (a *Avg) DiagTo(dst []float64, x *mat.Dense) ([]float64, error) {
	if !a.norm {
		return a.orbitKernel.DiagTo(dst, x)
	}
	n, err := a.checkDiag(dst, x)
	if err != nil {
		return dst, err
	}
	dst = resizeVec(dst, n)
	for i := range dst {
		dst[i] = a.p.Variance
	}
	return dst, nil
}

// GradTo writes ∂k(x, y_j)/∂x into row j of dst (m×d). Normalized:
//
//	∇ₓk̃(x, y_j) = r(x)·r(y_j)·[∇ₓk(x, y_j) − k(x, y_j)·∇₁k(x, x)/k(x, x)]
//
// using ∇ₓk(x, x) = 2·∇₁k(x, y)|_{y=x} (k is symmetric): the k_avg
// gradients, one k_avg cross row k(x, y_·) and the r(y_j) (cached, see
// invSqrtDiagCached). On error the contents of dst are unspecified.
func (a *Avg) GradTo(dst *mat.Dense, x []float64, y *mat.Dense) error {
	if !a.norm {
		return a.orbitKernel.GradTo(dst, x, y)
	}
	m, err := a.checkGrad(dst, x, y)
	if err != nil {
		return err
	}
	d := a.d
	resizeDense(dst, m, d)
	pl := pairLen(a.ev)
	sl := max(a.gradLen, pl)
	hc, c := getScratch(d + sl + 2*m)
	defer putScratch(hc)
	g1, s, kv, ry := c[:d], c[d:d+sl], c[d+sl:d+sl+m], c[d+sl+m:]
	clear(s) // no cache key of an earlier batch (gradFunc)
	a.grad(g1, x, x, s[:a.gradLen])
	kxx := pairValue(a.ev, x, x, s[:pl])
	rx, err := invSqrt(a.p.Variance, kxx, "x", -1)
	if err != nil {
		return err
	}
	for k := range g1 {
		g1[k] /= kxx
	}
	if err := a.invSqrtDiagCached(ry, y, m); err != nil {
		return err
	}
	a.rowCross(kv, x, y, m)
	w := assemblyWorkers(a.nw(), m, float64(m)*float64(max(a.gradCost(), 4*d)))
	hs, scr := getScratch(w * a.gradLen)
	defer putScratch(hs)
	clear(scr)
	j := normGradJob{f: a.grad, gl: a.gradLen, scr: scr, x: x, c: g1, kv: kv, ry: ry, rx: rx, dst: dst, y: y}
	if w == 1 {
		for i := range m {
			j.row(0, i)
		}
	} else {
		normGradPar(j, m, w)
	}
	return a.finite("∂k(x, y)/∂x", dst)
}

// pairDense holds the 1×d and 1×m matrices rowCross hands to crossTo
// (pooled: a local mat.Dense would escape through the workers).
type pairDense struct{ x, out mat.Dense }

var pairPool = sync.Pool{New: func() any { return new(pairDense) }}

// rowCross writes k(x, y_j) into dst (length m) for validated x and y with
// the k_avg cross assembly (for enumeration, one orbit of x: crossToT).
func (a *Avg) rowCross(dst, x []float64, y *mat.Dense, m int) {
	p := pairPool.Get().(*pairDense)
	p.x.SetRawMatrix(blas64.General{Rows: 1, Cols: a.d, Stride: a.d, Data: x})
	p.out.SetRawMatrix(blas64.General{Rows: 1, Cols: m, Stride: m, Data: dst})
	crossTo(a.ev, a.nw(), &p.out, &p.x, y, 1, m)
	p.x, p.out = mat.Dense{}, mat.Dense{} // keep no caller memory
	pairPool.Put(p)
}

// normGradJob fills row i of dst with ∇ₓk̃(x, y_i); c = ∇₁k(x, x)/k(x, x),
// rx = r(x), kv[i] = k(x, y_i) and ry[i] = r(y_i) are precomputed.
type normGradJob struct {
	f         gradFunc
	gl        int
	scr, x, c []float64
	kv, ry    []float64
	rx        float64
	dst, y    *mat.Dense
}

func (j *normGradJob) row(k, i int) {
	g := row(j.dst, i)
	j.f(g, j.x, row(j.y, i), j.scr[k*j.gl:(k+1)*j.gl])
	f, kxy := j.rx*j.ry[i], j.kv[i]
	for t := range g {
		g[t] = f * (g[t] - kxy*j.c[t])
	}
}

func normGradPar(j normGradJob, m, w int) { parallel.For(m, w, j.row) }

// diagJob writes k(x_i, x_i) into out[i].
type diagJob struct {
	ev  evaluator
	x   *mat.Dense
	out []float64
	scr []float64
	sl  int
}

func (j *diagJob) row(k, i int) {
	xi := row(j.x, i)
	j.out[i] = pairValue(j.ev, xi, xi, j.scr[k*j.sl:(k+1)*j.sl])
}

func diagPar(j diagJob, n, w int) { parallel.For(n, w, j.row) }

// diagCache is an immutable snapshot: the rows of a point set (packed,
// d per row) and their r values.
type diagCache struct {
	x, r []float64
}

// invSqrtDiagCached is invSqrtDiag through the one-entry cache of the last
// point set seen by GramTo or as the right-hand side of CrossTo and
// GradTo (in a GP, the design): a bit-for-bit match (O(n·d)) reuses its r,
// the same bits invSqrtDiag would compute; a miss computes and replaces
// the entry (allocating O(n·d)).
func (a *Avg) invSqrtDiagCached(dst []float64, x *mat.Dense, n int) error {
	if c := a.cache.Load(); c != nil && sameRows(c, x, n, a.d) {
		copy(dst, c.r)
		return nil
	}
	if err := a.invSqrtDiag(dst, x, n); err != nil {
		return err
	}
	a.remember(x, n, dst)
	return nil
}

// remember caches r for the n rows of x unless they are cached already.
func (a *Avg) remember(x *mat.Dense, n int, r []float64) {
	d := a.d
	if c := a.cache.Load(); c != nil && sameRows(c, x, n, d) {
		return
	}
	c := &diagCache{x: make([]float64, n*d), r: append([]float64(nil), r[:n]...)}
	for i := range n {
		copy(c.x[i*d:(i+1)*d], row(x, i))
	}
	a.cache.Store(c)
}

func sameRows(c *diagCache, x *mat.Dense, n, d int) bool {
	if len(c.r) != n {
		return false
	}
	for i := range n {
		for k, v := range row(x, i) {
			if math.Float64bits(v) != math.Float64bits(c.x[i*d+k]) {
				return false
			}
		}
	}
	return true
}

// invSqrtDiag writes r(x_i) = √(v/k(x_i, x_i)) into dst (length n) for
// validated x: one task per row.
func (a *Avg) invSqrtDiag(dst []float64, x *mat.Dense, n int) error {
	pl := pairLen(a.ev)
	w := assemblyWorkers(a.nw(), n, float64(n)*float64(pl))
	hs, scr := getScratch(w * pl)
	j := diagJob{ev: a.ev, x: x, out: dst, scr: scr, sl: pl}
	if w == 1 {
		for i := range n {
			j.row(0, i)
		}
	} else {
		diagPar(j, n, w)
	}
	putScratch(hs)
	name := "x"
	for i, kii := range dst {
		r, err := invSqrt(a.p.Variance, kii, name, i)
		if err != nil {
			return err
		}
		dst[i] = r
	}
	return nil
}

// invSqrt returns √(v/kii), or an error if it is not finite (k_avg(x, x)
// underflowed);
// i < 0 names the single point name.
func invSqrt(v, kii float64, name string, i int) (float64, error) {
	r := math.Sqrt(v / kii)
	if !(kii > 0) || math.IsInf(r, 0) || math.IsNaN(r) {
		if i >= 0 {
			name = fmt.Sprintf("%s[%d]", name, i)
		}
		return 0, fmt.Errorf("%w: normalized avg: k_avg(%s, %s) = %g underflows; cannot normalize (increase the lengthscale or disable Normalize)", ErrBadPoints, name, name, kii)
	}
	return r, nil
}
