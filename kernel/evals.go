package kernel

import (
	"math"

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
	v, s, inv2 := e.p.Variance, e.p.Shape, e.inv2
	for i := range n {
		x := px[i*fl : (i+1)*fl]
		var d2 float64
		for k, yk := range py[:fl] {
			t := x[k] - yk
			d2 += t * t
		}
		out[i*stride] = v * kappaU2(s, d2*inv2)
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
		for k := range x {
			dst[k] = c * (x[k] - y[k])
		}
	}
}

// radialMaxGrad is the gradient of v·κ(|‖x‖ − ‖y‖|/ℓ) in x (planar
// rotations): v/ℓ²·κ'(u)/u·(r − s)·x/r, zero at r = 0.
func radialMaxGrad(p Params) gradFunc {
	inv2 := 1 / (p.Lengthscale * p.Lengthscale)
	return func(dst, x, y, _ []float64) {
		r, s := math.Hypot(x[0], x[1]), math.Hypot(y[0], y[1])
		if r == 0 {
			dst[0], dst[1] = 0, 0
			return
		}
		c := p.Variance * inv2 * dkappaOverU(p.Shape, math.Abs(r-s)*math.Sqrt(inv2)) * (r - s) / r
		dst[0], dst[1] = c*x[0], c*x[1]
	}
}

// distEval is v·κ(d_G(x, y)/ℓ) through the group's closed-form orbit
// distance.
type distEval struct {
	p    Params
	inv2 float64
	d    int
	dist orbit.Distancer
}

func (e *distEval) xLen() int              { return e.d }
func (e *distEval) yLen() int              { return e.d }
func (e *distEval) prepX(dst, x []float64) { copy(dst, x) }
func (e *distEval) prepY(dst, y []float64) { copy(dst, y) }

func (e *distEval) column(out []float64, stride int, px []float64, n int, py []float64) {
	d := e.d
	for i := range n {
		d2 := max(e.dist.OrbitDist2(px[i*d:(i+1)*d], py[:d]), 0)
		out[i*stride] = e.p.Variance * kappaU2(e.p.Shape, d2*e.inv2)
	}
}

// enumEval enumerates the orbit of y under a finite group of isometries
// and fuses the inner products ⟨x, g·y⟩ with the reduction:
//
//	max: k = v·κ(√(‖x‖² + ‖y‖² − 2·max_g ⟨x, g·y⟩)/ℓ)  (one κ per pair)
//	avg: k = v/|G|·Σ_g κ(√(‖x‖² + ‖y‖² − 2⟨x, g·y⟩)/ℓ)  (one κ per element)
//
// with squared distances clamped at 0. Prepared x is (x, ‖x‖²); prepared y
// is (g_0·y, …, g_{|G|−1}·y, ‖y‖²).
type enumEval struct {
	p     Params
	inv2  float64
	d, G  int
	g     orbit.Finite
	isMax bool
}

func (e *enumEval) xLen() int { return e.d + 1 }
func (e *enumEval) yLen() int { return e.G*e.d + 1 }

func (e *enumEval) prepX(dst, x []float64) {
	copy(dst, x)
	dst[e.d] = dot(x, x)
}

func (e *enumEval) prepY(dst, y []float64) {
	d := e.d
	for i := range e.G {
		e.g.ActTo(dst[i*d:(i+1)*d], y, i)
	}
	dst[e.G*d] = dot(y, y)
}

func dot(x, y []float64) float64 {
	var s float64
	for k, v := range x {
		s += v * y[k]
	}
	return s
}

