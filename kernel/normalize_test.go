package kernel_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/kernel/kerneltest"
	"github.com/symbo/symbo/orbit"
	"gonum.org/v1/gonum/mat"
)

// TestNormalizedAvgBruteForce checks the normalized k_avg over
// hyperoctahedral(2) (Matérn-5/2, ℓ = 4) against a hand-written orbit sum
// over its 8 signed permutations.
func TestNormalizedAvgBruteForce(t *testing.T) {
	const v, ell = 1.3, 4.0
	g, err := orbit.Hyperoctahedral(2)
	must(t, err)
	p := kernel.Params{Shape: kernel.Matern52, Variance: v, Lengthscale: ell}
	m52 := func(r float64) float64 {
		u := math.Sqrt(5) * r / ell
		return (1 + u + u*u/3) * math.Exp(-u)
	}
	elems := func(y []float64) [][2]float64 {
		a, b := y[0], y[1]
		return [][2]float64{{a, b}, {-a, b}, {a, -b}, {-a, -b}, {b, a}, {-b, a}, {b, -a}, {-b, -a}}
	}
	avg := func(x, y []float64) float64 { // unit variance
		s := 0.0
		for _, gy := range elems(y) {
			s += m52(math.Hypot(x[0]-gy[0], x[1]-gy[1]))
		}
		return s / 8
	}
	pts := [][]float64{{0, 0}, {4, 4}, {12, -5}, {0.5, -3}, {-7, 2}}
	// The motivating diagonal: 1 at the fixed point, ≈ 0.33 and 0.14 off it.
	for i, want := range []float64{1, 0.33, 0.14} {
		if got := avg(pts[i], pts[i]); math.Abs(got-want) > 0.01 {
			t.Errorf("a(x%d, x%d) = %v, want ≈ %v", i, i, got, want)
		}
	}
	x := mat.NewDense(len(pts), 2, nil)
	for i, q := range pts {
		x.SetRow(i, q)
	}
	for _, method := range []kernel.Method{kernel.Auto, kernel.Enumerate} {
		k, err := kernel.NewAvg(p, g, kernel.Options{Method: method, Normalize: true})
		must(t, err)
		var c mat.Dense
		var gram mat.SymDense
		must(t, k.CrossTo(&c, x, x))
		must(t, k.GramTo(&gram, x))
		for i, a := range pts {
			for j, b := range pts {
				want := v * avg(a, b) / math.Sqrt(avg(a, a)*avg(b, b))
				if got := c.At(i, j); math.Abs(got-want) > 1e-12*v {
					t.Errorf("%s: Cross[%d,%d] = %v, want %v", method, i, j, got, want)
				}
				if got := gram.At(i, j); math.Abs(got-want) > 1e-12*v {
					t.Errorf("%s: Gram[%d,%d] = %v, want %v", method, i, j, got, want)
				}
			}
		}
	}
}

// normCase is a group, base and method for the independent checks.
type normCase struct {
	g      orbit.Group
	p      kernel.Params
	method kernel.Method
}

func normCases(t testing.TB) []normCase {
	var cs []normCase
	for _, g := range testGroups(t) {
		if _, dir := g.(*orbit.ScalingDirGroup); dir {
			continue // k_avg is scaling's (TestScalingDirMaxPSD)
		}
		for _, s := range []kernel.Shape{kernel.RBF, kernel.Matern52} {
			p := kernel.Params{Shape: s, Variance: 1.7, Lengthscale: 0.9}
			if strings.HasPrefix(g.Name(), "scaling") {
				p.Lengthscale = 3
			}
			for _, m := range []kernel.Method{kernel.Auto, kernel.Enumerate} {
				cs = append(cs, normCase{g, p, m})
			}
		}
	}
	return cs
}

