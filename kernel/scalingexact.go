package kernel

import (
	"math"
	"sync/atomic"

	"github.com/symbo/symbo/orbit"
)

// scalingExactEval is k_avg over segment orbits (orbit.Segmenter: the
// scaling group in its box), the exact double average
//
//	k(x, y) = v/(L_x·L_y)·∫∫ κ(‖e^s·x − e^t·y‖/ℓ) ds dt
//
// over s ∈ ln C(x), t ∈ ln C(y) (the Haar measure dc/c normalized on each
// orbit; L = ln(B/A) for C = [A, B]), up to rounding and the tolerances of
// its two routes:
//   - RBF pairs whose orbits stay within seriesAlphaMax lengthscales of the
//     origin and need at most seriesMaxTerms terms: the series
//     Σ_n γ^n·ν_n(x)·ν_n(y) of scalingseries.go, with ν_n prepared once per
//     point; a pair costs one dot product and about λ + O(√λ) terms,
//     λ = cos∠(x, y)·α₂·β₂ ≤ (max ‖c·x‖/ℓ)², and is truncated with a
//     rigorous bound on the tail (relative seriesTol).
//   - Every other pair (Matérn bases, small ℓ, points far from the origin):
//     one adaptive quadrature over q = ln c − ln c' of the closed-form
//     integral over ln c + ln c' (scalingquad.go), relative tolerance
//     quadTol; pairs whose orbits are farther apart than where κ
//     underflows are 0.
//
// It is symmetric bit for bit (the series is symmetric term by term; the
// quadrature orders the pair canonically) and PSD as an average of a PSD
// kernel, to within the tolerances. Its gradient (grad) is the analytic
// derivative of the exact average, including the motion of the orbit's
// ends with x (the box faces that end it), computed by the same route.
//
// Error bound: the series' truncation is bounded rigorously (above); the
// quadrature route's tolerance is against the Gauss–Kronrod error
// estimate, which is not a proven bound. What the package guarantees, by
// test, is agreement with two independent references — nested adaptive
// Gauss–Legendre in (c, c') and a tanh-sinh product rule in (s, t) —
// within 1e−12 relative for ℓ ≥ scaleResolve·S (unresolved pairs, below,
// are NaN: ErrBadPoints), plus where the value itself is ill-conditioned
// u²·2e−15 (u the orbit distance in lengthscales) and 1e−15/L for orbits
// of log-length L (TestScalingExactValues: all shapes, ℓ from 0.01 to
// 1e4, collinear, touching, short and degenerate orbits;
// TestScalingExactTanhSinh; the worst error measured is in
// docs/performance.md, "The scaling average"), and with the Gauss–Legendre rule at 1024 nodes where that
// converges (TestScalingExactMatchesGauss1024). Values below ~1e−300·v
// are held in absolute terms only. The value is smooth in ℓ to ~1e−9
// relative (the tolerances' footprint), below what gp's central
// difference in ln ℓ (step 1e−4) resolves.
type scalingExactEval struct {
	p      Params
	inv2   float64
	il     float64 // 1/ℓ
	d      int
	g      orbit.Segmenter
	dist   segmentDistancer // the segments' distance, if the group has it (far pairs)
	rs     *radialSpec
	series bool    // RBF: the series route is available
	rmax   float64 // max over the box of ‖z‖/ℓ (+Inf when unknown)
	nmax   int     // moments held by a prepared point
	cache  *momentCache
}

// momentCache keeps the prepared points (with their moments) of recent
// points, so that the design points a GP evaluates candidates against in
// call after call are prepared once: a direct-mapped table of
// momentSlots immutable entries, published atomically (safe for
// concurrent use), keyed by the bits of the point (at most
// 8·seriesMaxTerms bytes each). Columns store (their points are the design
// points of Grams and of the GP's cross-covariances) into empty slots
// only, so a set of points that collide costs no churn and, once stored,
// no allocation; every preparation loads. A hit copies exactly the bits a recomputation
// would give (prep is a function of the point and the kernel alone), so
// results do not depend on the cache's state.
type momentCache struct {
	slots [momentSlots]atomic.Pointer[cachedPoint]
}

type cachedPoint struct{ p []float64 } // a prepared point, moments included

const (
	momentSlots     = 256
	cacheMaxMoments = seriesMaxTerms
)

// slot returns x's slot: a hash of its bits.
func (c *momentCache) slot(x []float64) *atomic.Pointer[cachedPoint] {
	h := uint64(14695981039346656037)
	for _, v := range x {
		h ^= math.Float64bits(v)
		h *= 1099511628211
		h ^= h >> 29
	}
	return &c.slots[h%momentSlots]
}

