package kernel

import (
	"math"
	"math/bits"

	"github.com/symbo/symbo/internal/f64"
	"github.com/symbo/symbo/orbit"
)

// Closed forms of k_avg for the RBF base kernel, a product kernel:
// v·Π_k exp(−(x_k − y_k)²/2ℓ²). For a group of isometries the double
// orbit average reduces to the single one, 1/|G|·Σ_g k_b(x, g·y), and
// with u = x/ℓ, w = y/ℓ:
//
//	signflip:        v·Π_k ½[e^{−(u_k−w_k)²/2} + e^{−(u_k+w_k)²/2}]
//	               = v·exp(−½Σ_k(|u_k|−|w_k|)²)·Π_k ½(1 + e^{−2|u_k||w_k|})
//	permutation:     v/d!·perm(A),  A_ij = e^{−(u_i−w_j)²/2}
//	hyperoctahedral: v/d!·perm(B),  B_ij = ½[e^{−(u_i−w_j)²/2} + e^{−(u_i+w_j)²/2}]
//	               = ½e^{−(|u_i|−|w_j|)²/2}·(1 + e^{−2|u_i||w_j|})
//
// (a signed permutation averages the two signs of each coordinate
// independently, so the sign average factorizes inside every term of the
// permutation sum). Both signflip forms keep every factor in [½, 1] apart
// from a single exponential of minus the squared orbit distance, so they
// are accurate to a few ulps and never overflow.
//
// Permanents. A and B are positive, so the permanent is computed by the
// subset recursion
//
//	f(∅) = 1,  f(S) = Σ_{j∈S} M_{|S|−1, j}·f(S∖{j})  (rows 0…|S|−1 on columns S),
//
// perm(M) = f([d]): d·2^{d−1} multiply-adds, the same O(2^d·d) as Ryser's
// formula in Gray-code order, but a sum of non-negative terms only, hence
// free of cancellation: its relative error is below 2d·ε whatever the
// spread of the entries. Ryser's alternating sum, measured against it
// (TestRyserCancellation), loses digits in proportion to
// Π_i(Σ_j M_ij)/perm(M), which exceeds 1e4 for points a few lengthscales
// apart and reaches 1/ε (all digits lost) for far-apart points; see
// avgclosed_test.go. Rows are first scaled by their largest log-entry,
// perm(M) = e^{Σ_i m_i}·perm(M̃) with max_j M̃_ij ∈ [½, 1], so no
// intermediate underflows unless the result itself does.
//
// Gradients (in x): for signflip ∂k/∂x_k = k·(y_k·tanh(x_k y_k/ℓ²) − x_k)/ℓ²;
// for the permanents ∂k/∂x_i = v/d!·Σ_j ∂M_ij/∂x_i·perm(M minor ij), with
// ∂M_ij/∂x_i = M_ij·c_ij, c_ij = (y_j − x_i)/ℓ² (permutation) or
// (y_j·tanh(x_i y_j/ℓ²) − x_i)/ℓ² (hyperoctahedral). All d² minors come
// from one forward and one backward subset recursion (b(S) = perm of rows
// |S|…d−1 on the columns outside S): perm(M minor ij) = Σ_{|S|=i, j∉S}
// f(S)·b(S∪{j}), again O(2^d·d).

// MaxPermanentDim is the largest d for which k_avg over permutation and
// hyperoctahedral groups uses the permanent closed form (scratch 2^d
// float64s per worker, d·2^{d−1} multiply-adds per pair).
const MaxPermanentDim = 16

// avgClosed returns the closed-form evaluator and analytic gradient of
// k_avg for p over g, or nil if there is none.
func avgClosed(p Params, g orbit.Group) (evaluator, gradFunc, int) {
	if p.Shape != RBF {
		return nil, nil, 0
	}
	cg, ok := g.(orbit.CoordinateGroup)
	if !ok {
		return nil, nil, 0
	}
	il := 1 / p.Lengthscale
	permutes, flips := cg.CoordinateGroup()
	switch d := g.Dim(); {
	case flips && !permutes:
		e := &avgSignEval{v: p.Variance, il: il, d: d}
		return e, e.grad, 0
	case permutes && d <= MaxPermanentDim:
		e := newAvgPermEval(p, d, flips)
		return e, e.grad, e.gradLen()
	}
	return nil, nil, 0
}

