package kernel

import (
	"math"
)

// rotAvgEval is k_avg for SO(2) as a function of the radii r = ‖x‖ and
// s = ‖y‖:
//
//	RBF (closed, the paper's Example 1):
//	  v·exp(−(r²+s²)/2ℓ²)·I₀(rs/ℓ²) = v·exp(−(r−s)²/2ℓ²)·i0e(rs/ℓ²)
//	other shapes (trapezoidal rule in the relative angle ψ, M nodes):
//	  v/M·Σ_j κ(ρ_j/ℓ), ρ_j² = (r−s)² + 4rs·sin²(πj/M), ψ_j = 2πj/M.
//
// The M-node rule is exactly the orbit average over the cyclic subgroup
// C_M, so it is PSD and exactly invariant.
type rotAvgEval struct {
	p      Params
	inv2   float64
	closed bool
	m      int
	sin2   []float64 // sin²(πj/M), j = 0 … ⌊M/2⌋
	w      []float64 // node weights folded by symmetry: 1/M, 2/M, …, (1 or 2)/M
}

func newRotAvgEval(p Params, closed bool, m int) *rotAvgEval {
	e := &rotAvgEval{p: p, inv2: 1 / (p.Lengthscale * p.Lengthscale), closed: closed, m: m}
	if !closed {
		h := m / 2
		e.sin2 = make([]float64, h+1)
		e.w = make([]float64, h+1)
		for j := 0; j <= h; j++ {
			s := math.Sin(math.Pi * float64(j) / float64(m))
			e.sin2[j] = s * s
			e.w[j] = 2 / float64(m)
		}
		e.w[0] = 1 / float64(m)
		if m%2 == 0 {
			e.w[h] = 1 / float64(m)
		}
	}
	return e
}

func (e *rotAvgEval) xLen() int              { return 1 }
func (e *rotAvgEval) yLen() int              { return 1 }
func (e *rotAvgEval) prepX(dst, x []float64) { radius(dst, x) }
func (e *rotAvgEval) prepY(dst, y []float64) { radius(dst, y) }

func (e *rotAvgEval) column(out []float64, stride int, px []float64, n int, py []float64) {
	s := py[0]
	for i := range n {
		out[i*stride] = e.value(px[i], s)
	}
}

func (e *rotAvgEval) rowLen() int { return 0 }

func (e *rotAvgEval) row(out, px, py []float64, m int, _ []float64) {
	r := px[0]
	for j, s := range py[:m] {
		out[j] = e.value(r, s)
	}
}

func (e *rotAvgEval) value(r, s float64) float64 {
	dr := r - s
	if e.closed {
		return e.p.Variance * math.Exp(-0.5*dr*dr*e.inv2) * i0e(r*s*e.inv2)
	}
	var acc float64
	rs4 := 4 * r * s
	for j, w := range e.w {
		acc += w * kappaU2(e.p.Shape, rho2(dr, rs4, e.sin2[j])*e.inv2)
	}
	return e.p.Variance * acc
}

// rho2 is ρ² = dr² + rs4·sin², without the 0·∞ of a node with sin² = 0
// (ψ = 0, ρ = |r − s|) where rs4 = 4rs overflows (radii beyond about
// 6.7e153): that node's term was NaN, and k(x, x) with it. Bit for bit
// dr² + rs4·sin² wherever rs4 is finite.
func rho2(dr, rs4, sin2 float64) float64 {
	if sin2 == 0 {
		return dr * dr
	}
	return dr*dr + rs4*sin2
}

// grad is ∂k/∂r·x/r (zero at r = 0, where k is flat in x by symmetry).
func (e *rotAvgEval) grad(dst, x, y, _ []float64) {
	r, s := math.Hypot(x[0], x[1]), math.Hypot(y[0], y[1])
	if r == 0 {
		dst[0], dst[1] = 0, 0
		return
	}
	var dkdr float64
	dr := r - s
	if e.closed {
		z := r * s * e.inv2
		dkdr = e.p.Variance * math.Exp(-0.5*dr*dr*e.inv2) * e.inv2 * (s*i1e(z) - r*i0e(z))
	} else {
		dkdr = e.p.Variance * e.inv2 * e.gradSum(r, s, math.Sqrt(e.inv2))
	}
	c := dkdr / r
	dst[0], dst[1] = c*x[0], c*x[1]
	if finite(dst[0]) && finite(dst[1]) {
		return
	}
	// v/ℓ² overflowed (a large v over a small ℓ) although the gradient,
	// at most about v/ℓ, need not: scale by 1/ℓ twice, and by x/r.
	sl := math.Sqrt(e.inv2)
	if e.closed {
		z := r * s * e.inv2
		dkdr = e.p.Variance * math.Exp(-0.5*dr*dr*e.inv2) * (((s*i1e(z) - r*i0e(z)) * sl) * sl)
	} else {
		dkdr = e.p.Variance * ((e.gradSum(r, s, sl) * sl) * sl)
	}
	dst[0], dst[1] = dkdr*(x[0]/r), dkdr*(x[1]/r)
}

