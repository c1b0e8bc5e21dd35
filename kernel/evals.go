package kernel

import (
	"math"

	"github.com/symbo/symbo/internal/f64"
	"github.com/symbo/symbo/orbit"
)

// featureEval is v·κ(‖φ(x) − φ(y)‖/ℓ) for a feature map φ of length fl:
// the identity (base kernel), a canonical map (closed-form k_max,
// Proposition 1 of the paper) or the radius (k_max for planar rotations).
type featureEval struct {
	p    Params
	inv2 float64 // 1/ℓ²
	fl   int
	phi  func(dst, x []float64)
	raw  bool // write the squared distances u² instead of v·κ (OrbitDist2To)
}

func newFeatureEval(p Params, fl int, phi func(dst, x []float64)) *featureEval {
	return &featureEval{p: p, inv2: 1 / (p.Lengthscale * p.Lengthscale), fl: fl, phi: phi}
}

func (e *featureEval) xLen() int              { return e.fl }
func (e *featureEval) yLen() int              { return e.fl }
func (e *featureEval) prepX(dst, x []float64) { e.phi(dst, x) }
func (e *featureEval) prepY(dst, y []float64) { e.phi(dst, y) }

func (e *featureEval) column(out []float64, stride int, px []float64, n int, py []float64) {
	fl := e.fl
	y := py[:fl]
	var b [maxChunk]float64
	for i0 := 0; i0 < n; i0 += maxChunk {
		m := min(maxChunk, n-i0)
		for r := range m {
			x := px[(i0+r)*fl : (i0+r+1)*fl]
			var d2 float64
			for k, yk := range y {
				t := x[k] - yk
				d2 += t * t
			}
			b[r] = d2 * e.inv2
		}
		outU2(out[i0*stride:], stride, b[:m], e.p, e.raw)
	}
}

func (e *featureEval) rowLen() int { return 0 }

// row is column's computation with the roles of the loops exchanged: the
// squared distances go straight into out, then κ in place.
func (e *featureEval) row(out, px, py []float64, m int, _ []float64) {
	fl := e.fl
	x := px[:fl]
	out = out[:m]
	py = py[:m*fl]
	if fl == 5 {
		sqDistRow5(out, x, py, e.inv2)
		if !e.raw {
			kappaRow(out, e.p)
		}
		return
	}
	for j := range out {
		y := py[j*fl : j*fl+fl]
		var d2 float64
		for k, yk := range y {
			t := x[k] - yk
			d2 += t * t
		}
		out[j] = d2 * e.inv2
	}
	if !e.raw {
		kappaRow(out, e.p)
	}
}

// sqDistRow5 is row's distance loop for five features with x in
// registers; the same operations in the same order (bit for bit).
func sqDistRow5(out, x, py []float64, inv2 float64) {
	x0, x1, x2, x3, x4 := x[0], x[1], x[2], x[3], x[4]
	for j := range out {
		y := py[j*5 : j*5+5 : j*5+5]
		t0, t1, t2, t3, t4 := x0-y[0], x1-y[1], x2-y[2], x3-y[3], x4-y[4]
		var d2 float64
		d2 += t0 * t0
		d2 += t1 * t1
		d2 += t2 * t2
		d2 += t3 * t3
		d2 += t4 * t4
		out[j] = d2 * inv2
	}
}

// kappaRow overwrites u2 with v·κ(√u2[j]), exactly as kappaOut. The
// last len(u2) mod 8 values go through a zero-padded block of 8, so that
// f64.KappaTo never falls back to its scalar loop (the same bits: every
// value is independent of the others and of the path).
func kappaRow(u2 []float64, p Params) {
	sh := f64Shape(p.Shape)
	n := len(u2) &^ 7
	if n > 0 {
		f64.KappaTo(u2[:n], u2[:n], sh)
	}
	if tail := u2[n:]; len(tail) > 0 {
		var b [8]float64
		copy(b[:], tail)
		f64.KappaTo(b[:], b[:], sh)
		copy(tail, b[:])
	}
	v := p.Variance
	for j, k := range u2 {
		u2[j] = v * k
	}
}

// outU2 is kappaOut, or with raw the squared distances u2 themselves.
func outU2(out []float64, stride int, u2 []float64, p Params, raw bool) {
	if raw {
		for r, v := range u2 {
			out[r*stride] = v
		}
		return
	}
	kappaOut(out, stride, u2, p)
}

