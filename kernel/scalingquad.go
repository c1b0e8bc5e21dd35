package kernel

import (
	"math"
)

// The exact scaling average by one quadrature (every shape; the RBF series
// of scalingseries.go covers most RBF pairs faster). With s = ln c,
// t = ln c' on the rectangle [a₁, b₁] × [a₂, b₂] (C(x) = [A₁, B₁] = e^{[a₁,
// b₁]}, likewise y) and p = s + t, q = s − t,
//
//	‖e^s·x − e^t·y‖² = e^p·W(q),   W(q) = ‖e^{q/2}x − e^{−q/2}y‖² ≥ 0,
//
// so along each line of constant q the distance grows as u = e^{p/2}√W/ℓ
// and, with dp = 2·du/u and ds dt = dp dq/2,
//
//	I = ∫∫ κ(‖e^s x − e^t y‖/ℓ) ds dt = ∫ f(q) dq,
//	f(q) = ∫_{u_lo(q)}^{u_hi(q)} κ(ρ)/ρ dρ = F(u_lo) − F(u_hi),
//
// where u_lo, u_hi are the distances at the ends of the line's chord of the
// rectangle (on its edges: s = a₁ or t = a₂ below, s = b₁ or t = b₂ above)
// and F(u) = ∫_u^∞ κ(ρ)/ρ dρ is c·E1(a) + e^{−a}·P(a) (radialSpec). The
// chord's ends are piecewise linear in q with kinks at q = a₁ − a₂ and
// b₁ − b₂, and f has a peak of width ~ℓ/‖c·x‖ around q₀ = ½·ln(‖y‖²/‖x‖²)
// where the lines run along the orbits' closest approach (a kink there for
// Matérn bases when x and y are collinear: the orbits meet). Those points
// break [a₁ − b₂, b₁ − a₂] into panels for adaptive Gauss–Kronrod (gk.go)
// to the relative tolerance quadTol. k = v·I/((b₁ − a₁)(b₂ − a₂)).
//
// f(q) ≥ 0 is computed without cancellation beyond a few ulps (chordInt):
// by F(u_lo) − F(u_hi) when u_lo is large (F is then tiny and the
// difference of two logarithmically large values would cancel), by the
// form ln(u_hi/u_lo) + J(a_lo) − J(a_hi) with the entire J when it is
// small (the logarithmic singularity of F at 0 cancels analytically, so
// collinear pairs, u_lo = 0, are no special case), and by chordNodes-point
// Gauss–Legendre along the chord when the chord is short for the scale on
// which κ varies (near the rectangle's corners, and for short orbits),
// where both closed forms would lose digits to the difference.
//
// Degenerate orbits (C(x) a single scaling: x outside the box, or on a
// ray through two opposite box faces) reduce I to one edge integral
// ∫ κ(‖c·x − e^t·y‖/ℓ) dt, integrated the same way with a break point at
// the projection of c·x on the ray of y.
//
// Gradient. With the ends fixed, ∇ₓ of ∫∫ κ is ∫∫ κ'(u)/u·e^s(e^s x −
// e^t y)/ℓ² ds dt, and along a chord ∫ e^p·κ'(u)/u dp = 2ℓ²/W·[κ]_{u_lo}^{u_hi},
// so
//
//	∂I/∂x = ∫ (e^q·x − y)·(κ(u_hi) − κ(u_lo))/W(q) dq
//
// (bounded: |e^q x − y| = e^{q/2}√W and κ(u_hi) − κ(u_lo) = O(√W)); the
// ends contribute ∂I/∂a₁ = −∫ κ(‖A₁x − e^t y‖/ℓ) dt and ∂I/∂b₁ =
// ∫ κ(‖B₁x − e^t y‖/ℓ) dt through a₁ = ln(lo_ka/x_ka), b₁ = ln(hi_kb/x_kb),
// and k's normalization through b₁ − a₁. These integrals use the same
// break points and tolerance.

