package kernel_test

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/symbo/symbo/internal/errclass"
	"github.com/symbo/symbo/internal/testdepth"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/orbit"
	"gonum.org/v1/gonum/mat"
)

// refKappa is κ(u) written independently of the package (math.Exp, the
// textbook formulas, the limit 0 where the exponential underflows).
func refKappa(s kernel.Shape, u float64) float64 {
	if math.IsInf(u, 1) {
		return 0
	}
	switch s {
	case kernel.RBF:
		return math.Exp(-u * u / 2)
	case kernel.Matern12:
		return math.Exp(-u)
	case kernel.Matern32:
		a := math.Sqrt(3) * u
		if a > 800 {
			return 0
		}
		return (1 + a) * math.Exp(-a)
	}
	a := math.Sqrt(5) * u
	if a > 800 {
		return 0
	}
	return (1 + a + a*a/3) * math.Exp(-a)
}

// refOrbit returns k_avg and k_max from the single orbit sum and minimum
// over g of the direct squared distances ‖x − g·y‖² (no cancellation),
// scaled by v after the reduction.
func refOrbit(s kernel.Shape, v, l float64, g orbit.Finite, x, y []float64) (avg, mx float64) {
	G := int(g.Order().Int64())
	gy := make([]float64, len(y))
	best := math.Inf(1)
	for a := range G {
		g.ActTo(gy, y, a)
		var d2 float64
		for k := range x {
			t := (x[k] - gy[k]) / l
			d2 += t * t
		}
		best = min(best, d2)
		avg += refKappa(s, math.Sqrt(d2))
	}
	return v * avg / float64(G), v * refKappa(s, math.Sqrt(best))
}

func cross1(t *testing.T, k kernel.Kernel, x, y []float64) float64 {
	t.Helper()
	var dst mat.Dense
	if err := k.CrossTo(&dst, mat.NewDense(1, len(x), x), mat.NewDense(1, len(y), y)); err != nil {
		t.Fatal(err)
	}
	return dst.At(0, 0)
}

func gram(t *testing.T, k kernel.Kernel, rows [][]float64) *mat.SymDense {
	t.Helper()
	d := len(rows[0])
	x := mat.NewDense(len(rows), d, nil)
	for i, r := range rows {
		x.SetRow(i, r)
	}
	var dst mat.SymDense
	if err := kernel.Gram(k, &dst, x); err != nil {
		t.Fatal(err)
	}
	return &dst
}

// TestEnumeratedCancellation: points far from the origin compared with the
// lengthscale. The fused ‖x‖² + ‖y‖² − 2⟨x, g·y⟩ lost every digit (k_max =
// 1 instead of 0.535 for 1e8-scale rows; Matérn k_avg(x, x) = 0.1667
// instead of 0.0739); the guard recomputes such pairs exactly.
func TestEnumeratedCancellation(t *testing.T) {
	testdepth.Once(t)
	g3, _ := orbit.Hyperoctahedral(3)
	g5, _ := orbit.Hyperoctahedral(5)
	pts := map[orbit.Finite][][]float64{
		g3: {{1e8, 1, 0}, {1e8, 2, 0.5}, {-3, 1e7, 2}, {1e150, 1e150, 3}, {1e160, -1e160, 1e-300}, {0.5, -0.25, 2}},
		g5: {{1e8, 1, 0, 2, -3}, {1e8, 2, 0.5, 2, -3}, {1, 2, 3, 4, 5}, {1e200, 1, 2, 3, 4}},
	}
	for g, rows := range pts {
		for _, s := range []kernel.Shape{kernel.RBF, kernel.Matern12, kernel.Matern32, kernel.Matern52} {
			for _, l := range []float64{0.7, 3} {
				p := kernel.Params{Shape: s, Variance: 1, Lengthscale: l}
				for _, isMax := range []bool{false, true} {
					var k kernel.Kernel
					var err error
					if isMax {
						k, err = kernel.NewMax(p, g, kernel.Options{Method: kernel.Enumerate})
					} else {
						k, err = kernel.NewAvg(p, g, kernel.Options{Method: kernel.Enumerate})
					}
					if err != nil {
						t.Fatal(err)
					}
					K := gram(t, k, rows)
					for i, x := range rows {
						for j, y := range rows {
							ra, rm := refOrbit(s, 1, l, g, x, y)
							want := ra
							if isMax {
								want = rm
							}
							got := K.At(i, j)
							if c := cross1(t, k, x, y); math.Abs(c-got) > 1e-15*math.Abs(got) {
								t.Errorf("%s %v max=%v: CrossTo %g ≠ Gram %g", g.Name(), s, isMax, c, got)
							}
							if !(math.Abs(got-want) <= 1e-11) {
								t.Errorf("%s %v ℓ=%g max=%v: k(%v, %v) = %.17g, want %.17g", g.Name(), s, l, isMax, x, y, got, want)
							}
						}
					}
				}
			}
		}
	}
}

