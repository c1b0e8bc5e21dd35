package kernel

import (
	"math"

	"github.com/symbo/symbo/orbit"
	"gonum.org/v1/gonum/integrate/quad"
)

// DefaultQuadratureGauss is the number of Gauss–Legendre nodes per orbit
// for k_avg over the scaling group under Method Enumerate with
// Options.Quadrature = 0 (the default, Method Auto, is the exact average
// of scalingexact.go; Options.Quadrature > 0 sets the number of nodes).
// It was the default before the exact average.
const DefaultQuadratureGauss = 32

// scalingAvgEval is k_avg over orbit.ScalingGroup (x ↦ c·x, orbits
// restricted to the box) by a Gauss–Legendre rule (Options.Quadrature > 0
// or Method Enumerate; the default is scalingExactEval): the double
// average
//
//	k(x, y) = v·Σ_a Σ_b w_a w_b κ(‖c_a(x)·x − c'_b(y)·y‖/ℓ)
//
// over m Gauss–Legendre nodes per orbit in log c: with C(x) = [A, B]
// (orbit.ScalingGroup.IntervalFaces), log c_a = (1−t_a)·log A + t_a·log B
// for the nodes t_a and weights w_a on [0, 1] of the m-point
// Gauss–Legendre rule (composite with ⌈m/32⌉ equal panels above 32 nodes)
// (Σ w_a = 1, every w_a > 0). This is the normalized Haar measure dc/c on
// C(x), and the integrand is analytic in (log c, log c') wherever the two
// orbit segments do not meet (on a collinear pair the Matérn integrands
// have a kink along the ridge c·x = c'·y, and a small ℓ makes any
// integrand a narrow ridge).
//
// For any fixed node rule with positive weights the double sum is
// ⟨Σ_a w_a φ(c_a x), Σ_b w_b φ(c'_b y)⟩ in the feature space of the base
// kernel, so it is PSD. Both points are expanded by the same rule, so the
// kernel is symmetric bit for bit up to the summation order (the sum is
// over the nodes of x outermost).
//
// Cost: m² base-kernel evaluations per pair; the gradient (grad) is
// analytic, one more double sum.
type scalingAvgEval struct {
	p    Params
	inv2 float64
	d, m int
	g    orbit.Segmenter
	t, w []float64 // Gauss–Legendre nodes and weights on [0, 1]
}

func newScalingAvgEval(p Params, g orbit.Segmenter, m int) *scalingAvgEval {
	e := &scalingAvgEval{p: p, inv2: 1 / (p.Lengthscale * p.Lengthscale), d: g.Dim(), m: m, g: g,
		t: make([]float64, m), w: make([]float64, m)}
	gaussPanels(e.t, e.w, scalingPanel)
	return e
}

// scalingPanel is the largest number of Gauss–Legendre nodes per panel:
// up to 32 nodes per orbit the rule is plain Gauss–Legendre; beyond, it is
// composite, so that fine rules (e.g. 1024 nodes) keep resolving narrow
// ridges (a small ℓ on long orbits) the way equispaced nodes do, where a
// single high-order rule would leave gaps in the middle of the range.
const scalingPanel = 32

// gaussPanels writes the composite Gauss–Legendre rule on [0, 1] with
// len(t) nodes: ⌈len(t)/q⌉ equal panels, q-point rules on all but the
// last, which takes the remainder. Weights are positive and sum to 1.
func gaussPanels(t, w []float64, q int) {
	m := len(t)
	np := (m + q - 1) / q
	for p := range np {
		j0, j1 := p*q, min((p+1)*q, m)
		lo, hi := float64(p)/float64(np), float64(p+1)/float64(np)
		quad.Legendre{}.FixedLocations(t[j0:j1], w[j0:j1], lo, hi)
	}
}

func (e *scalingAvgEval) xLen() int              { return e.m * e.d }
func (e *scalingAvgEval) yLen() int              { return e.m * e.d }
func (e *scalingAvgEval) prepX(dst, x []float64) { e.nodesTo(dst, x) }
func (e *scalingAvgEval) prepY(dst, y []float64) { e.nodesTo(dst, y) }

