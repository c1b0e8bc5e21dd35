package kernel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/symbo/symbo/orbit"
	"gonum.org/v1/gonum/mat"
)

// rowKernels returns kernels whose evaluators are row evaluators, one per
// closed-form path.
func rowKernels(t *testing.T) map[string]*orbitKernel {
	t.Helper()
	ks := map[string]*orbitKernel{}
	add := func(name string, k *orbitKernel, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := k.ev.(rowEvaluator); !ok {
			t.Fatalf("%s: %T is not a rowEvaluator", name, k.ev)
		}
		ks[name] = k
	}
	h5, _ := orbit.Hyperoctahedral(5)
	h3, _ := orbit.Hyperoctahedral(3)
	p4, _ := orbit.Permutation(4)
	s6, _ := orbit.SignFlip(6)
	c5, _ := orbit.Cyclic(5)
	r2, _ := orbit.Rotation2D()
	sc, _ := orbit.Scaling([]float64{0.5, 0.5}, []float64{2, 2})
	for _, s := range []Shape{RBF, Matern12, Matern32, Matern52} {
		p := Params{Shape: s, Variance: 1.7, Lengthscale: 0.8}
		b, err := NewBase(p, 3)
		add(fmt.Sprintf("base/%s", s), &b.orbitKernel, err)
		for _, g := range []orbit.Group{h5, p4, c5, r2, sc} {
			k, err := newOrbitKernel(p, g, Options{}, true)
			add(fmt.Sprintf("max/%s/%s", g.Name(), s), k, err)
		}
	}
	for _, s := range []Shape{RBF, Matern32} {
		p := Params{Shape: s, Variance: 1.7, Lengthscale: 0.8}
		k, err := newOrbitKernel(p, r2, Options{Quadrature: 16}, false)
		add(fmt.Sprintf("avg/rotation2d/%s", s), k, err)
	}
	p := Params{Shape: RBF, Variance: 1.7, Lengthscale: 0.8}
	for _, g := range []orbit.Group{h5, h3, p4, s6} {
		k, err := newOrbitKernel(p, g, Options{}, false)
		add(fmt.Sprintf("avg/%s", g.Name()), k, err)
	}
	// Groups on some coordinates: the inner closed form's rows times the
	// factors over the other coordinates (embedRowEval).
	for _, e := range []struct {
		in     orbit.Group
		d      int
		coords []int
	}{{p4, 7, []int{5, 1, 3, 6}}, {h3, 5, []int{4, 0, 2}}, {r2, 4, []int{3, 1}}, {s6, 6, []int{0, 1, 2, 3, 4, 5}}} {
		g, err := orbit.OnCoords(e.in, e.d, e.coords)
		if err != nil {
			t.Fatal(err)
		}
		k, err := newOrbitKernel(p, g, Options{}, false)
		add(fmt.Sprintf("avg/%s", g.Name()), k, err)
	}
	return ks
}

func rowPoints(n, d int, seed uint64) *mat.Dense {
	r := rand.New(rand.NewPCG(seed, 7))
	x := mat.NewDense(n, d, nil)
	for i := range n {
		for j := range d {
			x.Set(i, j, 1.5*r.NormFloat64())
		}
	}
	return x
}

// TestRowsMatchColumns: Gram and cross assembly through contiguous rows
// (one and several workers, several tiles) give, bit for bit, the value of
// column for every pair (pairValue), and the diagonal is DiagTo's.
func TestRowsMatchColumns(t *testing.T) {
	for name, k := range rowKernels(t) {
		re := k.ev.(rowEvaluator)
		const n, m = 23, crossTile + 37
		x, y := rowPoints(n, k.d, 1), rowPoints(m, k.d, 2)
		s := make([]float64, pairLen(k.ev))
		diag, err := k.DiagTo(nil, x)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range []int{1, 3} {
			var g mat.SymDense
			resizeSym(&g, n)
			gramRows(re, w, &g, x, n, k.p.Variance, k.diagIsV)
			var c mat.Dense
			resizeDense(&c, n, m)
			crossRows(re, w, &c, x, y, n, m)
			bad := 0
			for i := range n {
				if got := g.At(i, i); math.Float64bits(got) != math.Float64bits(diag[i]) {
					t.Errorf("%s w=%d: gram(%d,%d) = %v, DiagTo %v", name, w, i, i, got, diag[i])
				}
				for j := i + 1; j < n; j++ {
					want := pairValue(k.ev, row(x, i), row(x, j), s)
					if got := g.At(i, j); math.Float64bits(got) != math.Float64bits(want) && bad < 3 {
						bad++
						t.Errorf("%s w=%d: gram(%d,%d) = %v, column %v", name, w, i, j, got, want)
					}
				}
				for j := range m {
					want := pairValue(k.ev, row(x, i), row(y, j), s)
					if got := c.At(i, j); math.Float64bits(got) != math.Float64bits(want) && bad < 3 {
						bad++
						t.Errorf("%s w=%d: cross(%d,%d) = %v, column %v", name, w, i, j, got, want)
					}
				}
			}
		}
	}
}