// TestNormalizedAvgMatchesAvg checks CrossTo, GramTo and GradTo of the
// normalized k_avg against the unnormalized Avg's CrossTo, DiagTo and
// GradTo, with ∇ₓk(x, x) by central differences of its DiagTo (no use of
// the symmetry identity the implementation relies on).
func TestNormalizedAvgMatchesAvg(t *testing.T) {
	for _, c := range normCases(t) {
		t.Run(fmt.Sprintf("group=%s/base=%s/method=%s", c.g.Name(), c.p.Shape, c.method), func(t *testing.T) {
			a, err := kernel.NewAvg(c.p, c.g, kernel.Options{Method: c.method})
			must(t, err)
			k, err := kernel.NewAvg(c.p, c.g, kernel.Options{Method: c.method, Normalize: true})
			must(t, err)
			if k.Method() != a.Method() || !k.Normalized() || a.Normalized() {
				t.Errorf("Method %v / %v, Normalized %v / %v", k.Method(), a.Method(), k.Normalized(), a.Normalized())
			}
			v := c.p.Variance
			x, y := kerneltest.Points(c.g, 7, 5), kerneltest.Points(c.g, 4, 6)
			n, d := x.Dims()
			m, _ := y.Dims()
			var ax, kx mat.Dense
			must(t, a.CrossTo(&ax, x, y))
			must(t, k.CrossTo(&kx, x, y))
			dx, err := a.DiagTo(nil, x)
			must(t, err)
			dy, err := a.DiagTo(nil, y)
			must(t, err)
			for i := range n {
				for j := range m {
					want := v * ax.At(i, j) / math.Sqrt(dx[i]*dy[j])
					if got := kx.At(i, j); math.Abs(got-want) > 1e-13*v {
						t.Errorf("Cross[%d,%d] = %v, want %v", i, j, got, want)
					}
				}
			}
			var ag, kg mat.SymDense
			must(t, a.GramTo(&ag, x))
			must(t, k.GramTo(&kg, x))
			for i := range n {
				for j := range n {
					want := v * ag.At(i, j) / math.Sqrt(dx[i]*dx[j])
					if got := kg.At(i, j); math.Abs(got-want) > 1e-13*v {
						t.Errorf("Gram[%d,%d] = %v, want %v", i, j, got, want)
					}
				}
			}
			for i := range 2 {
				xi := mat.Row(nil, i, x)
				var agr, kgr mat.Dense
				must(t, a.GradTo(&agr, xi, y))
				must(t, k.GradTo(&kgr, xi, y))
				kxx := dx[i]
				dkxx := make([]float64, d) // ∇ₓk(x, x), central differences
				for q := range d {
					h := 1e-5 * math.Max(1, math.Abs(xi[q]))
					pm := mat.NewDense(2, d, nil)
					pm.SetRow(0, xi)
					pm.SetRow(1, xi)
					pm.Set(0, q, xi[q]+h)
					pm.Set(1, q, xi[q]-h)
					dd, err := a.DiagTo(nil, pm)
					must(t, err)
					dkxx[q] = (dd[0] - dd[1]) / (2 * h)
				}
				for j := range m {
					s := math.Sqrt(kxx * dy[j])
					for q := range d {
						want := v * (agr.At(j, q)/s - ax.At(i, j)*dkxx[q]/(2*kxx*s))
						if got := kgr.At(j, q); math.Abs(got-want) > 1e-6*v+1e-5*math.Abs(want) {
							t.Errorf("∂k(x%d, y%d)/∂x_%d = %v, want %v", i, j, q, got, want)
						}
					}
				}
			}
		})
	}
}

// TestNormalizedAvgWorkers: bit-identical results for Workers 1 and 8
// above the serial threshold.
func TestNormalizedAvgWorkers(t *testing.T) {
	g, err := orbit.Hyperoctahedral(3)
	must(t, err)
	p := kernel.Params{Shape: kernel.Matern52, Variance: 1.1, Lengthscale: 0.7}
	x, y := kerneltest.Points(g, 150, 1), kerneltest.Points(g, 400, 2)
	var gs [2]mat.SymDense
	var cs, gr [2]mat.Dense
	for i, w := range []int{1, 8} {
		k, err := kernel.NewAvg(p, g, kernel.Options{Workers: w, Normalize: true})
		must(t, err)
		must(t, k.GramTo(&gs[i], x))
		must(t, k.CrossTo(&cs[i], x, y))
		must(t, k.GradTo(&gr[i], mat.Row(nil, 0, x), y))
	}
	if !mat.Equal(&gs[0], &gs[1]) || !mat.Equal(&cs[0], &cs[1]) || !mat.Equal(&gr[0], &gr[1]) {
		t.Error("results differ between Workers 1 and 8")
	}
}