// nodesTo writes the m node images c_a·x (row-major, m×d).
func (e *scalingAvgEval) nodesTo(dst, x []float64) {
	a, b, _, _ := e.g.IntervalFaces(x)
	la, lb := math.Log(a), math.Log(b)
	d := e.d
	for j, t := range e.t {
		c := math.Exp(la + t*(lb-la))
		row := dst[j*d : (j+1)*d]
		for k, v := range x {
			row[k] = c * v
		}
	}
}

func (e *scalingAvgEval) column(out []float64, stride int, px []float64, n int, py []float64) {
	xl := e.xLen()
	for i := range n {
		out[i*stride] = e.value(px[i*xl:(i+1)*xl], py)
	}
}

// value is the weighted double sum over prepared nodes xs and ys.
func (e *scalingAvgEval) value(xs, ys []float64) float64 {
	d := e.d
	var acc float64
	if d == 2 && e.p.Shape == RBF {
		h := -0.5 * e.inv2
		for a, wa := range e.w {
			x0, x1 := xs[2*a], xs[2*a+1]
			var in float64
			for b, wb := range e.w {
				t0, t1 := x0-ys[2*b], x1-ys[2*b+1]
				in += wb * math.Exp(h*(t0*t0+t1*t1))
			}
			acc += wa * in
		}
		return e.p.Variance * acc
	}
	for a, wa := range e.w {
		x := xs[a*d : (a+1)*d]
		var in float64
		for b, wb := range e.w {
			in += wb * kappaU2(e.p.Shape, sqDist(x, ys[b*d:(b+1)*d])*e.inv2)
		}
		acc += wa * in
	}
	return e.p.Variance * acc
}

// gradLen is the scratch length of grad: the nodes of y, and two vectors.
func (e *scalingAvgEval) gradLen() int { return e.m*e.d + 2*e.d }

// grad is the exact gradient in x of the m-node double sum, including the
// dependence of the nodes c_a(x) on x through the ends of C(x) = [A, B]:
// with A = lo_i/x_i and B = hi_j/x_j (the box faces hit by the ray),
//
//	∂(c_a x)/∂x_k = c_a·e_k − c_a·x·((1−t_a)·[k = i]/x_i + t_a·[k = j]/x_j),
//
// so, with G_a = Σ_b w_b κ'(ρ_ab)/ρ_ab·(c_a x − c'_b y) (ρ in units of ℓ),
//
//	∂k/∂x_k = v/ℓ²·Σ_a w_a c_a (G_a,k − (G_a·x)·((1−t_a)[k = i]/x_i + t_a[k = j]/x_j)).
//
// It is the derivative of exactly what value computes, away from the
// kinks where the active face changes (ties in IntervalFaces), where it
// is one of the one-sided derivatives.
func (e *scalingAvgEval) grad(dst, x, y, scratch []float64) {
	d := e.d
	ys := scratch[:e.m*d]
	ga := scratch[e.m*d : e.m*d+d]
	u := scratch[e.m*d+d : e.m*d+2*d]
	e.nodesTo(ys, y)
	A, B, ka, kb := e.g.IntervalFaces(x)
	la, lb := math.Log(A), math.Log(B)
	sl := math.Sqrt(e.inv2)
	rbf, h := e.p.Shape == RBF, -0.5*e.inv2
	clear(dst)
	var fa, fb float64 // Σ_a w_a c_a (G_a·x)(1−t_a) and … t_a
	for a, wa := range e.w {
		c := math.Exp(la + e.t[a]*(lb-la))
		for k, v := range x {
			u[k] = c * v
		}
		clear(ga)
		for b, wb := range e.w {
			o := ys[b*d : (b+1)*d]
			var f float64
			if rbf {
				f = -wb * math.Exp(h*sqDist(u, o)) // κ'(ρ)/ρ = −κ(ρ): no square root
			} else {
				f = wb * dkappaOverU(e.p.Shape, math.Sqrt(sqDist(u, o))*sl)
			}
			for k := range d {
				ga[k] += f * (u[k] - o[k])
			}
		}
		wc := wa * c
		var s float64
		for k, v := range x {
			dst[k] += wc * ga[k]
			s += ga[k] * v
		}
		fa += wc * s * (1 - e.t[a])
		fb += wc * s * e.t[a]
	}
	if ka >= 0 {
		dst[ka] -= fa / x[ka]
	}
	if kb >= 0 {
		dst[kb] -= fb / x[kb]
	}
	vi := e.p.Variance * e.inv2
	for k := range d {
		dst[k] *= vi
	}
}