// load copies x's prepared point into dst and reports whether it was
// there.
func (c *momentCache) load(dst, x []float64) bool {
	cp := c.slot(x).Load()
	if cp == nil || !equalBits(cp.p[:len(x)], x) {
		return false
	}
	copy(dst, cp.p)
	return true
}

// store keeps a copy of the prepared point p (x in its first d floats,
// moments computed) if its window is short enough.
func (c *momentCache) store(p []float64, d int) {
	n := int(p[d+spN])
	if n == 0 || n > cacheMaxMoments {
		return
	}
	sl := c.slot(p[:d])
	if sl.Load() != nil {
		return // first come keeps the slot: no churn, no allocation after warm-up
	}
	sl.CompareAndSwap(nil, &cachedPoint{p: append([]float64(nil), p[:d+spHeader+n]...)})
}

// Prepared point: x (d floats), then these offsets past d, then the
// moments ν_{n0} … ν_{n0+cnt−1} (scalingseries.go's window).
const (
	spA      = iota // A: C(x) = [A, B]
	spB             // B
	spL             // ln(B/A)
	spR             // ‖x‖/ℓ
	spLo            // n0, the window's first index
	spCnt           // cnt, the window's length (0: the pair takes the quadrature)
	spN             // moments held: cnt, or 0 while deferred (prepY)
	spHeader        // header length
)

// segmentDistancer matches orbit.ScalingGroup's SegmentDist2: the
// smallest distance between two points of the segments, a lower bound of
// every ‖c·x − c′·y‖ the average integrates (scalingdir's OrbitDist2, the
// chord between directions, is not, and is not used here).
type segmentDistancer interface {
	SegmentDist2(x, y []float64) float64
}

// boxed matches the scaling group's Box: a known box bounds the orbits'
// reach, ‖c·x‖ ≤ ‖hi‖, and so the moments a point needs.
type boxed interface {
	Box() (lo, hi []float64)
}

func newScalingExactEval(p Params, g orbit.Segmenter) *scalingExactEval {
	e := &scalingExactEval{p: p, inv2: 1 / (p.Lengthscale * p.Lengthscale), il: 1 / p.Lengthscale,
		d: g.Dim(), g: g, rs: &p.Shape.spec().radial, series: p.Shape == RBF, rmax: math.Inf(1),
		cache: &momentCache{}}
	e.dist, _ = g.(segmentDistancer)
	if b, ok := g.(boxed); ok {
		_, hi := b.Box()
		var s float64
		for _, h := range hi {
			s += (h * e.il) * (h * e.il)
		}
		e.rmax = math.Sqrt(s)
	}
	if e.series {
		r := min(e.rmax, seriesAlphaMax)
		e.nmax = seriesTerms(r * r)
	}
	return e
}

// xLen = yLen: x, the header and the moments. (column's scratch, the
// quadrature's or the φ sequences of a deferred window, comes from the
// scratch pools: the engine reads yLen as the work of a pair.)
func (e *scalingExactEval) xLen() int              { return e.d + spHeader + e.nmax }
func (e *scalingExactEval) yLen() int              { return e.xLen() }
func (e *scalingExactEval) prepX(dst, x []float64) { e.prep(dst, x, true) }

// prepY defers the moments to column, which computes them once per
// column (copying the row's for a diagonal entry k(x, x)) and offers them
// to the cache.
func (e *scalingExactEval) prepY(dst, y []float64) { e.prep(dst, y, false) }

// prep writes x, its orbit's header and, for the series and when moments
// is true, its moments.
func (e *scalingExactEval) prep(dst, x []float64, moments bool) {
	d := e.d
	if e.series && e.cache.load(dst, x) {
		return
	}
	copy(dst, x)
	A, B, _, _ := e.g.IntervalFaces(x)
	var r2 float64
	for _, v := range x {
		r2 += (v * e.il) * (v * e.il)
	}
	r := math.Sqrt(r2)
	h := dst[d : d+spHeader]
	h[spA], h[spB], h[spL], h[spR], h[spLo], h[spCnt], h[spN] = A, B, math.Log(B/A), r, 0, 0, 0
	if !e.series || !(r > 0) || !(B*r <= seriesAlphaMax) || !positive(x) {
		return
	}
	n0, cnt := e.window(A*r, B*r)
	if cnt <= 0 {
		return
	}
	h[spLo], h[spCnt] = float64(n0), float64(cnt)
	if moments {
		hp, phi := getScratch(2 * cnt)
		e.moments(dst, phi)
		putScratch(hp)
	}
}

// window returns the moments a point with orbit α ∈ [a1, a2] keeps: from
// n0 = momentsStart(a1) to the truncation bound of its pairs with points
// of the box (seriesTerms at λ = α₂·max over the box of β₂).
func (e *scalingExactEval) window(a1, a2 float64) (n0, cnt int) {
	n0 = momentsStart(a1)
	N := min(e.nmax, seriesTerms(a2*min(max(e.rmax, a2), seriesAlphaMax)))
	return n0, min(N-n0, e.nmax)
}

