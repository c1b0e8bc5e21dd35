package kernel

import (
	"math"

	"github.com/symbo/symbo/internal/f64"
	"github.com/symbo/symbo/orbit"
	"gonum.org/v1/gonum/mat"
)

// k_avg over a group acting on some coordinates (orbit.Embedded: G on the
// coordinates S, the identity on the others R). Every element moves x_S
// only, so for a product base kernel (RBF)
//
//	k_b(g·x, g'·y) = v·e^{−‖g·x_S − g'·y_S‖²/2ℓ²} · e^{−‖x_R − y_R‖²/2ℓ²}
//
// and the orbit average factors:
//
//	k_avg(x, y) = k_avg^G(x_S, y_S) · e^{−‖x_R − y_R‖²/2ℓ²}
//
// with v counted once, in k_avg^G. k_avg^G is evaluated by the path G
// takes on its own when that is a closed form (signflip, permutation,
// hyperoctahedral, rotation2d) or a quadrature (scaling's Gauss–Legendre
// segment average, or G's discretization), so those carry over. When G
// itself would be enumerated, the whole group is enumerated instead: the
// cost is one exponential per element either way, and the factored form
// only adds work per pair (its Grams are slower than the whole group's
// enumeration for cyclic and blockperm groups on some coordinates:
// BenchmarkEmbeddedEnumerated, docs/performance.md, "Embedded groups
// that are enumerated").
// Matérn kernels are not products over coordinates: their k_avg over an
// embedded group is evaluated like any other group's, by enumerating or
// discretizing the whole group.

// embeddedProduct builds k_avg over an orbit.Embedded group with a product
// base kernel (productShape) as embedEval over the inner group's own
// evaluator and gradient, when the inner group has a closed form or a
// quadrature. Method Enumerate leaves the group to the other strategies
// (the whole group enumerated or discretized, as for any group), which
// the tests hold this factorization against; so does an inner group that
// would be enumerated, or fails (the whole group's path reports its own
// error), except under Method Closed, which then fails.
func (b *builder) embeddedProduct() (bool, error) {
	if b.isMax || b.o.Method == Enumerate || !productShape(b.p.Shape) {
		return false, nil
	}
	e, ok := b.g.(orbit.Embedded)
	if !ok {
		return false, nil
	}
	inner, coords := e.Inner() // declared well: newOrbitKernel's orbit.Check
	ik, err := newOrbitKernel(b.p, inner, b.o, false)
	if err != nil || ik.method == Enumerate {
		if b.o.Method == Closed {
			return true, b.noClosedForm()
		}
		return false, nil
	}
	ev := newEmbedEval(ik.ev, coords, b.d, b.p.Lengthscale)
	var ee evaluator = ev
	b.k.grad, b.k.gradLen = ev.gradFunc(ik.grad, ik.gradLen)
	if re, ok := ik.ev.(rowEvaluator); ok {
		re := &embedRowEval{embedEval: ev, rin: re}
		ee = re
		b.k.gradAux = ev.gradAuxFunc(ik.grad, ik.gradLen)
		b.k.gradPre, b.k.gradPreLen = re.innerValues, re.innerValuesLen()
	}
	b.k.ev, b.k.method = ee, ik.method
	return true, nil
}

// embedEval is k_avg^G(x_S, y_S)·e^{−‖x_R − y_R‖²/2ℓ²} for the evaluator
// in of the inner group's k_avg (see the comment above). A prepared point
// is u_R = x_R/ℓ (r floats), x_S in the inner group's coordinate order (k
// floats, gathered for in's preparation) and in's prepared point (prepX:
// in.xLen floats; prepY: in.yLen), so the first xLen floats of prepY are
// prepX whenever in's are. Pairs are in's values times the factor, which
// is exactly 1 when r = 0; column, row and pairValue compute both the
// same way, so they agree bit for bit when in's do.
type embedEval struct {
	in           evaluator
	coords, rest []int
	r, k         int
	il           float64 // 1/ℓ
}

func newEmbedEval(in evaluator, coords []int, d int, ell float64) *embedEval {
	on := make([]bool, d)
	for _, c := range coords {
		on[c] = true
	}
	var rest []int
	for c, s := range on {
		if !s {
			rest = append(rest, c)
		}
	}
	return &embedEval{in: in, coords: coords, rest: rest, r: len(rest), k: len(coords), il: 1 / ell}
}

func (e *embedEval) xLen() int { return e.r + e.k + e.in.xLen() }
func (e *embedEval) yLen() int { return e.r + e.k + e.in.yLen() }