// kappaOut writes v·κ(√u2[r]) to out[r·stride] through f64.KappaTo (the
// vectorized exponential; the same bits on every SIMD path and for every
// chunking), overwriting u2. The base kernel, closed-form and enumerated
// k_max all go through it, so they share one definition of κ, within
// f64.ExpMaxUlp-level rounding of κ with math.Exp.
func kappaOut(out []float64, stride int, u2 []float64, p Params) {
	f64.KappaTo(u2, u2, f64Shape(p.Shape))
	v := p.Variance
	for r, k := range u2 {
		out[r*stride] = v * k
	}
}

func identity(dst, x []float64) { copy(dst, x) }

func radius(dst, x []float64) { dst[0] = math.Hypot(x[0], x[1]) }

// baseGrad is the analytic gradient of v·κ(‖x − y‖/ℓ) in x.
func baseGrad(p Params) gradFunc {
	inv2 := 1 / (p.Lengthscale * p.Lengthscale)
	return func(dst, x, y, _ []float64) {
		var d2 float64
		for k := range x {
			t := x[k] - y[k]
			d2 += t * t
		}
		c := p.Variance * inv2 * dkappaOverU(p.Shape, math.Sqrt(d2*inv2))
		gradToward(dst, p, c, d2, x, y)
	}
}

// distEval is v·κ(d_G(x, y)/ℓ) through the group's closed-form orbit
// distance.
type distEval struct {
	p    Params
	inv2 float64
	d    int
	dist orbit.Distancer
	raw  bool // squared distances instead of v·κ
}

func (e *distEval) xLen() int              { return e.d }
func (e *distEval) yLen() int              { return e.d }
func (e *distEval) prepX(dst, x []float64) { copy(dst, x) }
func (e *distEval) prepY(dst, y []float64) { copy(dst, y) }

func (e *distEval) column(out []float64, stride int, px []float64, n int, py []float64) {
	d := e.d
	var b [maxChunk]float64
	for i0 := 0; i0 < n; i0 += maxChunk {
		m := min(maxChunk, n-i0)
		for r := range m {
			i := i0 + r
			b[r] = max(e.dist.OrbitDist2(px[i*d:(i+1)*d], py[:d]), 0) * e.inv2
		}
		outU2(out[i0*stride:], stride, b[:m], e.p, e.raw)
	}
}

func (e *distEval) rowLen() int { return 0 }

func (e *distEval) row(out, px, py []float64, m int, _ []float64) {
	d := e.d
	x := px[:d]
	out = out[:m]
	for j := range out {
		out[j] = max(e.dist.OrbitDist2(x, py[j*d:(j+1)*d]), 0) * e.inv2
	}
	if !e.raw {
		kappaRow(out, e.p)
	}
}

// enumEval enumerates the orbit of y under a finite group of isometries
// and fuses the inner products ⟨x, g·y⟩ with the reduction:
//
//	max: k = v·κ(√(‖x‖² + ‖y‖² − 2·max_g ⟨x, g·y⟩)/ℓ)  (one κ per pair)
//	avg: k = v/|G|·Σ_g κ(√(‖x‖² + ‖y‖² − 2⟨x, g·y⟩)/ℓ)  (one κ per element)
//
// with squared distances clamped at 0. Prepared x is (x, ‖x‖²); prepared y
// is the orbit g_0·y, …, g_{|G|−1}·y packed by f64.Pack (blocks of group
// elements, coordinate-major, padded with copies of the last element to a
// multiple of 8), then ‖y‖², then Wide·d floats of scratch. Max uses
// f64.MaxDot (SIMD where available, the same bits on every path); every
// inner product is summed s = x₀o₀, s = s + x_k·o_k in coordinate order.
// Avg uses f64.SumKappa (SIMD exp; the same bits on every path, each term
// within f64.ExpMaxUlp-level rounding of κ with math.Exp).
type enumEval struct {
	p     Params
	inv2  float64
	d, G  int
	g     orbit.Finite
	ra    orbit.RangeActor  // nil if g offers none
	pa    orbit.PackedActor // nil if g offers none
	isMax bool
	raw   bool // max only: squared distances instead of v·κ
}

func (e *enumEval) xLen() int { return e.d + 1 }

// yLen: the packed orbit, ‖y‖², Wide·d floats of enumeration scratch and G
// floats for the exact recomputation of a guarded pair (guard.go).
func (e *enumEval) yLen() int { return f64.PackedLen(e.G, e.d) + 1 + max(f64.Wide*e.d, e.G) }