// TestExtremeLengthscaleAndDistance: Matérn at r/ℓ ≳ 1.3e154 returned NaN
// (poly·exp = Inf·0); ℓ = 1e−300 made CrossTo(x, x) NaN on the diagonal.
func TestExtremeLengthscaleAndDistance(t *testing.T) {
	for _, s := range []kernel.Shape{kernel.RBF, kernel.Matern12, kernel.Matern32, kernel.Matern52} {
		for _, l := range []float64{kernel.MinLengthscale, 1, kernel.MaxLengthscale} {
			p := kernel.Params{Shape: s, Variance: 2, Lengthscale: l}
			for _, r := range []float64{0, 1e-300, 1, 1e154, 1.3e154, 1e300, math.MaxFloat64} {
				got := p.Kappa(r)
				want := 2 * refKappa(s, r/l)
				if !(math.Abs(got-want) <= 1e-14*2) {
					t.Errorf("%v ℓ=%g: Kappa(%g) = %g, want %g", s, l, r, got, want)
				}
				if d := p.KappaDLog(r); math.IsNaN(d) || math.IsInf(d, 0) {
					t.Errorf("%v ℓ=%g: KappaDLog(%g) = %g", s, l, r, d)
				}
			}
		}
		if _, err := kernel.NewBase(kernel.Params{Shape: s, Variance: 1, Lengthscale: 1e-300}, 2); err == nil {
			t.Errorf("%v: ℓ = 1e-300 accepted", s)
		}
		// A coordinate whose x/ℓ overflows is an error, not a NaN.
		b, _ := kernel.NewBase(kernel.Params{Shape: s, Variance: 1, Lengthscale: kernel.MinLengthscale}, 2)
		var dst mat.Dense
		if err := b.CrossTo(&dst, mat.NewDense(1, 2, []float64{1e300, 0}), mat.NewDense(1, 2, []float64{0, 0})); !errors.Is(err, kernel.ErrBadPoints) {
			t.Errorf("%v: x/ℓ overflowing: error %v, want ErrBadPoints", s, err)
		}
		g, _ := orbit.Hyperoctahedral(2)
		far := [][]float64{{1e154, -1e154}, {-1e154, 3}, {0, 0}, {1.7e158, 1.7e158}}
		for _, m := range []kernel.Method{kernel.Auto, kernel.Enumerate} {
			p := kernel.Params{Shape: s, Variance: 1, Lengthscale: kernel.MinLengthscale}
			base, _ := kernel.NewBase(p, 2)
			mx, _ := kernel.NewMax(p, g, kernel.Options{Method: m})
			avg, err := kernel.NewAvg(p, g, kernel.Options{Method: m})
			if err != nil {
				t.Fatal(err)
			}
			for _, k := range []kernel.Kernel{base, mx, avg} {
				K := gram(t, k, far)
				for i, x := range far {
					for j, y := range far {
						c := cross1(t, k, x, y)
						if math.IsNaN(c) || math.IsNaN(K.At(i, j)) || math.Abs(c-K.At(i, j)) > 1e-15*math.Abs(c) {
							t.Errorf("%v %T %v: k(%v, %v): CrossTo %g, Gram %g", s, k, m, x, y, c, K.At(i, j))
						}
						if i == j && (c == 0) != (k == avg && x[0] != 0) {
							// k(x, x) = v for base and max; avg(x, x) > 0 only at the origin here.
							if k != avg && c != 1 {
								t.Errorf("%v %T: k(x, x) = %g, want 1", s, k, c)
							}
						}
					}
				}
			}
		}
	}
}