// prepare writes u_R and x_S to dst and returns x_S and the rest of dst.
func (e *embedEval) prepare(dst, x []float64) (xs, in []float64) {
	for i, c := range e.rest {
		dst[i] = x[c] * e.il
	}
	xs = dst[e.r : e.r+e.k]
	for j, c := range e.coords {
		xs[j] = x[c]
	}
	return xs, dst[e.r+e.k:]
}

func (e *embedEval) prepX(dst, x []float64) {
	xs, in := e.prepare(dst, x)
	e.in.prepX(in[:e.in.xLen()], xs)
}

func (e *embedEval) prepY(dst, y []float64) {
	ys, in := e.prepare(dst, y)
	e.in.prepY(in[:e.in.yLen()], ys)
}

// factor is e^{−‖u_R − w_R‖²/2} for prepared points u and w.
func (e *embedEval) factor(u, w []float64) float64 { return math.Exp(e.exponent(u, w)) }

// exponent is factor's exponent, −‖u_R − w_R‖²/2ℓ².
func (e *embedEval) exponent(u, w []float64) float64 {
	var s float64
	for i, a := range u[:e.r] {
		t := a - w[i]
		s += t * t
	}
	return -0.5 * s
}

// column runs in's column one row at a time (the prepared inner points
// are not contiguous); every evaluator computes each entry on its own, so
// this changes no bits.
func (e *embedEval) column(out []float64, stride int, px []float64, n int, py []float64) {
	xl, off := e.xLen(), e.r+e.k
	for i := range n {
		p := px[i*xl : (i+1)*xl]
		o := out[i*stride:]
		e.in.column(o, stride, p[off:], 1, py[off:])
		o[0] *= e.factor(p, py)
	}
}

// gradFunc returns the gradient of the product from the inner gradient
// ig (scratch igl): ∇_S = f·∇k_avg^G(x_S, y_S), ∇_R = k_avg^G·f·(y_R −
// x_R)/ℓ², f the factor; and its scratch length. k_avg^G(x_S, y_S) is
// in's value for the pair (pairValue).
func (e *embedEval) gradFunc(ig gradFunc, igl int) (gradFunc, int) {
	k, pl, off := e.k, pairLen(e.in), e.r+e.k
	n := 3*k + pl + igl
	ga := e.gradAuxFunc(ig, igl)
	f := func(dst, x, y, scratch []float64) {
		xs, ys := scratch[:k], scratch[k:2*k]
		for j, c := range e.coords {
			xs[j], ys[j] = x[c], y[c]
		}
		kin := pairValue(e.in, xs, ys, scratch[3*k:3*k+pl])
		ux, uy := scratch[n:n+off], scratch[n+off:n+2*off]
		e.prepare(ux, x)
		e.prepare(uy, y)
		ga(dst, x, y, [auxWidth]float64{kin, e.factor(ux, uy)}, scratch)
	}
	return f, n + 2*off
}

// gradAuxFunc is gradFunc's gradient given k_avg^G(x_S, y_S) and the
// factor as aux (its scratch: gradFunc's length, of which it uses the
// first 3k and the inner gradient's igl after pairLen(in)).
func (e *embedEval) gradAuxFunc(ig gradFunc, igl int) gradAuxFunc {
	k, pl := e.k, pairLen(e.in)
	n := 3*k + pl + igl
	return func(dst, x, y []float64, aux [auxWidth]float64, scratch []float64) {
		kin, fr := aux[0], aux[1]
		xs, ys, gs := scratch[:k], scratch[k:2*k], scratch[2*k:3*k]
		for j, c := range e.coords {
			xs[j], ys[j] = x[c], y[c]
		}
		ig(gs, xs, ys, scratch[3*k+pl:n])
		for j, c := range e.coords {
			dst[c] = fr * gs[j]
		}
		kf := kin * fr * e.il
		for _, c := range e.rest {
			dst[c] = kf * (y[c]*e.il - x[c]*e.il)
		}
	}
}

// embedRowEval is embedEval over a row evaluator: rows gather the inner
// prepared points of embedChunk pairs at a time into scratch and call
// in's row on them (in's row gives its column's bits for every pair,
// whatever the chunking).
type embedRowEval struct {
	*embedEval
	rin rowEvaluator
}

// embedChunk is the number of pairs whose inner prepared points row
// gathers at once (a multiple of the 8 lanes of the fused permanents).
const embedChunk = 64

func (e *embedRowEval) rowLen() int {
	return e.rin.rowLen() + embedChunk*e.in.xLen() + embedChunk
}

// row multiplies in's row by the factors, embedChunk at a time through
// f64.MathExpTo: factor's bits.
func (e *embedRowEval) row(out, px, py []float64, m int, scratch []float64) {
	e.rows(out, px, py, m, nil, scratch)
}