// gradSum is the quadrature sum of grad: Σ_j w_j·κ'(ρ_j/ℓ)/(ρ_j/ℓ)·(r −
// s·cos θ_j), ρ_j the distance at angle θ_j, sl = 1/ℓ; ∂k/∂r is
// v/ℓ²·gradSum.
func (e *rotAvgEval) gradSum(r, s, sl float64) float64 {
	dr := r - s
	rs4 := 4 * r * s
	var acc float64
	for j, w := range e.w {
		rho := math.Sqrt(rho2(dr, rs4, e.sin2[j]))
		cos := 1 - 2*e.sin2[j]
		// A node where κ'(u)/u is 0 adds nothing: skipped, for its
		// r − s·cos overflows where r + s does (0·∞); adding its ±0
		// left acc's bits as they are.
		if dk := dkappaOverU(e.p.Shape, rho*sl); dk != 0 {
			acc += w * dk * (r - s*cos)
		}
	}
	return acc
}

func finite(v float64) bool { return !math.IsInf(v, 0) && !math.IsNaN(v) }

// discEval evaluates an orbit kernel of a continuous group on m
// equal-weight orbit nodes (orbit.Discretizer): for isometric groups the
// single reduction over the nodes of y (1/m·Σ_b or max_b of
// k_b(x, y_b)); otherwise the double one over the nodes of both points
// (1/m²·Σ_{a,b} or max_{a,b} of k_b(x_a, y_b)).
type discEval struct {
	p     Params
	inv2  float64
	d, m  int
	nodes func(dst, x []float64, m int)
	iso   bool
	isMax bool
}

func (e *discEval) xLen() int {
	if e.iso {
		return e.d
	}
	return e.m * e.d
}
func (e *discEval) yLen() int { return e.m * e.d }

func (e *discEval) prepX(dst, x []float64) {
	if e.iso {
		copy(dst, x)
		return
	}
	e.nodes(dst, x, e.m)
}
func (e *discEval) prepY(dst, y []float64) { e.nodes(dst, y, e.m) }

func (e *discEval) column(out []float64, stride int, px []float64, n int, py []float64) {
	xl, d := e.xLen(), e.d
	for i := range n {
		xs := px[i*xl : (i+1)*xl]
		best := math.Inf(1)
		var acc float64
		for a := 0; a < xl; a += d {
			x := xs[a : a+d]
			for b := 0; b < len(py); b += d {
				var d2 float64
				for k, yk := range py[b : b+d] {
					t := x[k] - yk
					d2 += t * t
				}
				if e.isMax {
					best = min(best, d2)
				} else {
					acc += kappaU2(e.p.Shape, d2*e.inv2)
				}
			}
		}
		if e.isMax {
			out[i*stride] = e.p.Variance * kappaU2(e.p.Shape, best*e.inv2)
		} else {
			cnt := float64(xl/d) * float64(e.m)
			out[i*stride] = e.p.Variance * acc / cnt
		}
	}
}

// grad is the exact gradient of the isometric single reduction (the nodes
// of y do not depend on x). scratch holds m·d floats.
func (e *discEval) grad(dst, x, y, scratch []float64) {
	d := e.d
	nodes := scratch[:e.m*d]
	e.nodes(nodes, y, e.m)
	sl := math.Sqrt(e.inv2)
	vi := e.p.Variance * e.inv2
	if e.isMax {
		best, arg := math.Inf(1), 0
		for b := 0; b < len(nodes); b += d {
			if d2 := sqDist(x, nodes[b:b+d]); d2 < best {
				best, arg = d2, b
			}
		}
		c := vi * dkappaOverU(e.p.Shape, math.Sqrt(best)*sl)
		for k := range d {
			dst[k] = c * (x[k] - nodes[arg+k])
		}
		return
	}
	clear(dst)
	for b := 0; b < len(nodes); b += d {
		o := nodes[b : b+d]
		c := dkappaOverU(e.p.Shape, math.Sqrt(sqDist(x, o))*sl)
		for k := range d {
			dst[k] += c * (x[k] - o[k])
		}
	}
	c := vi / float64(e.m)
	for k := range d {
		dst[k] *= c
	}
}

func sqDist(x, y []float64) float64 {
	var s float64
	for k, v := range x {
		t := v - y[k]
		s += t * t
	}
	return s
}