// avgSignEval is k_avg over signflip(d) with RBF: d + 1 exponentials per
// pair instead of 2^d. Prepared points are |x|/ℓ.
type avgSignEval struct {
	v, il float64
	d     int
}

func (e *avgSignEval) xLen() int { return e.d }
func (e *avgSignEval) yLen() int { return e.d }

func (e *avgSignEval) prepX(dst, x []float64) {
	for k, v := range x {
		dst[k] = math.Abs(v) * e.il
	}
}

func (e *avgSignEval) prepY(dst, y []float64) { e.prepX(dst, y) }

func (e *avgSignEval) column(out []float64, stride int, px []float64, n int, py []float64) {
	d := e.d
	w := py[:d]
	for i := range n {
		out[i*stride] = e.value(px[i*d:i*d+d], w)
	}
}

func (e *avgSignEval) rowLen() int { return 0 }

func (e *avgSignEval) row(out, px, py []float64, m int, _ []float64) {
	d := e.d
	u := px[:d]
	for j := range out[:m] {
		out[j] = e.value(u, py[j*d:j*d+d])
	}
}

func (e *avgSignEval) value(u, w []float64) float64 {
	var s2 float64
	prod := 1.0
	for k, b := range w[:len(u)] {
		a := u[k]
		t := a - b
		s2 += t * t
		prod *= 0.5 + 0.5*math.Exp(-2*a*b)
	}
	return e.v * math.Exp(-0.5*s2) * prod
}

// grad is k·(y_k·tanh(x_k y_k/ℓ²) − x_k)/ℓ²; it needs no scratch.
func (e *avgSignEval) grad(dst, x, y, _ []float64) {
	var s2 float64
	prod := 1.0
	for k, yk := range y[:len(x)] {
		a, b := math.Abs(x[k])*e.il, math.Abs(yk)*e.il
		t := a - b
		s2 += t * t
		prod *= 0.5 + 0.5*math.Exp(-2*a*b)
	}
	kv := e.v * math.Exp(-0.5*s2) * prod
	inv2 := e.il * e.il
	for k, yk := range y[:len(x)] {
		dst[k] = kv * (yk*math.Tanh(x[k]*yk*inv2) - x[k]) * inv2
	}
}

// avgPermEval is k_avg over permutation(d) (signed = false) or
// hyperoctahedral(d) (signed = true) with RBF, as v/d!·perm(M). Prepared
// points are u = x/ℓ (|x|/ℓ when signed) followed by max_k |u_k|, ‖u‖²
// and e^{−‖u‖²/2}; the prepared y carries the per-worker scratch of pairs (rowLen).
//
// Factored form. With a_ij = u_i·w_j, every entry factors as
//
//	A_ij = e^{−u_i²/2}·e^{−w_j²/2}·e^{a_ij}
//	B_ij = e^{−u_i²/2}·e^{−w_j²/2}·cosh(a_ij),  2cosh(a) = E + 1/E, E = e^{a}
//
// and perm is multilinear in rows and columns, so perm(M) =
// e^{−‖u‖²/2}·e^{−‖w‖²/2}·perm(C), C_ij = e^{a_ij} or cosh(a_ij), with the
// factors e^{−‖u‖²/2} computed once per point (prepX): d² exponentials
// per pair instead of 2d² + 1 (signed), and the reciprocals 1/E by one
// division per row (coshRows). The price is accuracy far from the origin:
// each a_ij carries an absolute rounding error ≤ ε·|a_ij| and ‖u‖² one ≤
// d·ε·‖u‖², so a permutation term has relative error ≤
// ε·(d/2 + 1/4)·(‖u‖² + ‖w‖²) from its arguments (against
// ε·Σ_i(u_i − w_σ(i))² for the difference form), plus ≤ (d² + 6d)·ε from
// the exponentials, the reciprocals and the recursion. Pairs use the
// factored form only when ‖u‖² + ‖w‖² ≤ factoredMax = 48: the error is
// then ≤ ε·(48·(d/2 + 1/4) + d² + 6d) ≤ 8.3·10⁻¹⁴ relative for d ≤
// MaxPermanentDim (TestAvgPermPairs logs the measured one, recorded in
// docs/performance.md, "The permanent's factored form"); every |a_ij| ≤
// 24, so C_ij ≤ e^{24}, row products ≤ e^{24d}, perm(C) ≤ d!·e^{24d} <
// e^{415} and e^{−‖u‖²/2} ≥ e^{−24}: nothing overflows or underflows. Other pairs use the difference form below.
//
// Difference form. Row scaling (matrix) is only needed when some entry
// could underflow: every |u_i − w_j| is at most μ = max|u| + max|w|, so
// when d·μ²/2 ≤ unscaledMax every entry of M is at least
// e^{−unscaledMax/d}/2 (signed) and perm(M), a sum of products of d
// entries, stays far above the smallest normal number; pairs then use M
// itself (Σ m_i = 0), which saves the row maxima. Both ways the entries
// are single exponentials of the same arguments up to the row shift, so
// the accuracy is the same.
type avgPermEval struct {
	v, il  float64
	scale  float64 // v/d!
	scaleC float64 // v/d!·2^{−d}: coshRows gives 2·cosh
	d      int
	signed bool
}