// moments computes the window of the prepared point p (header set) with
// 2·cnt floats of scratch phi.
func (e *scalingExactEval) moments(p, phi []float64) {
	d := e.d
	h := p[d : d+spHeader]
	n0, cnt := int(h[spLo]), int(h[spCnt])
	r := h[spR]
	radialMomentsTo(p[d+spHeader:d+spHeader+cnt], phi[:cnt], phi[cnt:2*cnt], n0, h[spA]*r, h[spB]*r, h[spL])
	h[spN] = h[spCnt]
}

// positive reports whether every coordinate is > 0 (cos∠(x, y) > 0 for
// two such points: the series has no negative terms).
func positive(x []float64) bool {
	for _, v := range x {
		if !(v > 0) {
			return false
		}
	}
	return true
}

func (e *scalingExactEval) column(out []float64, stride int, px []float64, n int, py []float64) {
	xl, d := e.xLen(), e.d
	hs, ws := getScratch(max(gkScratch(1), 2*e.nmax))
	defer putScratch(hs)
	if h := py[d : d+spHeader]; h[spCnt] > 0 && h[spN] == 0 {
		cnt := int(h[spCnt])
		switch {
		case n == 1 && px[d+spN] > 0 && equalBits(px[:d], py[:d]):
			// k(x, x): the row's moments are the column's.
			copy(py[d+spHeader:d+spHeader+cnt], px[d+spHeader:d+spHeader+cnt])
			h[spN] = h[spCnt]
		default:
			e.moments(py, ws)
			e.cache.store(py, d)
		}
	}
	for i := range n {
		out[i*stride] = e.value(px[i*xl:(i+1)*xl], py[:xl], ws)
	}
}

// value is k for prepared x and y; ws holds gkScratch(1) floats.
func (e *scalingExactEval) value(px, py, ws []float64) float64 {
	if s, ok := e.seriesValue(px, py); ok {
		return e.p.Variance * s
	}
	d := e.d
	hx, hy := px[d:d+spHeader], py[d:d+spHeader]
	return e.quadValue(px[:d], py[:d], hx[spA], hx[spB], hy[spA], hy[spB], ws)
}

// seriesValue sums Σ γ^n·ν_n(x)·ν_n(y) over the overlap of the two
// windows until a bound on the tail falls below seriesTol of the sum (see
// scalingseries.go): the ratio bound past n + 1 > λ, or, as ν ≤ 1,
// Σ_{m>n} γ^m = γ^{n+1}/(1 − γ) (or below 1e−300 absolute: the terms left
// out of the windows are smaller still). ok is false if a point has no
// moments or the windows run out first.
func (e *scalingExactEval) seriesValue(px, py []float64) (float64, bool) {
	d := e.d
	hx, hy := px[d:d+spHeader], py[d:d+spHeader]
	if hx[spN] == 0 || hy[spN] == 0 {
		return 0, false
	}
	lx, ly := int(hx[spLo]), int(hy[spLo])
	s0 := max(lx, ly)
	e0 := min(lx+int(hx[spN]), ly+int(hy[spN]))
	if s0 >= e0 {
		return 0, false
	}
	gam := min(dot(px[:d], py[:d])*e.inv2/(hx[spR]*hy[spR]), 1)
	lam := gam * (hx[spB] * hx[spR]) * (hy[spB] * hy[spR])
	nx := px[d+spHeader+s0-lx : d+spHeader+e0-lx]
	ny := py[d+spHeader+s0-ly : d+spHeader+e0-ly]
	gtol := seriesTol * (1 - gam)
	var s float64
	g := 1.0 // γ^n
	if s0 > 0 {
		g = math.Pow(gam, float64(s0))
	}
	// Four terms at a time, then the tests (both bounds hold at any n, so
	// testing every fourth term only sums up to three more).
	k1 := float64(s0 + 4) // n + 1 after a block
	n := len(nx)
	k := 0
	for ; k+4 <= n; k += 4 {
		t0 := g * (nx[k] * ny[k])
		g *= gam
		t1 := g * (nx[k+1] * ny[k+1])
		g *= gam
		t2 := g * (nx[k+2] * ny[k+2])
		g *= gam
		t3 := g * (nx[k+3] * ny[k+3])
		g *= gam
		s += t0
		s += t1
		s += t2
		s += t3
		if g <= gtol*s || g <= 1e-300*(1-gam) {
			return s, true
		}
		if k1 > lam {
			if rho := lam / k1; t3*rho <= seriesTol*(1-rho)*s {
				return s, true
			}
		}
		k1 += 4
	}
	k1 -= 3
	for ; k < n; k++ {
		t := g * (nx[k] * ny[k])
		s += t
		g *= gam
		if g <= gtol*s || g <= 1e-300*(1-gam) {
			return s, true
		}
		if k1 > lam {
			if rho := lam / k1; t*rho <= seriesTol*(1-rho)*s {
				return s, true
			}
		}
		k1++
	}
	return 0, false
}