// quadTol is the relative tolerance of the adaptive quadratures (on the
// integral, against adaptGK's error estimate); TestScalingExactValues
// measures the result against independent integrals.
const quadTol = 1e-13

// chordNodes is the Gauss–Legendre rule along short chords; chordShort is
// the longest chord (in ln u) that uses it, and only when κ changes by at
// most a factor e over the chord (h·a/c ≤ 1, the log-derivative of κ
// being at most a/c).
const (
	chordNodes = 8
	chordShort = 0.125
)

var chordX, chordW = func() ([]float64, []float64) {
	x, w := make([]float64, chordNodes), make([]float64, chordNodes)
	gaussPanels(x, w, chordNodes)
	return x, w
}()

// chordInt returns ∫_{u_lo}^{u_hi} κ(ρ)/ρ dρ for u_lo² = u2lo, u_hi² =
// u2hi and h = ln(u_hi/u_lo) ≥ 0 (given separately: u_lo may be 0).
func chordInt(rs *radialSpec, u2lo, u2hi, h float64) float64 {
	if !(h > 0) {
		return 0
	}
	alo := rs.arg(u2lo)
	if h <= chordShort && h*alo <= rs.c {
		// Gauss–Legendre in τ = ln(u/u_lo) on [0, h]: κ(u_lo·e^τ).
		var s float64
		for j, t := range chordX {
			a := rs.arg(u2lo * math.Exp(2*h*t))
			// A node whose e^{−a} underflows adds +0 (s stays as it
			// was): skipped, for its K(a) may overflow (Matérn-5/2
			// past a ≈ 1.3e154), 0·∞.
			if e := math.Exp(-a); e != 0 {
				s += chordW[j] * e * rs.kpoly(a)
			}
		}
		return h * s
	}
	ahi := rs.arg(u2hi)
	if alo <= 1 {
		return h + rs.c*(ein(alo)-ein(ahi)) + math.Exp(-alo)*rs.poly(alo) - math.Exp(-ahi)*rs.poly(ahi)
	}
	// F(u) = e^{−a}·(c·e^a·E1(a) + P(a)); F(u_hi) is below an ulp of
	// F(u_lo) once a_hi − a_lo > 40 (e^a·E1(a) and P(a) grow slower than
	// e^{40} over that range).
	flo := math.Exp(-alo) * (rs.c*e1Scaled(alo) + rs.poly(alo))
	if ahi-alo > 40 {
		return flo
	}
	return flo - math.Exp(-ahi)*(rs.c*e1Scaled(ahi)+rs.poly(ahi))
}

// kappaDiff returns (κ(u_hi) − κ(u_lo)) for a_lo = arg(u_lo²) ≤ a_hi
// without cancellation: e^{−a_lo}·(K(a_lo)·expm1(−Δ) + e^{−Δ}·ΔK),
// Δ = a_hi − a_lo.
//
// That form is not finite where an argument is past about 1e154 (a
// Matérn-5/2 K(a) = 1 + a + a²/3 overflows for a ≳ 1.3e154: distances
// beyond 6e153 lengthscales, reached at ℓ = 1 on boxes whose corner is
// about 8.5e153 from the origin) or infinite (u² overflows, at ℓ < 1):
// e^{−a}·K(a) was 0·∞ there, a NaN gradient. κ of such an argument is 0
// in float64 (e^{−a} underflows long before K overflows), so the
// difference is then κ(u_hi) − κ(u_lo) with no cancellation to avoid:
// one term at least is 0. Wherever the form is finite it is returned
// unchanged, bit for bit.
func kappaDiff(rs *radialSpec, alo, ahi float64) float64 {
	dl := ahi - alo
	r := math.Exp(-alo) * (rs.kpoly(alo)*math.Expm1(-dl) + math.Exp(-dl)*dl*rs.kdiff(alo, ahi))
	if math.IsNaN(r) || math.IsInf(r, 0) {
		return kappaArg(rs, ahi) - kappaArg(rs, alo)
	}
	return r
}