// unscaledMax bounds d·μ²/2 for the unscaled path (see avgPermEval): the
// product of d entries is then ≥ e^{−600}·2^{−d} ≈ 1e−261·2^{−d}.
const unscaledMax = 600

// scale3 returns s·p·q, evaluated left to right (the bits every path
// shares), or as s·(p·q) when s·p overflows although the product is
// finite (a variance near the largest float64: k_avg ≤ v, but s·p = v/d!·p
// can exceed it before q brings it back).
func scale3(s, p, q float64) float64 {
	if r := s * p * q; math.Abs(r) <= math.MaxFloat64 {
		return r
	}
	return s * (p * q)
}

// factoredMax bounds ‖u‖² + ‖w‖² for the factored form (see avgPermEval).
const factoredMax = 48

func newAvgPermEval(p Params, d int, signed bool) *avgPermEval {
	f := 1.0
	for k := 2; k <= d; k++ {
		f *= float64(k)
	}
	s := p.Variance / f
	return &avgPermEval{v: p.Variance, il: 1 / p.Lengthscale, scale: s, scaleC: math.Ldexp(s, -d), d: d, signed: signed}
}

func (e *avgPermEval) xLen() int { return e.d + 3 }

// yLen: the prepared point (xLen) and column's scratch (rowLen).
func (e *avgPermEval) yLen() int { return e.xLen() + e.rowLen() }

// permBatch is the number of pairs whose exponentials row computes in one
// f64.ExpTo call.
const permBatch = 8

// pairExps is the largest number of exponentials of one pair: in the
// difference form d² (row-scaled) Gaussian exponents, d² more for the
// sign average when signed, and the scale Σ_i m_i; in the factored form
// d² exponents a_ij and −(‖u‖²+‖w‖²)/2.
func (e *avgPermEval) pairExps() int {
	if e.signed {
		return 2*e.d*e.d + 1
	}
	return e.d*e.d + 1
}

// expLen is the length of the exponent buffer: permBatch pairs, rounded
// up to a multiple of 8 so that f64.ExpTo runs entirely in vector
// registers.
func (e *avgPermEval) expLen() int { return (permBatch*e.pairExps() + 7) &^ 7 }

// scaled writes x/ℓ (|x|/ℓ when signed) to dst[:d].
func (e *avgPermEval) scaled(dst, x []float64) {
	for k, v := range x {
		if e.signed {
			v = math.Abs(v)
		}
		dst[k] = v * e.il
	}
}

func (e *avgPermEval) prepX(dst, x []float64) {
	d := e.d
	e.scaled(dst[:d], x)
	var mx, n2 float64
	for _, v := range dst[:d] {
		mx = max(mx, math.Abs(v))
		n2 += v * v
	}
	dst[d] = mx
	dst[d+1] = n2
	dst[d+2] = math.Exp(-0.5 * n2)
}

func (e *avgPermEval) prepY(dst, y []float64) { e.prepX(dst[:e.xLen()], y) }

// rowLen: M (d²), the recursion (2^d), the exponent buffer (expLen) and,
// when fused, the lane-interleaved w (8d), the permanents (8), the
// scratch of f64.ExpPermanent8, the gathered difference-form points of
// rowFused (permBatch·xLen) and the lane-interleaved u of tri (8d).
func (e *avgPermEval) rowLen() int {
	n := e.d*e.d + 1<<e.d + e.expLen()
	if e.fused() {
		n += 16*e.d + 8 + f64.ExpPermScratch(e.d) + permBatch*e.xLen()
	}
	return n
}