// quadValue is k by the quadrature route for points x, y with C(x) =
// [A1, B1], C(y) = [A2, B2].
func (e *scalingExactEval) quadValue(x, y []float64, A1, B1, A2, B2 float64, ws []float64) float64 {
	if lessPoint(y, x) { // canonical order: symmetric bit for bit
		x, y, A1, B1, A2, B2 = y, x, A2, B2, A1, B1
	}
	unres := e.unresolved(x, y, A1, B1, A2, B2)
	if e.dist != nil {
		if d2 := e.dist.SegmentDist2(x, y); kappaU2(e.p.Shape, d2*e.inv2) == 0 &&
			(!unres || e.farBeyondRounding(x, y, B1, B2, d2)) {
			return 0 // k ≤ v·κ(d_G/ℓ), which underflows
		}
	}
	if unres {
		return math.NaN() // ErrBadPoints (finiteRows): ℓ below the chords' resolution
	}
	return e.quadIntegral(x, y, A1, B1, A2, B2, ws)
}

// quadIntegral is quadValue's quadrature for a pair in canonical order,
// whether or not resolved.
func (e *scalingExactEval) quadIntegral(x, y []float64, A1, B1, A2, B2 float64, ws []float64) float64 {
	sq := scalingQuad{rs: e.rs, shape: e.p.Shape, inv2: e.inv2, x: x, y: y,
		A1: A1, B1: B1, A2: A2, B2: B2,
		a1: math.Log(A1), b1: math.Log(B1), a2: math.Log(A2), b2: math.Log(B2)}
	l1, l2 := sq.b1-sq.a1, sq.b2-sq.a2
	var r [1]float64
	var bpb [maxBreaks]float64
	switch {
	case l1 == 0 && l2 == 0:
		return e.p.Variance * kappaU2(e.p.Shape, sqDistScaled(x, y, A1, A2)*e.inv2)
	case l1 == 0:
		ed := scalingEdge{shape: e.p.Shape, inv2: e.inv2, c: A1, x: x, y: y}
		adaptGK(r[:], 1, ed.at, edgeBreaks(bpb[:0], x, y, A1, sq.a2, sq.b2, e.p.Lengthscale), quadTol, 0, ws)
		return e.p.Variance * r[0] / l2
	case l2 == 0:
		ed := scalingEdge{shape: e.p.Shape, inv2: e.inv2, c: A2, x: y, y: x}
		adaptGK(r[:], 1, ed.at, edgeBreaks(bpb[:0], y, x, A2, sq.a1, sq.b1, e.p.Lengthscale), quadTol, 0, ws)
		return e.p.Variance * r[0] / l1
	}
	bp, wlo, whi, fU := sq.breaks(bpb[:0])
	adaptGK(r[:], 1, sq.valueAt, bp, quadTol, 0, ws)
	// Outside the window f ≤ fU: left out when that bounds its share
	// below quadTol/16 of the integral (the integrand is positive),
	// integrated otherwise.
	lo, hi := sq.a1-sq.b2, sq.b1-sq.a2
	if out := (wlo - lo) + (hi - whi); out > 0 && !(out*fU <= quadTol/16*r[0]) {
		var o [1]float64
		if wlo > lo {
			adaptGK(o[:], 1, sq.valueAt, append(bpb[:0], lo, wlo), quadTol, 0, ws)
			r[0] += o[0]
		}
		if hi > whi {
			adaptGK(o[:], 1, sq.valueAt, append(bpb[:0], whi, hi), quadTol, 0, ws)
			r[0] += o[0]
		}
	}
	return e.p.Variance * r[0] / (l1 * l2)
}

// scaleResolve is the smallest ℓ/S the quadrature route resolves, S the
// pair's orbit scale (orbitScale): the chord distances ‖c·x − c'·y‖ carry
// a rounding of about ε·‖c·x‖ (the difference of nearly equal scaled
// points at the orbits' closest approach: q = ln c − ln c' itself is
// rounded to ε·|ln c|), against a peak of width ~ℓ/‖c·x‖ in q, so the
// average's relative error grows like ε·S/ℓ: measured against an
// independent product Gauss–Legendre rule with the distances formed as
// e^{s+t}·√(‖x‖‖y‖)·(4·sinh²(τ/2) + ‖x̂ − ŷ‖²) (τ the offset from the
// ridge, exact), it is 1e−16·S/ℓ at most (all shapes; 32 pairs on the
// boxes [0.1, 10]², [1, 1.001]², [1, 1 + 1e−6]², [0.001, 1000]²),
// reaching valueTol — 1e−12, or 1e−15/L for orbits of log-length L — at
// ℓ/S ≈ 1e−4: 0.33 of it at 3e−4, 1.0 at 1e−4, 8.5 at 1e−5, 100 at
// 1e−6, and at ℓ = 1e−17 on the box [0.1, 10]² k(x, x) was negative.
// Pairs below it are ErrBadPoints (or 0 where even the rounding leaves
// κ at the orbit distance underflowing). S ≤ ‖hi‖ for points in the box,
// and gp's fits keep ℓ ≥ 1e−3·s (s the data's bounding-box diagonal), so
// a fit can reach the limit only on data whose diagonal s is below
// 0.2·‖hi‖: 2.83 on the box [0.1, 10]², whose diagonal is 14.0.
const scaleResolve = 2e-4