// kappaArg is κ = e^{−a}·K(a) at the argument a ≥ 0: 0 where e^{−a}
// underflows (a > 745), whether or not K(a) overflows.
func kappaArg(rs *radialSpec, a float64) float64 {
	e := math.Exp(-a)
	if e == 0 {
		return 0
	}
	return e * rs.kpoly(a)
}

// scalingQuad holds one pair for the quadrature route: x, y and their
// log-scaling ranges.
type scalingQuad struct {
	rs             *radialSpec
	shape          Shape
	inv2           float64
	x, y           []float64
	A1, B1, A2, B2 float64
	a1, b1, a2, b2 float64
	vec            []float64 // gradient: e^q·x − y (d floats of scratch)
}

func sqDistScaled(x, y []float64, c, cp float64) float64 {
	var s float64
	for k := range x {
		t := c*x[k] - cp*y[k]
		s += t * t
	}
	return s
}

// chord returns, for the line q, the chord's squared end distances in
// units of ℓ² and half its length in p (= ln(u_hi/u_lo)).
func (sq *scalingQuad) chord(q float64) (u2lo, u2hi, h float64) {
	var slo, shi float64
	var cxl, cyl, cxh, cyh float64
	if q <= sq.a1-sq.a2 { // lower end on s = a₁, t = a₁ − q
		slo = sq.a1
		cxl, cyl = sq.A1, math.Exp(sq.a1-q)
	} else { // on t = a₂, s = a₂ + q
		slo = sq.a2 + q
		cxl, cyl = math.Exp(slo), sq.A2
	}
	if q <= sq.b1-sq.b2 { // upper end on t = b₂, s = b₂ + q
		shi = sq.b2 + q
		cxh, cyh = math.Exp(shi), sq.B2
	} else { // on s = b₁, t = b₁ − q
		shi = sq.b1
		cxh, cyh = sq.B1, math.Exp(sq.b1-q)
	}
	h = shi - slo
	u2lo = sqDistScaled(sq.x, sq.y, cxl, cyl) * sq.inv2
	u2hi = sqDistScaled(sq.x, sq.y, cxh, cyh) * sq.inv2
	return u2lo, u2hi, h
}

// valueAt writes f(q) into out[0].
func (sq *scalingQuad) valueAt(q float64, out []float64) {
	u2lo, u2hi, h := sq.chord(q)
	out[0] = chordInt(sq.rs, u2lo, u2hi, h)
}

// gradAt writes f(q) into out[0] and (e^q·x − y)·(κ(u_hi) − κ(u_lo))/W(q)
// into out[1:1+d].
func (sq *scalingQuad) gradAt(q float64, out []float64) {
	u2lo, u2hi, h := sq.chord(q)
	out[0] = chordInt(sq.rs, u2lo, u2hi, h)
	eq := math.Exp(q)
	var n2 float64
	for k, xk := range sq.x {
		v := eq*xk - sq.y[k]
		sq.vec[k] = v
		n2 += v * v
	}
	w := n2 / eq // W(q) = ‖e^q x − y‖²·e^{−q}
	// The square overflowed (W is then ∞, or ∞/∞ = NaN where e^q did).
	far := !(n2 <= math.MaxFloat64)
	var c, dk float64
	if h > 0 && (w > 0 || far) {
		alo, ahi := sq.rs.arg(u2lo), sq.rs.arg(u2hi)
		dk = kappaDiff(sq.rs, alo, ahi)
		c = dk / w
	}
	if far || (dk != 0 && !(math.Abs(c) >= 0x1p-1022) && w >= 0x1p512) {
		sq.gradFar(q, dk, out)
		return
	}
	for k, v := range sq.vec {
		out[1+k] = c * v
	}
}