// fused reports whether factored pairs go through f64.ExpPermanent8
// (exponentials, cosh and permanent of 8 pairs at once, one per lane).
func (e *avgPermEval) fused() bool { return e.d <= f64.MaxExpPermDim }

func (e *avgPermEval) column(out []float64, stride int, px []float64, n int, py []float64) {
	xl := e.xLen()
	w, scr := py[:xl], py[xl:]
	for i := range n {
		e.pairs(out[i*stride:i*stride+1], px[i*xl:(i+1)*xl], w, 0, scr)
	}
}

func (e *avgPermEval) row(out, px, py []float64, m int, scratch []float64) {
	xl := e.xLen()
	u := px[:xl]
	if e.fused() {
		e.rowFused(out[:m], u, py[:m*xl], nil, scratch)
		return
	}
	for j0 := 0; j0 < m; j0 += permBatch {
		j1 := min(j0+permBatch, m)
		e.pairs(out[j0:j1], u, py[j0*xl:j1*xl], xl, scratch)
	}
}

// rowFused is row when fused: the pairs of the row form one stream, the
// factored ones packed into the lanes of f64.ExpPermanent8 as they come
// and flushed 8 at a time (so lanes stay full across the batches of
// permBatch pairs and around difference-form pairs), the others gathered
// and passed to pairs permBatch at a time. Every lane and every pair of
// pairs is computed independently of the others (f64.ExpPermanent8, one
// pair per lane; f64.ExpTo), with the same operations as pairs, so the
// grouping does not change the bits. With diag not nil, the pair (u, u)
// follows the row's in the stream and its value goes to *diag (rowDiag).
func (e *avgPermEval) rowFused(out, u, py []float64, diag *float64, scratch []float64) {
	d := e.d
	dd := d * d
	xl := d + 3
	r := scratch[dd+1<<d+e.expLen():]
	wt, r := r[:8*d], r[8*d:]
	pmv, r := (*[8]float64)(r[:8]), r[8:]
	eps, r := r[:f64.ExpPermScratch(d)], r[f64.ExpPermScratch(d):]
	gw := r[:permBatch*xl]
	sc := e.scale
	if e.signed {
		sc = e.scaleC
	}
	u = u[:xl]
	ud := u[:d]
	un2, uex := u[d+1], u[d+2]
	// Pair m (with diag) is (u, u); put stores pair j's value.
	m := len(out)
	np := m
	if diag != nil {
		np++
	}
	put := func(j int, v float64) {
		if j < m {
			out[j] = v
		} else {
			*diag = v
		}
	}
	var lane, slow [8]int
	var wex [8]float64 // the lanes' e^{−‖w‖²/2}
	var sv [permBatch]float64
	nl, ns := 0, 0
	for j := range np {
		wp := u
		if j < m {
			wp = py[j*xl : j*xl+xl]
		}
		if un2+wp[d+1] > factoredMax {
			copy(gw[ns*xl:ns*xl+xl], wp)
			slow[ns] = j
			ns++
			if ns == permBatch {
				e.pairs(sv[:ns], u, gw, xl, scratch)
				for k, jj := range slow[:ns] {
					put(jj, sv[k])
				}
				ns = 0
			}
			continue
		}
		for k, b := range wp[:d] {
			wt[8*k+nl] = b
		}
		lane[nl], wex[nl] = j, wp[d+2]
		nl++
		if nl == 8 {
			f64.ExpPermanent8(pmv, ud, wt, e.signed, eps)
			for l, jj := range lane {
				put(jj, scale3(sc, pmv[l], uex*wex[l]))
			}
			nl = 0
		}
	}
	if nl > 0 {
		// Idle lanes compute perm of ones (w = 0).
		for k := range d {
			clear(wt[8*k+nl : 8*k+8])
		}
		f64.ExpPermanent8(pmv, ud, wt, e.signed, eps)
		for l, jj := range lane[:nl] {
			put(jj, scale3(sc, pmv[l], uex*wex[l]))
		}
	}
	if ns > 0 {
		e.pairs(sv[:ns], u, gw, xl, scratch)
		for k, jj := range slow[:ns] {
			put(jj, sv[k])
		}
	}
}