// orbitScale returns S = A·B·‖x‖·L/(B − A) for C(x) = [A, B], L =
// ln(B/A) (A·‖x‖ for L = 0): the reciprocal of the mean over the orbit,
// in ln c, of 1/‖c·x‖, the scale whose ε·S/ℓ the quadrature's relative
// error follows (the integrand's peak at scaling c has weight
// ∝ ℓ/‖c·x‖ and a relative rounding error ∝ ε·‖c·x‖/ℓ). A·‖x‖ ≤ S ≤
// B·‖x‖ (A·L ≤ B − A): S ≤ ‖hi‖ for x in the box.
func orbitScale(x []float64, A, B float64) float64 {
	var m float64
	for _, v := range x {
		m = max(m, math.Abs(v))
	}
	if !(m > 0) {
		return 0
	}
	var s float64
	for _, v := range x {
		s += (v / m) * (v / m)
	}
	n := m * math.Sqrt(s)
	L := math.Log(B) - math.Log(A)
	if L == 0 {
		return A * n
	}
	return A * n * L * (B / (B - A))
}

// unresolved reports whether the quadrature route cannot resolve the pair
// (ℓ < scaleResolve·max(S_x, S_y), see scaleResolve); pairs of point
// orbits (A = B for both: κ at one distance, no quadrature) never are.
func (e *scalingExactEval) unresolved(x, y []float64, A1, B1, A2, B2 float64) bool {
	if A1 == B1 && A2 == B2 {
		return false
	}
	return !(e.p.Lengthscale >= scaleResolve*max(orbitScale(x, A1, B1), orbitScale(y, A2, B2)))
}

// farBeyondRounding reports, for an unresolved pair, whether κ at the
// orbit distance √d2 less a bound on its rounding, 4(d + 2)·ε·(‖B₁x‖ +
// ‖B₂y‖) (the segments' points reach those norms), still underflows: the
// pair is then 0 however the distance rounded.
func (e *scalingExactEval) farBeyondRounding(x, y []float64, B1, B2, d2 float64) bool {
	del := 4 * float64(e.d+2) * 0x1p-53 * (orbitScale(x, B1, B1) + orbitScale(y, B2, B2))
	lb := max(math.Sqrt(d2)-del, 0)
	return kappaU2(e.p.Shape, lb*lb*e.inv2) == 0
}

// lessPoint orders points lexicographically.
func lessPoint(a, b []float64) bool {
	for k := range a {
		if a[k] != b[k] {
			return a[k] < b[k]
		}
	}
	return false
}

// gradLen is grad's scratch: two prepared points (moments and φ of both
// ends of x) or the quadrature's vector scratch.
func (e *scalingExactEval) gradLen() int { return e.gradBase() + e.d + gradKeyLen }

// gradWork estimates a gradient pair's work for GradTo's choice of
// workers: the moments of y for the series (RBF; what a prepared point's
// length stands for in CrossTo), the quadrature's scratch (a proxy for its
// hundreds of evaluations) otherwise.
func (e *scalingExactEval) gradWork() int {
	if e.series {
		return e.nmax + 8*e.d
	}
	return e.gradLen()
}

// gradBase is where the key of grad's cache starts in its scratch: past
// both routes' work space.
func (e *scalingExactEval) gradBase() int {
	d := e.d
	return max(2*e.xLen()+2*e.nmax, gkScratch(d+1)+gkScratch(d)+2*d+2)
}

// gradKeyLen: the cache key is (ℓ, rmax, nmax, A, B) and x.
const gradKeyLen = 5

// grad writes ∇ₓk(x, y) into dst (see scalingquad.go and
// scalingseries.go), one-sided where the face ending an orbit changes.
//
// GradTo calls it for one x against many y with the same scratch, so the
// series keeps x's moments there under a key (x, ℓ, the box's reach, A,
// B) and reuses them while the key matches: the same bits as recomputing
// them. The quadrature route overwrites that space and voids the key.
func (e *scalingExactEval) grad(dst, x, y, scratch []float64) {
	if e.seriesGrad(dst, x, y, scratch) {
		return
	}
	scratch[e.gradBase()] = math.NaN() // the key no longer describes the cache
	e.quadGrad(dst, x, y, scratch)
}