// BenchmarkAvgPermRow times one row of 64 pairs of the hyperoctahedral(5)
// k_avg closed form (avgPermEval.row).
func BenchmarkAvgPermRow(b *testing.B) {
	const m = 64
	e := newAvgPermEval(Params{Shape: RBF, Variance: 1, Lengthscale: 1}, 5, true)
	x := rowPoints(m+1, 5, 3)
	xl := e.xLen()
	px := make([]float64, (m+1)*xl)
	prepAll(px, e, x, m+1)
	out := make([]float64, m)
	scr := make([]float64, e.rowLen())
	for b.Loop() {
		e.row(out, px[:xl], px[xl:], m, scr)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*m), "ns/pair")
}

// TestAvgPermPairs checks avgPermEval.pairs (the factored form and the
// difference form with unscaled and row-scaled exponents, batched, so on
// both sides of the factoredMax guard) against v/d!·e^{Σm}·perm(M̃) with
// M̃ from matrix (math.Exp) and the permanent by expansion, relative
// 1e−13, and that all three paths are exercised; it logs the worst error
// of the factored form.
func TestAvgPermPairs(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, signed := range []bool{false, true} {
		for d := 1; d <= 7; d++ {
			factored, unscaled, scaled := 0, 0, 0
			var worstFactored float64
			for _, ell := range []float64{5, 2, 1.5, 1, 0.6, 0.3, 0.1, 0.03} {
				e := newAvgPermEval(Params{Shape: RBF, Variance: 1.3, Lengthscale: ell}, d, signed)
				xl := e.xLen()
				const nw = 11 // more than one batch
				x := rowPoints(1, d, r.Uint64())
				y := rowPoints(nw, d, r.Uint64())
				px := make([]float64, xl)
				py := make([]float64, nw*xl)
				e.prepX(px, x.RawRowView(0))
				prepAll(py, e, y, nw)
				out := make([]float64, nw)
				e.row(out, px, py, nw, make([]float64, e.rowLen()))
				m := make([]float64, d*d)
				u, w := make([]float64, d), make([]float64, d)
				for j := range nw {
					isF := e.factored(px, py[j*xl:(j+1)*xl])
					if isF {
						factored++
					} else if mu := px[d] + py[j*xl+d]; float64(d)*mu*mu <= 2*unscaledMax {
						unscaled++
					} else {
						scaled++
					}
					e.scaled(u, x.RawRowView(0))
					e.scaled(w, y.RawRowView(j))
					lsum := e.matrix(m, u, w, make([]float64, d*d))
					want := e.scale * permExpand(m, d) * math.Exp(lsum)
					if want < 1e-290 {
						continue
					}
					if isF {
						worstFactored = max(worstFactored, math.Abs(out[j]-want)/want)
					}
					if got := out[j]; math.Abs(got-want) > 1e-13*want {
						t.Errorf("signed=%v d=%d ℓ=%g pair %d: %v, want %v (rel %.2g)", signed, d, ell, j, got, want, math.Abs(got-want)/want)
					}
				}
			}
			if factored == 0 || unscaled == 0 || scaled == 0 {
				t.Errorf("signed=%v d=%d: factored %d, unscaled %d, scaled %d pairs: a path is not exercised", signed, d, factored, unscaled, scaled)
			}
			t.Logf("signed=%v d=%d: factored form worst relative error %.2g (%d pairs)", signed, d, worstFactored, factored)
		}
	}
}

// BenchmarkFeatureRow times one row of 1000 pairs of the closed-form k_max
// over hyperoctahedral(5) (featureEval.row: canonical features, d = 5).
func BenchmarkFeatureRow(b *testing.B) {
	const m = 1000
	g, _ := orbit.Hyperoctahedral(5)
	for _, s := range []Shape{RBF, Matern52} {
		k, err := newOrbitKernel(Params{Shape: s, Variance: 1, Lengthscale: 1}, g, Options{}, true)
		if err != nil {
			b.Fatal(err)
		}
		e := k.ev.(rowEvaluator)
		xl := e.xLen()
		px := make([]float64, (m+1)*xl)
		prepAll(px, e, rowPoints(m+1, 5, 3), m+1)
		out := make([]float64, m)
		b.Run(s.String(), func(b *testing.B) {
			for b.Loop() {
				e.row(out, px[:xl], px[xl:], m, nil)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*m), "ns/pair")
		})
	}
}