func (e *enumEval) prepX(dst, x []float64) {
	copy(dst, x)
	dst[e.d] = dot(x, x)
}

// actRange writes g_i·y for i = lo … hi−1 (row-major) into dst, through
// orbit.RangeActor when the group offers it (the same values as ActTo).
func (e *enumEval) actRange(dst, y []float64, lo, hi int) {
	if e.ra != nil {
		e.ra.ActRangeTo(dst, y, lo, hi)
		return
	}
	d := e.d
	for i := lo; i < hi; i++ {
		e.g.ActTo(dst[(i-lo)*d:(i-lo+1)*d], y, i)
	}
}

// prepY enumerates the orbit one block (Wide or Narrow elements) at a time
// into row-major scratch and transposes it into the packed block, padding
// with the last element.
func (e *enumEval) prepY(dst, y []float64) {
	d, G := e.d, e.G
	pl := f64.PackedLen(G, d)
	gp := pl / d
	tmp := dst[pl+1 : pl+1+f64.Wide*d]
	wideEnd := gp / f64.Wide * f64.Wide
	for g0 := 0; g0 < gp; {
		w := f64.Narrow
		if g0 < wideEnd {
			w = f64.Wide
		}
		hi := min(g0+w, G) // > g0: padding is less than Narrow elements
		nr := hi - g0
		blk := dst[g0*d : (g0+w)*d]
		if e.pa != nil {
			e.pa.ActPackedTo(blk, y, g0, hi, w)
			g0 += w
			continue
		}
		e.actRange(tmp[:nr*d], y, g0, hi)
		for k := range d {
			bk := blk[k*w : (k+1)*w]
			for l := range nr {
				bk[l] = tmp[l*d+k]
			}
			for l := nr; l < w; l++ {
				bk[l] = tmp[(nr-1)*d+k]
			}
		}
		g0 += w
	}
	dst[pl] = dot(y, y)
}

func dot(x, y []float64) float64 {
	var s float64
	for k, v := range x {
		s += v * y[k]
	}
	return s
}

// maxChunk is the number of rows handed to f64.MaxDot at once (a stack
// buffer, so that column allocates nothing).
const maxChunk = 64

func (e *enumEval) column(out []float64, stride int, px []float64, n int, py []float64) {
	d, G := e.d, e.G
	pl := f64.PackedLen(G, d)
	orb := py[:pl]
	ny := py[pl]
	xl := d + 1
	gam := fusedGamma(d) * e.inv2
	slope := fusedSlope(e.p.Shape)
	if e.isMax {
		var b [maxChunk]float64
		for i := 0; i < n; i += maxChunk {
			m := min(maxChunk, n-i)
			f64.MaxDot(b[:m], px[i*xl:], xl, d, orb)
			for r := range m {
				nx := px[(i+r)*xl+d]
				b[r] = max(nx+ny-2*b[r], 0) * e.inv2
				if bound := gam * (nx + ny); (e.raw && bound > FusedTol*b[r]) || (!e.raw && !fusedOK(e.p.Shape, slope, b[r], bound)) {
					x := px[(i+r)*xl : (i+r)*xl+d]
					b[r] = packedDist2(x, orb, G) * e.inv2
				}
			}
			outU2(out[i*stride:], stride, b[:m], e.p, e.raw)
		}
		return
	}
	sh := f64Shape(e.p.Shape)
	scale := e.p.Variance / float64(G)
	for i := range n {
		x := px[i*xl : i*xl+d]
		nxy := px[i*xl+d] + ny
		if slope*gam*nxy <= FusedTol {
			out[i*stride] = scale * f64.SumKappa(x, nxy, orb, G, sh, e.inv2)
		} else {
			out[i*stride] = scale * packedSumKappa(x, orb, G, sh, e.inv2, py[pl+1:])
		}
	}
}

// enumGradLen is the scratch of enumEval.grad over G elements in d
// dimensions.
func enumGradLen(G, d int) int { return G*d + d + 2*G }

// enumGrad is the exact gradient for finite groups: for max, the base
// gradient at the first maximizing element g* (k_max is differentiable
// wherever g* is unique); for avg, the mean of the element gradients.
// scratch holds |G|·d + d + 2|G| floats (enumGradLen).
func (e *enumEval) grad(dst, x, y, scratch []float64) {
	orb := scratch[:e.G*e.d]
	e.actRange(orb, y, 0, e.G)
	e.gradOrbit(dst, x, orb, nil, scratch)
}