// rowDiag is row that also writes k(x, x) to *diag (rowDiagEvaluator),
// for px prepared from x by prepX, which is also x's prepY: when fused,
// the pair (x, x) joins the row's stream (rowFused), so at up to 7 idle
// lanes of its last f64.ExpPermanent8 it costs no permanent of its own;
// otherwise it is pairs on (px, px), as column computes it. Either way
// *diag has the bits of pairValue(x, x) (prepX and prepY of x, then
// column), which DiagTo computes.
func (e *avgPermEval) rowDiag(out, px, py []float64, m int, diag *float64, scratch []float64) {
	xl := e.xLen()
	u := px[:xl]
	if e.fused() {
		e.rowFused(out[:m], u, py[:m*xl], diag, scratch)
		return
	}
	e.row(out, px, py, m, scratch)
	var v [1]float64
	e.pairs(v[:], u, u, 0, scratch)
	*diag = v[0]
}

// tri writes k(x_i, x_j) to out[i·stride+j] for the rows i0 ≤ i < i1 and
// j ≥ i (the upper triangle with the diagonal) of the n prepared points
// px, with scratch of rowLen floats. When fused, the factored pairs of all
// these rows form one stream packed into the lanes of
// f64.ExpPermanent8Pairs (one u per lane), so lanes stay full across row
// boundaries; difference-form pairs are gathered per row and go through
// pairs as in rowFused. Each lane performs the operations of
// f64.ExpPermanent8 for its pair and the final scaling is that of pairs,
// so every entry has the bits of row (and of column, pairValue).
func (e *avgPermEval) tri(out []float64, stride int, px []float64, n, i0, i1 int, scratch []float64) {
	d := e.d
	xl := d + 3
	if !e.fused() {
		for i := i0; i < i1; i++ {
			e.row(out[i*stride+i:i*stride+n], px[i*xl:(i+1)*xl], px[i*xl:n*xl], n-i, scratch)
		}
		return
	}
	dd := d * d
	r := scratch[dd+1<<d+e.expLen():]
	wt, r := r[:8*d], r[8*d:]
	pmv, r := (*[8]float64)(r[:8]), r[8:]
	eps, r := r[:f64.ExpPermScratch(d)], r[f64.ExpPermScratch(d):]
	gw, r := r[:permBatch*xl], r[permBatch*xl:]
	ut := r[:8*d]
	sc := e.scale
	if e.signed {
		sc = e.scaleC
	}
	var li, lj, slow [8]int
	var sv [permBatch]float64
	// Lanes uFrom… of ut hold the u of the current row (set at row
	// starts and after flushes, not per pair).
	nl, uFrom := 0, 0
	fillU := func(u []float64, l0, l1 int) {
		for k, a := range u[:d] {
			for l := l0; l < l1; l++ {
				ut[8*k+l] = a
			}
		}
	}
	flush := func() {
		f64.ExpPermanent8Pairs(pmv, ut, wt, e.signed, eps)
		for l := range nl {
			i, j := li[l], lj[l]
			out[i*stride+j] = scale3(sc, pmv[l], px[i*xl+d+2]*px[j*xl+d+2])
		}
	}
	for i := i0; i < i1; i++ {
		u := px[i*xl : i*xl+xl]
		un2 := u[d+1]
		o := out[i*stride : i*stride+n]
		ns := 0
		fillU(u, nl, 8)
		uFrom = nl
		for j := i; j < n; j++ {
			wp := px[j*xl : j*xl+xl]
			if un2+wp[d+1] > factoredMax {
				copy(gw[ns*xl:ns*xl+xl], wp)
				slow[ns] = j
				ns++
				if ns == permBatch {
					e.pairs(sv[:ns], u, gw, xl, scratch)
					for k, jj := range slow[:ns] {
						o[jj] = sv[k]
					}
					ns = 0
				}
				continue
			}
			for k, b := range wp[:d] {
				wt[8*k+nl] = b
			}
			li[nl], lj[nl] = i, j
			nl++
			if nl == 8 {
				flush()
				nl = 0
				if uFrom > 0 {
					fillU(u, 0, uFrom)
					uFrom = 0
				}
			}
		}
		if ns > 0 {
			e.pairs(sv[:ns], u, gw, xl, scratch)
			for k, jj := range slow[:ns] {
				o[jj] = sv[k]
			}
		}
	}
	if nl > 0 {
		// Idle lanes compute perm of ones (w = 0).
		for k := range d {
			clear(wt[8*k+nl : 8*k+8])
		}
		flush()
	}
}