// seriesGrad is the gradient of the series: with ν_n(x) depending on x
// through α₁ = A‖x‖/ℓ, α₂ = B‖x‖/ℓ and L = ln(B/A), and γ on x's direction,
//
//	∂ν_n/∂x_k = ε_n(α₂)·∂ln α₂/∂x_k − ε_n(α₁)·∂ln α₁/∂x_k − ν_n·∂L/∂x_k/L,
//	ε_n(α) = φ_n(α)/L,  ∂ln α₂/∂x_k = x_k/‖x‖² − [k = kb]/x_kb (likewise α₁, ka),
//	∂γ/∂x_k = y_k/(‖x‖‖y‖) − γ·x_k/‖x‖²,
//
// so ∇k/v = S_γ·∇γ + S₂·∇ln α₂ − S₁·∇ln α₁ − S₀·∇L/L with S₀ the value,
// S_γ = Σ n·γ^{n−1}ν_n(x)ν_n(y), S_i = Σ γ^n·ε_n(α_i)·ν_n(y), all summed
// to the value's truncation point (their tails obey the same ratio bound,
// with n/(n−1) for S_γ, so a few more terms cover them: gradExtraTerms).
// It returns false (dst untouched) where the series does not apply.
func (e *scalingExactEval) seriesGrad(dst, x, y, scratch []float64) bool {
	if !e.series || !positive(x) {
		return false
	}
	d, xl := e.d, e.xLen()
	px, py := scratch[:xl], scratch[xl:2*xl]
	e.prep(py, y, true)
	hy := py[d : d+spHeader]
	if hy[spN] == 0 {
		return false
	}
	A, B, ka, kb := e.g.IntervalFaces(x)
	key := scratch[e.gradBase() : e.gradBase()+gradKeyLen+d]
	phi1, phi2 := scratch[2*xl:2*xl+e.nmax], scratch[2*xl+e.nmax:2*xl+2*e.nmax]
	if !(key[0] == e.p.Lengthscale && key[1] == e.rmax && key[2] == float64(e.nmax) &&
		key[3] == A && key[4] == B && equalBits(key[gradKeyLen:], x)) {
		e.prep(px, x, false)
		if px[d+spCnt] > 0 {
			h := px[d : d+spHeader]
			n0, cnt := int(h[spLo]), int(h[spCnt])
			radialMomentsTo(px[d+spHeader:d+spHeader+cnt], phi1[:cnt], phi2[:cnt], n0, h[spA]*h[spR], h[spB]*h[spR], h[spL])
			h[spN] = h[spCnt]
		}
		key[0], key[1], key[2], key[3], key[4] = e.p.Lengthscale, e.rmax, float64(e.nmax), A, B
		copy(key[gradKeyLen:], x)
	}
	hx := px[d : d+spHeader]
	L := hx[spL]
	if hx[spN] == 0 || L == 0 { // L = 0: a single scaling, the quadrature's point case
		return false
	}
	lx, ly := int(hx[spLo]), int(hy[spLo])
	s0i := max(lx, ly)
	e0 := min(lx+int(hx[spN]), ly+int(hy[spN]))
	if s0i >= e0 {
		return false
	}
	r, ry := hx[spR], hy[spR]
	gam := min(dot(x, y)*e.inv2/(r*ry), 1)
	lam := gam * (B * r) * (hy[spB] * ry)
	nu := px[d+spHeader+s0i-lx : d+spHeader+e0-lx]
	f1, f2 := phi1[s0i-lx:e0-lx], phi2[s0i-lx:e0-lx]
	ny := py[d+spHeader+s0i-ly : d+spHeader+e0-ly]
	var s0, sg, s1, s2 float64
	g, gm1 := 1.0, 0.0 // γ^n, n·γ^{n−1}
	if s0i > 0 {
		g = math.Pow(gam, float64(s0i))
		gm1 = float64(s0i) * math.Pow(gam, float64(s0i-1))
	}
	k1 := float64(s0i + 1) // n + 1
	stop := -1
	for k := range nu {
		w := nu[k] * ny[k]
		t := g * w
		s0 += t
		sg += gm1 * w
		s1 += g * (f1[k] * ny[k])
		s2 += g * (f2[k] * ny[k])
		gm1 = k1 * g
		g *= gam
		if stop < 0 {
			// The value's tests, and for S_γ its own γ-bound
			// Σ_{m>n} m·γ^{m−1} ≤ (n+1)·γ^n/(1 − γ)².
			om := 1 - gam
			if (g <= seriesTol*om*s0 && gm1 <= seriesTol*om*om*sg) || g <= 1e-300*om*om {
				stop = k + gradExtraTerms
			} else if k1 > lam {
				if rho := lam / k1; t*rho <= seriesTol*(1-rho)*s0 {
					stop = k + gradExtraTerms
				}
			}
		}
		if k == stop {
			break
		}
		k1++
	}
	if stop < 0 || stop >= len(nu) {
		return false
	}
	v := e.p.Variance
	iL := 1 / L
	rx2 := r * r / e.inv2 // ‖x‖²
	nxy := r * ry / e.inv2
	for k := range dst {
		dg := y[k]/nxy - gam*x[k]/rx2
		dla := x[k] / rx2 // ∂ln α/∂x_k without the face terms
		dst[k] = v * (sg*dg + (s2-s1)*iL*dla)
	}
	// Face terms: ln α₂ and L through B = hi_kb/x_kb, ln α₁ and L through
	// A = lo_ka/x_ka (∂ln B/∂x_kb = −1/x_kb, ∂ln A/∂x_ka = −1/x_ka).
	if kb >= 0 {
		dst[kb] += v * (s0 - s2) * iL / x[kb]
	}
	if ka >= 0 {
		dst[ka] += v * (s1 - s0) * iL / x[ka]
	}
	return true
}