// TestClosedAvgHugeVariance: closed k_avg (RBF, hyperoctahedral) with
// variance 1e308 gave +Inf where enumeration gives 7.19e307; avgnorm NaN.
func TestClosedAvgHugeVariance(t *testing.T) {
	testdepth.Once(t)
	for _, d := range []int{2, 3, 5, 7} {
		g, _ := orbit.Hyperoctahedral(d)
		rows := [][]float64{make([]float64, d), make([]float64, d), make([]float64, d)}
		for k := range d {
			rows[0][k] = 0.1 * float64(k+1)
			rows[1][k] = -0.3 * float64(k) * float64(k%2*2-1)
			rows[2][k] = 4
		}
		for _, v := range []float64{1e308, math.MaxFloat64} {
			p := kernel.Params{Shape: kernel.RBF, Variance: v, Lengthscale: 1}
			for _, norm := range []bool{false, true} {
				cl, err := kernel.NewAvg(p, g, kernel.Options{Method: kernel.Closed, Normalize: norm})
				if err != nil {
					t.Fatal(err)
				}
				en, _ := kernel.NewAvg(p, g, kernel.Options{Method: kernel.Enumerate, Normalize: norm})
				Kc, Ke := gram(t, cl, rows), gram(t, en, rows)
				for i := range rows {
					for j := range rows {
						c, e := Kc.At(i, j), Ke.At(i, j)
						if math.IsInf(c, 0) || math.IsNaN(c) || math.Abs(c-e) > 1e-12*v {
							t.Errorf("d=%d v=%g norm=%v: closed %g, enumerated %g", d, v, norm, c, e)
						}
						if x := cross1(t, cl, rows[i], rows[j]); math.Abs(x-c) > 1e-14*math.Abs(c) {
							t.Errorf("d=%d v=%g norm=%v: CrossTo %g ≠ Gram %g", d, v, norm, x, c)
						}
					}
				}
			}
		}
	}
}

// TestRotationSubnormal: rotation2d at (1e−320, 0) gave AlignTo distance
// NaN and k_max/k_plus gradients +Inf/NaN.
func TestRotationSubnormal(t *testing.T) {
	g, _ := orbit.Rotation2D()
	x := []float64{1e-320, 0}
	a := make([]float64, 2)
	for _, y := range [][]float64{{1, 2}, {1e-320, 1e-320}, {0, 0}, {-5e-324, 0}} {
		d2 := g.AlignTo(a, x, y)
		want := math.Pow(math.Hypot(x[0], x[1])-math.Hypot(y[0], y[1]), 2)
		if math.IsNaN(d2) || math.Abs(d2-want) > 1e-15*(1+want) || math.IsNaN(a[0]) || math.IsNaN(a[1]) {
			t.Errorf("AlignTo(%v, %v) = %g at %v, want %g", x, y, d2, a, want)
		}
	}
	p := kernel.Params{Shape: kernel.Matern52, Variance: 1, Lengthscale: 0.5}
	mx, _ := kernel.NewMax(p, g, kernel.Options{})
	design := mat.NewDense(3, 2, []float64{1, 0, 0, 2, 1e-320, 0})
	kp, err := kernel.NewPlus(mx, design, kernel.PlusOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []kernel.Kernel{mx, kp} {
		var dst mat.Dense
		for _, xq := range [][]float64{x, {0, 0}, {-5e-324, 5e-324}} {
			if err := k.(kernel.Gradienter).GradTo(&dst, xq, design); err != nil {
				t.Fatal(err)
			}
			for _, v := range dst.RawMatrix().Data {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					t.Errorf("%T: gradient at %v = %v", k, xq, dst.RawMatrix().Data)
					break
				}
			}
		}
	}
}

// TestQuadratureCap: Quadrature 1<<20 over scaling (and 1<<40 for
// rotation2d) was accepted and never finished.
func TestQuadratureCap(t *testing.T) {
	sc, _ := orbit.Scaling([]float64{0.1, 0.1}, []float64{10, 10})
	rot, _ := orbit.Rotation2D()
	p := kernel.Params{Shape: kernel.Matern52, Variance: 1, Lengthscale: 1}
	for _, c := range []struct {
		g orbit.Group
		q int
	}{{sc, 1 << 20}, {sc, kernel.MaxQuadratureDouble + 1}, {rot, 1 << 40}, {rot, kernel.MaxQuadrature + 1}} {
		if _, err := kernel.NewAvg(p, c.g, kernel.Options{Quadrature: c.q}); !errors.Is(err, kernel.ErrBadOptions) {
			t.Errorf("avg over %s, Quadrature %d: error %v, want ErrBadOptions", c.g.Name(), c.q, err)
		}
	}
	for _, c := range []struct {
		g orbit.Group
		q int
	}{{sc, kernel.MaxQuadratureDouble}, {rot, 4096}} {
		if _, err := kernel.NewAvg(p, c.g, kernel.Options{Quadrature: c.q}); err != nil {
			t.Errorf("avg over %s, Quadrature %d: %v", c.g.Name(), c.q, err)
		}
	}
}