// factored reports whether the pair of prepared points (u, w) uses the
// factored form.
func (e *avgPermEval) factored(u, w []float64) bool {
	return u[e.d+1]+w[e.d+1] <= factoredMax
}

// pairs writes k(u, w_j) to out[j], j < len(out) ≤ permBatch, for the
// prepared u and the prepared points w (the j-th at w[j·ws:], ws = 0 for
// one point). Per pair it computes the exponents of the factored form or
// of M (or, when needed, the row-scaled M̃ and the scale of matrix), with
// all the exponentials of the batch in one f64.ExpTo call (vectorized,
// within f64.ExpMaxUlp of math.Exp; each value is independent of the
// batch), then v/d!·perm(C or M̃)·e^{last exponent}. scratch holds
// rowLen() floats.
func (e *avgPermEval) pairs(out, u, w []float64, ws int, scratch []float64) {
	d := e.d
	dd := d * d
	xl := d + 3
	m := scratch[:dd]
	f := scratch[dd : dd+1<<d]
	ex := scratch[dd+1<<d : dd+1<<d+e.expLen()]
	u = u[:xl]
	nb := len(out)
	fused := e.fused()
	var wt, pmv, eps []float64
	if fused {
		r := scratch[dd+1<<d+e.expLen():]
		wt, r = r[:8*d], r[8*d:]
		pmv, eps = r[:8], r[8:8+f64.ExpPermScratch(d)]
	}
	var off [permBatch + 1]int
	var lane [permBatch]int
	nl := 0
	for p := range nb {
		wp := w[p*ws : p*ws+xl]
		o := off[p]
		lane[p] = -1
		switch {
		case fused && e.factored(u, wp):
			for j, b := range wp[:d] {
				wt[8*j+nl] = b
			}
			lane[p] = nl
			nl++
			off[p+1] = o
		case e.factored(u, wp):
			off[p+1] = o + e.factoredExponents(ex[o:], u, wp)
		case float64(d)*(u[d]+wp[d])*(u[d]+wp[d]) <= 2*unscaledMax:
			off[p+1] = o + e.exponents(ex[o:], u[:d], wp[:d])
		default:
			off[p+1] = o + e.scaledExponents(ex[o:], u[:d], wp[:d])
		}
	}
	if nl > 0 {
		// Idle lanes compute perm of ones (w = 0).
		for j := range d {
			clear(wt[8*j+nl : 8*j+8])
		}
		f64.ExpPermanent8((*[8]float64)(pmv), u[:d], wt, e.signed, eps)
	}
	if ne := (off[nb] + 7) &^ 7; ne > 0 {
		clear(ex[off[nb]:ne])
		f64.ExpTo(ex[:ne], ex[:ne])
	}
	for p := range nb {
		if l := lane[p]; l >= 0 {
			// Factored form, fused.
			wp := w[p*ws : p*ws+xl]
			sc := e.scale
			if e.signed {
				sc = e.scaleC
			}
			out[p] = scale3(sc, pmv[l], u[d+2]*wp[d+2])
			continue
		}
		x := ex[off[p]:off[p+1]]
		if len(x) == dd {
			// Factored form.
			wp := w[p*ws : p*ws+xl]
			sc := e.scale
			if e.signed {
				if 2 <= d && d <= maxUnrolled {
					coshRowsUnrolled(m, x, d)
				} else {
					coshRows(m, x, d)
				}
				x, sc = m, e.scaleC
			}
			var pm float64
			if 2 <= d && d <= maxUnrolled {
				pm = permanentUnrolled(x, d)
			} else {
				pm = permanent(x, d, f)
			}
			out[p] = scale3(sc, pm, u[d+2]*wp[d+2])
			continue
		}
		switch {
		case e.signed:
			g, sg := x[:dd], x[dd:2*dd]
			for k := range m {
				m[k] = g[k] * (0.5 + 0.5*sg[k])
			}
		default:
			copy(m, x[:dd])
		}
		var pm float64
		if 2 <= d && d <= maxUnrolled {
			pm = permanentUnrolled(m, d)
		} else {
			pm = permanent(m, d, f)
		}
		out[p] = scale3(e.scale, pm, x[len(x)-1])
	}
}