// equalBits reports whether a and b hold the same bits (−0 ≠ +0, NaN
// never equal: a conservative cache key).
func equalBits(a, b []float64) bool {
	for k, v := range a {
		if math.Float64bits(v) != math.Float64bits(b[k]) {
			return false
		}
	}
	return true
}

// gradExtraTerms: the gradient's sums run this many terms past the value's
// truncation point (their ratio bounds exceed the value's by at most
// n/(n−1)).
const gradExtraTerms = 4

// quadGrad is the gradient by the quadrature route.
func (e *scalingExactEval) quadGrad(dst, x, y, scratch []float64) {
	d := e.d
	v := e.p.Variance
	A1, B1, ka, kb := e.g.IntervalFaces(x)
	A2, B2, _, _ := e.g.IntervalFaces(y)
	sq := scalingQuad{rs: e.rs, shape: e.p.Shape, inv2: e.inv2, x: x, y: y,
		A1: A1, B1: B1, A2: A2, B2: B2,
		a1: math.Log(A1), b1: math.Log(B1), a2: math.Log(A2), b2: math.Log(B2)}
	l1, l2 := sq.b1-sq.a1, sq.b2-sq.a2
	ws := scratch[:gkScratch(d+1)]
	ws2 := scratch[gkScratch(d+1) : gkScratch(d+1)+gkScratch(d)]
	rest := scratch[gkScratch(d+1)+gkScratch(d):]
	res := rest[:d+1]
	sq.vec = rest[d+1 : 2*d+1]
	var bpb [maxBreaks]float64
	clear(dst)
	unres := e.unresolved(x, y, A1, B1, A2, B2)
	if e.dist != nil {
		if d2 := e.dist.SegmentDist2(x, y); kappaU2(e.p.Shape, d2*e.inv2) == 0 &&
			(!unres || e.farBeyondRounding(x, y, B1, B2, d2)) {
			return
		}
	}
	if unres {
		for k := range dst {
			dst[k] = math.NaN() // ErrBadPoints (finiteRows), as quadValue
		}
		return
	}
	vi := v * e.inv2
	switch {
	case l1 == 0 && l2 == 0:
		// v·κ(‖A1x − A2y‖/ℓ) with the scalings held fixed.
		d2 := sqDistScaled(x, y, A1, A2) * e.inv2
		dk := dkappaOverU(e.p.Shape, math.Sqrt(d2))
		c := vi * dk * A1
		if dk != 0 && !(math.Abs(c) >= 0x1p-1022) && e.inv2 < 0x1p-512 {
			// c = v/ℓ²·κ'(u)/u·A₁ underflowed for a lengthscale past
			// 2^256 (1e−300·κ'(u)/u at ℓ = 1e150, radii near 1e154:
			// subnormal for κ'(u)/u below 2e−8), though the gradient,
			// c·(A₁x − A₂y) with a difference of the radii's order, need
			// not: the product is formed before the small factor. Below
			// that lengthscale c is kept as it was, bit for bit.
			for k := range dst {
				dst[k] = vi * (dk * A1 * (A1*x[k] - A2*y[k]))
			}
			return
		}
		for k := range dst {
			dst[k] = c * (A1*x[k] - A2*y[k])
		}
		return
	case l1 == 0:
		// (v/l2)·∫ κ(‖A1x − e^t y‖/ℓ) dt, A1 held fixed.
		ed := scalingEdge{shape: e.p.Shape, inv2: e.inv2, c: A1, x: x, y: y}
		adaptGK(res[:d], d, ed.gradAt, edgeBreaks(bpb[:0], x, y, A1, sq.a2, sq.b2, e.p.Lengthscale), quadTol, 0, ws2)
		for k := range dst {
			dst[k] = vi * A1 * res[k] / l2
		}
		return
	case l2 == 0:
		// (v/l1)·∫ κ(‖e^s x − A2y‖/ℓ) ds: the interior term
		// ∫ κ'(u)/u·e^s(e^s x − A2y)/ℓ² ds and the ends.
		var val, ea, eb [1]float64
		ed := scalingEdge{shape: e.p.Shape, inv2: e.inv2, c: A2, x: y, y: x}
		bp := edgeBreaks(bpb[:0], y, x, A2, sq.a1, sq.b1, e.p.Lengthscale)
		adaptGK(val[:], 1, ed.at, bp, quadTol, 0, ws2)
		ig := scalingEdgeIn{shape: e.p.Shape, inv2: e.inv2, cy: A2, x: x, y: y}
		adaptGK(res[:d], d, ig.gradAt, bp, quadTol, 0, ws2)
		ea[0] = kappaU2(e.p.Shape, sqDistScaled(x, y, A1, A2)*e.inv2)
		eb[0] = kappaU2(e.p.Shape, sqDistScaled(x, y, B1, A2)*e.inv2)
		for k := range dst {
			dst[k] = vi * res[k] / l1
		}
		e.endTerms(dst, x, ka, kb, ea[0], eb[0], val[0], l1, 1)
		return
	}
	bp, wlo, whi, _ := sq.breaks(bpb[:0])
	if lo := sq.a1 - sq.b2; wlo > lo { // the gradient integrates everywhere
		bp = append(bp, lo)
	}
	if hi := sq.b1 - sq.a2; whi < hi {
		bp = append(bp, hi)
	}
	bp = gradedBreaks(bp, sq.a1-sq.b2, sq.b1-sq.a2, 0, -1)
	adaptGK(res, d+1, sq.gradAt, bp, quadTol, 0, ws)
	// ∂I/∂x with the ends fixed is res[1:]; I is res[0].
	norm := 1 / (l1 * l2)
	for k := range dst {
		dst[k] = v * res[1+k] * norm
	}
	var ea, eb [1]float64
	if ka >= 0 {
		ed := scalingEdge{shape: e.p.Shape, inv2: e.inv2, c: A1, x: x, y: y}
		adaptGK(ea[:], 1, ed.at, edgeBreaks(bpb[:0], x, y, A1, sq.a2, sq.b2, e.p.Lengthscale), quadTol, 0, ws2)
	}
	if kb >= 0 {
		ed := scalingEdge{shape: e.p.Shape, inv2: e.inv2, c: B1, x: x, y: y}
		adaptGK(eb[:], 1, ed.at, edgeBreaks(bpb[:0], x, y, B1, sq.a2, sq.b2, e.p.Lengthscale), quadTol, 0, ws2)
	}
	e.endTerms(dst, x, ka, kb, ea[0], eb[0], res[0], l1, l2)
}