// TestNormalizeOnlyAvg: Max (hence Plus) rejects Options.Normalize.
func TestNormalizeOnlyAvg(t *testing.T) {
	g, err := orbit.SignFlip(2)
	must(t, err)
	p := kernel.Params{Shape: kernel.RBF, Variance: 1, Lengthscale: 1}
	if _, err := kernel.NewMax(p, g, kernel.Options{Normalize: true}); err == nil || !strings.HasPrefix(err.Error(), "kernel: ") {
		t.Errorf("NewMax with Normalize: err = %v, want a kernel error", err)
	}
	k, err := kernel.NewAvg(p, g, kernel.Options{Normalize: true})
	must(t, err)
	if k.Method() != kernel.Closed || !k.Normalized() {
		t.Errorf("Method = %v, Normalized %v; want closed, normalized", k.Method(), k.Normalized())
	}
}

// TestNormalizedAvgCache: results do not depend on the diagonal cache's
// state (fresh kernel, warm, after another design, concurrent callers).
func TestNormalizedAvgCache(t *testing.T) {
	g, err := orbit.Hyperoctahedral(3)
	must(t, err)
	p := kernel.Params{Shape: kernel.Matern32, Variance: 0.8, Lengthscale: 0.6}
	x, y, z := kerneltest.Points(g, 1, 1), kerneltest.Points(g, 30, 2), kerneltest.Points(g, 31, 3)
	newK := func() *kernel.Avg {
		k, err := kernel.NewAvg(p, g, kernel.Options{Normalize: true})
		must(t, err)
		return k
	}
	fresh := func(f func(k *kernel.Avg, c, gr *mat.Dense) error) (c, gr mat.Dense) {
		must(t, f(newK(), &c, &gr))
		return c, gr
	}
	op := func(d *mat.Dense) func(k *kernel.Avg, c, gr *mat.Dense) error {
		return func(k *kernel.Avg, c, gr *mat.Dense) error {
			if err := k.CrossTo(c, x, d); err != nil {
				return err
			}
			return k.GradTo(gr, x.RawRowView(0), d)
		}
	}
	cy, gy := fresh(op(y))
	cz, gz := fresh(op(z))
	k := newK()
	var gram mat.SymDense
	must(t, k.GramTo(&gram, y)) // warms the cache with y
	done := make(chan error, 4)
	for w := range 4 {
		go func() {
			for it := range 5 {
				d, wc, wg := y, &cy, &gy
				if (w+it)%2 == 1 {
					d, wc, wg = z, &cz, &gz
				}
				var c, gr mat.Dense
				if err := op(d)(k, &c, &gr); err != nil {
					done <- err
					return
				}
				if !mat.Equal(&c, wc) || !mat.Equal(&gr, wg) {
					done <- fmt.Errorf("worker %d iteration %d: results depend on the cache", w, it)
					return
				}
			}
			done <- nil
		}()
	}
	for range 4 {
		must(t, <-done)
	}
}