// TestAvgPermRowStream: row, which streams the factored pairs of a row
// into the lanes of f64.ExpPermanent8 across batch boundaries and gathers
// the difference-form ones, gives for every row length and mix of the two
// forms the bits of pairs evaluated one at a time.
func TestAvgPermRowStream(t *testing.T) {
	for _, signed := range []bool{false, true} {
		for _, d := range []int{2, 5, 6} {
			forms := [2]int{}
			for _, ell := range []float64{2, 0.8, 0.5} {
				e := newAvgPermEval(Params{Shape: RBF, Variance: 1.3, Lengthscale: ell}, d, signed)
				xl := e.xLen()
				const n = 42
				px := make([]float64, n*xl)
				prepAll(px, e, rowPoints(n, d, uint64(d)), n)
				scr := make([]float64, e.rowLen())
				one := make([]float64, 1)
				for m := 1; m < n; m++ {
					out := make([]float64, m)
					e.row(out, px[:xl], px[xl:(m+1)*xl], m, scr)
					for j := range m {
						w := px[(j+1)*xl : (j+2)*xl]
						if e.factored(px[:xl], w) {
							forms[0]++
						} else {
							forms[1]++
						}
						e.pairs(one, px[:xl], w, 0, scr)
						if math.Float64bits(out[j]) != math.Float64bits(one[0]) {
							t.Fatalf("signed=%v d=%d ℓ=%g m=%d pair %d: row %v, alone %v", signed, d, ell, m, j, out[j], one[0])
						}
					}
				}
			}
			if forms[0] == 0 || forms[1] == 0 {
				t.Errorf("signed=%v d=%d: factored %d, difference %d pairs: a form is not exercised", signed, d, forms[0], forms[1])
			}
		}
	}
}

// TestGramTriMatchesPairs: the triangle stream of a triEvaluator (pairs
// packed into lanes across row boundaries, one worker and several, and
// blocks of rows split anywhere) gives every upper-triangle entry and the
// diagonal with the bits of pairValue (hence DiagTo's diagonal), for both
// forms of the k_avg closed form.
func TestGramTriMatchesPairs(t *testing.T) {
	tested := 0
	for name, k := range rowKernels(t) {
		te, ok := k.ev.(triEvaluator)
		if !ok || k.diagIsV {
			continue
		}
		tested++
		const n = 47 // 1128 pairs: three blocks of triPairs
		for _, ell := range []float64{0.8, 0.4} {
			p := k.p
			p.Lengthscale = ell
			var ev evaluator = te
			if ae, ok := te.(*avgPermEval); ok {
				ev = newAvgPermEval(p, ae.d, ae.signed)
			}
			te := ev.(triEvaluator)
			x := rowPoints(n, k.d, 3)
			s := make([]float64, pairLen(ev))
			want := make([]float64, n*n)
			for i := range n {
				for j := i; j < n; j++ {
					want[i*n+j] = pairValue(ev, row(x, i), row(x, j), s)
				}
			}
			check := func(what string, got []float64, stride int) {
				t.Helper()
				for i := range n {
					for j := i; j < n; j++ {
						if g := got[i*stride+j]; math.Float64bits(g) != math.Float64bits(want[i*n+j]) {
							t.Fatalf("%s ℓ=%g %s: (%d,%d) = %v, pairValue %v", name, ell, what, i, j, g, want[i*n+j])
						}
					}
				}
			}
			for _, w := range []int{1, 3} {
				var g mat.SymDense
				resizeSym(&g, n)
				gramTri(te, w, &g, x, n)
				raw := g.RawSymmetric()
				check(fmt.Sprintf("gramTri w=%d", w), raw.Data, raw.Stride)
			}
			xl := te.xLen()
			px := make([]float64, n*xl)
			prepAll(px, te, x, n)
			scr := make([]float64, te.rowLen())
			out := make([]float64, n*n)
			for _, cut := range [][]int{{0, 1, 2, 3, 5, 8, 13, 21, 34, n}, {0, 46, n}} {
				clear(out)
				for b := range len(cut) - 1 {
					te.tri(out, n, px, n, cut[b], cut[b+1], scr)
				}
				check(fmt.Sprint("tri blocks ", cut), out, n)
			}
		}
	}
	if tested < 3 {
		t.Errorf("%d triangle evaluators tested, want the 3 permanent k_avg ones", tested)
	}
}

// BenchmarkGramTri times the hyperoctahedral(5) k_avg Gram through gramTri
// on one worker and on two (blocks of triPairs pairs), to place the serial
// threshold.
func BenchmarkGramTri(b *testing.B) {
	e := newAvgPermEval(Params{Shape: RBF, Variance: 1, Lengthscale: 1}, 5, true)
	for _, n := range []int{55, 110, 220, 440} {
		x := rowPoints(n, 5, 3)
		for _, w := range []int{1, 2} {
			b.Run(fmt.Sprintf("n=%d/w=%d", n, w), func(b *testing.B) {
				var g mat.SymDense
				resizeSym(&g, n)
				for b.Loop() {
					gramTri(e, w, &g, x, n)
				}
			})
		}
	}
}