func crossOne(k kernel.Kernel, x, y []float64) (float64, error) {
	var dst mat.Dense
	if err := k.CrossTo(&dst, mat.NewDense(1, len(x), x), mat.NewDense(1, len(y), y)); err != nil {
		return 0, err
	}
	return dst.At(0, 0), nil
}

// TestNilGroupAndKernel: nil and typed-nil groups (the *TrivialGroup
// orbit.Trivial(0) returns with its error) and nil and typed-nil kernels
// (the *Base NewBase returns with its error) are errors, not nil
// dereferences.
func TestNilGroupAndKernel(t *testing.T) {
	tg, _ := orbit.Trivial(0)
	var sf *orbit.SignFlipGroup
	p := kernel.Params{Shape: kernel.Matern52, Variance: 1, Lengthscale: 1}
	x := mat.NewDense(2, 2, []float64{1, 2, 3, 4})
	for _, g := range []orbit.Group{nil, tg, sf} {
		if _, err := kernel.NewAvg(p, g, kernel.Options{}); !errors.Is(err, orbit.ErrInvalid) {
			t.Errorf("NewAvg(%T): error %v, want orbit.ErrInvalid", g, err)
		}
		if _, err := kernel.NewMax(p, g, kernel.Options{}); !errors.Is(err, orbit.ErrInvalid) {
			t.Errorf("NewMax(%T): error %v, want orbit.ErrInvalid", g, err)
		}
		if g != nil {
			var dst mat.SymDense
			if err := kernel.OrbitDist2To(&dst, g, x, kernel.Options{}); !errors.Is(err, orbit.ErrInvalid) {
				t.Errorf("OrbitDist2To(%T): error %v, want orbit.ErrInvalid", g, err)
			}
		}
	}
	var dst mat.SymDense
	if err := kernel.Gram(nil, &dst, x); err == nil {
		t.Error("Gram(nil kernel) accepted")
	}
	b, _ := kernel.NewBase(p, 0)
	for _, k := range []kernel.Kernel{b, (*kernel.Max)(nil), (*kernel.Plus)(nil)} {
		if err := kernel.Gram(k, &dst, x); !errors.Is(err, kernel.ErrBadOptions) {
			t.Errorf("Gram(%T(nil)): error %v, want ErrBadOptions", k, err)
		}
	}
}

// TestNonFiniteIsAnError: where an orbit kernel's float64 arithmetic
// cannot represent its value — the exact scaling k_avg at points whose
// scaled norms overflow, v·Σκ past MaxFloat64 — CrossTo, GramTo, DiagTo and GradTo return
// ErrBadPoints, never a NaN or an infinity with a nil error, and never
// hang: the Matérn-5/2 scaling quadrature once split an unsplittable NaN
// panel forever.
func TestNonFiniteIsAnError(t *testing.T) {
	sc, _ := orbit.Scaling([]float64{1, 1}, []float64{1e150, 1e150})
	rot, _ := orbit.Rotation2D()
	type tc struct {
		name string
		g    orbit.Group
		p    kernel.Params
		m    kernel.Method
		x    []float64
	}
	var cases []tc
	for _, s := range []kernel.Shape{kernel.RBF, kernel.Matern12, kernel.Matern52} {
		cases = append(cases, tc{"scaling " + s.String(), sc, kernel.Params{Shape: s, Variance: 1, Lengthscale: 1}, kernel.Auto, []float64{1e160, 2e160}})
	}
	cases = append(cases,
		tc{"rotation2d enumerated, v = 1e307", rot, kernel.Params{Shape: kernel.RBF, Variance: 1e307, Lengthscale: 1}, kernel.Enumerate, []float64{0, 0}},
	)
	for _, c := range cases {
		done := make(chan struct{})
		go func() {
			defer close(done)
			k, err := kernel.NewAvg(c.p, c.g, kernel.Options{Method: c.m})
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
				return
			}
			errs, _ := onePointErrors(k, c.x, false)
			for what, err := range errs {
				if !errors.Is(err, kernel.ErrBadPoints) {
					t.Errorf("%s: %s: %v, want ErrBadPoints", c.name, what, err)
				}
			}
			var gr mat.Dense
			if err := k.GradTo(&gr, c.x, mat.NewDense(1, 2, c.x)); err == nil && (math.IsNaN(gr.At(0, 0)) || math.IsInf(gr.At(0, 0), 0)) {
				t.Errorf("%s: GradTo %v with a nil error", c.name, gr.At(0, 0))
			}
		}()
		select {
		case <-done:
		case <-time.After(60 * time.Second):
			t.Fatalf("%s: no result in 60 s", c.name)
		}
	}
}