// coshRows sets m[k] = E_k + 1/E_k (twice cosh) for the d×d entries E
// (≥ 1, as in the factored form; row products ≤ e^{709}) with one
// division per row: the reciprocals of row i come from its prefix
// products q_k = E_i0⋯E_i(k−1) as 1/E_ik = q_k·(E_i(k+1)⋯E_i(d−1))/q_d
// (Montgomery's trick), within 2d rounding errors each.
// coshRowsUnrolled is the same for d ≤ maxUnrolled.
func coshRows(m, ex []float64, d int) {
	var q [MaxPermanentDim + 1]float64
	for i := 0; i < d*d; i += d {
		r, o := ex[i:i+d], m[i:i+d]
		p := 1.0
		for k, v := range r {
			q[k] = p
			p *= v
		}
		inv := 1 / p
		for k := d - 1; k >= 1; k-- {
			v := r[k]
			o[k] = v + inv*q[k]
			inv *= v
		}
		o[0] = r[0] + inv
	}
}

// factoredExponents writes the d² exponents u_a·w_j of the factored form
// of the prepared pair (u, w) and returns their number.
func (e *avgPermEval) factoredExponents(ex, u, w []float64) int {
	d := e.d
	w = w[:d]
	ex = ex[:d*d]
	k := 0
	for _, ua := range u[:d] {
		r := ex[k : k+len(w)]
		for j, b := range w {
			r[j] = ua * b
		}
		k += len(w)
	}
	return k
}

// exponents writes the exponents of the difference form of the pair
// (u, w) without row scaling, −(u_a − w_j)²/2, then (signed) −2·u_a·w_j,
// then 0, and returns their number (pairExps).
func (e *avgPermEval) exponents(ex, u, w []float64) int {
	d := e.d
	dd := d * d
	w = w[:d]
	g := ex[:dd]
	for a, ua := range u {
		r := g[a*d : a*d+d]
		for j, b := range w {
			t := ua - b
			r[j] = -0.5 * t * t
		}
	}
	n := dd
	if e.signed {
		s := ex[dd : 2*dd]
		for a, ua := range u {
			r := s[a*d : a*d+d]
			for j, b := range w {
				r[j] = -2 * (ua * b) // = (−2·ua)·b exactly, without −Inf·0
			}
		}
		n += dd
	}
	ex[n] = 0
	return n + 1
}

// scaledExponents is exponents with rows scaled as in matrix: the
// Gaussian exponents of row a are shifted by m_a = max_j −(u_a − w_j)²/2,
// and the last exponent is Σ_a m_a.
func (e *avgPermEval) scaledExponents(ex, u, w []float64) int {
	n := e.exponents(ex, u, w)
	d := e.d
	var lsum float64
	for a := range u {
		r := ex[a*d : a*d+d]
		top := math.Inf(-1)
		for _, l := range r {
			top = max(top, l)
		}
		if math.IsInf(top, -1) {
			continue // every entry of the row underflows: perm(M) = 0
		}
		lsum += top
		for j := range r {
			r[j] -= top
		}
	}
	ex[n-1] = lsum
	return n
}

// matrix fills m (d×d) with the row-scaled entries M̃_ij = M_ij·e^{−m_i},
// m_i = max_j −(u_i − w_j)²/2, and returns Σ_i m_i. For the signed
// kernel it uses tmp (length d²) as scratch. The exponentials go through
// f64.MathExpTo, math.Exp's bits eight at a time: entry for entry the
// operations of the one-at-a-time loop (TestMatrixIsTheScalarLoop).
func (e *avgPermEval) matrix(m, u, w, tmp []float64) float64 {
	d := e.d
	m = m[:d*d]
	var lsum float64
	var dead uint32 // rows whose every entry underflows
	for i, a := range u[:d] {
		r := m[i*d : i*d+d]
		top := math.Inf(-1)
		for j, b := range w[:d] {
			t := a - b
			l := -0.5 * t * t
			r[j] = l
			top = max(top, l)
		}
		if math.IsInf(top, -1) {
			// Every entry underflows (|a − b|/ℓ overflows): perm(M) = 0.
			dead |= 1 << i
			clear(r)
			continue
		}
		lsum += top
		for j := range r {
			r[j] -= top
		}
	}
	f64.MathExpTo(m, m)
	if e.signed {
		tmp = tmp[:d*d]
		for i, a := range u[:d] {
			for j, b := range w[:d] {
				tmp[i*d+j] = -2 * (a * b)
			}
		}
		f64.MathExpTo(tmp, tmp)
		for k, v := range tmp {
			m[k] *= 0.5 + 0.5*v
		}
	}
	for i := range d {
		if dead&(1<<i) != 0 {
			clear(m[i*d : i*d+d])
		}
	}
	return lsum
}