func (e *enumEval) column(out []float64, stride int, px []float64, n int, py []float64) {
	d, G := e.d, e.G
	orb := py[:G*d]
	ny := py[G*d]
	xl := d + 1
	if e.isMax {
		i := 0
		for ; i+4 <= n; i += 4 {
			var b [4]float64
			maxDot4(&b, px[i*xl:(i+4)*xl], xl, d, orb)
			for r := range 4 {
				out[(i+r)*stride] = e.maxValue(px[(i+r)*xl+d], ny, b[r])
			}
		}
		for ; i < n; i++ {
			b := maxDot1(px[i*xl:i*xl+d], d, orb)
			out[i*stride] = e.maxValue(px[i*xl+d], ny, b)
		}
		return
	}
	sh, inv2 := e.p.Shape, e.inv2
	scale := e.p.Variance / float64(G)
	for i := range n {
		x := px[i*xl : i*xl+d]
		nxy := px[i*xl+d] + ny
		var acc float64
		for gi := range G {
			o := orb[gi*d : gi*d+d]
			var s float64
			for k, ok := range o {
				s += x[k] * ok
			}
			acc += kappaU2(sh, max(nxy-2*s, 0)*inv2)
		}
		out[i*stride] = scale * acc
	}
}

func (e *enumEval) maxValue(nx, ny, best float64) float64 {
	d2 := max(nx+ny-2*best, 0)
	return e.p.Variance * kappaU2(e.p.Shape, d2*e.inv2)
}

// maxDot1 returns max_g ⟨x, o_g⟩ over the orbit orb (rows of length d).
// Every inner product is summed in coordinate order from 0, exactly as in
// maxDot4, so both give the same bits.
func maxDot1(x []float64, d int, orb []float64) float64 {
	best := math.Inf(-1)
	for off := 0; off+d <= len(orb); off += d {
		o := orb[off : off+d]
		var s float64
		for k, ok := range o {
			s += x[k] * ok
		}
		if s > best {
			best = s
		}
	}
	return best
}

// maxDot4 is maxDot1 for four rows of px at once (row stride xl), sharing
// each load of g·y.
func maxDot4(b *[4]float64, px []float64, xl, d int, orb []float64) {
	x0 := px[0:d]
	x1 := px[xl : xl+d]
	x2 := px[2*xl : 2*xl+d]
	x3 := px[3*xl : 3*xl+d]
	b0, b1, b2, b3 := math.Inf(-1), math.Inf(-1), math.Inf(-1), math.Inf(-1)
	for off := 0; off+d <= len(orb); off += d {
		o := orb[off : off+d]
		var s0, s1, s2, s3 float64
		for k, ok := range o {
			s0 += x0[k] * ok
			s1 += x1[k] * ok
			s2 += x2[k] * ok
			s3 += x3[k] * ok
		}
		if s0 > b0 {
			b0 = s0
		}
		if s1 > b1 {
			b1 = s1
		}
		if s2 > b2 {
			b2 = s2
		}
		if s3 > b3 {
			b3 = s3
		}
	}
	b[0], b[1], b[2], b[3] = b0, b1, b2, b3
}

// enumGrad is the exact gradient for finite groups: for max, the base
// gradient at the first maximizing element g* (k_max is differentiable
// wherever g* is unique); for avg, the mean of the element gradients.
// scratch holds |G|·d + d floats.
func (e *enumEval) grad(dst, x, y, scratch []float64) {
	d, G := e.d, e.G
	orb := scratch[:G*d]
	diff := scratch[G*d : G*d+d]
	for i := range G {
		e.g.ActTo(orb[i*d:(i+1)*d], y, i)
	}
	vi := e.p.Variance * e.inv2
	sl := math.Sqrt(e.inv2)
	if e.isMax {
		best, arg := math.Inf(-1), 0
		for i := range G {
			if s := dot(x, orb[i*d:(i+1)*d]); s > best {
				best, arg = s, i
			}
		}
		o := orb[arg*d : arg*d+d]
		var d2 float64
		for k := range d {
			diff[k] = x[k] - o[k]
			d2 += diff[k] * diff[k]
		}
		c := vi * dkappaOverU(e.p.Shape, math.Sqrt(d2)*sl)
		for k := range d {
			dst[k] = c * diff[k]
		}
		return
	}
	clear(dst)
	for i := range G {
		o := orb[i*d : i*d+d]
		var d2 float64
		for k := range d {
			diff[k] = x[k] - o[k]
			d2 += diff[k] * diff[k]
		}
		c := dkappaOverU(e.p.Shape, math.Sqrt(d2)*sl)
		for k := range d {
			dst[k] += c * diff[k]
		}
	}
	c := vi / float64(G)
	for k := range d {
		dst[k] *= c
	}
}