// rowDiag is row that also writes k(x, x) to *diag (rowDiagEvaluator;
// only where in's row evaluator has rowDiag too: diagRows): the pair
// (x_S, x_S) joins the last chunk's inner row, with in's pairValue bits,
// and is multiplied by factor(px, px) as column multiplies it (exactly 1:
// u_R − u_R = 0), so *diag has pairValue(x, x)'s bits.
func (e *embedRowEval) rowDiag(out, px, py []float64, m int, diag *float64, scratch []float64) {
	e.rows(out, px, py, m, diag, scratch)
}

// rows is row, and rowDiag where diag is not nil (then at least one
// chunk runs, the last one taking the pair (x, x), even for m = 0).
func (e *embedRowEval) rows(out, px, py []float64, m int, diag *float64, scratch []float64) {
	xl, off, il := e.xLen(), e.r+e.k, e.in.xLen()
	isc := scratch[:e.rin.rowLen()]
	buf := scratch[e.rin.rowLen() : e.rin.rowLen()+embedChunk*il]
	fr := scratch[e.rin.rowLen()+embedChunk*il : e.rin.rowLen()+embedChunk*il+embedChunk]
	for j0 := 0; j0 < m || (j0 == 0 && diag != nil); j0 += embedChunk {
		j1 := min(j0+embedChunk, m)
		for j := j0; j < j1; j++ {
			copy(buf[(j-j0)*il:(j-j0+1)*il], py[j*xl+off:(j+1)*xl])
		}
		if diag != nil && j1 == m {
			e.rin.(rowDiagEvaluator).rowDiag(out[j0:j1], px[off:xl], buf[:(j1-j0)*il], j1-j0, diag, isc)
			*diag *= e.factor(px, px)
		} else {
			e.rin.row(out[j0:j1], px[off:xl], buf[:(j1-j0)*il], j1-j0, isc)
		}
		f := fr[:j1-j0]
		for j := range f {
			f[j] = e.exponent(px, py[(j0+j)*xl:])
		}
		f64.MathExpTo(f, f)
		for j, v := range f {
			out[j0+j] *= v
		}
	}
}

// innerValuesLen is innerValues's scratch length.
func (e *embedRowEval) innerValuesLen() int {
	il := e.in.xLen()
	return 2*e.k + 2*(e.r+e.k) + il + embedChunk*il + e.rin.rowLen()
}

// innerValues writes k_avg^G(x_S, y_j,S) to out[j] and the factor
// e^{−‖x_R − y_j,R‖²/2ℓ²} to out[m+j] for the m rows of y (gradPreFunc).
// The first are pairValue's bits for each pair, since in's row gives its
// column's bits for every pair whatever the chunking; x is prepared once
// and in's row runs over embedChunk points at a time. With py (rows
// prepared by prepX, a Prepared's) it gathers their inner prepared
// points instead of preparing them again: the same bits, since they are
// in's prepX of the same inner coordinates. The factors are exponent's
// of the prepared points (prepare's u_R, py's own when given) through
// f64.MathExpTo, which gives math.Exp's bits: factor's.
func (e *embedRowEval) innerValues(out, x []float64, y *mat.Dense, py []float64, m int, scratch []float64) {
	k, il, xl, off := e.k, e.in.xLen(), e.xLen(), e.r+e.k
	xs, ys := scratch[:k], scratch[k:2*k]
	ux, uy := scratch[2*k:2*k+off], scratch[2*k+off:2*k+2*off]
	scratch = scratch[2*k+2*off:]
	px := scratch[:il]
	buf := scratch[il : il+embedChunk*il]
	rs := scratch[il+embedChunk*il:]
	for j, c := range e.coords {
		xs[j] = x[c]
	}
	e.in.prepX(px, xs)
	for j0 := 0; j0 < m; j0 += embedChunk {
		j1 := min(j0+embedChunk, m)
		for j := j0; j < j1; j++ {
			b := buf[(j-j0)*il : (j-j0+1)*il]
			if py != nil {
				copy(b, py[j*xl+off:j*xl+off+il])
				continue
			}
			yr := row(y, j)
			for i, c := range e.coords {
				ys[i] = yr[c]
			}
			e.in.prepX(b, ys)
		}
		e.rin.row(out[j0:j1], px, buf[:(j1-j0)*il], j1-j0, rs)
	}
	fr := out[m : 2*m]
	e.prepare(ux, x)
	for j := range m {
		w := uy
		if py != nil {
			w = py[j*xl:]
		} else {
			e.prepare(uy, row(y, j))
		}
		fr[j] = e.exponent(ux, w)
	}
	f64.MathExpTo(fr, fr)
}