// gradFar writes gradAt's out[1:1+d], Δκ·e^q·(e^q x − y)/‖e^q x − y‖²
// with Δκ = dk, where gradAt's form c·(e^q x − y), c = Δκ/W, loses it:
// ‖e^q x − y‖² overflows (on boxes whose corner is near 1.3e154 from the
// origin, or whose sides span many orders of magnitude: e^q reaches
// B₁/A₂, up to (hi/lo)²; or e^q itself overflows), or W (in units of
// length², about ‖x‖²) is past 2^512 and c is subnormal (Δκ < W·2^−1022:
// at W ≈ 1e305, radii ~1e152, every Δκ below 1e−3). c was then subnormal
// or 0 (Δκ/∞) — the term's digits lost or the term dropped, although
// c·|e^q x − y|, about Δκ/√W, is of the gradient's own order 1/‖x‖
// there (ℓ = 1e150 on the box [1.7e150, 1.3e153]²: ∂k/∂x₀ was 2.8e−194
// where it is −1.13e−192) — or 0·∞ = NaN once e^q overflowed. Where W <
// 2^512 a subnormal c means Δκ < 2^−510, a term that small beside κ's
// own scale, and gradAt's arithmetic is kept there as everywhere else
// (bit for bit: the committed records and golden values are unchanged).
// Here the vector is z = x − e^{−q}·y for q > 0 (e^{−q}·(e^q x − y); the
// factor f = 1), z = e^q x − y otherwise (f = e^q), scaled by its
// largest |z_k| = m before squaring: Δκ·(f·((z_k/m)/‖z/m‖²/m)).
func (sq *scalingQuad) gradFar(q, dk float64, out []float64) {
	f := 1.0
	if q > 0 {
		e := math.Exp(-q)
		for k, xk := range sq.x {
			sq.vec[k] = xk - e*sq.y[k]
		}
	} else {
		f = math.Exp(q)
		for k, xk := range sq.x {
			sq.vec[k] = f*xk - sq.y[k]
		}
	}
	var m float64
	for _, v := range sq.vec {
		m = max(m, math.Abs(v))
	}
	if dk == 0 || !(m > 0 && m <= math.MaxFloat64) {
		for k := range sq.vec {
			out[1+k] = 0
		}
		return
	}
	var s2 float64
	for _, v := range sq.vec {
		s2 += (v / m) * (v / m)
	}
	for k, v := range sq.vec {
		out[1+k] = dk * (f * ((v / m) / s2 / m))
	}
}

// maxBreaks bounds the break points of one quadrature (graded ones
// included: 4^j grows past any range within 2·15 points from σ ≥ 1e−9 of
// it, plus the others), below gkMaxPanels.
const maxBreaks = 40

// windowMargin: the window of the q-integral is where a(u_lo(q)²) is
// within windowMargin of its minimum, so that outside it f(q) ≤ F(u_lo(q))
// is below e^{−windowMargin} ≈ 2e−22 of F at the orbits' closest
// approach.
const windowMargin = 50