//go:generate go run gen_permanent.go

// permanent returns perm(m) (d×d, non-negative) by the subset recursion
// f(S) = Σ_{j∈S} m_{|S|−1, j}·f(S∖{j}), using f (length 2^d) as scratch.
// Each product is rounded before it is added (float64(·)), so no build
// fuses it into a multiply-add and permanentUnrolled, written the same
// way, gives these bits under any GOAMD64.
func permanent(m []float64, d int, f []float64) float64 {
	f[0] = 1
	for s := 1; s < 1<<d; s++ {
		r := m[(bits.OnesCount(uint(s))-1)*d:]
		var acc float64
		for t := uint(s); t != 0; t &= t - 1 {
			j := bits.TrailingZeros(t)
			acc += float64(r[j] * f[s&^(1<<j)])
		}
		f[s] = acc
	}
	return f[1<<d-1]
}

// permMinors fills pm (d×d) with perm(m minor ij) (row i and column j
// removed) from the forward recursion f (permanent's) and the backward
// one b (b(S) = perm of rows |S|…d−1 on the columns outside S), each of
// length 2^d. Every product is rounded before it is added (float64(·),
// as in permanent), so no build fuses it into a multiply-add:
// permMinorsUnrolled, written the same way, gives these bits under any
// GOAMD64.
func permMinors(pm, m []float64, d int, f, b []float64) {
	permanent(m, d, f)
	full := 1<<d - 1
	b[full] = 1
	for s := full - 1; s >= 0; s-- {
		r := m[bits.OnesCount(uint(s))*d:]
		var acc float64
		for t := uint(full &^ s); t != 0; t &= t - 1 {
			j := bits.TrailingZeros(t)
			acc += float64(r[j] * b[s|1<<j])
		}
		b[s] = acc
	}
	clear(pm[:d*d])
	for s := 0; s < full; s++ {
		r := pm[bits.OnesCount(uint(s))*d:]
		fs := f[s]
		for t := uint(full &^ s); t != 0; t &= t - 1 {
			j := bits.TrailingZeros(t)
			r[j] += float64(fs * b[s|1<<j])
		}
	}
}

func (e *avgPermEval) gradLen() int { return 2*e.d + 2*e.d*e.d + 2<<e.d }

// grad is v/d!·e^{Σm}·Σ_j M̃_ij·perm(M̃ minor ij)·c_ij (see the file
// comment). scratch holds gradLen() floats.
func (e *avgPermEval) grad(dst, x, y, scratch []float64) {
	d := e.d
	u, w := scratch[:d], scratch[d:2*d]
	m := scratch[2*d : 2*d+d*d]
	pm := scratch[2*d+d*d : 2*d+2*d*d]
	f := scratch[2*d+2*d*d : 2*d+2*d*d+1<<d]
	b := scratch[2*d+2*d*d+1<<d : 2*d+2*d*d+2<<d]
	e.scaled(u, x)
	e.scaled(w, y)
	lsum := e.matrix(m, u, w, pm)
	if d >= 2 && d <= maxUnrolled {
		permMinorsUnrolled(pm, m, d)
	} else {
		permMinors(pm, m, d, f, b)
	}
	c := e.scale * math.Exp(lsum)
	inv2 := e.il * e.il
	for i, xi := range x[:d] {
		var acc float64
		for j, yj := range y[:d] {
			cij := yj - xi
			if e.signed {
				cij = yj*math.Tanh(xi*yj*inv2) - xi
			}
			acc += m[i*d+j] * pm[i*d+j] * cij
		}
		dst[i] = c * acc * inv2
	}
}