// TestGradScratchIsNotStale: the scaling groups' series gradient caches
// x's moments in its scratch under a key; scratch comes from pools, so a
// buffer whose key still matched while the moments beside it had been
// overwritten gave stale gradients — the normalized k_avg over scaling
// gave 5× too small a gradient on its second call with two workers. Each
// call is now the same bits as the first and as a fresh kernel's, with
// one worker and two, plain and normalized, and matches central
// differences of CrossTo.
func TestGradScratchIsNotStale(t *testing.T) {
	for _, d := range []int{2, 3} {
		lo, hi := make([]float64, d), make([]float64, d)
		for i := range lo {
			lo[i], hi[i] = 0.1, 10
		}
		g, err := orbit.Scaling(lo, hi)
		must(t, err)
		rng := rand.New(rand.NewPCG(3, 4))
		y := mat.NewDense(300, d, nil)
		for i := range 300 {
			for j := range d {
				y.Set(i, j, 0.15+9.8*rng.Float64())
			}
		}
		x := []float64{2, 3, 1.5}[:d]
		for _, norm := range []bool{false, true} {
			for _, w := range []int{1, 2} {
				p := kernel.Params{Shape: kernel.RBF, Variance: 1, Lengthscale: 1.3}
				opts := kernel.Options{Normalize: norm, Workers: w}
				k, err := kernel.NewAvg(p, g, opts)
				must(t, err)
				var first mat.Dense
				must(t, k.GradTo(&first, x, y))
				for call := 1; call < 4; call++ {
					// Other work in between, through the same pools.
					var c mat.Dense
					must(t, k.CrossTo(&c, y, y))
					var gr mat.Dense
					must(t, k.GradTo(&gr, x, y))
					if !mat.Equal(&gr, &first) {
						t.Fatalf("d=%d normalize=%v workers=%d: call %d's gradient differs from the first: %v against %v", d, norm, w, call, gr.RawRowView(0), first.RawRowView(0))
					}
				}
				// Central differences of k(·, y_0) in x_0.
				const h = 1e-6
				y0 := mat.NewDense(1, d, mat.Row(nil, 0, y))
				xp, xm := append([]float64(nil), x...), append([]float64(nil), x...)
				xp[0] += h
				xm[0] -= h
				var cp, cm mat.Dense
				must(t, k.CrossTo(&cp, mat.NewDense(1, d, xp), y0))
				must(t, k.CrossTo(&cm, mat.NewDense(1, d, xm), y0))
				fd := (cp.At(0, 0) - cm.At(0, 0)) / (2 * h)
				if got := first.At(0, 0); math.Abs(got-fd) > 1e-6*math.Max(1, math.Abs(fd)) {
					t.Errorf("d=%d normalize=%v workers=%d: ∂k/∂x_0 = %v, central difference %v", d, norm, w, got, fd)
				}
			}
		}
	}
}

// TestNormalizedUnderflowReachable: the underflow the package doc names is
// reached through the API — signflip(2) at v = 5e−324 (v/|G| rounds to 0)
// and rotation2d's Bessel form at v = 1e−300, ℓ = 1e−150 — and is
// ErrBadPoints from CrossTo and GramTo, never an Inf or NaN. (The doc said
// it was not reachable for the groups here.)
func TestNormalizedUnderflowReachable(t *testing.T) {
	sf, err := orbit.SignFlip(2)
	must(t, err)
	rot, err := orbit.Rotation2D()
	must(t, err)
	x := mat.NewDense(2, 2, []float64{0.5, 1.5, -2, 0.3})
	for _, c := range []struct {
		g    orbit.Group
		v, l float64
	}{{sf, 5e-324, 1}, {rot, 1e-300, 1e-150}} {
		k, err := kernel.NewAvg(kernel.Params{Shape: kernel.RBF, Variance: c.v, Lengthscale: c.l}, c.g, kernel.Options{Normalize: true})
		must(t, err)
		var d mat.Dense
		var s mat.SymDense
		if err := k.CrossTo(&d, x, x); !errors.Is(err, kernel.ErrBadPoints) {
			t.Errorf("%s, v = %g, ℓ = %g: CrossTo err = %v, want ErrBadPoints", c.g.Name(), c.v, c.l, err)
		}
		if err := k.GramTo(&s, x); !errors.Is(err, kernel.ErrBadPoints) {
			t.Errorf("%s, v = %g, ℓ = %g: GramTo err = %v, want ErrBadPoints", c.g.Name(), c.v, c.l, err)
		}
	}
}