// breaks finds the window [wlo, whi] ⊂ [lo, hi] = [a₁ − b₂, b₁ − a₂] of
// the q-integral outside which f(q) ≤ F(u_lo(q)) ≤ fU = F(U), U the
// distance where a(U²) is windowMargin above its value at the orbits'
// closest approach (from the distance along the lower edges of the
// rectangle, a quadratic in the free scaling), and writes into bp
// (capacity maxBreaks) the break points within it, sorted: its ends, the
// kinks of the chord's ends, for a window narrower than half the range the
// points q₀ ± ln(1/cos θ) where the lower chord ends pass closest to the
// other orbit (θ the angle between x and y), and points graded
// geometrically toward q₀ = ln(‖y‖/‖x‖) (gradedBreaks) where f has
// structure there much finer than the window (σ below 1/100 of it, where
// the Gauss–Kronrod error estimate of a panel across it can be fooled;
// coarser structure the bisection finds): a Matérn κ's branch points at
// q₀ ± iθ (σ = θ), or for the RBF (f entire) a peak of width
// σ = max(θ, 1/r_t), r_t the top of the orbits in lengthscales.
func (sq *scalingQuad) breaks(bp []float64) (out []float64, wlo, whi, fU float64) {
	lo, hi := sq.a1-sq.b2, sq.b1-sq.a2
	var X, Y, P float64
	for k := range sq.x {
		X += sq.x[k] * sq.x[k]
		Y += sq.y[k] * sq.y[k]
		P += sq.x[k] * sq.y[k]
	}
	nx, ny := math.Sqrt(X), math.Sqrt(Y)
	q0 := math.Log(ny / nx)
	th := angle(sq.x, sq.y, nx, ny)
	sin2 := math.Sin(th) * math.Sin(th)
	// Lower edges: s = a₁ (c = A₁, c' ∈ [A₂, B₂], q = a₁ − ln c') and
	// t = a₂ (c' = A₂, c ∈ [A₁, B₁], q = ln c − a₂); the squared distance
	// is Y·(c' − A₁·P/Y)² + A₁²·X·sin²θ on the first (likewise).
	e1 := edgeQuad{m: Y, proj: sq.A1 * P / Y, perp: sq.A1 * sq.A1 * X * sin2, lo: sq.A2, hi: sq.B2}
	e2 := edgeQuad{m: X, proj: sq.A2 * P / X, perp: sq.A2 * sq.A2 * Y * sin2, lo: sq.A1, hi: sq.B1}
	umin2 := min(e1.minDist2(), e2.minDist2()) * sq.inv2
	aU := sq.rs.arg(umin2) + windowMargin
	U2 := sq.rs.u2(aU) / sq.inv2 // in units of length²
	wlo, whi = hi, lo
	if c0, c1, ok := e1.within(U2); ok {
		wlo, whi = min(wlo, sq.a1-math.Log(c1)), max(whi, sq.a1-math.Log(c0))
	}
	if c0, c1, ok := e2.within(U2); ok {
		wlo, whi = min(wlo, math.Log(c0)-sq.a2), max(whi, math.Log(c1)-sq.a2)
	}
	wlo, whi = max(wlo, lo), min(whi, hi)
	fU = math.Exp(-aU) * (sq.rs.c*e1Scaled(aU) + sq.rs.poly(aU))
	if !(wlo < whi) { // rounding: the window is a point; keep the range
		wlo, whi = lo, hi
	}
	bp = append(bp[:0], wlo, whi, sq.a1-sq.a2, sq.b1-sq.b2)
	if th < math.Pi/2 && whi-wlo < 0.5*(hi-lo) {
		lc := -math.Log(math.Cos(th))
		bp = append(bp, q0-lc, q0+lc)
	}
	sig := th
	if sq.shape == RBF {
		rt := math.Sqrt(sq.B1 * nx * sq.B2 * ny * sq.inv2)
		sig = max(th, 1/rt)
	}
	if !(sig < 0.01*(whi-wlo)) {
		sig = -1
	}
	return gradedBreaks(bp, wlo, whi, q0, sig), wlo, whi, fU
}

// edgeQuad is the squared distance along a lower edge of the rectangle,
// m·(c − proj)² + perp for the free scaling c ∈ [lo, hi].
type edgeQuad struct{ m, proj, perp, lo, hi float64 }

func (e edgeQuad) minDist2() float64 {
	c := min(max(e.proj, e.lo), e.hi)
	return e.m*(c-e.proj)*(c-e.proj) + e.perp
}

// within returns the scalings of [lo, hi] at squared distance ≤ u2.
func (e edgeQuad) within(u2 float64) (c0, c1 float64, ok bool) {
	r := (u2 - e.perp) / e.m
	if !(r >= 0) {
		return 0, 0, false
	}
	h := math.Sqrt(r)
	c0, c1 = max(e.proj-h, e.lo), min(e.proj+h, e.hi)
	return c0, c1, c0 <= c1
}