// endTerms adds the derivative through the ends of C(x) = [A, B] to dst:
// with I the (unnormalized) integral, ea = ∂I/∂(−a₁) and eb = ∂I/∂b₁ (the
// edge integrals at A and B), and k = v·I/(l1·l2),
//
//	∂k/∂a₁ = v·(−ea/(l1·l2) + I/(l1²·l2)),  ∂k/∂b₁ = v·(eb/(l1·l2) − I/(l1²·l2)),
//
// with ∂a₁/∂x_ka = −1/x_ka and ∂b₁/∂x_kb = −1/x_kb.
func (e *scalingExactEval) endTerms(dst, x []float64, ka, kb int, ea, eb, I, l1, l2 float64) {
	v := e.p.Variance
	n := 1 / (l1 * l2)
	if ka >= 0 {
		dst[ka] -= v * (-ea*n + I*n/l1) / x[ka]
	}
	if kb >= 0 {
		dst[kb] -= v * (eb*n - I*n/l1) / x[kb]
	}
}

// scalingEdgeIn is the interior gradient integrand for a point orbit of y:
// κ'(u)/u·e^s(e^s·x − cy·y), u = ‖e^s x − cy·y‖/ℓ (times ℓ²).
type scalingEdgeIn struct {
	shape Shape
	inv2  float64
	cy    float64
	x, y  []float64
}

func (e *scalingEdgeIn) gradAt(s float64, out []float64) {
	es := math.Exp(s)
	d2 := sqDistScaled(e.x, e.y, es, e.cy) * e.inv2
	g := dkappaOverU(e.shape, math.Sqrt(d2)) * es
	for k, xk := range e.x {
		out[k] = g * (es*xk - e.cy*e.y[k])
	}
}