// gradOrbit is grad given the orbit of y (|G|·d floats, actRange's
// order), which may be scratch[:|G|·d] itself, and, for k_avg, the same
// orbit packed (f64.Pack) or nil; the orbits are only read.
func (e *enumEval) gradOrbit(dst, x, orb, packed, scratch []float64) {
	d, G := e.d, e.G
	vi := e.p.Variance * e.inv2
	sl := math.Sqrt(e.inv2)
	if e.isMax {
		// The first element nearest x, from direct differences (the
		// inner-product argmax cancels far from the origin).
		best, arg := math.Inf(1), 0
		for i := range G {
			if s := sqDist(x, orb[i*d:(i+1)*d]); s < best {
				best, arg = s, i
			}
		}
		o := orb[arg*d : arg*d+d]
		d2 := sqDist(x, o)
		gradToward(dst, e.p, vi*dkappaOverU(e.p.Shape, math.Sqrt(d2)*sl), d2, x, o)
		return
	}
	// The squared distances to the G elements (from the packed orbit
	// eight or 32 at a time when there is one), the G values of κ'(u)/u
	// at once (their exponentials eight at a time), then their sum with
	// the differences in element order (f64.ScaledDiffSum): the bits of
	// the loop over elements that computes, sums and scales each
	// element's gradient in turn.
	us := scratch[G*d+d : G*d+d+G]
	cs := scratch[G*d+d+G : G*d+d+2*G]
	if packed != nil {
		f64.Dist2To(us, x, packed)
	} else {
		for i := range G {
			o := orb[i*d : i*d+d]
			var d2 float64
			for k, xk := range x {
				t := xk - o[k]
				d2 += float64(t * t) // as f64.Dist2To: no fusion
			}
			us[i] = d2
		}
	}
	tiny := false
	for i, d2 := range us {
		tiny = tiny || d2 < 0x1p-1022 && gradTiny(0, d2, x, orb[i*d:i*d+d])
		us[i] = math.Sqrt(d2) * sl
	}
	if tiny {
		e.gradOrbitSafe(dst, x, orb, scratch[G*d:G*d+d])
		return
	}
	dkappaOverUTo(e.p.Shape, cs, us)
	f64.ScaledDiffSum(dst, x, orb, cs)
	c := vi / float64(G)
	fin := true
	for k := range d {
		dst[k] *= c
		fin = fin && !math.IsInf(dst[k], 0) && !math.IsNaN(dst[k])
	}
	if !fin { // e.g. vi = v/ℓ² overflowed: the gradient may still be finite
		e.gradOrbitSafe(dst, x, orb, scratch[G*d:G*d+d])
	}
}

// gradOrbitSafe is gradOrbit's k_avg gradient with every element's
// through gradSafe, for an x within a sub-normal distance of some
// element of the orbit (gradTiny) or a gradient that came out
// non-finite. tmp holds d floats.
func (e *enumEval) gradOrbitSafe(dst, x, orb, tmp []float64) {
	d, G := e.d, e.G
	clear(dst)
	for i := range G {
		gradSafe(tmp, e.p, x, orb[i*d:i*d+d])
		for k := range d {
			dst[k] += tmp[k]
		}
	}
	for k := range d {
		dst[k] /= float64(G)
	}
}

// alignGrad is the analytic gradient of k_max = v·κ(d_G(x, y)/ℓ) through
// the group's nearest orbit point a = g*·y (orbit.Aligner):
// ∇ₓ = v/ℓ²·κ'(u)/u·(x − a), u = ‖x − a‖/ℓ, exact wherever g* is unique
// (almost everywhere), at O(d log d) (sorts) or O(m³) (assignments) per
// pair instead of O(|G|·d). scratch holds d floats.
func alignGrad(p Params, al orbit.Aligner) gradFunc {
	inv2 := 1 / (p.Lengthscale * p.Lengthscale)
	sl := 1 / p.Lengthscale
	return func(dst, x, y, scratch []float64) {
		a := scratch[:len(x)]
		d2 := al.AlignTo(a, x, y)
		c := p.Variance * inv2 * dkappaOverU(p.Shape, math.Sqrt(d2)*sl)
		gradToward(dst, p, c, d2, x, a)
	}
}