// angle returns the angle between x and y (norms nx, ny > 0) as
// 2·atan2(‖x̂ − ŷ‖, ‖x̂ + ŷ‖), accurate for nearly collinear pairs.
func angle(x, y []float64, nx, ny float64) float64 {
	var dm, dp float64
	for k := range x {
		a, b := x[k]/nx, y[k]/ny
		dm += (a - b) * (a - b)
		dp += (a + b) * (a + b)
	}
	return 2 * math.Atan2(math.Sqrt(dm), math.Sqrt(dp))
}

// gradedBreaks adds to the candidate points in bp the centre c and the
// points c ± σ'·4^j (j ≥ 0, σ' = max(σ, 1e−9·(hi − lo))) when σ ≥ 0,
// keeps the points in [lo, hi] (lo and hi must be among the candidates)
// and returns them sorted and distinct. The integrands have
// near-singularities or peaks at distance ~σ from c (a Matérn κ at the
// orbits' closest approach, an angle θ = σ away in the complex plane; an
// RBF peak ~ℓ/r wide): panels whose length is about their distance from c
// keep every panel's integrand smooth on its own scale, where the
// Gauss–Kronrod error estimate is reliable.
func gradedBreaks(bp []float64, lo, hi, c, sigma float64) []float64 {
	if sigma >= 0 && c > lo && c < hi {
		bp = append(bp, c)
		sigma = max(sigma, 1e-9*(hi-lo))
		for s := sigma; s < hi-lo && len(bp)+2 <= maxBreaks; s *= 4 {
			bp = append(bp, c-s, c+s)
		}
	}
	// Insertion sort, dropping points outside [lo, hi] and repeats.
	n := 0
	for _, v := range bp {
		if !(v >= lo && v <= hi) {
			continue
		}
		i := n
		for i > 0 && bp[i-1] > v {
			bp[i] = bp[i-1]
			i--
		}
		bp[i] = v
		n++
	}
	out := bp[:1]
	for _, v := range bp[1:n] {
		if v > out[len(out)-1] {
			out = append(out, v)
		}
	}
	return out
}

// edgeAt writes κ(‖c·x − e^t·y‖/ℓ) into out[0] for the edge data in e.
type scalingEdge struct {
	shape Shape
	inv2  float64
	c     float64
	x, y  []float64
}

func (e *scalingEdge) at(t float64, out []float64) {
	out[0] = kappaU2(e.shape, sqDistScaled(e.x, e.y, e.c, math.Exp(t))*e.inv2)
}

// gradAt writes κ'(u)/u·(c·x − e^t·y) into out[:d] (the gradient of κ
// in c·x, times ℓ²).
func (e *scalingEdge) gradAt(t float64, out []float64) {
	et := math.Exp(t)
	d2 := sqDistScaled(e.x, e.y, e.c, et) * e.inv2
	g := dkappaOverU(e.shape, math.Sqrt(d2))
	for k, xk := range e.x {
		out[k] = g * (e.c*xk - et*e.y[k])
	}
}

// edgeBreaks returns the break points of ∫_a^b κ(‖c·x − e^t·y‖/ℓ) dt:
// the ends and points graded toward t* = ln(c·x·y/‖y‖²), the scaling of
// y nearest c·x (gradedBreaks, σ = min(θ, ℓ/(c·‖x‖)) for the angle θ
// between x and y). bp needs capacity maxBreaks.
func edgeBreaks(bp []float64, x, y []float64, c, a, b, ell float64) []float64 {
	var xy, xx, yy float64
	for k := range x {
		xy += x[k] * y[k]
		xx += x[k] * x[k]
		yy += y[k] * y[k]
	}
	bp = append(bp[:0], a, b)
	if !(xy > 0 && yy > 0 && xx > 0) {
		return bp
	}
	nx, ny := math.Sqrt(xx), math.Sqrt(yy)
	return gradedBreaks(bp, a, b, math.Log(c*xy/yy), min(angle(x, y, nx, ny), ell/(c*nx)))
}