// TestRotationHugeRadii: rotation2d's Matérn k_avg (the M-node rule) at
// radii whose product 4rs overflows gets the right answer, not an error:
// k(x, x) at r = 1e154 or 1e300 (ℓ = 1) is v·κ(0)/M — the ψ = 0 node,
// ρ = |r − s| = 0; every other node is ρ/ℓ ≥ 2r·sin(π/M) away — and
// was ErrBadPoints (0·∞ at that node: "k(x, x') = NaN"), which failed a
// BO step's fit on a box ±1e155 after the initial design was evaluated.
// The gradient at radii whose sum overflows (ℓ = 1) is 0 (every node's
// κ'(u)/u underflows), not ErrBadPoints from 0·∞ at the ψ = π node, which
// failed a BO step's acquisition ascent on a box ±8.98e307.
func TestRotationHugeRadii(t *testing.T) {
	rot, _ := orbit.Rotation2D()
	for _, s := range []kernel.Shape{kernel.Matern12, kernel.Matern32, kernel.Matern52} {
		k, err := kernel.NewAvg(kernel.Params{Shape: s, Variance: 2, Lengthscale: 1}, rot, kernel.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range []float64{1e154, 1e300} {
			x := mat.NewDense(2, 2, []float64{r, 0, 0, -r})
			diag, err := k.DiagTo(nil, x)
			want := 2.0 / kernel.DefaultQuadrature
			if err != nil || diag[0] != want || diag[1] != want {
				t.Errorf("%v: k(x, x) at r = %g: %v, %v; want %v", s, r, diag, err, want)
			}
			var cr mat.Dense
			if err := k.CrossTo(&cr, x, x); err != nil || cr.At(0, 1) != want || cr.At(0, 0) != want {
				t.Errorf("%v: K(x, x) at r = %g: %v, %v; want %v everywhere (one orbit)", s, r, mat.Formatted(&cr), err, want)
			}
		}
		g, err := kernel.NewAvg(kernel.Params{Shape: s, Variance: 1, Lengthscale: 1}, rot, kernel.Options{})
		if err != nil {
			t.Fatal(err)
		}
		y := mat.NewDense(1, 2, []float64{6.709967081936549e+307, -7.551672959362502e+307})
		var gr mat.Dense
		if err := g.GradTo(&gr, []float64{-7.551672959362502e+307, 6.709967081936549e+307}, y); err != nil || gr.At(0, 0) != 0 || gr.At(0, 1) != 0 {
			t.Errorf("%v: ∂k/∂x at radii 1e308, ℓ = 1: %v, %v; want 0", s, gr.RawMatrix().Data, err)
		}
	}
}

// scalingAtScale returns k(x, y_i) and ∂k/∂x (one row per y_i) of the
// exact scaling k_avg (group "scaling" or "scalingdir") on the box [lo,
// hi] at lengthscale ℓ, with the box, the points and ℓ all multiplied by
// the power of two sigma, and the gradient multiplied back by sigma: the
// average is invariant under that rescaling (C(x) and every distance in
// lengthscales are the same, bit for bit, while nothing overflows), so
// the result at a sigma that brings the radii to ordinary sizes is a
// reference for the one at sigma = 1.
func scalingAtScale(t *testing.T, group string, s kernel.Shape, lo, hi []float64, ell float64, x, ys []float64, sigma float64) (val, grad []float64, err error) {
	t.Helper()
	sc := func(v []float64) []float64 {
		out := make([]float64, len(v))
		for i, e := range v {
			out[i] = e * sigma
		}
		return out
	}
	var g orbit.Group
	if group == "scaling" {
		g, err = orbit.Scaling(sc(lo), sc(hi))
	} else {
		g, err = orbit.ScalingDir(sc(lo), sc(hi))
	}
	if err != nil {
		t.Fatal(err)
	}
	k, err := kernel.NewAvg(kernel.Params{Shape: s, Variance: 1, Lengthscale: ell * sigma}, g, kernel.Options{})
	if err != nil {
		t.Fatal(err)
	}
	d := len(x)
	y := mat.NewDense(len(ys)/d, d, sc(ys))
	var cr, gr mat.Dense
	if err := k.CrossTo(&cr, mat.NewDense(1, d, sc(x)), y); err != nil {
		return nil, nil, err
	}
	if err := k.GradTo(&gr, sc(x), y); err != nil {
		return nil, nil, err
	}
	grad = append([]float64(nil), gr.RawMatrix().Data...)
	for i := range grad {
		grad[i] *= sigma
	}
	return cr.RawMatrix().Data, grad, nil
}

// checkScalingRescaled holds the exact scaling k_avg at radii near 1e154
// to the reference scalingAtScale computes at radii 2^−490 times smaller:
// values bit for bit, each gradient row within 1e−12 of its largest entry
// (the rows are of very different sizes: far pairs' are tiny).
func checkScalingRescaled(t *testing.T, name string, s kernel.Shape, lo, hi []float64, ell float64, x, ys []float64) {
	t.Helper()
	for _, group := range []string{"scaling", "scalingdir"} {
		v, g, err := scalingAtScale(t, group, s, lo, hi, ell, x, ys, 1)
		if err != nil {
			t.Errorf("%s, %s %v: %v", name, group, s, err)
			continue
		}
		rv, rg, err := scalingAtScale(t, group, s, lo, hi, ell, x, ys, math.Ldexp(1, -490))
		if err != nil {
			t.Fatalf("%s, %s %v, reference: %v", name, group, s, err)
		}
		d := len(x)
		for i := range v {
			if math.Float64bits(v[i]) != math.Float64bits(rv[i]) {
				t.Errorf("%s, %s %v: k(x, y%d) = %v, rescaled %v", name, group, s, i, v[i], rv[i])
			}
			row, ref := g[i*d:(i+1)*d], rg[i*d:(i+1)*d]
			var m float64
			for _, e := range ref {
				m = max(m, math.Abs(e))
			}
			for k := range row {
				if !(math.Abs(row[k]-ref[k]) <= 1e-12*m) {
					t.Errorf("%s, %s %v: ∂k(x, y%d)/∂x = %v, rescaled %v", name, group, s, i, row, ref)
					break
				}
			}
		}
	}
}

// TestScalingHugeRadiiGrad: the exact scaling k_avg's gradient at radii
// near 1e154 (its quadrature route) equals the same average's at radii
// 2^−490 times smaller with the box and ℓ scaled alike (an exact
// symmetry), for every shape. Its integrand's factor c = Δκ/W, W about
// ‖x‖² in units of length², underflowed for every Δκ below about 1e−3 at
// W ≈ 1e305 (∂k/∂x₀ was 2.8e−194 where it is −1.13e−192, case "far
// pair") and was Δκ/∞ = 0 where ‖e^q·x − y‖² overflowed (a box whose
// sides span 1e5 or more: e^q reaches (hi/lo)²), dropping terms of the
// gradient's own order.
func TestScalingHugeRadiiGrad(t *testing.T) {
	for _, s := range []kernel.Shape{kernel.RBF, kernel.Matern12, kernel.Matern32, kernel.Matern52} {
		checkScalingRescaled(t, "far pair", s,
			[]float64{2.6897977136495035e+149, 1.6677762295100545e+150}, []float64{1.3401930227326979e+153, 1.2352752511622665e+153}, 1e150,
			[]float64{4.529734381074148e+152, 5.142562272390985e+151},
			[]float64{7.007227538421085e+149, 1.3163592455514829e+152, 4.541805120578482e+152, 5.0491149874040885e+151})
		checkScalingRescaled(t, "wide box", s,
			[]float64{1e148, 1e148}, []float64{9e153, 9e153}, 1e150,
			[]float64{2e150, 3e150},
			[]float64{2.2e150, 2.9e150, 5e152, 1e153, 2e150 + 3e150, 3e150 - 1e150})
	}
}

// TestScalingHugeRadiiMatern52: at ℓ = 1 on a box whose corner is about
// 1.1e154 from the origin, the exact scaling k_avg's Matérn-5/2 gradient
// is finite and equals the rescaled reference (checkScalingRescaled); it
// was ErrBadPoints ("∂k(x, y)/∂x = NaN"): K(a) = 1 + a + a²/3 overflows
// past a ≈ 1.3e154 (distances beyond 6e153 lengthscales), and kappaDiff's
// e^{−a}·K(a) was 0·∞, from a corner about 8.5e153 from the origin on.
// The pair (x, x) — listed as (0.2s + 3, 0.7s − 1), which rounds to x —
// was 0 (rescaled alike), where k(x, x) > 0: ℓ = 1 is 1e−153 of the
// orbits' scale, far below what the quadrature resolves (scaleResolve),
// and it is now ErrBadPoints (TestScalingUnresolvableLengthscale); the
// far pairs, this test's subject, are unchanged.
func TestScalingHugeRadiiMatern52(t *testing.T) {
	for _, s := range []float64{8e152, 9e152} {
		lo, hi := []float64{0.1 * s, 0.1 * s}, []float64{10 * s, 10 * s}
		x := []float64{0.2 * s, 0.7 * s}
		ys := []float64{0.5 * s, 0.3 * s, 5 * s, s, 9.9 * s, 0.15 * s}
		for _, sh := range []kernel.Shape{kernel.Matern52, kernel.Matern32, kernel.RBF} {
			checkScalingRescaled(t, "ℓ = 1", sh, lo, hi, 1, x, ys)
			if _, _, err := scalingAtScale(t, "scaling", sh, lo, hi, 1, x, []float64{0.2*s + 3, 0.7*s - 1}, 1); !errors.Is(err, kernel.ErrBadPoints) {
				t.Errorf("ℓ = 1, %v: k(x, x) at radii %g: error %v, want ErrBadPoints", sh, s, err)
			}
		}
	}
}

// TestScalingHugeRadiiPointOrbits: the exact scaling k_avg's gradient
// between point orbits (C(x) a single scaling: x at the box's corner
// (lo₀, hi₁), y just outside the box) at radii near 1e154 equals the
// rescaled reference (checkScalingRescaled). Its factor v/ℓ²·κ'(u)/u·A
// was formed first, 1e−300·κ'(u)/u at ℓ = 1e150, and was subnormal for
// κ'(u)/u below 2e−8 (u ≳ 10): the gradient of a pair 20 lengthscales
// apart kept about five digits.
func TestScalingHugeRadiiPointOrbits(t *testing.T) {
	lo, hi := []float64{1e150, 1e150}, []float64{9e153, 9e153}
	x := []float64{1e150, 9e153}
	ys := []float64{0.7e150, 9e153 + 1.5e151, 0.5e150, 9e153 + 2e151, 0.9e150, 9e153 + 3e150}
	for _, sh := range []kernel.Shape{kernel.RBF, kernel.Matern12, kernel.Matern32, kernel.Matern52} {
		checkScalingRescaled(t, "point orbits", sh, lo, hi, 1e150, x, ys)
	}
}

// TestPlusNonFiniteIsAnError: k_plus at a variance of MaxFloat64 (design
// points far apart at ℓ = 1e-10, so k_max(D, D) = v·I, a finite spectrum
// NewPlus accepts) has ‖φ(x)‖² = v·(1 + ε), past MaxFloat64: CrossTo,
// GramTo and DiagTo wrap ErrBadPoints, as every orbit kernel's do; they
// returned +Inf with a nil error. At 1e308 the values are finite.
func TestPlusNonFiniteIsAnError(t *testing.T) {
	g, _ := orbit.SignFlip(2)
	d := mat.NewDense(3, 2, []float64{0, 0, 1, 0.5, -0.3, 0.7})
	for _, v := range []float64{math.MaxFloat64, 1e308} {
		m, err := kernel.NewMax(kernel.Params{Shape: kernel.RBF, Variance: v, Lengthscale: 1e-10}, g, kernel.Options{})
		if err != nil {
			t.Fatal(err)
		}
		p, err := kernel.NewPlus(m, d, kernel.PlusOptions{})
		if err != nil {
			t.Fatalf("v = %g: %v", v, err)
		}
		x := mat.NewDense(2, 2, []float64{0, 0, 5, 5})
		for _, pts := range []*mat.Dense{d, x} { // the design (cached features) and other points
			var cr mat.Dense
			var sy mat.SymDense
			diag, derr := p.DiagTo(nil, pts)
			errs := map[string]error{"CrossTo": p.CrossTo(&cr, pts, pts), "GramTo": p.GramTo(&sy, pts), "DiagTo": derr}
			for what, err := range errs {
				if v == math.MaxFloat64 && !errors.Is(err, kernel.ErrBadPoints) {
					t.Errorf("v = %g: %s: %v, want ErrBadPoints", v, what, err)
				}
				if v == 1e308 && err != nil {
					t.Errorf("v = %g: %s: %v", v, what, err)
				}
			}
			if v == 1e308 && (diag[0] != 1e308 || cr.At(0, 0) != 1e308 || sy.At(0, 0) != 1e308) {
				t.Errorf("v = %g: diagonal %v, cross %v, Gram %v, want v", v, diag[0], cr.At(0, 0), sy.At(0, 0))
			}
		}
	}
}

// TestInvalidIsInput: parameter and setting errors wrap ErrInvalid, an
// input error, with the message they had ("kernel: variance must be …");
// they were unclassified, hence internal by errclass's rule.
func TestInvalidIsInput(t *testing.T) {
	g, _ := orbit.SignFlip(2)
	good := kernel.Params{Shape: kernel.RBF, Variance: 1, Lengthscale: 1}
	mx, _ := kernel.NewMax(good, g, kernel.Options{})
	for name, err := range map[string]error{
		"variance": func() error {
			_, err := kernel.NewAvg(kernel.Params{Shape: kernel.RBF, Variance: -1, Lengthscale: 1}, g, kernel.Options{})
			return err
		}(),
		"lengthscale": func() error {
			_, err := kernel.NewBase(kernel.Params{Shape: kernel.RBF, Variance: 1, Lengthscale: 1e-300}, 2)
			return err
		}(),
		"dimension": func() error { _, err := kernel.NewBase(good, 0); return err }(),
		"normalize": func() error { _, err := kernel.NewMax(good, g, kernel.Options{Normalize: true}); return err }(),
		"shape":     func() error { _, err := kernel.ParseShape("rbff"); return err }(),
		"reltol": func() error {
			_, err := kernel.NewPlus(mx, mat.NewDense(1, 2, []float64{0, 1}), kernel.PlusOptions{RelTol: 2})
			return err
		}(),
	} {
		if !errors.Is(err, kernel.ErrInvalid) || errclass.Of(err) != errclass.Input || !strings.HasPrefix(err.Error(), "kernel: ") {
			t.Errorf("%s: %v (class %v), want kernel.ErrInvalid, an input error, prefixed \"kernel: \"", name, err, errclass.Of(err))
		}
	}
}

// TestGradNeverNonFinite: Base's and Plus's GradTo returned NaN (0·∞
// where x − y overflows) or +Inf (v = 1e300 over ℓ = 1e-10) with a nil
// error; they are ErrBadPoints now, for every shape, as the orbit
// kernels' are.
func TestGradNeverNonFinite(t *testing.T) {
	for _, s := range []kernel.Shape{kernel.RBF, kernel.Matern12, kernel.Matern32, kernel.Matern52} {
		for _, c := range []struct {
			v, ell float64
			x      float64
			d      []float64
		}{
			{1, 1, 1e308, []float64{-1e308, 0}},
			{1e300, 1e-10, 0.5e-10, []float64{0, 1e-10}},
		} {
			b, err := kernel.NewBase(kernel.Params{Shape: s, Variance: c.v, Lengthscale: c.ell}, 1)
			if err != nil {
				t.Fatal(err)
			}
			y := mat.NewDense(len(c.d), 1, c.d)
			var g mat.Dense
			if err := b.GradTo(&g, []float64{c.x}, y); !errors.Is(err, kernel.ErrBadPoints) {
				t.Errorf("%v base v=%g ℓ=%g: GradTo = %v, %v; want ErrBadPoints", s, c.v, c.ell, g.RawMatrix().Data, err)
			}
			tr, err := orbit.Trivial(1)
			if err != nil {
				t.Fatal(err)
			}
			m, err := kernel.NewMax(kernel.Params{Shape: s, Variance: c.v, Lengthscale: c.ell}, tr, kernel.Options{})
			if err != nil {
				t.Fatal(err)
			}
			p, err := kernel.NewPlus(m, y, kernel.PlusOptions{})
			if err != nil {
				continue // a design whose Gram is beyond range is refused
			}
			var gp mat.Dense
			err = p.GradTo(&gp, []float64{c.x}, y)
			for _, v := range gp.RawMatrix().Data {
				if (math.IsNaN(v) || math.IsInf(v, 0)) && err == nil {
					t.Errorf("%v plus v=%g ℓ=%g: GradTo = %v with a nil error", s, c.v, c.ell, gp.RawMatrix().Data)
					break
				}
			}
		}
	}
}
